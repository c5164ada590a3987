/*
 * Board support for the Arm boards with a VBAR (arm-virt's Cortex-A15,
 * raspi1ap's ARM1176): exception vectors, so that a fault ends the
 * program with a report (arm_vbar_fault in fault.c) instead of running
 * into whatever is at address 0.  picolibc's crt0 has Cortex-A handlers
 * too, but leaves VBAR at 0 and reports the return address, not the
 * faulting instruction.  An IRQ goes to the board's interrupt
 * controller code (arm_vbar_irq), which reports it if it is not one of
 * the performance counter cores'.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
#include "arm-state.h"

    .section .text.arm_vbar_vectors, "ax", %progbits
    .balign 32
arm_vbar_vectors:
    BRANCH .                    /* reset: not taken after boot */
    BRANCH undefined_entry
    BRANCH svc_entry
    BRANCH prefetch_abort_entry
    BRANCH data_abort_entry
    BRANCH .                    /* reserved */
    BRANCH irq_entry
    BRANCH fiq_entry

/* r0: the kind (enum in fault.c); r1: the faulting instruction */
undefined_entry:
    mov r0, #0
    mrs r2, spsr
    tst r2, #0x20               /* Thumb: lr is the instruction + 2 */
#ifdef __thumb__
    ite ne
#endif
    subne r1, lr, #2
    subeq r1, lr, #4
    b report
svc_entry:
    mov r0, #1
    sub r1, lr, #SVC_LR_OFFSET
    b report
prefetch_abort_entry:
    mov r0, #2
    sub r1, lr, #4
    b report
data_abort_entry:
    mov r0, #3
    sub r1, lr, #8
    b report
irq_entry:
    b arm_vbar_irq_entry
fiq_entry:
    mov r0, #5
    sub r1, lr, #4
report:
    ldr sp, =arm_vbar_exception_stack_top
    ldr r2, =arm_vbar_fault
    bx r2

/*
 * The IRQ vector, also of probe.S's table: calls the board's
 * void arm_vbar_irq(alt_u32 pc) with the pc the program resumes at
 * (lr_irq - 4, in Arm and Thumb state alike) on a stack of its own, with
 * what an AAPCS function may change saved (soft-float: no VFP state).
 * IRQs stay masked meanwhile (CPSR.I, set on entry), so one runs at a
 * time; sp is set on each entry, whatever else has used IRQ mode's.
 */
    .global arm_vbar_irq_entry
    .type arm_vbar_irq_entry, %function
    FUNCTION
arm_vbar_irq_entry:
    ldr sp, =arm_vbar_irq_stack_top
    push {r0-r3, r12, lr}       /* 24 bytes: sp stays 8-byte aligned */
    sub r0, lr, #4
    ldr r1, =arm_vbar_irq
    blx r1
    pop {r0-r3, r12, lr}
    subs pc, lr, #4             /* back, restoring CPSR from SPSR */
    .size arm_vbar_irq_entry, . - arm_vbar_irq_entry
    .ltorg

/* Called before main (from .init_array): install the vectors */
    .section .text.arm_vbar_exceptions_init, "ax", %progbits
    .global arm_vbar_exceptions_init
    .type arm_vbar_exceptions_init, %function
    FUNCTION
arm_vbar_exceptions_init:
    ldr r0, =arm_vbar_vectors
    mcr p15, 0, r0, c12, c0, 0  /* VBAR */
    barrier r0
    bx lr
    .size arm_vbar_exceptions_init, . - arm_vbar_exceptions_init

/*
 * First of the constructors (the lowest priority a program may use), so
 * that one installing vectors of its own (perfctr_require_core.c's
 * wrong-base report) comes after it and wins
 */
    .section .init_array.00101, "aw", %init_array
    .balign 4
    .word arm_vbar_exceptions_init

    .bss
    .balign 8
    .space 1024
arm_vbar_exception_stack_top:
    .space 1024
arm_vbar_irq_stack_top:
