/*
 * Board support for bare-metal AArch64 (aarch64-virt): the exception
 * vectors (VBAR_EL1, installed by start.S).  The program runs at EL1;
 * exceptions are taken to EL1, from code on SP_EL1 (the program's
 * stack) or on SP_EL0 (a scheduler's tasks), with the same handlers:
 *
 * - an IRQ calls the board's void arm_vbar_irq(alt_u32 pc)
 *   (virt/interrupts.c) with the pc the program resumes at, on the
 *   stack it interrupted (SP_EL1: no red zone in AArch64), with what an
 *   AAPCS64 function may change saved (x0-x18, x29, x30, q0-q7,
 *   q16-q31, ELR and SPSR), then returns.  IRQs stay masked meanwhile
 *   (PSTATE.I, set on entry), so one runs at a time;
 * - any other exception is a fault: aarch64_fault(esr, elr, far)
 *   (fault.c) reports it and ends the program, on a stack of its own
 *   (the fault may be the stack's).
 *
 * SPDX-License-Identifier: MIT
 */
    .equ FRAME, 576             // 22 x registers, ELR, SPSR, 24 q registers

    .macro entry handler
    .balign 0x80
    b \handler
    .endm

    .section .text.aarch64_vectors, "ax", %progbits
    .balign 2048
    .global aarch64_vectors
aarch64_vectors:
    // Current EL with SP_EL0, then with SP_ELx: synchronous, IRQ, FIQ,
    // SError; then from a lower EL, in AArch64 and AArch32 (none here)
    .irp group, 0, 1
    entry fault
    entry irq
    entry fault
    entry fault
    .endr
    .rept 8
    entry fault
    .endr

fault:
    ldr x3, =aarch64_fault_stack_top
    mov sp, x3
    mrs x0, esr_el1
    mrs x1, elr_el1
    mrs x2, far_el1
    bl aarch64_fault            // does not return

irq:
    sub sp, sp, #FRAME
    stp x0, x1, [sp, #0]
    stp x2, x3, [sp, #16]
    stp x4, x5, [sp, #32]
    stp x6, x7, [sp, #48]
    stp x8, x9, [sp, #64]
    stp x10, x11, [sp, #80]
    stp x12, x13, [sp, #96]
    stp x14, x15, [sp, #112]
    stp x16, x17, [sp, #128]
    stp x18, x29, [sp, #144]
    mrs x0, elr_el1
    mrs x1, spsr_el1
    stp x30, x0, [sp, #160]
    str x1, [sp, #176]
    stp q0, q1, [sp, #192]
    stp q2, q3, [sp, #224]
    stp q4, q5, [sp, #256]
    stp q6, q7, [sp, #288]
    stp q16, q17, [sp, #320]
    stp q18, q19, [sp, #352]
    stp q20, q21, [sp, #384]
    stp q22, q23, [sp, #416]
    stp q24, q25, [sp, #448]
    stp q26, q27, [sp, #480]
    stp q28, q29, [sp, #512]
    stp q30, q31, [sp, #544]
    bl arm_vbar_irq             // w0: the pc it resumes at
    ldp q0, q1, [sp, #192]
    ldp q2, q3, [sp, #224]
    ldp q4, q5, [sp, #256]
    ldp q6, q7, [sp, #288]
    ldp q16, q17, [sp, #320]
    ldp q18, q19, [sp, #352]
    ldp q20, q21, [sp, #384]
    ldp q22, q23, [sp, #416]
    ldp q24, q25, [sp, #448]
    ldp q26, q27, [sp, #480]
    ldp q28, q29, [sp, #512]
    ldp q30, q31, [sp, #544]
    ldp x30, x0, [sp, #160]
    ldr x1, [sp, #176]
    msr elr_el1, x0
    msr spsr_el1, x1
    ldp x0, x1, [sp, #0]
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x16, x17, [sp, #128]
    ldp x18, x29, [sp, #144]
    add sp, sp, #FRAME
    eret
    .ltorg

    .bss
    .balign 16
    .space 4096
aarch64_fault_stack_top:
