# SPDX-License-Identifier: MIT
"""Run a QEMU command line (a RunConfig renders it): its output passed
on as it comes, a guest fault told in one line, a host-time timeout."""

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from perfcounter.boot.config import DEFAULT_TIMEOUT
from perfcounter.errors import Failure
from perfcounter.messages import say

TIMEOUT_EXIT = 124
# How long a timed-out QEMU has, after SIGTERM, to run its exit
# notifiers (the cores write their report-file) before SIGKILL
TERM_GRACE = 5
# How long a signal QEMU said ended it has to reach this process's
# handler too (it got it at the same time)
SIGNAL_GRACE = 1.0
# QEMU gets SIGTERM (an orderly shutdown) when the process that runs it
# dies, however it dies (a test runner's SIGKILL), so that no QEMU is
# left running alone: util-linux's setpriv sets that and runs it (a
# preexec_fn doing it made Python fork instead of vfork: 2.5 ms a run)
END_WITH_PARENT = ["setpriv", "--pdeathsig", "TERM"]


@dataclass
class Exited:
    """How a QEMU process ended, and what the guest printed."""
    exit_code: int
    output: str          # the guest's stdout (when captured or kept)
    timed_out: bool
    fault: str = None    # the one-line reason, if the guest faulted
    stopped: str = None  # who cut the run short (SIGTERM..., session)
    first_error: str = None     # QEMU's first line on stderr
    killed: bool = False        # stopped, it outlived TERM_GRACE: SIGKILL
    died_of: str = None  # the signal QEMU itself died of ("SIGKILL")
    # When QEMU's process was started and when it ended, on the host's
    # monotonic clock (time.monotonic(), one clock for every process)
    started_at: float = None
    ended_at: float = None


# What QEMU says when it shuts down on a signal: ours (stop()), or one
# a test runner sent the whole process group
_TERMINATING = re.compile(r": terminating on signal (\d+)\b")
# What has been said already, another way: by the scripts, or by the
# plugin, whose refusal (the line before, naming its cause) QEMU follows
# with a line of its own that suggests the plugin would not load
_SAID = re.compile(r": info: QEMU waiting for connection on: |"
                   r": Could not load plugin \S+: qemu_plugin_install "
                   r"returned error code -?\d+$")
# Where QEMU put a UART served on a pty (on its stdout, among the
# guest's output): said as the scripts say things
_PTY = re.compile(r"^char device redirected to (\S+) \(label (\w+)\)$")


class Relay:
    """Pass a QEMU output stream on as it comes (or capture it), less
    the board's known noise, but for a fault report: that is held back
    until QEMU is gone, so that its one-line reason can come first.
    dest: the name of the sys stream it goes to ("stdout", "stderr"),
    looked up at each line: a test runner swaps them around each test
    (pytest's capture, closed once its test is over), and a Session's
    QEMU can outlive the test that started it."""

    def __init__(self, dest, image, capture=False, noise=(), keep=False):
        self.dest = dest
        self.image = image
        self.capture = capture
        self.keep = keep
        self.noise = noise
        self.captured = []
        self.report = []
        self.fault = None
        self.first = None
        self.terminating = []   # QEMU's word that a signal ended it

    def read(self, stream):
        # (here, on the reader's thread, once QEMU runs: 1 ms less
        # before it starts)
        from perfcounter.boot import faults
        for line in stream:
            if line.rstrip("\r\n") in self.noise or _SAID.search(line):
                continue
            if _TERMINATING.search(line):
                self.terminating.append(line)
                continue
            pty = _PTY.match(line.rstrip("\r\n"))
            if pty:
                say(f"{pty[2]} is on {pty[1]}")
                continue
            if self.first is None:
                self.first = line.rstrip("\r\n")
            if self.report or faults.is_header(line):
                self.report.append(line)
            else:
                self._emit(line)
        if self.report:
            self.fault = faults.reason(self.report, self.image)
            if not self.capture:
                say(self.fault)
            for line in self.report:
                self._emit(line)

    def signal_not_ours(self):
        """Pass on QEMU's word that a signal ended it: one that
        scripts/profile neither sent nor received (it says its own)."""
        for line in self.terminating:
            self._emit(line)

    def _emit(self, line):
        if self.capture or self.keep:
            self.captured.append(line)
        if not self.capture:
            dest = getattr(sys, self.dest)
            dest.write(line)
            dest.flush()


