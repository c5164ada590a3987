# SPDX-License-Identifier: MIT
"""RISC-V's mcycle on riscv32-virt counts the counter core's clock
(qemu-device/patches/0015-...: one per instruction under -icount, the
E31 model's cycles with --cycles), exactly over the same instructions
as the plugin's window; minstret stays the instructions; mcountinhibit
stops mcycle (tests/firmware/riscv_counters.c)."""

import pytest

import boards
import bootlib
import elf

IMAGE = "tests/firmware/riscv_counters.elf"
LOOP_INSTRUCTIONS = 22          # li; 10 x (addi; bnez); the second read


def run(ctx, cycles):
    key = ("riscv_counters", cycles)
    if key in ctx.cache:
        return ctx.cache[key]
    board = boards.get("riscv32-virt")
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


@pytest.mark.parametrize("cycles", [False, True], ids=["icount", "cycles"])
def test_minstret_counts_the_instructions(ctx, cycles):
    assert run(ctx, cycles)[0]["instret"] == LOOP_INSTRUCTIONS


def test_mcycle_counts_each_instruction_under_icount(ctx):
    assert run(ctx, False)[0]["cycle"] == LOOP_INSTRUCTIONS


def test_mcycle_counts_the_models_cycles_with_cycles(ctx):
    printed, (cycles, instructions) = run(ctx, True)
    # the window adds up cycle_loop's 2 calls, the same each time
    assert instructions == 2 * LOOP_INSTRUCTIONS and cycles % 2 == 0
    assert printed["cycle"] == cycles // 2 != LOOP_INSTRUCTIONS


@pytest.mark.parametrize("cycles", [False, True], ids=["icount", "cycles"])
def test_mcountinhibit_stops_mcycle(ctx, cycles):
    assert run(ctx, cycles)[0]["inhibited"] == 0


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


@pytest.mark.parametrize("cycles", [False, True], ids=["icount", "cycles"])
def test_mhpmcounters_count_the_e31_events(ctx, cycles):
    printed = run(ctx, cycles)[0]
    got = {name[len("hpm-"):]: value for name, value in printed.items()
           if name.startswith("hpm-")}
    assert got == HPM_EXPECTED
