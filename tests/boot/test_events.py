# SPDX-License-Identifier: MIT
"""Selectable events and thresholds, end to end on
every board (tests/firmware/events.c over hand-written assembly,
tests/firmware/<isa>/events.S): each event's exact count, and a
threshold interrupting right after the instruction that reached it.
The overflow interrupt is tested through the example that extends a
count with it (test_examples.py)."""

from bootlib import booted_records, load_size

PER_BOARD = True

LOOPS = 100
# Section 1 over events_loop(n): after the BEGIN store, up to and
# including the END store (see events.S)
EXPECTED = {
    1: 7 * LOOPS + 1,       # instructions
    2: 2 * LOOPS,           # loads
    3: LOOPS + 1,           # stores, END's included
    4: 3 * LOOPS,           # branches: call, return, loop branch
    5: LOOPS,               # calls
    6: LOOPS,               # returns
    7: 3 * LOOPS - 1,       # taken: all but the loop's last branch
    8: 0,                   # exceptions
    10: LOOPS,              # conditional branches: the loop branch
    11: LOOPS,              # direct jumps: the call
    12: LOOPS,              # indirect jumps: the return
    13: 0,                  # multiplies
    14: 0,                  # divides
    15: 0,                  # exception returns
}
# Branches passing their condition: on Arm the loop's last bne fails its
# condition code; RISC-V's bnez has none, so it counts not taken too
RETIRED_BRANCHES = {"arm": 3 * LOOPS - 1, "aarch64": 3 * LOOPS - 1,
                    "riscv32": 3 * LOOPS}


def events(ctx, board):
    return booted_records(ctx, board, "tests/firmware/events.elf")


def test_every_event_is_available(ctx, board):
    records, output = events(ctx, board)
    mask = records["available"][0]["mask"]
    for event in [*EXPECTED, 16]:
        assert mask >> event & 1, f"event {event} unavailable: {output}"


def test_each_event_counts_exactly(ctx, board):
    records, output = events(ctx, board)
    got = {r["id"]: r.get("count") for r in records["event"]}
    assert got == {**EXPECTED, 16: RETIRED_BRANCHES[board.arch]}, output


def test_an_interrupt_is_one_exception_and_one_exception_return(ctx, board):
    records, output = events(ctx, board)
    got = {r["event"]: (r["count"], r["taken"])
           for r in records["interrupted"]}
    assert got == {8: (1, 1), 15: (1, 1)}, output


def test_loads_and_stores_count_when_their_condition_passes(ctx, board):
    records, output = events(ctx, board)
    if board.arch != "arm" or board.armv6m:
        # RISC-V and Armv6-M have no conditional loads or stores: nothing
        # to run
        assert "conditional" not in records, output
        return
    got = {r["event"]: r["count"] for r in records["conditional"]}
    assert got == {2: 1, 3: 2}, output          # END's store included
    threshold = records["conditional-threshold"][0]
    assert (threshold["taken"], threshold["offset"]) == (1, 0), output


def test_multiplies_and_divides_count_exactly(ctx, board):
    records, output = events(ctx, board)
    got = {r["id"]: (r["count"], r["divides"]) for r in records["arith"]}
    divides = got[14][1]
    # The Cortex-M3, M4, M7, M33, M55, A15 and RV32IM divide; the ARM1176
    # and the Cortex-M0 cannot
    assert divides == (board.name != "raspi1ap" and not board.armv6m), \
        output
    assert got == {13: (LOOPS, divides), 14: (LOOPS * divides, divides)}, \
        output


def test_threshold_interrupts_right_after_the_instruction(ctx, board):
    records, output = events(ctx, board)
    seen = records["threshold"]
    assert len(seen) == 6, output
    for rec in seen:
        # Loads and instructions alike: the k-th load is the k-th
        # instruction after BEGIN; the pc is the next one's
        assert rec["taken"] == 1, output
        assert rec["offset"] == rec["k"] * load_size(board), output

