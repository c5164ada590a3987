/*
 * uart_ticker's entry point on riscv32-virt: QEMU (-bios none) jumps to
 * the start of RAM, 0x80000000, in machine mode (a0: hart id, a1: the
 * device tree, neither used).  Interrupts stay off (mstatus.MIE is 0
 * from reset) until board_tick_start().  Sets gp (the linker may relax
 * accesses near __global_pointer$ to it) and sp (the top of RAM,
 * __stack), then .data and .bss, then main() (which never returns).
 *
 * SPDX-License-Identifier: MIT
 */
/* First in the image (picolibc.ld's .init, at __flash) */
    .section .text.init.enter, "ax", @progbits
    .global _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack
    call uart_ticker_init_memory
    call main
1:  j 1b
    .size _start, . - _start
