# SPDX-License-Identifier: MIT
"""The host tools a run's outputs need (gprof, objcopy, objdump, QEMU's
--version), run in a process group of their own.  A signal to this
process's group (a terminal's Ctrl-C, a runner ending its job) would
otherwise kill one midway while boot.signals.Signals defers the signal
to write those outputs: gprof killed, a profile lost and the command
failing.  They read nothing."""

import signal
import subprocess


def start(cmd, **popen_args):
    """subprocess.Popen(cmd, **popen_args), apart"""
    return subprocess.Popen(cmd, process_group=0, stdin=subprocess.DEVNULL,
                            **popen_args)


def run(cmd, text=False):
    """cmd run apart, its output captured: a subprocess.CompletedProcess"""
    with start(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
               text=text) as proc:
        out, err = proc.communicate()
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def ended(returncode):
    """How a tool that said nothing ended: 'killed by SIGKILL', 'exit
    status 2'"""
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"
