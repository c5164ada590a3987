/*
 * Board support for bare-metal AArch64 (aarch64-virt): reading an
 * address that may be empty.  On the virt board a load where nothing
 * answers is a data abort.
 *
 * int board_probe_read(alt_u32 addr, alt_u32 *value): 0, or -1 if the
 * load faulted (*value is then 0).  The load runs under a vector table
 * of its own, IRQs masked, whose synchronous entry resumes after it.
 *
 * SPDX-License-Identifier: MIT
 */
    .text
    .global board_probe_read
    .type board_probe_read, %function
board_probe_read:
    mrs x4, daif
    msr daifset, #2
    mrs x5, vbar_el1            // the program's vectors
    adr x3, probe_vectors
    msr vbar_el1, x3
    isb
    mov w2, #0                  // faulted
    mov w0, w0                  // the address, zero-extended
    ldr w0, [x0]                // on abort: w0 = 0, w2 = 1, on at 1:
1:  msr vbar_el1, x5
    isb
    msr daif, x4
    str w0, [x1]
    neg w0, w2
    ret
    .size board_probe_read, . - board_probe_read

    .balign 2048
probe_vectors:
    .rept 16
    .balign 0x80
    b probe_abort               // IRQs are masked: only the load's abort
    .endr

probe_abort:
    adr x3, 1b
    msr elr_el1, x3
    mov w0, #0
    mov w2, #1
    eret
