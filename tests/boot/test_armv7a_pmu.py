# SPDX-License-Identifier: MIT
"""The A-profile PMU of arm-virt's Cortex-A15 counts the common events
the perfctr hook counts exactly (qemu-device/target/arm/
pmu-hook-events.c): EXC_TAKEN, EXC_RETURN and PC_WRITE_RETIRED, beside
QEMU's own INST_RETIRED, and LD_RETIRED and ST_RETIRED counting only
the loads and stores that pass their condition; a counter's overflow flag is set right after
the event that wraps it (tests/firmware/armv7a_pmu.c over
armv7a/pmu_loops.S)."""

import boards
import bootlib

IMAGE = "tests/firmware/armv7a_pmu.elf"
LD_RETIRED, ST_RETIRED = 0x06, 0x07
INST_RETIRED, EXC_TAKEN, EXC_RETURN, PC_WRITE_RETIRED = 0x08, 0x09, 0x0a, 0x0c
BR_RETIRED = 0x21


def records(ctx):
    return bootlib.booted_records(ctx, boards.get("arm-virt"), IMAGE)


def test_each_event_counts_exactly_over_a_loop(ctx):
    recs, output = records(ctx)
    got = {(r["event"], r["n"]): r["count"] for r in recs["loop"]}
    expected = {}
    for n in (10, 20):
        expected[(LD_RETIRED, n)] = 0
        expected[(ST_RETIRED, n)] = 0
        expected[(INST_RETIRED, n)] = 2 * n + 1     # subs, bne; the read
        expected[(EXC_TAKEN, n)] = 0
        expected[(EXC_RETURN, n)] = 0
        expected[(PC_WRITE_RETIRED, n)] = n - 1     # the taken bne
        expected[(BR_RETIRED, n)] = n - 1           # the last one fails
    assert got == expected, output


def test_loads_and_stores_count_when_their_condition_passes(ctx):
    recs, output = records(ctx)
    got = {r["event"]: r["count"] for r in recs["conditional"]}
    assert got == {LD_RETIRED: 1, ST_RETIRED: 1}, output


def test_br_retired_counts_branches_passing_their_condition(ctx):
    recs, output = records(ctx)
    got = {r["event"]: r["count"] for r in recs["branches"]}
    # CBZ not taken: retired, no PC write; BNE failing: neither; B: both
    assert got == {PC_WRITE_RETIRED: 1, BR_RETIRED: 2}, output


def test_an_interrupt_is_one_exception_taken_and_one_return(ctx):
    recs, output = records(ctx)
    got = {r["event"]: (r["count"], r["taken"]) for r in recs["interrupt"]}
    assert got == {EXC_TAKEN: (1, 1), EXC_RETURN: (1, 1)}, output


def test_the_overflow_flag_is_set_by_the_event_that_wraps_the_counter(ctx):
    recs, output = records(ctx)
    # 9 taken branches after the preset: 2^32 - 9 wraps, 2^32 - 10 not
    got = {r["preset"]: r["pmovsr"] for r in recs["overflow"]}
    assert got == {2**32 - 9: 1, 2**32 - 10: 0}, output
