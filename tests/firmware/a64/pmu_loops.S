/*
 * Hand-written A64 code (AArch64) for tests/firmware/a_profile_pmu.c:
 * every count over it is known.  The A64 counterparts of
 * armv7a/pmu_loops.S, instruction for instruction, with the same
 * counts: the loops are SUBS and B.NE, whose last B.NE fails its
 * condition code as Thumb's BNE does (no branch retired, the pc not
 * written).  The selected counter (PMSELR_EL0) is read with
 * PMXEVCNTR_EL0, as there with PMXEVCNTR.
 *
 * A64 has no conditional loads or stores, so there is no
 * pmu_count_conditional: the program prints no "conditional" record on
 * AArch64.
 *
 * alt_u32 arguments are 32 bits: AAPCS64 leaves the upper half of their
 * x register unspecified, so the counts are in w registers.  The
 * Cortex-A53's event counters are 32 bits (PMUv3 before Armv8.5's
 * 64-bit ones): the difference of two reads is taken in w registers too.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

/*
 * pmu_count_loop(w0 = n >= 1): the selected counter's change from the
 * read before n iterations of subs/b.ne (n - 1 taken) to the read after
 * them, that read included
 */
    .global pmu_count_loop
    .type pmu_count_loop, %function
pmu_count_loop:
    mrs x1, pmxevcntr_el0
1:  subs w0, w0, #1
    b.ne 1b
    mrs x2, pmxevcntr_el0
    sub w0, w2, w1
    ret
    .size pmu_count_loop, . - pmu_count_loop

/*
 * pmu_overflow(w0 = n >= 1, w1 = preset): set the selected counter to
 * preset, clear its overflow flag (counter 0's), run n - 1 taken
 * branches and return the overflow flags (PMOVSCLR_EL0), read right
 * after them.  preset is zero-extended first (mov w1, w1), outside what
 * is counted: no branch.
 */
    .global pmu_overflow
    .type pmu_overflow, %function
pmu_overflow:
    mov w1, w1
    msr pmxevcntr_el0, x1
    mov x1, #1
    msr pmovsclr_el0, x1
1:  subs w0, w0, #1
    b.ne 1b
    mrs x0, pmovsclr_el0
    ret
    .size pmu_overflow, . - pmu_overflow

/*
 * pmu_count_branches(w0 = nonzero): the selected counter's change over a
 * CBZ not taken, a B.NE failing its condition and a B taken.  The CBZ
 * has no condition code: it retires as a branch, taken or not.
 */
    .global pmu_count_branches
    .type pmu_count_branches, %function
pmu_count_branches:
    mrs x1, pmxevcntr_el0
    cbz w0, 1f
    cmp w0, w0
    b.ne 1f
    b 1f
    nop
1:  mrs x2, pmxevcntr_el0
    sub w0, w2, w1
    ret
    .size pmu_count_branches, . - pmu_count_branches
