/*
 * Hand-written code for tests/firmware/a_profile_pmu.c: every count over
 * it is known.  The selected counter (PMSELR) is read with PMXEVCNTR.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .thumb
    .text

/*
 * pmu_count_loop(r0 = n >= 1): the selected counter's change from the
 * read before n iterations of subs/bne (n - 1 taken) to the read after
 * them, that read included
 */
    .global pmu_count_loop
    .type pmu_count_loop, %function
    .thumb_func
pmu_count_loop:
    mrc p15, 0, r1, c9, c13, 2
1:  subs r0, r0, #1
    bne 1b
    mrc p15, 0, r2, c9, c13, 2
    sub r0, r2, r1
    bx lr
    .size pmu_count_loop, . - pmu_count_loop

/*
 * pmu_overflow(r0 = n >= 1, r1 = preset): set the selected counter to
 * preset, clear its overflow flag (counter 0's), run n - 1 taken
 * branches and return PMOVSR, read right after them
 */
    .global pmu_overflow
    .type pmu_overflow, %function
    .thumb_func
pmu_overflow:
    mcr p15, 0, r1, c9, c13, 2
    movs r1, #1
    mcr p15, 0, r1, c9, c12, 3
1:  subs r0, r0, #1
    bne 1b
    mrc p15, 0, r0, c9, c12, 3
    bx lr
    .size pmu_overflow, . - pmu_overflow

/*
 * pmu_count_conditional(r0 = buffer): the selected counter's change
 * over a load and a store that fail their condition, then a load and a
 * store that pass it
 */
    .global pmu_count_conditional
    .type pmu_count_conditional, %function
    .thumb_func
pmu_count_conditional:
    mrc p15, 0, r1, c9, c13, 2
    cmp r0, r0
    it ne
    ldrne r2, [r0]
    it ne
    strne r2, [r0, #4]
    it eq
    ldreq r2, [r0]
    it eq
    streq r2, [r0, #4]
    mrc p15, 0, r2, c9, c13, 2
    sub r0, r2, r1
    bx lr
    .size pmu_count_conditional, . - pmu_count_conditional

/*
 * pmu_count_branches(r0 = nonzero): the selected counter's change over a
 * CBZ not taken, a BNE failing its condition and a B taken
 */
    .global pmu_count_branches
    .type pmu_count_branches, %function
    .thumb_func
pmu_count_branches:
    mrc p15, 0, r1, c9, c13, 2
    cbz r0, 1f
    cmp r0, r0
    bne 1f
    b 1f
    nop
1:  mrc p15, 0, r2, c9, c13, 2
    sub r0, r2, r1
    bx lr
    .size pmu_count_branches, . - pmu_count_branches
