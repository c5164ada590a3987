/*
 * Measured scenarios in hand-written Thumb-2 code, so that the number of
 * instructions between the counter accesses, and so the counts, are
 * known exactly.  With -icount, a section counts the instructions after
 * its BEGIN store up to and including its END store.
 *
 * Every function takes r0 = counter base, r1 = n >= 1 and uses section 1.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .thumb
    .text

    .equ STOP_OR_RESET, 0
    .equ START, 4
    .equ END1, 16
    .equ BEGIN1, 20

/* 2n instructions */
    .macro SPIN_R1
1:  subs r1, r1, #1
    bne 1b
    .endm

/* 2n + 1 instructions, n (a register) kept */
    .macro SPIN_COPY n
    mov r3, \n
1:  subs r3, r3, #1
    bne 1b
    .endm

/* Section 1 = 2n + 1, global = 2n + 3, one occurrence */
    .global scenario_loop
    .type scenario_loop, %function
    .thumb_func
scenario_loop:
    movs r2, #0
    str r2, [r0, #START]
    str r2, [r0, #BEGIN1]
    SPIN_R1
    str r2, [r0, #END1]
    str r2, [r0, #STOP_OR_RESET]
    bx lr
    .size scenario_loop, . - scenario_loop

/* BEGIN before START: section 1 = 2n + 2, global = 2n + 3, 0 occurrences */
    .global scenario_begin_while_stopped
    .type scenario_begin_while_stopped, %function
    .thumb_func
scenario_begin_while_stopped:
    movs r2, #0
    str r2, [r0, #BEGIN1]
    str r2, [r0, #START]
    SPIN_COPY r1
    str r2, [r0, #END1]
    str r2, [r0, #STOP_OR_RESET]
    bx lr
    .size scenario_begin_while_stopped, . - scenario_begin_while_stopped

/* BEGIN twice: section 1 = 4n + 4, global = 4n + 6, 2 occurrences */
    .global scenario_repeated_begin
    .type scenario_repeated_begin, %function
    .thumb_func
scenario_repeated_begin:
    movs r2, #0
    str r2, [r0, #START]
    str r2, [r0, #BEGIN1]
    SPIN_COPY r1
    str r2, [r0, #BEGIN1]
    SPIN_COPY r1
    str r2, [r0, #END1]
    str r2, [r0, #STOP_OR_RESET]
    bx lr
    .size scenario_repeated_begin, . - scenario_repeated_begin

/*
 * Two cores (r0, r1) time the same loop (r2 = n): each counts from after
 * its START store to its STOP store, so both see 2n + 3 (core 0: START
 * of core 1, mov and loop, its own STOP; core 1: mov and loop, both
 * STOPs).
 */
    .global scenario_two_counters
    .type scenario_two_counters, %function
    .thumb_func
scenario_two_counters:
    str r2, [r0, #START]
    str r2, [r1, #START]
    SPIN_COPY r2
    str r2, [r0, #STOP_OR_RESET]
    str r2, [r1, #STOP_OR_RESET]
    bx lr
    .size scenario_two_counters, . - scenario_two_counters

/* 2n instructions and the return: no counter access */
    .global scenario_spin
    .type scenario_spin, %function
    .thumb_func
scenario_spin:
1:  subs r0, r0, #1
    bne 1b
    bx lr
    .size scenario_spin, . - scenario_spin
