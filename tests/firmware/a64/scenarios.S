/*
 * Measured scenarios in hand-written A64 code (AArch64), so that the
 * number of instructions between the counter accesses, and so the
 * counts, are known exactly.  With -icount, a section counts the
 * instructions after its BEGIN store up to and including its END store.
 * The counts match arm/scenarios.S, instruction for instruction: the
 * loop is SUBS and B.NE as there, and the stores write WZR, so no
 * instruction makes a zero first.
 *
 * Every function takes x0 = counter base, w1 = n >= 1 and uses section
 * 1.  n is 32 bits (alt_u32): AAPCS64 leaves the upper half of x1
 * unspecified, so the loops count in w registers.  The device's
 * registers are 32-bit words: every access is a 32-bit STR.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

    .equ STOP_OR_RESET, 0
    .equ START, 4
    .equ END1, 16
    .equ BEGIN1, 20

/* 2n instructions */
    .macro SPIN_W1
1:  subs w1, w1, #1
    b.ne 1b
    .endm

/* 2n + 1 instructions, n (a register) kept */
    .macro SPIN_COPY n
    mov w3, \n
1:  subs w3, w3, #1
    b.ne 1b
    .endm

/* Section 1 = 2n + 1, global = 2n + 3, one occurrence */
    .global scenario_loop
    .type scenario_loop, %function
scenario_loop:
    str wzr, [x0, #START]
    str wzr, [x0, #BEGIN1]
    SPIN_W1
    str wzr, [x0, #END1]
    str wzr, [x0, #STOP_OR_RESET]
    ret
    .size scenario_loop, . - scenario_loop

/* BEGIN before START: section 1 = 2n + 2, global = 2n + 3, 0 occurrences */
    .global scenario_begin_while_stopped
    .type scenario_begin_while_stopped, %function
scenario_begin_while_stopped:
    str wzr, [x0, #BEGIN1]
    str wzr, [x0, #START]
    SPIN_COPY w1
    str wzr, [x0, #END1]
    str wzr, [x0, #STOP_OR_RESET]
    ret
    .size scenario_begin_while_stopped, . - scenario_begin_while_stopped

/* BEGIN twice: section 1 = 4n + 4, global = 4n + 6, 2 occurrences */
    .global scenario_repeated_begin
    .type scenario_repeated_begin, %function
scenario_repeated_begin:
    str wzr, [x0, #START]
    str wzr, [x0, #BEGIN1]
    SPIN_COPY w1
    str wzr, [x0, #BEGIN1]
    SPIN_COPY w1
    str wzr, [x0, #END1]
    str wzr, [x0, #STOP_OR_RESET]
    ret
    .size scenario_repeated_begin, . - scenario_repeated_begin

/*
 * Two cores (x0, x1) time the same loop (w2 = n): each counts from after
 * its START store to its STOP store, so both see 2n + 3 (core 0: START
 * of core 1, mov and loop, its own STOP; core 1: mov and loop, both
 * STOPs).
 */
    .global scenario_two_counters
    .type scenario_two_counters, %function
scenario_two_counters:
    str wzr, [x0, #START]
    str wzr, [x1, #START]
    SPIN_COPY w2
    str wzr, [x0, #STOP_OR_RESET]
    str wzr, [x1, #STOP_OR_RESET]
    ret
    .size scenario_two_counters, . - scenario_two_counters

/* 2n instructions and the return: no counter access (w0 = n >= 1) */
    .global scenario_spin
    .type scenario_spin, %function
scenario_spin:
1:  subs w0, w0, #1
    b.ne 1b
    ret
    .size scenario_spin, . - scenario_spin
