/*
 * raspi board support: exception vectors, so that a fault ends the
 * program with a report (arm_virt_fault in arm-virt/fault.c, shared:
 * the same CP15 fault registers) instead of running into whatever is
 * at address 0.  The ARM1176 takes exceptions in ARM state; its Secure
 * VBAR (c12, c0, 0) holds the table's address.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .arm

    .section .text.raspi_vectors, "ax", %progbits
    .balign 32
raspi_vectors:
    b .                         /* reset: not taken after boot */
    b undefined_entry
    b svc_entry
    b prefetch_abort_entry
    b data_abort_entry
    b .                         /* reserved */
    b irq_entry
    b fiq_entry

/* r0: the kind (enum in fault.c); r1: the faulting instruction */
undefined_entry:
    mov r0, #0
    mrs r2, spsr
    tst r2, #0x20               /* Thumb: lr is the instruction + 2 */
    subne r1, lr, #2
    subeq r1, lr, #4
    b report
svc_entry:
    mov r0, #1
    sub r1, lr, #4
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
    ldr sp, =raspi_exception_stack_top
    ldr r2, =arm_virt_fault
    bx r2

/* Called before main (from .init_array): install the vectors */
    .section .text.raspi_exceptions_init, "ax", %progbits
    .global raspi_exceptions_init
    .type raspi_exceptions_init, %function
raspi_exceptions_init:
    ldr r0, =raspi_vectors
    mcr p15, 0, r0, c12, c0, 0  /* VBAR */
    bx lr
    .size raspi_exceptions_init, . - raspi_exceptions_init

/*
 * First of the constructors (the lowest priority a program may use), so
 * that one installing vectors of its own (perfctr_require_core.c's
 * wrong-base report) comes after it and wins
 */
    .section .init_array.00101, "aw", %init_array
    .balign 4
    .word raspi_exceptions_init

    .bss
    .balign 8
    .space 1024
raspi_exception_stack_top:
