# SPDX-License-Identifier: MIT
"""The ARM1176 performance monitor in our QEMU (docs/arm11-pmu.md), rule
by rule, on the raspi1ap board: tests/firmware/arm11_pmu.c prints what
it measured around hand-written ARM loops (tests/firmware/arm11/), so
every count is known exactly.  With -icount shift=0 a cycle is an
instruction; a counter counts after the MCR that starts it, up to and
including the one that stops it.
"""

import re

from perfcounter import boards
from bootlib import assert_counts, expect_exit, parse_records, run_image

BOARD = boards.get("raspi1ap")

E, P, C, D = 1 << 0, 1 << 1, 1 << 2, 1 << 3
ECR0, ECR1, ECC = 1 << 4, 1 << 5, 1 << 6
CR0, CR1, CCR = 1 << 8, 1 << 9, 1 << 10
X = 1 << 11
EVT_BRANCH, EVT_INSTRUCTION, EVT_CYCLE = 0x05, 0x07, 0xff
EVT_PC_CHANGE, EVT_CALL, EVT_RETURN = 0x0d, 0x23, 0x24
BRANCH_EVENTS = [EVT_BRANCH, EVT_PC_CHANGE, EVT_CALL, EVT_RETURN]


def flow_counts(n):
    """pmu_flow's n rounds of BL, BX LR, BLX, POP {pc}, BXJ, a BEQ
    failing its condition and the BNE that loops (arm11/pmu_scenarios.S)."""
    return {EVT_BRANCH: 7 * n, EVT_PC_CHANGE: 6 * n - 1, EVT_CALL: 2 * n,
            EVT_RETURN: 2 * n}


def svc_counts(n):
    """pmu_svc's n rounds of SVC, MOVS pc, lr (its handler), SUBS, BNE:
    the exception is no change of the PC, its return is one."""
    return {EVT_BRANCH: 2 * n, EVT_PC_CHANGE: 2 * n - 1, EVT_CALL: 0,
            EVT_RETURN: n}


# Bytes per step of the chains the overflow interrupt tests run
CHAIN_STEP = {EVT_BRANCH: 8, EVT_PC_CHANGE: 8, EVT_CALL: 8, EVT_RETURN: 12}


def events(evt0, evt1):
    return evt0 << 20 | evt1 << 12


def pmu(ctx):
    if "arm11_pmu" not in ctx.cache:
        result = run_image(ctx, BOARD, "tests/firmware/arm11_pmu.elf")
        expect_exit(result)
        assert "arm11_pmu done" in result.output, result.output
        ctx.cache["arm11_pmu"] = parse_records(result.output)
    return ctx.cache["arm11_pmu"]


def rec(ctx, name, index=0):
    found = pmu(ctx).get(name)
    assert found, f"arm11_pmu.elf printed no '{name}' line"
    return found[index]


def test_registers_reset_to_zero(ctx, board):
    assert_counts(rec(ctx, "reset"), pmnc=0, ccnt=0, pmn0=0, pmn1=0)
    assert_counts(rec(ctx, "reset_validation"), v=0)


def test_nothing_counts_with_e_clear(ctx, board):
    assert_counts(rec(ctx, "disabled"), ccnt=0, pmn0=0, pmn1=0)


def test_e_counts_cycles_instructions_and_branches(ctx, board):
    r = rec(ctx, "enabled")
    n = r["n"]
    assert_counts(r, pmnc=0, ccnt=2 * n + 2, pmn0=2 * n + 2, pmn1=n)


def test_pmnc_reads_back_what_is_kept(ctx, board):
    # E, D, interrupt enables, X and the event fields read back; P and C
    # act and read 0
    assert_counts(rec(ctx, "readback"), pmnc=events(EVT_INSTRUCTION,
                                                    EVT_BRANCH) | X | D | ECC)


def test_loop_counts_are_exact(ctx, board):
    loops = pmu(ctx)["loop"]
    assert [r["n"] for r in loops] == [1, 10, 1000], loops
    for r in loops:
        n = r["n"]
        assert_counts(r, ccnt=2 * n + 2, pmn0=2 * n + 2, pmn1=n)


def test_calls_and_returns_are_branches(ctx, board):
    r = rec(ctx, "calls")
    n = r["n"]
    # bl, bx lr, subs, bne a round: three branches, one of them a call
    assert_counts(r, ccnt=4 * n + 2, pmn0=4 * n + 2, pmn1=3 * n)


def test_procedure_calls_count(ctx, board):
    r = rec(ctx, "calls_events")
    n = r["n"]
    assert_counts(r, pmn0=n, pmn1=4 * n + 2, ccnt=4 * n + 2)


def test_branches_failing_their_condition_count(ctx, board):
    r = rec(ctx, "not_taken")
    n = r["n"]
    assert_counts(r, ccnt=4 * n + 2, pmn0=4 * n + 2, pmn1=2 * n)


def records_per_event(ctx, name):
    found = pmu(ctx).get(name, [])
    assert sorted(r["event"] for r in found) == BRANCH_EVENTS, found
    return found


def test_branch_events_count_every_kind_of_branch(ctx, board):
    for r in records_per_event(ctx, "flow"):
        n = r["n"]
        assert_counts(r, event=r["event"], pmn0=flow_counts(n)[r["event"]],
                      pmn1=11 * n + 2)


def test_branch_events_agree_with_the_counter_cores_events(ctx, board):
    # The core's branches, taken branches, calls and returns over the
    # same interval
    for r in records_per_event(ctx, "flow"):
        assert_counts(r, event=r["event"],
                      core=flow_counts(r["n"])[r["event"]])


