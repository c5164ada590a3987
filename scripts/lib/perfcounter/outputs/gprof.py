# SPDX-License-Identifier: MIT
"""The board's stock GNU gprof, from Debian's cross binutils."""

import shutil
import subprocess

from perfcounter.errors import Failure

TOOLS = {"arm": "arm-none-eabi-gprof",
         "aarch64": "aarch64-linux-gnu-gprof",
         "riscv32": "riscv64-unknown-elf-gprof"}


def tool(board):
    name = TOOLS[board.arch]
    if not shutil.which(name):
        raise Failure(f"{name} is missing; it comes with Debian's cross "
                      f"binutils (scripts/lib/host-packages.sh installs it)")
    return name


def run(target, gmon, *options):
    """gprof's output for target's image and gmon with options (e.g.
    -p, -q)."""
    cmd = [tool(target.board), "-b", *options, str(target.path), str(gmon)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failure(f"{' '.join(cmd)} failed: {proc.stderr.strip()}")
    return proc.stdout
