# SPDX-License-Identifier: MIT
"""RISC-V's mcycle on the RISC-V boards counts the counter core's clock
(qemu-device/patches/0015-...: one per instruction under -icount, the
E31 model's cycles with --cycles), exactly over the same instructions
as the plugin's window; minstret stays the instructions; mcountinhibit
stops mcycle; a WFI counts once, and so do the instructions after it
(qemu-device/patches/0026-...) (tests/firmware/riscv_counters.c)."""

import pytest

from perfcounter import boards
import bootlib
from perfcounter.target import elf

IMAGE = "tests/firmware/riscv_counters.elf"
BOARDS = [name for name, b in boards.BOARDS.items() if b.arch == "riscv32"]
LOOP_INSTRUCTIONS = 22          # li; 10 x (addi; bnez); the second read
WFI_INSTRUCTIONS = 10           # wfi; 8 x nop; the second read


def run(ctx, board_name, cycles):
    key = ("riscv_counters", board_name, cycles)
    if key in ctx.cache:
        return ctx.cache[key]
    board = boards.get(board_name)
    image = ctx.firmware(board, IMAGE)
    symbols = elf.read(image).symbols
    window = (symbols["cycle_loop_start"], symbols["cycle_loop_end"])
    result, windows = bootlib.run_with_windows(ctx, board, image, [window],
                                               cycles)
    printed = {line.split()[0]: int(line.split()[1])
               for line in result.output.splitlines()
               if len(line.split()) == 2 and line.split()[1].isdigit()}
    ctx.cache[key] = (printed, windows.get(window))
    return ctx.cache[key]


def has_mcountinhibit(board_name):
    """Privileged architecture 1.11 on: not the E31's 1.10"""
    return bool(boards.get(board_name).defines()[
        "BOARD_RISCV_HAS_MCOUNTINHIBIT"])


@pytest.mark.parametrize("board_name", BOARDS)
@pytest.mark.parametrize("cycles", [False, True], ids=["icount", "cycles"])
def test_minstret_counts_the_instructions(ctx, board_name, cycles):
    assert run(ctx, board_name, cycles)[0]["instret"] == LOOP_INSTRUCTIONS


@pytest.mark.parametrize("board_name", BOARDS)
def test_minstret_counts_the_instructions_after_a_wfi_once(ctx, board_name):
    # wfi, 8 nops, the second read: QEMU counted the nops before the
    # CPU slept as well as after it woke, until a WFI ended its block
    assert run(ctx, board_name, False)[0]["wfi"] == WFI_INSTRUCTIONS


@pytest.mark.parametrize("board_name", BOARDS)
def test_mcycle_counts_each_instruction_under_icount(ctx, board_name):
    assert run(ctx, board_name, False)[0]["cycle"] == LOOP_INSTRUCTIONS


@pytest.mark.parametrize("board_name", BOARDS)
def test_mcycle_counts_the_models_cycles_with_cycles(ctx, board_name):
    printed, (cycles, instructions) = run(ctx, board_name, True)
    # the window adds up cycle_loop's calls (the second with mcycle
    # inhibited), the same each time
    calls = 2 if has_mcountinhibit(board_name) else 1
    assert instructions == calls * LOOP_INSTRUCTIONS and cycles % calls == 0
    assert printed["cycle"] == cycles // calls != LOOP_INSTRUCTIONS


@pytest.mark.parametrize("board_name", BOARDS)
@pytest.mark.parametrize("cycles", [False, True], ids=["icount", "cycles"])
def test_mcountinhibit_stops_mcycle(ctx, board_name, cycles):
    printed = run(ctx, board_name, cycles)[0]
    if not has_mcountinhibit(board_name):
        assert "inhibited" not in printed, printed
        return
    assert printed["inhibited"] == 0


# mhpmcounter3 over hpm_loop: 10 iterations of one load, store,
# multiply, divide, JAL, JALR and conditional branch (counter_loops.S)
HPM_EXPECTED = {
    "exceptions": 0, "loads": 10, "stores": 10, "conditional": 10,
    "jal": 10, "jalr": 10, "mul": 10, "div": 10,
    "memory": 20, "jumps": 20,
    # a selector with an event that is not counted counts nothing
    "arithmetic": 0, "loads-and-atomics": 0, "icache-miss": 0,
    "inhibited": 0, "written": 1000,
}


@pytest.mark.parametrize("board_name", BOARDS)
@pytest.mark.parametrize("cycles", [False, True], ids=["icount", "cycles"])
def test_mhpmcounters_count_the_e31_events(ctx, board_name, cycles):
    printed = run(ctx, board_name, cycles)[0]
    got = {name[len("hpm-"):]: value for name, value in printed.items()
           if name.startswith("hpm-")}
    want = dict(HPM_EXPECTED)
    if not has_mcountinhibit(board_name):
        del want["inhibited"]
    assert got == want