def test_exceptions_are_no_change_of_the_pc_their_returns_are(ctx, board):
    for r in records_per_event(ctx, "svc"):
        n = r["n"]
        assert_counts(r, event=r["event"], pmn0=svc_counts(n)[r["event"]],
                      pmn1=4 * n + 2)


def test_branch_event_overflow_interrupts_at_the_next_instruction(ctx,
                                                                  board):
    seen = pmu(ctx).get("exact_overflow", [])
    assert [(r["event"], r["k"]) for r in seen] == [
        (e, k) for e in BRANCH_EVENTS for k in (1, 5, 16)], seen
    for r in seen:
        # Taken once, with the pc of the instruction after the k-th event
        assert_counts(r, event=r["event"], k=r["k"], taken=1,
                      offset=r["k"] * CHAIN_STEP[r["event"]])


def test_events_qemu_cannot_know_read_zero(ctx, board):
    r = rec(ctx, "unsupported")
    assert_counts(r, pmn0=0, pmn1=0, ccnt=2 * r["n"] + 2)


def test_p_zeroes_the_count_registers_only(ctx, board):
    r = rec(ctx, "p_reset")
    assert_counts(r, pmnc=0, pmn0=0, pmn1=0, ccnt=2 * r["n"] + 2)


def test_c_zeroes_the_cycle_counter_only(ctx, board):
    r = rec(ctx, "c_reset")
    n = r["n"]
    assert_counts(r, pmnc=0, ccnt=0, pmn0=2 * n + 2, pmn1=n)


def test_d_divides_the_cycle_count_by_64(ctx, board):
    r = rec(ctx, "divider")
    cycles = 2 * r["n"] + 2
    assert_counts(r, ccnt=cycles // 64, pmn0=cycles, pmn1=cycles)
    # The cycles short of the 64th carry into the next run
    again = rec(ctx, "divider_again")
    assert_counts(again, ccnt=2 * cycles // 64, pmn0=2 * cycles,
                  pmn1=2 * cycles)


def test_overflow_sets_each_counters_flag(ctx, board):
    r = rec(ctx, "overflow")
    # Each started 10 below 2^32 and saw 2n + 2 = 22
    left = 2 * r["n"] + 2 - 10
    assert_counts(r, pmnc=CR0 | CR1 | CCR, ccnt=left, pmn0=left, pmn1=left)


def test_overflow_flags_clear_by_writing_1_with_e_set(ctx, board):
    evts = events(EVT_CYCLE, EVT_INSTRUCTION)
    assert_counts(rec(ctx, "clear_without_e"), pmnc=evts | CR0 | CR1 | CCR)
    assert_counts(rec(ctx, "clear_ccr"), pmnc=E | evts | CR0 | CR1)
    assert_counts(rec(ctx, "clear_all"), pmnc=E | evts)


def test_no_overflow_no_flag(ctx, board):
    r = rec(ctx, "no_overflow")
    assert_counts(r, pmnc=0, ccnt=(1 << 32) - 100 + 2 * r["n"] + 2)


def test_overflow_interrupt_raised_and_cleared(ctx, board):
    assert_counts(rec(ctx, "interrupt"), before=0, raised=1,
                  kept_without_e=1, cleared=0, disabled=0)


def test_overflow_interrupt_comes_at_the_overflow(ctx, board):
    r = rec(ctx, "interrupt_timing")
    # Polling sees it within a round of the overflow: CCNT has counted
    # one round (a few instructions) past 0 when the loop stops it
    assert 0 < r["rounds"] < 100000, r
    assert r["ccnt"] < 32, r


def test_overflow_interrupt_is_taken_and_its_handler_clears_it(ctx, board):
    r = rec(ctx, "interrupt_taken")
    # Taken once, right after the overflow: the handler reads CCNT with
    # its third instruction; cleared by writing PMNC back (E set)
    assert_counts(r, count=1, flags=0, pending=0)
    assert 3 <= r["ccnt_in_handler"] <= 8, r


def test_user_mode_needs_v(ctx, board):
    assert_counts(rec(ctx, "validation"), v=1)
    assert_counts(rec(ctx, "user_access"), undefined_v0=1, undefined_v1=0,
                  nonzero_v1=1)


def test_counts_agree_with_the_counter_core(ctx, board):
    r = rec(ctx, "with_core")
    expected = 2 * r["n"] + 2
    assert_counts(r, core=expected, ccnt=expected, pmn0=expected,
                  pmn1=expected)


def test_example_prints_both_measurements(ctx, board):
    result = run_image(ctx, BOARD, "firmware/examples/arm11_pmu.elf")
    expect_exit(result)
    out = result.output
    assert "insertion sort of 1000 ints: sorted" in out, out
    m = re.search(r"CCNT (\d+) cycles, PMN0 (\d+) instructions, "
                  r"PMN1 (\d+) branches\n", out)
    assert m, out
    ccnt, instructions, branches = map(int, m.groups())
    section = int(re.search(r"counter core: section (\d+) clocks", out)[1])
    # A busy routine: one cycle per instruction
    assert ccnt == instructions, out
    # The worst case: about n^2/2 inner rounds of a few instructions
    assert 1000 * 999 // 2 < branches < ccnt // 2, out
    # The section spans the PMU's start and stop and a few instructions
    assert 0 < section - ccnt < 16, out
    assert "--Performance Counter Report--" in out, out
