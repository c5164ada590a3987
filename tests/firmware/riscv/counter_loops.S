/*
 * RISC-V's mcycle and minstret around a loop (tests/boot/
 * test_riscv_counters.py): cycle_loop() and instret_loop() read the
 * counter, run a loop of 10 iterations, read it again and return the
 * difference.  Their labels bound what the difference covers, so that
 * the plugin's window on them counts the same instructions and model
 * cycles.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

    .global cycle_loop
    .type cycle_loop, @function
cycle_loop:
    csrr t0, mcycle
    .global cycle_loop_start
cycle_loop_start:
    li t2, 10
1:  addi t2, t2, -1
    bnez t2, 1b
    csrr t1, mcycle
    .global cycle_loop_end
cycle_loop_end:
    sub a0, t1, t0
    ret
    .size cycle_loop, . - cycle_loop

    .global instret_loop
    .type instret_loop, @function
instret_loop:
    csrr t0, minstret
    li t2, 10
1:  addi t2, t2, -1
    bnez t2, 1b
    csrr t1, minstret
    sub a0, t1, t0
    ret
    .size instret_loop, . - instret_loop
