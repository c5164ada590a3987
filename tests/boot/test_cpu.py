# SPDX-License-Identifier: MIT
"""--cpu: the core QEMU models and its extensions.  RISC-V code using
Zcmp (a function of cm.push and cm.popret, tests/programs/zcmp.S) on
riscv32-virt: refused by its default core, with the instruction and
what runs it in the fault's line; run with --cpu rv32,zcd=off,zcmp=on,
its cm.popret followed as the return it is."""

import subprocess
import tempfile
from pathlib import Path

from perfcounter.paths import REPO

PROFILE = REPO / "scripts" / "profile"
SOURCES = [REPO / "tests" / "programs" / "zcmp_main.c",
           REPO / "tests" / "programs" / "zcmp.S"]
ZCMP = "rv32,zcd=off,zcmp=on"


def profile(*args, cwd):
    return subprocess.run([str(PROFILE), "--board", "riscv32-virt",
                           *map(str, args)], cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=300)


def test_zcmp_code_faults_naming_the_instruction_and_runs_with_cpu(ctx):
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "zcmp.elf"
        refused = profile(*SOURCES, "-o", image, cwd=tmp)
        ran = profile(image, "--cpu", ZCMP, "--sample=exact", "--stacks",
                      "stacks.txt", cwd=tmp)
        stacks = (Path(tmp) / "stacks.txt").read_text()
    assert refused.returncode == 1, refused.stderr
    assert "guest fault: illegal instruction 0xb842 (Zcmp's cm.push/cm.pop" \
        f" (or D's c.fsdsp): --cpu {ZCMP}) at pc" in refused.stderr
    assert "in zcmp_fn" in refused.stderr
    assert ran.returncode == 0, ran.stderr
    assert "zcmp 42" in ran.stdout
    # cm.popret returned to main: nothing ran in main's frame inside
    # zcmp_fn's, nor in a main called from main
    assert ";main;zcmp_fn 3\n" in stacks
    assert ";main;main" not in stacks and ";zcmp_fn;" not in stacks
