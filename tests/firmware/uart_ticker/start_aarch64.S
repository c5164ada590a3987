/*
 * uart_ticker's entry point and exception vectors on AArch64:
 * aarch64-virt (Cortex-A53; QEMU starts an ELF at its entry at EL1).
 * As small firmware often runs, the MMU stays off (the C code is built
 * with -mstrict-align: data accesses are to Device memory, where an
 * unaligned one faults) and the FPU unused (-mgeneral-regs-only).
 *
 * _start: interrupts masked, the stack at the top of RAM (__stack),
 * VBAR_EL1 to our vectors, .data and .bss, then main() (which never
 * returns).
 *
 * irq_entry: saves what an AAPCS64 function may change (x0-x18, x29,
 * x30; no FP state), asks the board (board_irq_ack(), board_arm.c) to
 * acknowledge the interrupt controller and set the timer's next
 * compare, calls tick_handler() if it was the tick, and returns to the
 * interrupted instruction (ERET).  IRQs stay masked meanwhile.
 *
 * Any other exception prints which on the UART (board_fault(): the
 * vector's number, 0-15) and stops.
 *
 * SPDX-License-Identifier: MIT
 */
/* First in the image (picolibc.ld's .init, at __flash) */
    .section .text.init.enter, "ax", %progbits
    .global _start
    .type _start, %function
_start:
    msr daifset, #0xf
    ldr x0, =__stack
    mov sp, x0
    ldr x0, =aarch64_vectors
    msr vbar_el1, x0
    isb
    bl uart_ticker_init_memory
    bl main
1:  b 1b
    .size _start, . - _start
    .ltorg

    .text
    .balign 2048
aarch64_vectors:
    // From EL1 on SP_EL0, then on SP_EL1 (ours): synchronous, IRQ, FIQ,
    // SError each; then from EL0 (none here)
    .irp what, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    .balign 0x80
    .if \what == 5
    b irq_entry
    .else
    mov w0, #\what
    b fault
    .endif
    .endr

fault:
    ldr x1, =fault_stack_top
    mov sp, x1
    bl board_fault
2:  b 2b

    .global irq_entry
    .type irq_entry, %function
irq_entry:
    sub sp, sp, #176
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
    str x30, [sp, #160]
    bl board_irq_ack
    cbz w0, 3f
    bl tick_handler
3:  ldp x0, x1, [sp, #0]
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x16, x17, [sp, #128]
    ldp x18, x29, [sp, #144]
    ldr x30, [sp, #160]
    add sp, sp, #176
    eret
    .size irq_entry, . - irq_entry
    .ltorg

    .bss
    .balign 16
    .space 1024
fault_stack_top:
