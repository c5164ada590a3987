/*
 * uart_ticker's entry point and exception vectors on the Arm boards with
 * a VBAR, in Arm state: arm-virt (Cortex-A15; QEMU starts an ELF at its
 * entry in SVC mode) and raspi1ap (ARM1176; Secure SVC mode).  Exceptions
 * are taken in Arm state (SCTLR.TE is 0 from reset).
 *
 * _start: IRQs and FIQs masked, an IRQ-mode stack of its own, SVC mode's
 * stack at the top of RAM (__stack), VBAR to our vectors, .data and
 * .bss, then main() (which never returns).
 *
 * irq_entry: saves what an AAPCS function may change (soft-float: no
 * VFP state), asks the board (board_irq_ack(), board_*.c) to acknowledge
 * the interrupt controller and set the timer's next compare, calls
 * tick_handler() if it was the tick, and returns to the interrupted
 * instruction (lr_irq - 4), CPSR from SPSR.  IRQs stay masked meanwhile.
 *
 * Any other exception prints which on the UART (board_fault()) and stops.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .arm

#define MODE_IRQ 0x12
#define MODE_SVC 0x13

/* An instruction barrier after a CP15 write; scratch is overwritten */
    .macro barrier scratch
#if __ARM_ARCH >= 7
    isb
#else
    mov \scratch, #0
    mcr p15, 0, \scratch, c7, c5, 4     /* flush the prefetch buffer */
#endif
    .endm

/* First in the image (picolibc.ld's .init, at __flash) */
    .section .text.init.enter, "ax", %progbits
    .global _start
    .type _start, %function
_start:
    cpsid if
    cps #MODE_IRQ
    ldr sp, =irq_stack_top
    cps #MODE_SVC
    ldr sp, =__stack
    ldr r0, =arm_vectors
    mcr p15, 0, r0, c12, c0, 0          /* VBAR */
    barrier r0
    bl uart_ticker_init_memory
    bl main
1:  b 1b
    .size _start, . - _start
    .ltorg

    .text
    .balign 32
arm_vectors:
    b reset_entry
    b undefined_entry
    b svc_entry
    b prefetch_abort_entry
    b data_abort_entry
    b reserved_entry
    b irq_entry
    b fiq_entry

/* r0: what (board_fault() says it), on a stack of its own */
reset_entry:
    mov r0, #0
    b fault
undefined_entry:
    mov r0, #1
    b fault
svc_entry:
    mov r0, #2
    b fault
prefetch_abort_entry:
    mov r0, #3
    b fault
data_abort_entry:
    mov r0, #4
    b fault
reserved_entry:
    mov r0, #5
    b fault
fiq_entry:
    mov r0, #7
fault:
    ldr sp, =fault_stack_top
    bl board_fault
2:  b 2b

    .global irq_entry
    .type irq_entry, %function
irq_entry:
    sub lr, lr, #4                      /* the interrupted instruction */
    push {r0-r3, r12, lr}               /* 24 bytes: sp stays 8-aligned */
    bl board_irq_ack
    cmp r0, #0
    blne tick_handler
    pop {r0-r3, r12, lr}
    movs pc, lr                         /* back, CPSR from SPSR */
    .size irq_entry, . - irq_entry
    .ltorg

    .bss
    .balign 8
    .space 1024
fault_stack_top:
    .space 1024
irq_stack_top:
