# SPDX-License-Identifier: MIT
"""A run driven from the host, in lockstep: send input, expect the
guest's answers, measure each step, with the same numbers on every run.

    with Session(RunConfig(Target("shell.elf", board), cycles=True,
                           profile=EXACT)) as dut:
        dut.expect("> ")
        with dut.step("fib") as step:
            dut.send_line("fib 20")
            dut.expect(r"fib\\(20\\) = (\\d+)")
        assert step.cycles <= 5000
        assert step.counts["calls"] <= 1100     # every event, per step
        hottest = max(step.functions(), key=lambda f: f.self)
        dut.counts()["loads"]       # every event so far, at any point
    dut.result.exit_code

The console UART (or another) is QEMU's perfctr-serial backend with a
controller: the guest waits, nothing running, at its start, after every
byte it sends that could complete expect()'s match (match_ends: the
pattern's possible last bytes, or any) and at the virtual deadlines of
expect(), until the Session lets it go on.  So what the host does
between two calls takes no virtual time, every byte sent is delivered
from the point where the guest waited (in virtual time: a character
time apart, when the UART has room), and an expect() ends at the byte
that completed its match: each step is counted exactly, whatever the
host's speed.
"""

import codecs
import json
import re
import socket
import struct
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from perfcounter.boot import (SESSION, collect, launch, match_ends,
                              qemu_process)
from perfcounter.boot.config import Serial
from perfcounter.boot.signals import StopRequest
from perfcounter.build import qemu as qemu_build
from perfcounter.errors import Failure
from perfcounter.results import events, functions, plugin_results, \
    readout, stacks

# The controller protocol (qemu-device/chardev/char-perfctr-serial.c)
_HEAD = struct.Struct("<cI")
_POSITION = struct.Struct("<QQQ")
_GO = struct.Struct("<QB")
_COUNTS = struct.Struct("<I" + "Q" * len(events.NAMES))
_EACH_BYTE, _AT_DEADLINE, _AT_BYTES = 0, 1, 2
DEFAULT_HOST_TIMEOUT = 60.0
# How long QEMU has to exit, its exit handlers writing what they counted,
# once told to end the run where the guest waits
END_GRACE = 30.0
# The Armv7-M DWT's control register and counters, from its base
DWT_BASE = 0xE0001000
DWT_REGISTERS = ("ctrl", "cyccnt", "cpicnt", "exccnt", "sleepcnt", "lsucnt",
                 "foldcnt")


class ExpectTimeout(Failure):
    """The guest did not print what was expected in time (virtual or
    host): the output it printed since is in the message."""


class GuestEnded(Failure):
    """The run ended while a pattern was expected."""


@dataclass(frozen=True)
class Position:
    """Where the guest is: virtual ns, retired instructions, estimated
    cycles (0 without --cycles)."""
    ns: int = 0
    instructions: int = 0
    cycles: int = 0


@dataclass
class Step:
    """A named span of the run, from where the guest waited when it
    began to where it waited when it ended: what ran between, exactly.

    counts: {event: count} of every event the CPU's counters count
    (events.NAMES: loads, stores, branches, calls, exceptions...) in the
    span; profile: the plugin's results of the span (PluginResults:
    its histogram, call stacks, cycles per function), None when the run
    has no profile and no --cycles."""
    name: str
    start: Position
    end: Position = None
    counts: dict = None
    profile: plugin_results.PluginResults = None
    config: object = None       # the run's RunConfig (names, windows)

    @property
    def instructions(self):
        return self.end.instructions - self.start.instructions

    @property
    def cycles(self):
        return self.end.cycles - self.start.cycles

    @property
    def ns(self):
        return self.end.ns - self.start.ns

    @property
    def seconds(self):
        return self.ns / 1e9

    @property
    def target(self):
        return self.config.target

    @property
    def plugin(self):
        return self.profile

    def functions(self):
        """[functions.Function] of each function that ran in the step:
        its own and total counts, calls, estimated cycles (what --json
        gives a whole run); [] without a profile."""
        return functions.table(self) if self.profile else []

    def stacks(self):
        """{"a;b;c": count}: the step's collapsed call stacks."""
        if not self.profile or not self.profile.profiled:
            return {}
        return stacks.collapse(self.profile, self.target)


