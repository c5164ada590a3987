# SPDX-License-Identifier: MIT
"""Boot a firmware image in QEMU with the performance counter attached."""

import subprocess
from dataclasses import dataclass

from common import Failure, say

DEFAULT_TIMEOUT = 60
TIMEOUT_EXIT = 124


@dataclass
class Result:
    exit_code: int
    output: str          # the guest's stdout (when captured)
    timed_out: bool


def device_arg(base, sections, freq):
    return (f"perf-counter,base={base:#x},num-sections={sections},"
            f"clock-frequency={freq}")


def command(qemu, board, image, icount=True, extra=()):
    """The QEMU command line that boots image on board."""
    base, sections, freq = board.counter
    cmd = [str(qemu.binary(board.arch))] + board.qemu_args + [
        "-display", "none", "-monitor", "none", "-serial", "none",
        "-chardev", "stdio,id=guest-stdio",
        "-semihosting-config", "enable=on,target=native,chardev=guest-stdio",
        "-device", device_arg(base, sections, freq),
    ]
    if icount:
        cmd += ["-icount", f"shift={board.icount_shift},sleep=off,align=off"]
    return cmd + list(extra) + ["-kernel", str(image)]


def boot(qemu, board, image, timeout=DEFAULT_TIMEOUT, icount=True,
         extra=(), capture=False, verbose=False):
    """Run the guest until it exits; stop it after timeout seconds."""
    cmd = command(qemu, board, image, icount, extra)
    if verbose:
        say("running: " + " ".join(cmd))
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE if capture else None,
                              text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired as err:
        out = err.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return Result(TIMEOUT_EXIT, out, True)
    except OSError as err:
        raise Failure(f"cannot run {cmd[0]}: {err}") from None
    return Result(proc.returncode, proc.stdout or "", False)


def timeout_message(image, timeout):
    return (f"timeout: the guest ({image}) did not finish within {timeout} s "
            f"and was stopped; if it is just slow, raise --timeout")
