/*
 * Board support for bare-metal AArch64 (aarch64-virt): the entry QEMU
 * jumps to (the cross file's --entry), at EL1, before picolibc's crt0.
 *
 * With the MMU off every data access is to Device memory, where QEMU
 * (as the architecture) faults an unaligned one; picolibc's string
 * functions and compiled C make them.  So the MMU is turned on first,
 * with a flat map of the 4 GiB the board uses: the first GiB (flash,
 * GIC, UART, platform bus) Device-nGnRnE and never executed, RAM from
 * 0x40000000 Normal write-back cacheable, the rest Device.  The table
 * is constant (in .rodata), so that crt0's copy of .data and clearing
 * of .bss leave it as it is.  The exception vectors (exceptions.S) are
 * installed too, so that a fault in crt0 is reported.  Then picolibc's
 * _start sets the stack, enables the FPU and runs the program.
 *
 * SPDX-License-Identifier: MIT
 */
    .equ MAIR_DEVICE, 0x00                  // attribute 0: Device-nGnRnE
    .equ MAIR_NORMAL, 0xff                  // attribute 1: Normal, WB
    // A level 1 block: valid, block, access flag, inner shareable
    .equ BLOCK, (1 << 0) | (1 << 10) | (3 << 8)
    .equ NORMAL, BLOCK | (1 << 2)           // AttrIndx 1
    .equ DEVICE, BLOCK | (3 << 53)          // AttrIndx 0, PXN, UXN
    // T0SZ 32 (4 GiB, walks start at level 1), 4 KiB granule, inner and
    // outer write-back walks, inner shareable; EPD1: no TTBR1 walks
    .equ TCR, 32 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23)
    .equ SCTLR_M, 1 << 0                    // MMU
    .equ SCTLR_A, 1 << 1                    // alignment checks
    .equ SCTLR_C, 1 << 2                    // data cache
    .equ SCTLR_I, 1 << 12                   // instruction cache

    .section .text.aarch64_start, "ax", %progbits
    .global aarch64_start
    .type aarch64_start, %function
aarch64_start:
    ldr x0, =(MAIR_NORMAL << 8) | MAIR_DEVICE
    msr mair_el1, x0
    ldr x0, =TCR
    msr tcr_el1, x0
    adr x0, aarch64_flat_map
    msr ttbr0_el1, x0
    isb
    tlbi vmalle1
    dsb sy
    mrs x0, sctlr_el1
    orr x0, x0, #SCTLR_M
    orr x0, x0, #SCTLR_C
    orr x0, x0, #SCTLR_I
    bic x0, x0, #SCTLR_A
    msr sctlr_el1, x0
    adr x0, aarch64_vectors
    msr vbar_el1, x0
    isb
    b _start
    .size aarch64_start, . - aarch64_start
    .ltorg

    .section .rodata.aarch64_flat_map, "a", %progbits
    .balign 4096
aarch64_flat_map:
    .quad 0x00000000 | DEVICE
    .quad 0x40000000 | NORMAL
    .quad 0x80000000 | DEVICE
    .quad 0xc0000000 | DEVICE
