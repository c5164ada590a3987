# SPDX-License-Identifier: MIT
"""Guest time in modelled cycles (accel/tcg/perfctr-model-time.c;
tests/firmware/model_time.c and model_time_riscv.c): with --cycles
QEMU's virtual clock runs on the timing model's cycles, so a board
timer's period comes every so many modelled cycles of the core, as it
comes every so many instructions under -icount alone.  On the Cortex-M
boards SysTick every 40 us (1000 clocks of the 25 MHz SYSCLK, 800 of
the AN505's 20 MHz, 500 of the LM3S6965's 12.5 MHz) is 1250 cycles of
the 31.25 MHz core, read with DWT CYCCNT; on riscv32-virt the
machine timer every 100 ticks of the 10 MHz mtime (10 us) is 1250
cycles of the 125 MHz core, read with mcycle.
"""

import pytest

from perfcounter import boards
import bootlib

IMAGE = "tests/firmware/model_time.elf"
# board: (the program's source, its period's #define, in units of 1 / Hz)
SYSTICK = ("tests/firmware/model_time.c", "SYSTICK_PERIOD_US", 1_000_000)
TIMERS = {name: SYSTICK for name, b in boards.BOARDS.items() if b.dwt}
TIMERS["riscv32-virt"] = ("tests/firmware/model_time_riscv.c",
                          "TIMER_PERIOD", 10_000_000)
# The interrupt comes after the instruction that reaches the deadline,
# up to one instruction's cycles late (main()'s spin: 32 nops, a load, a
# compare and a taken branch, 3 cycles at most on these models), even
# where the deadline falls inside the block of nops
LATENESS = 3
# QEMU's CLINT sets its timer from mtime rounded down (riscv_aclint.c):
# up to one mtime tick, 12.5 cycles, early or late
CLINT_ROUNDING = 13


def entries(ctx, board_name, cycles):
    board = boards.get(board_name)
    image = ctx.firmware(board, IMAGE)
    result, _ = bootlib.run_with_windows(ctx, board, image, [], cycles)
    line = next(ln for ln in result.output.splitlines()
                if ln.startswith("entries "))
    return [int(w) for w in line.split()[1:]]


def period_in_core_clocks(board_name):
    source, name, unit_hz = TIMERS[board_name]
    period = bootlib.c_defines(source)[name]
    clocks = period * boards.get(board_name).freq / unit_hz
    assert clocks == int(clocks)
    return int(clocks)


def check_period(seen, period, slack):
    intervals = [b - a for a, b in zip(seen, seen[1:])]
    assert all(abs(i - period) <= slack for i in intervals), intervals
    # lateness does not add up: the ticks keep to the period
    assert abs(seen[-1] - seen[0] - period * len(intervals)) <= slack, seen


@pytest.mark.parametrize("board_name", TIMERS)
def test_the_timer_comes_every_period_in_instructions(ctx, board_name):
    seen = entries(ctx, board_name, False)
    period = period_in_core_clocks(board_name)
    if board_name == "riscv32-virt":
        check_period(seen, period, CLINT_ROUNDING)
    else:
        # the interrupt exactly at the instruction of the deadline
        assert [b - a for a, b in zip(seen, seen[1:])] == \
            [period] * (len(seen) - 1)


@pytest.mark.parametrize("board_name", TIMERS)
def test_the_timer_comes_every_period_in_modelled_cycles(ctx, board_name):
    seen = entries(ctx, board_name, True)
    period = period_in_core_clocks(board_name)
    check_period(seen, period, LATENESS +
                 (CLINT_ROUNDING if board_name == "riscv32-virt" else 0))
    assert seen == entries(ctx, board_name, True)
