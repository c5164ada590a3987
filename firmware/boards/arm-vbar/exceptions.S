/*
 * Board support for the Arm boards with a VBAR (arm-virt's Cortex-A15,
 * raspi1ap's ARM1176): exception vectors, so that a fault ends the
 * program with a report (arm_vbar_fault in fault.c) instead of running
 * into whatever is at address 0.  picolibc's crt0 has Cortex-A handlers
 * too, but leaves VBAR at 0 and reports the return address, not the
 * faulting instruction.
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
    mov r0, #4
    sub r1, lr, #4
    b report
fiq_entry:
    mov r0, #5
    sub r1, lr, #4
report:
    ldr sp, =arm_vbar_exception_stack_top
    ldr r2, =arm_vbar_fault
    bx r2

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
