/*
 * Instruction sequences of known cycle counts on the Cortex-M0
 * (Armv6-M; tests/boot/test_cycles.py), as arm/cycles.S has them for
 * the Thumb-2 cores, in the frame of arm/cycles_frame.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "../arm/cycles_frame.h"

/* Loads: 8 independent, 8 dependent (a chain) */
    begin ldr_independent
    start ldr_independent
    ldr r0, [r4]
    ldr r1, [r4, #4]
    ldr r2, [r4, #8]
    ldr r3, [r4, #12]
    ldr r5, [r4, #16]
    ldr r6, [r4, #20]
    ldr r7, [r4, #24]
    ldr r0, [r4, #28]
    finish ldr_independent

    begin ldr_dependent
    mov r0, r4
    start ldr_dependent
    .rept 8
    ldr r0, [r0]
    .endr
    finish ldr_dependent

/* A load followed by a store, 4 times */
    begin ldr_str
    start ldr_str
    .rept 4
    ldr r0, [r4]
    str r0, [r4, #4]
    .endr
    finish ldr_str

/* Stores: 8 with an immediate offset, 8 with a register offset */
    begin str_imm
    start str_imm
    .rept 8
    str r0, [r4, #4]
    .endr
    finish str_imm

    begin str_reg
    start str_reg
    .rept 8
    str r0, [r4, r5]
    .endr
    finish str_reg

/* A backward branch taken 9 times of 10 */
    begin branch_loop
    start branch_loop
    movs r0, #10
1:  subs r0, r0, #1
    bne 1b
    finish branch_loop

/* A forward branch never taken, in a loop of 10 */
    begin branch_not_taken
    start branch_not_taken
    movs r0, #10
1:  cmp r0, #100
    beq 2f
    subs r0, r0, #1
    bne 1b
2:  nop
    finish branch_not_taken

/* A forward branch taken once */
    begin branch_forward_taken
    movs r0, #0
    start branch_forward_taken
    cmp r0, #0
    beq 2f
    nop
2:  nop
    finish branch_forward_taken

/* A call and its return, then a jump: BL, BX lr, B */
    begin call_return
    start call_return
    bl 1f
    b 2f
1:  bx lr
2:  nop
    finish call_return

/* Multiplies, 4, and beside data processing */
    begin mul
    movs r1, #3
    movs r0, #5
    start mul
    .rept 4
    muls r0, r1, r0
    .endr
    finish mul

    begin mul_alu
    movs r1, #3
    movs r0, #5
    start mul_alu
    .rept 4
    muls r0, r1, r0
    adds r2, r2, #1
    .endr
    finish mul_alu

/* PUSH, STM, POP and LDM of 1 to 7 registers */
.macro multiple n, list
    begin multiple_\n
    start multiple_\n
    push {\list}
    stmia r4!, {\list}
    pop {\list}
    ldmia r4!, {\list}
    finish multiple_\n
.endm
    multiple 1, "r0"
    multiple 2, "r0-r1"
    multiple 3, "r0-r2"
    multiple 4, "r0-r3"
    multiple 5, "r0-r3, r5"
    multiple 6, "r0-r3, r5-r6"
    multiple 7, "r0-r3, r5-r7"

/* Independent and dependent data processing */
    begin alu_independent
    start alu_independent
    .rept 2
    adds r0, r0, #1
    adds r1, r1, #1
    adds r2, r2, #1
    adds r3, r3, #1
    .endr
    finish alu_independent

    begin alu_dependent
    start alu_dependent
    .rept 8
    adds r0, r0, #1
    .endr
    finish alu_dependent

/* Special registers and barriers, 4 of each */
    begin mrs
    start mrs
    .rept 4
    mrs r0, primask
    .endr
    finish mrs

    begin dmb
    start dmb
    .rept 4
    dmb
    .endr
    finish dmb

/* Run every sequence once */
    .global cycles_run
    .type cycles_run, %function
    .thumb_func
cycles_run:
    push {r4, lr}
    .irp name, ldr_independent, ldr_dependent, ldr_str, str_imm, str_reg, \
        branch_loop, branch_not_taken, branch_forward_taken, call_return, \
        mul, mul_alu, multiple_1, multiple_2, multiple_3, multiple_4, \
        multiple_5, multiple_6, multiple_7, alu_independent, \
        alu_dependent, mrs, dmb
    bl cyc_\name
    .endr
    pop {r4, pc}
    .size cycles_run, . - cycles_run