def launch(cmd, board, timeout=DEFAULT_TIMEOUT, capture=False,
           verbose=False, image=None, keep=False, cwd=None, console=None,
           stop=None, terminal=False, started=None, pass_fds=()):
    """Run the QEMU command cmd (for board) until the guest exits; stop
    it after timeout host seconds, or when stop (a signals.StopRequest:
    a terminating signal arrived, a session ended the run) is requested.
    Returns how it Exited.

    QEMU's stderr is passed on as it comes, less the board's known noise.
    image (an elf.Image) names the function a fault is in.  With
    capture, the guest's stdout is kept instead of passed on; with keep,
    passed on and also kept.  cwd is where the guest's semihosting file
    I/O lands; console the file the UARTs write (emptied first).  With
    terminal, QEMU reads the process's standard input (a UART does).
    started(proc) is called once QEMU runs.  pass_fds: descriptors QEMU
    inherits (the sockets its command line names by number).
    """
    if stop:
        # From here a signal stops the run (or marks it), never unwinds:
        # the guest's output may reach a runner before this thread runs
        stop.running = True
    if console:
        Path(console).write_text("")    # the UARTs append
    if verbose:
        say("running: " + " ".join(cmd))
    if not os.access(cmd[0], os.X_OK):
        raise Failure(f"cannot run {cmd[0]}: it is not an executable file")
    try:
        proc = subprocess.Popen(END_WITH_PARENT + cmd, cwd=cwd,
                                stdin=None if terminal else subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                pass_fds=pass_fds)
    except OSError as err:
        raise Failure(f"cannot run {cmd[0]}: {err}") from None
    started_at = time.monotonic()
    noise = {f"{Path(cmd[0]).name}: {n}" for n in board.stderr_noise}
    output = Relay("stdout", image, capture, keep=keep)
    errors = Relay("stderr", image, noise=noise)
    # Text as the guest wrote it: its "\r\n" kept, not made "\n"
    readers = [threading.Thread(target=r.read, args=(io.TextIOWrapper(
        stream, encoding="utf-8", errors="replace", newline=""),))
        for r, stream in [(output, proc.stdout), (errors, proc.stderr)]]
    for reader in readers:
        reader.start()
    if started:
        started(proc)
    timed_out, stopped, killed, ended_at = _wait(proc, timeout, stop)
    for reader in readers:
        reader.join()
    not_ours = False
    if errors.terminating and stop and not timed_out and not stopped:
        stopped = _signal_to_both(stop)
        if not stopped:
            # This process got no signal: QEMU alone did (a kill aimed
            # at it, its parent's death); its run was cut short all the
            # same, and its outputs say so
            signum = int(_TERMINATING.search(errors.terminating[0])[1])
            stop.request(signal.Signals(signum).name, 128 + signum)
            stopped = not_ours = True
    if not timed_out and (not stopped or not_ours):
        errors.signal_not_ours()
    # Killed by a signal (QEMU aborts on a fatal error): 128 + signal,
    # as a shell says it
    code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    if timed_out:
        code = TIMEOUT_EXIT
    elif stopped:
        code = stop.exit_code
    died_of = signal.Signals(-proc.returncode).name \
        if proc.returncode < 0 else None
    return Exited(code, "".join(output.captured), timed_out,
                  output.fault or errors.fault,
                  stop.reason if stopped else None, errors.first, killed,
                  died_of, started_at, ended_at)


def _wait(proc, timeout, stop):
    """Wait for QEMU to exit, stopping it at the timeout or when a stop
    is requested: (timed out, stopped on request, killed by SIGKILL,
    when it exited on the monotonic clock)."""
    wake = stop.wake if stop else threading.Event()
    exited = threading.Event()
    ended_at = []

    def waiter():
        proc.wait()
        ended_at.append(time.monotonic())
        exited.set()
        wake.set()

    threading.Thread(target=waiter, daemon=True).start()
    deadline = time.monotonic() + timeout
    outcome = None
    while outcome is None:
        if exited.is_set():
            outcome = False, bool(stop and stop.reason is not None), False
        elif stop and stop.reason is not None:
            outcome = False, True, terminate(proc) == "killed"
        elif deadline <= time.monotonic():
            outcome = True, False, terminate(proc) == "killed"
        else:
            wake.wait(deadline - time.monotonic())
    exited.wait()
    return (*outcome, ended_at[0])


def _signal_to_both(stop, grace=SIGNAL_GRACE):
    """QEMU said a signal ended it: one sent to the process group, say,
    which this process got too, but whose Python handler runs only in
    the main thread between two bytecodes (the signal may have woken
    another thread): give it that chance, so the run is told as cut
    short by it. Whether it was."""
    deadline = time.monotonic() + grace
    while stop.reason is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return stop.reason is not None


def died_message(result):
    """What to say of a run whose QEMU died of a signal we did not send
    (Result.qemu_died): nothing of it can be written."""
    cause = " (a kill -9, or the system ran out of memory)" \
        if result.qemu_died == "SIGKILL" else ""
    said = f" (it said: {result.qemu_first_error})" \
        if result.qemu_first_error else ""
    return (f"QEMU died of {result.qemu_died}{cause}: it wrote no "
            f"counts, profile or results{said}")


def terminate(proc, grace=TERM_GRACE):
    """Stop a QEMU that has run too long: SIGTERM first, on which QEMU
    shuts down as a guest's exit would, running its exit notifiers (so
    each core writes its report-file); SIGKILL if it is still there
    after grace seconds. Returns how: "terminated" or "killed"."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
        return "terminated"
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return "killed"


def timeout_message(guest, timeout):
    return (f"timeout: the guest ({guest}) did not finish within {timeout} s "
            f"and was stopped; if it is just slow, raise --timeout")
