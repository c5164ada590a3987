# SPDX-License-Identifier: MIT
"""The board's stock GNU gprof, from Debian's cross binutils."""

import subprocess

from perfcounter.errors import Failure
from perfcounter.target import disassembly


def tool(board):
    return disassembly.tool(board, "gprof")


def run(target, gmon, *options):
    """gprof's output for target's image and gmon with options (e.g.
    -p, -q)."""
    cmd = [tool(target.board), "-b", *options, str(target.path), str(gmon)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failure(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return proc.stdout
