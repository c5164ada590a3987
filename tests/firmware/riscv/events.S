/*
 * Event counts over hand-written RV32 code (tests/boot/test_events.py):
 * how many loads, stores, branches, calls and returns run between the
 * counter accesses is known exactly.  A section counts after its BEGIN
 * store up to and including its END store.  No compressed instructions:
 * each is 4 bytes.
 *
 * SPDX-License-Identifier: MIT
 */
    .option norvc
    .text

    .equ STOP_OR_RESET, 0
    .equ START, 4
    .equ END1, 16
    .equ BEGIN1, 20

/*
 * events_loop(a0 = base, a1 = n >= 1, a2 = buffer of 3 words): section 1
 * counts 7n + 1 instructions, 2n loads, n + 1 stores (with END's), 3n
 * branches (jal, ret, bnez), n calls, n returns, 3n - 1 taken branches;
 * n conditional branches (bnez), n direct jumps (jal), n indirect (ret).
 */
    .global events_loop
    .type events_loop, %function
events_loop:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw zero, START(a0)
    sw zero, BEGIN1(a0)
1:  lw t0, 0(a2)
    lw t0, 4(a2)
    sw t0, 8(a2)
    jal ra, events_leaf
    addi a1, a1, -1
    bnez a1, 1b
    sw zero, END1(a0)
    sw zero, STOP_OR_RESET(a0)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size events_loop, . - events_loop

    .type events_leaf, %function
events_leaf:
    ret
    .size events_leaf, . - events_leaf

/*
 * events_run(a0 = base, a1 = buffer): section 1 around 16 loads of 4
 * bytes from events_run_loads: a threshold of k loads interrupts at
 * events_run_loads + 4k.
 */
    .global events_run
    .type events_run, %function
events_run:
    sw zero, START(a0)
    sw zero, BEGIN1(a0)
    .global events_run_loads
events_run_loads:
    .rept 16
    lw t1, 0(a1)
    .endr
    sw zero, END1(a0)
    sw zero, STOP_OR_RESET(a0)
    ret
    .size events_run, . - events_run

/* events_arith(a0 = base, a1 = n >= 1): n multiplies, n divides */
    .global events_arith
    .type events_arith, %function
events_arith:
    sw zero, START(a0)
    sw zero, BEGIN1(a0)
1:  mul t0, a1, a1
    divu t0, t0, a1
    addi a1, a1, -1
    bnez a1, 1b
    sw zero, END1(a0)
    sw zero, STOP_OR_RESET(a0)
    ret
    .size events_arith, . - events_arith
