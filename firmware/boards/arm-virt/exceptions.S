/*
 * arm-virt board support: exception vectors, so that a fault ends the
 * program with a report (arm_virt_fault) instead of running on into
 * the empty flash at address 0, where QEMU's vectors would be.
 * picolibc's crt0 has Cortex-A handlers too, but leaves VBAR at 0 and
 * reports the return address, not the faulting instruction.  picolibc
 * sets SCTLR.TE: exceptions are taken in Thumb state.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .thumb

    .section .text.arm_virt_vectors, "ax", %progbits
    .balign 32
arm_virt_vectors:
    b.w .                       /* reset: not taken after boot */
    b.w undefined_entry
    b.w svc_entry
    b.w prefetch_abort_entry
    b.w data_abort_entry
    b.w .                       /* reserved */
    b.w irq_entry
    b.w fiq_entry

/* r0: the kind (enum in fault.c); r1: the faulting instruction */
undefined_entry:
    mov r0, #0
    mrs r2, spsr
    tst r2, #0x20               /* Thumb: lr is the instruction + 2 */
    ite ne
    subne r1, lr, #2
    subeq r1, lr, #4
    b report
svc_entry:
    mov r0, #1
    sub r1, lr, #2
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
    ldr sp, =arm_virt_exception_stack_top
    ldr r2, =arm_virt_fault
    bx r2

/* Called before main (from .init_array): install the vectors */
    .section .text.arm_virt_exceptions_init, "ax", %progbits
    .global arm_virt_exceptions_init
    .type arm_virt_exceptions_init, %function
    .thumb_func
arm_virt_exceptions_init:
    ldr r0, =arm_virt_vectors
    mcr p15, 0, r0, c12, c0, 0  /* VBAR */
    isb
    bx lr
    .size arm_virt_exceptions_init, . - arm_virt_exceptions_init

/*
 * First of the constructors (the lowest priority a program may use), so
 * that one installing vectors of its own (perfctr_require_core.c's
 * wrong-base report) comes after it and wins
 */
    .section .init_array.00101, "aw", %init_array
    .balign 4
    .word arm_virt_exceptions_init

    .bss
    .balign 8
    .space 1024
arm_virt_exception_stack_top:
