/*
 * Instruction sequences of known cycle counts on an in-order RV32 core
 * (the SiFive E31 model; tests/boot/test_cycles.py): each function sets
 * its registers up, then runs its sequence between the labels
 * cyc_NAME_start and cyc_NAME_end, whose cycles the plugin counts with
 * window=START-END.  A FENCE.I (which ends QEMU's translated block)
 * stands before each sequence, so that no latency crosses into it, and
 * one after.  s0 points to cyc_data, whose first word holds its own
 * address (for chains of dependent loads).
 *
 * SPDX-License-Identifier: MIT
 */
    .bss
    .balign 8
cyc_data:
    .space 256

    .text

.macro begin name
    .global cyc_\name
    .type cyc_\name, @function
cyc_\name:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s0, 8(sp)
    la s0, cyc_data
    sw s0, 0(s0)
.endm

.macro start name
    fence.i
    .global cyc_\name\()_start
cyc_\name\()_start:
.endm

.macro finish name
    .global cyc_\name\()_end
cyc_\name\()_end:
    fence.i
    lw ra, 12(sp)
    lw s0, 8(sp)
    addi sp, sp, 16
    ret
    .size cyc_\name, . - cyc_\name
.endm

/* Loads: 8 independent, 8 dependent (a chain) */
    begin ldr_independent
    start ldr_independent
    lw a0, 0(s0)
    lw a1, 4(s0)
    lw a2, 8(s0)
    lw a3, 12(s0)
    lw a4, 16(s0)
    lw a5, 20(s0)
    lw a6, 24(s0)
    lw a7, 28(s0)
    finish ldr_independent

    begin ldr_dependent
    mv a0, s0
    start ldr_dependent
    .rept 8
    lw a0, 0(a0)
    .endr
    finish ldr_dependent

/* A word and a byte loaded, then used at once, 4 times each */
    begin load_use
    start load_use
    .rept 4
    lw a0, 0(s0)
    addi a1, a0, 1
    .endr
    finish load_use

    begin load_byte_use
    start load_byte_use
    .rept 4
    lbu a0, 0(s0)
    addi a1, a0, 1
    .endr
    finish load_byte_use

/* A load followed by a store of its value, 4 times */
    begin ldr_str
    start ldr_str
    .rept 4
    lw a0, 0(s0)
    sw a0, 4(s0)
    .endr
    finish ldr_str

/* 8 stores */
    begin str_imm
    start str_imm
    .rept 8
    sw a0, 4(s0)
    .endr
    finish str_imm

/* A backward branch taken 9 times of 10 */
    begin branch_loop
    start branch_loop
    li a0, 10
1:  addi a0, a0, -1
    bnez a0, 1b
    finish branch_loop

/* A forward branch taken once */
    begin branch_forward_taken
    li a0, 0
    start branch_forward_taken
    beqz a0, 2f
    nop
2:  nop
    finish branch_forward_taken

/* Multiplies: 4 independent, 4 used at once */
    begin mul
    li a1, 3
    li a2, 5
    start mul
    .rept 4
    mul a0, a1, a2
    .endr
    finish mul

    begin mul_use
    li a1, 3
    li a2, 5
    start mul_use
    .rept 4
    mul a0, a1, a2
    addi a3, a0, 1
    .endr
    finish mul_use

/* Divisions: a quotient of 0 bits and one of 32 */
    begin div_small
    li a1, 2
    li a2, 3
    start div_small
    div a0, a1, a2
    finish div_small

    begin divu_large
    li a1, -1
    li a2, 1
    start divu_large
    divu a0, a1, a2
    finish divu_large

/* Independent and dependent data processing */
    begin alu_independent
    start alu_independent
    .rept 2
    addi a0, a0, 1
    addi a1, a1, 1
    addi a2, a2, 1
    addi a3, a3, 1
    .endr
    finish alu_independent

/* Run every sequence once */
    .global cycles_run
    .type cycles_run, @function
cycles_run:
    addi sp, sp, -16
    sw ra, 12(sp)
    .irp name, ldr_independent, ldr_dependent, load_use, load_byte_use, \
        ldr_str, str_imm, branch_loop, branch_forward_taken, mul, mul_use, \
        div_small, divu_large, alu_independent
    call cyc_\name
    .endr
    lw ra, 12(sp)
    addi sp, sp, 16
    ret
    .size cycles_run, . - cycles_run
