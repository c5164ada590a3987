# SPDX-License-Identifier: MIT
"""The board's stock GNU gprof, from Debian's cross binutils."""

import subprocess

from perfcounter.errors import Failure
from perfcounter.target import disassembly


def tool(board):
    return disassembly.tool(board, "gprof")


def start(target, gmon, *options):
    """Start gprof on target's image and gmon with options (e.g. -p,
    -q) and return at once: calling what it returns waits for gprof's
    output.  (It takes 15 to 30 ms, mostly starting: the analyses of a
    run go on meanwhile.)"""
    cmd = [tool(target.board), "-b", *options, str(target.path), str(gmon)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)

    def output():
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise Failure(f"{' '.join(cmd)} failed: {err.strip()}")
        return out
    return output


def run(target, gmon, *options):
    """gprof's output for target's image and gmon with options."""
    return start(target, gmon, *options)()
