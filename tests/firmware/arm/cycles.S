/*
 * Instruction sequences of known cycle counts on the Thumb-2 cores
 * (Cortex-M3, M4, M7, M33, M55; tests/boot/test_cycles.py), in the frame
 * of cycles_frame.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "cycles_frame.h"

/* Loads: 8 independent (pipelined), 8 dependent (a chain) */
    begin ldr_independent
    start ldr_independent
    ldr r0, [r4]
    ldr r1, [r4, #4]
    ldr r2, [r4, #8]
    ldr r3, [r4, #12]
    ldr r6, [r4, #16]
    ldr r7, [r4, #20]
    ldr r8, [r4, #24]
    ldr r9, [r4, #28]
    finish ldr_independent

/* 8 independent literal loads: from flash on a part with wait states */
    begin ldr_literal
    start ldr_literal
    ldr r0, cyc_literals
    ldr r1, cyc_literals + 4
    ldr r2, cyc_literals + 8
    ldr r3, cyc_literals + 12
    ldr r6, cyc_literals + 16
    ldr r7, cyc_literals + 20
    ldr r8, cyc_literals + 24
    ldr r9, cyc_literals + 28
    finish ldr_literal
    .balign 16
cyc_literals:
    .word 1, 2, 3, 4, 5, 6, 7, 8

/* Loads alternating between a literal (the code's memory) and data */
    begin ldr_literal_data
    start ldr_literal_data
    ldr r0, cyc_literals
    ldr r1, [r4]
    ldr r2, cyc_literals + 4
    ldr r3, [r4, #4]
    ldr r6, cyc_literals + 8
    ldr r7, [r4, #8]
    ldr r8, cyc_literals + 12
    ldr r9, [r4, #12]
    finish ldr_literal_data

/* 8 loads alternating between r10's memory and r4's (cyc_data) */
.macro alternating_loads
    ldr r0, [r10]
    ldr r1, [r4]
    ldr r2, [r10, #4]
    ldr r3, [r4, #4]
    ldr r6, [r10, #8]
    ldr r7, [r4, #8]
    ldr r8, [r10, #12]
    ldr r9, [r4, #12]
.endm

/*
 * Loads alternating between the code's memory, read through a register
 * (a table), and data
 */
    begin ldr_flash_data
    ldr r10, =cyc_literals
    start ldr_flash_data
    alternating_loads
    finish ldr_flash_data

/*
 * Loads alternating between SRAM and where an STM32F4 has its SRAM2,
 * on boards with RAM there (else more of cyc_data)
 */
    begin ldr_sram2_data
    add r10, r4, #128
#if __ARM_ARCH == 7
    ldr r0, =__ram_size
    cmp r0, #0x20000
    blo 1f
    ldr r10, =0x2001c000
1:
#endif
    start ldr_sram2_data
    alternating_loads
    finish ldr_sram2_data

/*
 * The same run after a B<c> not taken, which fetched its target in the
 * place of the next word
 */
    begin unaligned_run_after_branch
    movs r0, #1
    .balign 4
    start unaligned_run_after_branch
    beq.n 2f
    add.w r1, r1, #1
    add.w r2, r2, #1
    add.w r3, r3, #1
2:  nop
    finish unaligned_run_after_branch

/*
 * Three 32-bit instructions on odd halfwords, after a multi-cycle LDR,
 * after a single-cycle ADDS, and on whole words after a 32-bit LDR
 */
    begin unaligned_run
    .balign 4
    start unaligned_run
    ldr r0, [r4]
    add.w r1, r1, #1
    add.w r2, r2, #1
    add.w r3, r3, #1
    finish unaligned_run

    begin unaligned_run_after_alu
    .balign 4
    start unaligned_run_after_alu
    adds r0, #1
    add.w r1, r1, #1
    add.w r2, r2, #1
    add.w r3, r3, #1
    finish unaligned_run_after_alu

    begin aligned_run
    .balign 4
    start aligned_run
    ldr.w r0, [r4]
    add.w r1, r1, #1
    add.w r2, r2, #1
    add.w r3, r3, #1
    finish aligned_run

    begin ldr_dependent
    mov r0, r4
    start ldr_dependent
    .rept 8
    ldr r0, [r0]
    .endr
    finish ldr_dependent

/* An address computed by the instruction before: 4 times ADD, LDR */
    begin ldr_after_alu
    start ldr_after_alu
    .rept 4
    adds r1, r4, #4
    ldr r0, [r1]
    .endr
    finish ldr_after_alu

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
    str r0, [r4]
    str r0, [r4, #4]
    str r0, [r4, #8]
    str r0, [r4, #12]
    str r0, [r4, #16]
    str r0, [r4, #20]
    str r0, [r4, #24]
    str r0, [r4, #28]
    finish str_imm

    begin str_reg
    start str_reg
    .rept 8
    str r0, [r4, r5]
    .endr
    finish str_reg

/*
 * A backward branch taken 9 times of 10, to a 16-bit instruction (the
 * loop on one 8-byte line: tests/boot/test_memory.py)
 */
    begin branch_loop
    .balign 8
    nop
    start branch_loop
    movs r0, #10
1:  subs r0, r0, #1
    bne 1b
    finish branch_loop

/*
 * The same with its flags set 3 cycles before its branch on a
 * Cortex-M7 (the ADDs do not set them and wait for each other)
 */
    begin branch_flags_early
    .balign 8
    nop
    start branch_flags_early
    movs r0, #10
1:  subs r0, r0, #1
    add r1, r2
    add r1, r2
    add r1, r2
    add r1, r2
    bne 1b
    finish branch_flags_early

/* The same to a 32-bit instruction on an odd halfword */
    begin branch_loop_wide
    .balign 4
    start branch_loop_wide
    movs r0, #10
1:  subs.w r0, r0, #1
    bne 1b
    finish branch_loop_wide

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
    cbz r0, 2f
    nop
2:  nop
    finish branch_forward_taken

/*
 * A forward branch taken 10 times of 10: a static guess (not taken)
 * misses each time, a 2-bit predictor twice, then learns it
 */
    begin branch_learned
    start branch_learned
    movs r0, #10
1:  cmp r0, #100
    bne 2f
    nop
2:  subs r0, r0, #1
    bne 1b
    finish branch_learned

/*
 * Loads to the pc, each to a NOP: LDR pc, POP {r0, pc}, TBB (their
 * targets known only when the load's data arrives)
 */
    begin load_pc
    adr r0, 1f + 1
    str r0, [r4, #8]
    start load_pc
    ldr pc, [r4, #8]
    nop
    .balign 4
1:  nop
    finish load_pc

    begin pop_pc
    adr r1, 1f + 1
    push {r0, r1}
    start pop_pc
    pop {r0, pc}
    nop
    .balign 4
1:  nop
    finish pop_pc

    begin table_branch
    movs r0, #1
    start table_branch
    tbb [pc, r0]
2:  .byte 0, (1f - 2b) / 2
    nop
1:  nop
    finish table_branch

/*
 * BX lr, its target known in decode; BX of another register, and BX lr
 * right after lr is written, known in execute; each to a NOP
 */
    begin bx_lr
    adr lr, 1f + 1
    start bx_lr
    bx lr
    nop
    .balign 4
1:  nop
    finish bx_lr

    begin bx_register
    adr r0, 1f + 1
    start bx_register
    bx r0
    nop
    .balign 4
1:  nop
    finish bx_register

    begin bx_lr_written
    adr r0, 1f + 1
    start bx_lr_written
    mov lr, r0
    bx lr
    nop
    .balign 4
1:  nop
    finish bx_lr_written

/*
 * A call and its return to a 32-bit instruction on a whole word (the
 * BL at 4k+4, after the start's ISB), then on an odd halfword (at 4k+6)
 */
    begin call_return_word
    .balign 4
    start call_return_word
    bl cyc_leaf
    add.w r1, r1, #1
    finish call_return_word

    begin call_return_odd
    .balign 4
    nop
    start call_return_odd
    bl cyc_leaf
    add.w r1, r1, #1
    finish call_return_odd

    .balign 4
    .type cyc_leaf, %function
    .thumb_func
cyc_leaf:
    bx lr
    .size cyc_leaf, . - cyc_leaf

/* IT after a 16-bit load: not folded */
    begin it_after_load
    movs r1, #0
    start it_after_load
    .rept 4
    ldr r0, [r4]
    it eq
    moveq r1, r2
    .endr
    finish it_after_load

/* Multiplies, 4 of each */
    begin mul
    movs r1, #3
    movs r2, #5
    start mul
    .rept 4
    mul r0, r1, r2
    .endr
    finish mul

    begin mla
    movs r1, #3
    movs r2, #5
    start mla
    .rept 4
    mla r0, r1, r2, r3
    .endr
    finish mla

/* Long multiplies, one each with small and large operands */
    begin umull_small
    movs r2, #3
    movs r3, #3
    start umull_small
    umull r0, r1, r2, r3
    finish umull_small

    begin umull_large
    mov r2, #-1
    mov r3, #-1
    start umull_large
    umull r0, r1, r2, r3
    finish umull_large

/* One operand small, the other not: the long count on the M3 */
    begin umull_mixed
    mov r2, #-1
    movs r3, #3
    start umull_mixed
    umull r0, r1, r2, r3
    finish umull_mixed

    begin smlal_small
    movs r2, #3
    movs r3, #3
    start smlal_small
    smlal r0, r1, r2, r3
    finish smlal_small

    begin smlal_large
    mvn r2, #0x80000000
    mvn r3, #0x80000000
    start smlal_large
    smlal r0, r1, r2, r3
    finish smlal_large

/* Divisions: a quotient of 0 bits and one of 32 */
    begin sdiv_small
    movs r2, #2
    movs r3, #3
    start sdiv_small
    sdiv r0, r2, r3
    finish sdiv_small

    begin udiv_large
    mov r2, #-1
    movs r3, #1
    start udiv_large
    udiv r0, r2, r3
    finish udiv_large

/* PUSH, POP, STM and LDM of 1 to 8 registers */
.macro multiple n, list
    begin multiple_\n
    start multiple_\n
    push {\list}
    stm r4, {\list}
    pop {\list}
    ldm r4, {\list}
    finish multiple_\n
.endm
    multiple 1, "r0"
    multiple 2, "r0-r1"
    multiple 3, "r0-r2"
    multiple 4, "r0-r3"
    multiple 5, "r0-r3, r5"
    multiple 6, "r0-r3, r5-r6"
    multiple 7, "r0-r3, r5-r7"
    multiple 8, "r0-r3, r5-r8"

/* IT after a 16-bit instruction (folded) and after a 32-bit one */
    begin it_folded
    start it_folded
    .rept 4
    adds r0, r0, #1
    it eq
    moveq r1, #1
    .endr
    finish it_folded

    begin it_not_folded
    start it_not_folded
    .rept 4
    add.w r0, r0, #1
    it eq
    moveq r1, #1
    .endr
    finish it_not_folded

/* Independent and dependent data processing (Cortex-M7 dual issue) */
    begin alu_independent
    start alu_independent
    .rept 2
    add r0, r0, #1
    add r1, r1, #1
    add r2, r2, #1
    add r3, r3, #1
    .endr
    finish alu_independent

    begin alu_dependent
    start alu_dependent
    .rept 8
    add r0, r0, #1
    .endr
    finish alu_dependent

/*
 * 16-bit data processing: a shift beside a move of a constant (the
 * Cortex-M55 issues them together), then a shift and an EOR (it does
 * not)
 */
    begin alu16_pairs
    start alu16_pairs
    .rept 4
    lsls r2, r3, #1
    movs r1, #2
    lsls r6, r3, #2
    eors r7, r3
    .endr
    finish alu16_pairs

/*
 * A load's result used next, plainly and shifted (the Cortex-M7 reads
 * a shifted operand a stage early); a value extended as soon as made
 * (a plain extend reads it late); a store of the value just made; two
 * shifted operands side by side
 */
    begin load_use
    start load_use
    .rept 4
    ldr r0, [r4]
    add r1, r1, r0
    .endr
    finish load_use

    begin load_shifted_use
    start load_shifted_use
    .rept 4
    ldr r0, [r4]
    add r1, r1, r0, lsl #1
    .endr
    finish load_shifted_use

    begin extend_use
    start extend_use
    .rept 4
    add r0, r0, #1
    uxtb r1, r0, ror #8
    .endr
    finish extend_use

    begin store_made
    start store_made
    .rept 4
    add r0, r0, #1
    str r0, [r4]
    .endr
    finish store_made

    begin shifted_pairs
    start shifted_pairs
    .rept 4
    add r0, r0, r1, lsl #1
    add r2, r2, r3, lsl #1
    .endr
    finish shifted_pairs

/* Multiplies beside data processing, and beside each other */
    begin mul_alu
    start mul_alu
    .rept 4
    mul r0, r1, r2
    add r3, r3, #1
    .endr
    finish mul_alu

    begin mul_mul
    start mul_mul
    .rept 4
    mul r0, r1, r2
    mul r3, r1, r2
    .endr
    finish mul_mul

/* Run every sequence once */
/*
 * The same across a 1 KiB page, where QEMU ends a block: the third
 * and fourth instructions on either side (tests/boot/test_cycles.py
 * checks where the page falls).  The schedule continues across it:
 * these take what ldr_independent and alu_independent take.  (The fill
 * before each is executed, outside the window: MOVS r0, r0.)
 */
    .balign 1024
cyc_page_1:
    .skip 1024 - 128
    begin page_loads
    .org cyc_page_1 + 1024 - 12 - 4, 0
    start page_loads
    ldr.w r0, [r4]
    ldr.w r1, [r4, #4]
    ldr.w r2, [r4, #8]
    ldr.w r3, [r4, #12]
    ldr.w r6, [r4, #16]
    ldr.w r7, [r4, #20]
    ldr.w r8, [r4, #24]
    ldr.w r9, [r4, #28]
    finish page_loads

    .balign 1024
cyc_page_2:
    .skip 1024 - 128
    begin page_pairs
    .org cyc_page_2 + 1024 - 12 - 4, 0
    start page_pairs
    .rept 2
    add.w r0, r0, #1
    add.w r1, r1, #1
    add.w r2, r2, #1
    add.w r3, r3, #1
    .endr
    finish page_pairs

    .global cycles_run
    .type cycles_run, %function
    .thumb_func
cycles_run:
    push {r4, lr}
    .irp name, ldr_independent, ldr_literal, ldr_literal_data, ldr_flash_data, ldr_sram2_data, \
        unaligned_run, unaligned_run_after_alu, unaligned_run_after_branch, aligned_run, ldr_dependent, ldr_after_alu, ldr_str, \
        str_imm, str_reg, branch_loop, branch_flags_early, branch_loop_wide, branch_not_taken, \
        branch_forward_taken, branch_learned, load_pc, pop_pc, table_branch, \
        bx_lr, bx_register, bx_lr_written, call_return_word, call_return_odd, it_after_load, mul, mla, umull_small, umull_large, umull_mixed, \
        smlal_small, smlal_large, sdiv_small, udiv_large, \
        multiple_1, multiple_2, multiple_3, multiple_4, multiple_5, \
        multiple_6, multiple_7, multiple_8, it_folded, it_not_folded, \
        alu_independent, alu_dependent, alu16_pairs, mul_alu, mul_mul, \
        load_use, load_shifted_use, extend_use, store_made, shifted_pairs, \
        page_loads, page_pairs
    bl cyc_\name
    .endr
    pop {r4, pc}
    .size cycles_run, . - cycles_run
