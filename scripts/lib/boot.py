# SPDX-License-Identifier: MIT
"""Boot a firmware image in QEMU with the performance counter attached."""

import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from common import Failure, say

DEFAULT_TIMEOUT = 60
TIMEOUT_EXIT = 124


@dataclass
class Result:
    exit_code: int
    output: str          # the guest's stdout (when captured)
    timed_out: bool


def device_args(board):
    """-device arguments for every core the board's system.h declares."""
    args = []
    for base, sections in board.counters:
        args += ["-device", f"perf-counter,base={base:#x},"
                 f"num-sections={sections},clock-frequency={board.freq}"]
    return args


def headless(qemu, board):
    """QEMU started as board, with no display, monitor or serial port."""
    return [str(qemu.binary(board.arch))] + board.qemu_args + [
        "-display", "none", "-monitor", "none", "-serial", "none"]


def command(qemu, board, image, icount=True, extra=()):
    """The QEMU command line that boots image on board."""
    cmd = headless(qemu, board) + [
        "-chardev", "stdio,id=guest-stdio",
        "-semihosting-config", "enable=on,target=native,chardev=guest-stdio",
    ] + device_args(board)
    if icount:
        cmd += ["-icount", f"shift={board.icount_shift},sleep=off,align=off"]
    return cmd + list(extra) + ["-kernel", str(image)]


def _forward_stderr(stream, noise):
    for line in stream:
        if line.rstrip("\n") not in noise:
            sys.stderr.write(line)
            sys.stderr.flush()


def boot(qemu, board, image, timeout=DEFAULT_TIMEOUT, icount=True,
         extra=(), capture=False, verbose=False):
    """Run the guest until it exits; stop it after timeout seconds.

    QEMU's stderr is passed on as it comes, less the board's known noise.
    """
    cmd = command(qemu, board, image, icount, extra)
    if verbose:
        say("running: " + " ".join(cmd))
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE if capture else None,
                                stderr=subprocess.PIPE, text=True,
                                errors="replace")
    except OSError as err:
        raise Failure(f"cannot run {cmd[0]}: {err}") from None
    noise = {f"{Path(cmd[0]).name}: {n}" for n in board.stderr_noise}
    readers = [threading.Thread(target=_forward_stderr,
                                args=(proc.stderr, noise))]
    captured = []
    if capture:
        readers.append(threading.Thread(
            target=lambda: captured.append(proc.stdout.read())))
    for reader in readers:
        reader.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        timed_out = True
    for reader in readers:
        reader.join()
    return Result(TIMEOUT_EXIT if timed_out else proc.returncode,
                  "".join(captured), timed_out)


def timeout_message(image, timeout):
    return (f"timeout: the guest ({image}) did not finish within {timeout} s "
            f"and was stopped; if it is just slow, raise --timeout")
