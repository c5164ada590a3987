# SPDX-License-Identifier: MIT
"""A guest that faults exits non-zero with a one-line reason (what, the
pc, the function) before its register dump, on every board that faults
(lm3s6965evb ignores a store where nothing answers, as QEMU always has
for it: there the program goes on)."""

import re
import subprocess

from perfcounter.paths import REPO

PER_BOARD = True
PROFILE = REPO / "scripts" / "profile"


def profile_fault(ctx, board, image):
    image = ctx.firmware(board, f"tests/firmware/{image}")
    return subprocess.run([str(PROFILE), "--board", board.name, str(image)],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120)


def ignored(board, output, returncode):
    """On a board without bus faults: the store was ignored, the program
    went on to its end"""
    if board.bus_faults:
        return False
    assert returncode == 0 and "still running" in output, output
    return True


def test_a_fault_gives_its_reason_before_the_dump(ctx, board):
    proc = profile_fault(ctx, board, "fault.elf")
    if ignored(board, proc.stdout, proc.returncode):
        return
    lines = proc.stdout.splitlines()
    assert proc.returncode not in (0, 124), proc.stdout
    assert "still running" not in proc.stdout, proc.stdout
    reasons = [i for i, line in enumerate(lines) if re.search(
        r"guest fault: .+ at pc 0x[0-9a-f]{8} in store_to_nowhere", line)]
    dumps = [i for i, line in enumerate(lines)
             if re.match(r"(ARM|RISCV) fault", line)]
    assert len(reasons) == 1 and len(dumps) == 1, proc.stdout
    assert reasons[0] < dumps[0], proc.stdout


def test_a_fault_names_the_address(ctx, board):
    """Where the report has it (not in a Cortex-M HardFault's)."""
    image = ctx.firmware(board, "tests/firmware/fault.elf")
    proc = subprocess.run([str(PROFILE), "--board", board.name, str(image)],
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)
    if ignored(board, proc.stdout, proc.returncode):
        return
    if board.cortex_m:
        assert "guest fault: hardfault" in proc.stderr, proc.stderr
    else:
        assert "address 0xf0000000" in proc.stderr, proc.stderr


def test_a_fault_after_a_getter_gives_its_reason(ctx, board):
    """The getters install the library's wrong-base report on the virt
    boards: a fault elsewhere is still named, pc and function."""
    proc = profile_fault(ctx, board, "fault_getter.elf")
    if ignored(board, proc.stdout, proc.returncode):
        return
    assert proc.returncode not in (0, 124), proc.stdout
    assert "starts 0\n" in proc.stdout, proc.stdout
    assert re.search(r"guest fault: .+ at pc 0x[0-9a-f]{8} in "
                     r"store_to_nowhere", proc.stdout), proc.stdout
