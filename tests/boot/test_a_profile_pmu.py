# SPDX-License-Identifier: MIT
"""The A-profile PMU of the Cortex-A boards, arm-virt's Cortex-A15 (in
Thumb) and aarch64-virt's Cortex-A53 (in AArch64), counts the common
events the perfctr hook counts exactly (qemu-device/target/arm/
pmu-hook-events.c): EXC_TAKEN, EXC_RETURN and PC_WRITE_RETIRED, beside
QEMU's own INST_RETIRED, and LD_RETIRED and ST_RETIRED counting only
the loads and stores that pass their condition; a counter's overflow
flag is set right after the event that wraps it; in AArch64, PMCEID
names the events counted (tests/firmware/a_profile_pmu.c over
armv7a/pmu_loops.S or a64/pmu_loops.S).

The two boards run the same instructions between the reads, one for
one (A64's B.NE for Thumb's BNE, which also retires no branch when it
fails), so every count is the same on both.  A64 has no conditional
loads or stores: on aarch64-virt the conditional test has nothing to
run."""

import pytest

from perfcounter import boards
import bootlib

IMAGE = "tests/firmware/a_profile_pmu.elf"
BOARDS = [name for name, b in boards.BOARDS.items()
          if b.cpu.startswith("Cortex-A")]
SW_INCR, LD_RETIRED, ST_RETIRED = 0x00, 0x06, 0x07
INST_RETIRED, EXC_TAKEN, EXC_RETURN, PC_WRITE_RETIRED = 0x08, 0x09, 0x0a, 0x0c
CPU_CYCLES, BR_RETIRED = 0x11, 0x21


def records(ctx, board_name):
    return bootlib.booted_records(ctx, boards.get(board_name), IMAGE)


@pytest.mark.parametrize("board_name", BOARDS)
def test_each_event_counts_exactly_over_a_loop(ctx, board_name):
    recs, output = records(ctx, board_name)
    got = {(r["event"], r["n"]): r["count"] for r in recs["loop"]}
    expected = {}
    for n in (10, 20):
        expected[(LD_RETIRED, n)] = 0
        expected[(ST_RETIRED, n)] = 0
        expected[(INST_RETIRED, n)] = 2 * n + 1     # subs, b(.)ne; the read
        expected[(EXC_TAKEN, n)] = 0
        expected[(EXC_RETURN, n)] = 0
        expected[(PC_WRITE_RETIRED, n)] = n - 1     # the taken b(.)ne
        expected[(BR_RETIRED, n)] = n - 1           # the last one fails
    assert got == expected, output


@pytest.mark.parametrize("board_name", BOARDS)
def test_loads_and_stores_count_when_their_condition_passes(ctx,
                                                            board_name):
    recs, output = records(ctx, board_name)
    if boards.get(board_name).arch == "aarch64":
        # A64 has no conditional loads or stores: nothing to run
        assert "conditional" not in recs, output
        return
    got = {r["event"]: r["count"] for r in recs["conditional"]}
    assert got == {LD_RETIRED: 1, ST_RETIRED: 1}, output


@pytest.mark.parametrize("board_name", BOARDS)
def test_br_retired_counts_branches_passing_their_condition(ctx,
                                                            board_name):
    recs, output = records(ctx, board_name)
    got = {r["event"]: r["count"] for r in recs["branches"]}
    # CBZ not taken: retired, no PC write; BNE (B.NE) failing: neither;
    # B: both
    assert got == {PC_WRITE_RETIRED: 1, BR_RETIRED: 2}, output


@pytest.mark.parametrize("board_name", BOARDS)
def test_an_interrupt_is_one_exception_taken_and_one_return(ctx,
                                                            board_name):
    recs, output = records(ctx, board_name)
    got = {r["event"]: (r["count"], r["taken"]) for r in recs["interrupt"]}
    # The return: SUBS pc, lr in Thumb, ERET in AArch64
    assert got == {EXC_TAKEN: (1, 1), EXC_RETURN: (1, 1)}, output


@pytest.mark.parametrize("board_name", BOARDS)
def test_the_overflow_flag_is_set_by_the_event_that_wraps_the_counter(
        ctx, board_name):
    recs, output = records(ctx, board_name)
    # 9 taken branches after the preset: 2^32 - 9 wraps, 2^32 - 10 not
    # (the Cortex-A53's event counters are 32 bits too: PMUv3 before
    # Armv8.5's 64-bit ones)
    got = {r["preset"]: r["pmovsr"] for r in recs["overflow"]}
    assert got == {2**32 - 9: 1, 2**32 - 10: 0}, output


def test_pmceid_names_the_events_counted_in_aarch64(ctx):
    # AArch64 only: QEMU gives the Cortex-A15 (Armv7) no PMCEID
    recs, output = records(ctx, "aarch64-virt")
    # QEMU's own SW_INCR, INST_RETIRED (under -icount) and CPU_CYCLES,
    # and the hook's; not the Armv8.1 stall events (the A53 is Armv8.0)
    counted = [SW_INCR, LD_RETIRED, ST_RETIRED, INST_RETIRED, EXC_TAKEN,
               EXC_RETURN, PC_WRITE_RETIRED, CPU_CYCLES, BR_RETIRED]
    rec = recs["pmceid"][0]
    # PMCEID0 holds events 0x00-0x1f, PMCEID1 0x20-0x3f
    assert rec["pmceid0"] | rec["pmceid1"] << 32 == \
        sum(1 << e for e in counted), output
