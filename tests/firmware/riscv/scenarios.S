/*
 * Measured scenarios in hand-written RISC-V code, so that the number of
 * instructions between the counter accesses, and so the counts, are
 * known exactly.  With -icount, a section counts the instructions after
 * its BEGIN store up to and including its END store.  The counts match
 * arm/scenarios.S, instruction for instruction.
 *
 * Every function takes a0 = counter base, a1 = n >= 1 and uses section 1.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

    .equ STOP_OR_RESET, 0
    .equ START, 4
    .equ END1, 16
    .equ BEGIN1, 20

/* 2n instructions */
    .macro SPIN_A1
1:  addi a1, a1, -1
    bnez a1, 1b
    .endm

/* 2n + 1 instructions, n (a register) kept */
    .macro SPIN_COPY n
    mv t0, \n
1:  addi t0, t0, -1
    bnez t0, 1b
    .endm

/* Section 1 = 2n + 1, global = 2n + 3, one occurrence */
    .global scenario_loop
    .type scenario_loop, @function
scenario_loop:
    sw zero, START(a0)
    sw zero, BEGIN1(a0)
    SPIN_A1
    sw zero, END1(a0)
    sw zero, STOP_OR_RESET(a0)
    ret
    .size scenario_loop, . - scenario_loop

/* BEGIN before START: section 1 = 2n + 2, global = 2n + 3, 0 occurrences */
    .global scenario_begin_while_stopped
    .type scenario_begin_while_stopped, @function
scenario_begin_while_stopped:
    sw zero, BEGIN1(a0)
    sw zero, START(a0)
    SPIN_COPY a1
    sw zero, END1(a0)
    sw zero, STOP_OR_RESET(a0)
    ret
    .size scenario_begin_while_stopped, . - scenario_begin_while_stopped

/* BEGIN twice: section 1 = 4n + 4, global = 4n + 6, 2 occurrences */
    .global scenario_repeated_begin
    .type scenario_repeated_begin, @function
scenario_repeated_begin:
    sw zero, START(a0)
    sw zero, BEGIN1(a0)
    SPIN_COPY a1
    sw zero, BEGIN1(a0)
    SPIN_COPY a1
    sw zero, END1(a0)
    sw zero, STOP_OR_RESET(a0)
    ret
    .size scenario_repeated_begin, . - scenario_repeated_begin

/* Two cores (a0, a1) time the same loop (a2 = n): both see 2n + 3 */
    .global scenario_two_counters
    .type scenario_two_counters, @function
scenario_two_counters:
    sw zero, START(a0)
    sw zero, START(a1)
    SPIN_COPY a2
    sw zero, STOP_OR_RESET(a0)
    sw zero, STOP_OR_RESET(a1)
    ret
    .size scenario_two_counters, . - scenario_two_counters

/* 2n instructions and the return: no counter access */
    .global scenario_spin
    .type scenario_spin, @function
scenario_spin:
1:  addi a0, a0, -1
    bnez a0, 1b
    ret
    .size scenario_spin, . - scenario_spin
