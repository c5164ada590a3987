# SPDX-License-Identifier: MIT
"""Boot a firmware image in QEMU with the performance counter attached."""

import os
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

import faults
import plugin
from common import Failure, say

DEFAULT_TIMEOUT = 60
TIMEOUT_EXIT = 124
# How long a timed-out QEMU has, after SIGTERM, to run its exit
# notifiers (the cores write their report-file) before SIGKILL
TERM_GRACE = 5


@dataclass
class Result:
    exit_code: int
    output: str          # the guest's stdout (when captured)
    timed_out: bool
    fault: str = None    # the one-line reason, if the guest faulted


def device_args(board, device_props=None):
    """-device arguments for every core the board's system.h declares."""
    return counter_args(board, board.counters, device_props)


def counter_args(board, cores, device_props=None):
    """-device arguments for cores [(base, sections)] on board's clock;
    device_props(base) gives more properties (",name=value...")."""
    args = []
    for base, sections in cores:
        more = device_props(base) if device_props else ""
        args += ["-device", f"perf-counter,base={base:#x},"
                 f"num-sections={sections},clock-frequency={board.freq}"
                 + more]
    return args


def headless(qemu, board, serial=True):
    """QEMU started as board, with no display or monitor, and no serial
    port unless serial is False (the caller gives them)."""
    return [str(qemu.binary(board.arch))] + board.qemu_args + [
        "-display", "none", "-monitor", "none"] + (
            ["-serial", "none"] if serial else [])


def console_args(board, console=None):
    """Every UART of board, and a Cortex-M's ITM stimulus ports (printf
    over SWO), to QEMU's stdout, where the guest's semihosting output
    goes too, or to the file console.  Each writes when the guest does,
    so they stay in the guest's order."""
    # Not stdio (one frontend) nor a mux (four at most): the same file
    # opened once for each UART, appending
    path = str(Path(console).resolve()) if console else "/proc/self/fd/1"
    path = path.replace(",", ",,")      # QEMU's option syntax
    args = []
    for i in range(board.uarts):
        args += ["-chardev", f"file,id=uart{i},path={path},append=on",
                 "-serial", f"chardev:uart{i}"]
    if board.cortex_m:
        args += ["-chardev", f"file,id=itm,path={path},append=on",
                 "-global", "armv7m-itm.chardev=itm"]
    return args


def command(qemu, board, image, icount=True, extra=(), device_props=None,
            console=None):
    """The QEMU command line that boots image on board, its UARTs on
    stdout (or in the file console)."""
    cmd = headless(qemu, board, serial=False) + console_args(board, console)
    cmd += [
        "-chardev", "stdio,id=guest-stdio",
        "-semihosting-config", "enable=on,target=native,chardev=guest-stdio",
    ] + device_args(board, device_props)
    if icount:
        cmd += ["-icount", f"shift={board.icount_shift},sleep=off,align=off"]
    if "-plugin" not in extra:
        # The counter cores' selectable events (docs/events.md)
        cmd += plugin.events_args(qemu, board)
    return cmd + list(extra) + ["-kernel", str(image)]


# What QEMU says when it shuts down on the SIGTERM that stop() sends
_OUR_SIGTERM = re.compile(r": terminating on signal 15 from pid "
                          rf"{os.getpid()}\b")


class Relay:
    """Pass a QEMU output stream on as it comes (or capture it), less
    the board's known noise, but for a fault report: that is held back
    until QEMU is gone, so that its one-line reason can come first."""

    def __init__(self, dest, image, capture=False, noise=(), keep=False):
        self.dest = dest
        self.image = image
        self.capture = capture
        self.keep = keep
        self.noise = noise
        self.captured = []
        self.report = []
        self.fault = None
        self.stopping = False   # set when we send QEMU its SIGTERM

    def read(self, stream):
        for line in stream:
            if line.rstrip("\n") in self.noise or (
                    self.stopping and _OUR_SIGTERM.search(line)):
                continue
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

    def _emit(self, line):
        if self.capture or self.keep:
            self.captured.append(line)
        if not self.capture:
            self.dest.write(line)
            self.dest.flush()


def boot(qemu, board, image, timeout=DEFAULT_TIMEOUT, icount=True,
         extra=(), capture=False, verbose=False, symbols=None,
         device_props=None, keep=False, cwd=None, console=None):
    """Run the guest until it exits; stop it after timeout seconds.

    QEMU's stderr is passed on as it comes, less the board's known noise.
    symbols (an elf.Image) names the function a fault is in.
    device_props(base) adds properties to the core at base. With keep,
    the guest's stdout is passed on and also kept in the Result.  cwd is
    where the guest's semihosting file I/O lands.  The UARTs' output is
    the guest's stdout too, unless console names a file for it.
    """
    if console:
        Path(console).write_text("")    # the UARTs append
    cmd = command(qemu, board, Path(image).resolve(), icount, extra,
                  device_props, console)
    if verbose:
        say("running: " + " ".join(cmd))
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                errors="replace")
    except OSError as err:
        raise Failure(f"cannot run {cmd[0]}: {err}") from None
    noise = {f"{Path(cmd[0]).name}: {n}" for n in board.stderr_noise}
    output = Relay(sys.stdout, symbols, capture, keep=keep)
    errors = Relay(sys.stderr, symbols, noise=noise)
    readers = [threading.Thread(target=r.read, args=(stream,)) for r, stream
               in [(output, proc.stdout), (errors, proc.stderr)]]
    for reader in readers:
        reader.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        errors.stopping = True
        stop(proc)
        timed_out = True
    for reader in readers:
        reader.join()
    # Killed by a signal (QEMU aborts on a fatal error): 128 + signal,
    # as a shell says it
    code = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    return Result(TIMEOUT_EXIT if timed_out else code,
                  "".join(output.captured), timed_out,
                  output.fault or errors.fault)


def stop(proc, grace=TERM_GRACE):
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