class _StepContext:
    def __init__(self, session, name):
        self.session = session
        self.name = name
        self.step = None

    def __enter__(self):
        at, self._counts, self._profile = self.session._snapshot()
        self.step = Step(self.name, at, config=self.session.config)
        return self.step

    def __exit__(self, kind, *exc):
        if kind is not None:
            # The step failed (the guest may have ended): where it got to
            self.step.end = self.session.position
            self.session.steps.append(self.step)
            return
        self.step.end, counts, profile = self.session._snapshot()
        self.step.counts = {name: counts[name] - self._counts.get(name, 0)
                            for name in counts}
        if profile and self._profile:
            self.step.profile = plugin_results.between(self._profile,
                                                       profile)
        self.session.steps.append(self.step)


class Session:
    """Boot config's target with a UART (the board's console by default)
    driven from here; see the module's documentation.

    qemu: a built QEMU (built if need be); workdir: where the run's
    files go (a temporary directory by default); host_timeout: how long
    expect() waits in host seconds, whatever the virtual timeout.
    """

    def __init__(self, config, qemu=None, uart=None, workdir=None,
                 host_timeout=DEFAULT_HOST_TIMEOUT, verbose=False):
        self.uart = config.board.console_uart if uart is None else uart
        self._sockets = tempfile.TemporaryDirectory(prefix="pc-")
        control = Path(self._sockets.name) / "uart.sock"
        self.config = config.replace(
            serials=tuple(s for s in config.serials if s.uart != self.uart)
            + (Serial(self.uart, control=control),),
            qmp=config.qmp or Path(self._sockets.name) / "qmp.sock")
        self.config.validate()
        self.qemu = qemu or qemu_build.ensure_built()
        self._own_workdir = None
        if workdir is None:
            self._own_workdir = tempfile.TemporaryDirectory()
            workdir = self._own_workdir.name
        self.workdir = Path(workdir)
        self.host_timeout = host_timeout
        self.verbose = verbose
        self.output = ""            # what the UART sent, decoded
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._searched = 0          # expect() looks from here on
        self.steps = []
        self.position = Position()
        self.result = None
        self._snapshots = 0
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(control))
        self._listener.listen(1)
        self._conn = None
        # the guest waits for a word of ours (it reads an 'X' only then)
        self._waits = True
        self._stop = StopRequest()
        self._exited = None
        self._thread = None
        self._started = None
        self._qmp = None

    # Running

    def start(self):
        """Boot: returns once the guest waits at its first instruction."""
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._listener.settimeout(self.host_timeout)
        try:
            self._conn, _ = self._listener.accept()
        except OSError:     # timed out, or QEMU ended first (_run)
            self._thread.join()
            raise Failure(f"QEMU did not start the guest: "
                          f"{self._exited.first_error if self._exited else ''}"
                          ) from None
        finally:
            self._listener.close()
        kind, _ = self._read_frame()
        if kind != b"S":
            raise Failure(f"the UART's backend said {kind!r}, not its start")
        return self

    def _run(self):
        try:
            self._exited = launch(self.config, self.qemu, self.workdir,
                                  verbose=self.verbose, stop=self._stop)
        finally:
            if self._conn is None:
                # (shut down, not only closed: that wakes start()'s
                # accept(), which a close leaves waiting its timeout)
                try:
                    self._listener.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass        # start() has closed it
                self._listener.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        if self.result is None:
            self.stop()
        self.close()

    def close(self):
        """Remove the run's temporary files (after stop() or wait())."""
        if self._qmp:
            self._qmp.close()
            self._qmp = None
        if self._own_workdir:
            self._own_workdir.cleanup()
            self._own_workdir = None
        self._sockets.cleanup()

    # The protocol

    def _read_exact(self, n, host_timeout):
        data = b""
        self._conn.settimeout(host_timeout)
        while len(data) < n:
            try:
                chunk = self._conn.recv(n - len(data))
            except socket.timeout:
                raise ExpectTimeout(
                    f"no word from the guest in {host_timeout:g} s of host "
                    f"time; it printed since: {self._pending()!r}") from None
            except ConnectionResetError:
                chunk = b""     # QEMU died with input of ours unread
            if not chunk:
                return None
            data += chunk
        return data

    def _read_frame(self, host_timeout=None):
        """(kind, data) of the next frame, the position updated; (None,
        b"") when the run has ended."""
        head = self._read_exact(_HEAD.size, host_timeout or self.host_timeout)
        if head is None:
            return None, b""
        kind, length = _HEAD.unpack(head)
        body = self._read_exact(length, self.host_timeout) or b""
        self.position = Position(*_POSITION.unpack_from(body))
        data = body[_POSITION.size:]
        if kind == b"O":
            self.output += self._decoder.decode(data)
        return kind, data

    def _send_frame(self, kind, data=b""):
        if self._conn is None:
            raise Failure("the session has not started (start(), or use "
                          "it as a context manager)")
        try:
            self._conn.sendall(_HEAD.pack(kind, len(data)) + data)
        except OSError:
            self._finish()
            raise GuestEnded(f"the run ended ({self._how_it_ended()}); it "
                             f"printed: {self._pending()!r}") from None

    def _go(self, deadline=0, mode=_EACH_BYTE, wait_at=None):
        """Let the guest run (to deadline, virtual ns, if not 0); with
        wait_at (a set of bytes), it waits after printing one of them"""
        self._waits = False
        if wait_at is None:
            self._send_frame(b"G", _GO.pack(deadline, mode))
            return
        bits = bytearray(32)
        for byte in wait_at:
            bits[byte // 8] |= 1 << byte % 8
        self._send_frame(b"G", _GO.pack(deadline, _AT_BYTES) + bits)

    def _pending(self):
        return self.output[self._searched:]

    # What a test calls

    def send(self, data):
        """Queue data (str: UTF-8) for the UART, from where the guest
        waits now; it runs on at the next expect(), run_for() or wait()."""
        if isinstance(data, str):
            data = data.encode()
        self._send_frame(b"I", data)

    write = send

    def send_line(self, text, end="\n"):
        self.send(text + end)

    def expect(self, pattern, timeout=None, host_timeout=None):
        """Run the guest until what it prints after the last expect()
        matches pattern (a regular expression, str or compiled); the
        guest then waits where the match ended.  Returns the re.Match.

        timeout: virtual seconds (the same on every run); host_timeout:
        host seconds (the session's by default).  ExpectTimeout when
        either passes, GuestEnded when the run ends first."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        deadline = self.position.ns + round(timeout * 1e9) if timeout else 0
        # (the guest waits only after a byte a match could end with)
        ends = match_ends.last_bytes(regex)
        waits = True
        while True:
            if waits:
                found = regex.search(self.output, self._searched)
                if found:
                    self._searched = found.end()
                    return found
                self._go(deadline, wait_at=ends)
            kind, data = self._read_frame(host_timeout)
            waits = kind != b"O" or ends is None or not ends.isdisjoint(data)
            self._waits = waits
            if kind is None:
                self._finish()
                raise GuestEnded(
                    f"the run ended ({self._how_it_ended()}) before printing "
                    f"{regex.pattern!r}; it printed: {self._pending()!r}")
            if kind == b"D":
                raise ExpectTimeout(
                    f"{regex.pattern!r} not printed in {timeout:g} s of "
                    f"virtual time; it printed: {self._pending()!r}")

    def expect_exact(self, text, timeout=None, host_timeout=None):
        return self.expect(re.escape(text), timeout, host_timeout)

    def run_for(self, seconds):
        """Let the guest run seconds of virtual time, printing what it
        will; it then waits there."""
        self._go(self.position.ns + round(seconds * 1e9), _AT_DEADLINE)
        while True:
            kind, _ = self._read_frame()
            if kind is None:
                self._finish()
                return
            if kind == b"D":
                self._waits = True
                return

    def step(self, name):
        """A context manager: the Step (instructions, cycles, virtual
        time) from where the guest waits at its start to where it waits
        at its end."""
        return _StepContext(self, name)

    def counts(self):
        """{event: count} of every event the CPU's counters count
        (events.NAMES), from the run's start to where the guest waits
        now: what DWT, PMU or hpm counters programmed at reset to count
        them would read."""
        return self._query()[1]

    def _query(self, results=None):
        """(Position, counts) where the guest waits now; with results (a
        path), the plugin writes its results so far there first."""
        self._send_frame(b"Q", str(results or "").encode())
        while True:
            kind, data = self._read_frame()
            if kind is None:
                self._finish()
                raise GuestEnded(f"the run ended ({self._how_it_ended()}); "
                                 f"it printed: {self._pending()!r}")
            if kind == b"C":
                mask, *counts = _COUNTS.unpack_from(data)
                counts = events.named(mask, counts)
                if self.position.instructions:     # -icount's, not the plugin's
                    counts["instructions"] = self.position.instructions
                return self.position, counts

    def _snapshot(self):
        """(Position, counts, PluginResults or None) where the guest
        waits now: a step's ends."""
        profiled = self.config.profile is not None or self.config.cycles
        if not profiled:
            return (*self._query(), None)
        self._snapshots += 1
        path = self.workdir / f"snapshot-{self._snapshots}.txt"
        at, counts = self._query(path)
        found = plugin_results.read(path)
        path.unlink()
        return at, counts, found

    def _monitor(self):
        from perfcounter.boot import qmp
        if self._thread is not None and not self._thread.is_alive():
            # (not QMP's wait for a socket no QEMU will listen on again)
            self._finish()
            raise GuestEnded(f"the run ended ({self._how_it_ended()}): "
                             f"no QEMU to read from")
        if self._qmp is None:
            self._qmp = qmp.connect(self.config.qmp, wait=self.host_timeout)
        return self._qmp

    def counters(self):
        """Every counter core's readout now (readout.Core, by base), read
        through QMP while the guest waits."""
        from perfcounter.boot import qmp
        return [readout.parse(json.dumps(doc), "QMP")
                for doc in qmp.reports(self._monitor())]

    def read_words(self, address, count=1):
        """count 32-bit words from address as the guest's CPU sees it
        (its private peripherals too: the DWT, the ITM, the counter
        cores), read while the guest waits: what the firmware would
        read there now."""
        text = self._monitor().execute(
            "human-monitor-command",
            **{"command-line": f"x /{count}wx {address:#x}"})
        words = []
        for line in text.splitlines():
            where, colon, values = line.partition(":")
            try:
                int(where, 16)
                words += [int(v, 16) for v in values.split()]
            except ValueError:
                colon = ""
            if not colon:
                raise Failure(f"cannot read {count} words at {address:#x}: "
                              f"{text.strip()}")
        return words[:count]

    def dwt(self):
        """The DWT's registers now ({"ctrl", "cyccnt", "cpicnt",
        "exccnt", "sleepcnt", "lsucnt", "foldcnt"}): what the firmware
        reads, counting from where it enabled them (docs/dwt.md)."""
        if not self.config.board.dwt:
            raise Failure(f"{self.config.board.name} has no DWT; counts() "
                          f"gives what its counters count")
        return dict(zip(DWT_REGISTERS, self.read_words(DWT_BASE,
                                                       len(DWT_REGISTERS))))

    def wait(self, host_timeout=None):
        """Let the guest run to its end (its exit or a stop); the Result."""
        if self.result is None:
            self._go(0, _AT_DEADLINE)
            while self._read_frame(host_timeout)[0] is not None:
                pass
            self._finish()
        return self.result

    def stop(self):
        """End the run where the guest waits now (an exact point): the
        Result, stopped_by_session."""
        if self.result is None:
            running = self._thread and self._thread.is_alive()
            if running:
                self._end_here()
            self._finish()
            self.result.stopped_by_session |= bool(running)
        return self.result

    def _end_here(self):
        """Have QEMU exit where the guest waits ('X'): at once, the run
        ended by the session (SIGTERM would end it there too, but as cut
        short by a signal).  SIGTERM still if QEMU does not exit, and at
        once if the guest runs (an expect() cut short: a signal, a
        test's time limit), which reads no 'X' until it waits: it waited
        END_GRACE for an expect() of 1,000 virtual seconds."""
        if not self._waits:
            self._stop.request(SESSION)
            self._thread.join()
            return
        try:
            if self._conn is not None:
                self._conn.sendall(_HEAD.pack(b"X", 0))
        except OSError:
            pass                # QEMU has gone already
        self._thread.join(END_GRACE)
        if self._thread.is_alive():
            self._stop.request(SESSION)

    def _how_it_ended(self):
        """How the run ended, in words (after _finish())."""
        result = self.result
        if result.qemu_died:
            return qemu_process.died_message(result)
        return f"{result.ended}, exit code {result.exit_code}"

    def _finish(self):
        if self.result is not None:
            return
        if self._thread:
            self._thread.join()
        if self._conn:
            self._conn.close()
        if self._exited is None:
            raise Failure("QEMU did not run")
        self.result = collect(self.config, self._exited, self.qemu,
                              self.workdir, self._started)
        # (shared: a step that fails once the run has ended joins it)
        self.result.steps = self.steps
