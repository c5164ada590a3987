/*
 * RISC-V's mcycle and minstret around a loop (tests/boot/
 * test_riscv_counters.py): cycle_loop(), instret_loop() and hpm_loop() read the
 * counter, run a loop of 10 iterations, read it again and return the
 * difference.  Their labels bound what the difference covers, so that
 * the plugin's window on them counts the same instructions and model
 * cycles.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

    .global cycle_loop
    .type cycle_loop, @function
cycle_loop:
    csrr t0, mcycle
    .global cycle_loop_start
cycle_loop_start:
    li t2, 10
1:  addi t2, t2, -1
    bnez t2, 1b
    csrr t1, mcycle
    .global cycle_loop_end
cycle_loop_end:
    sub a0, t1, t0
    ret
    .size cycle_loop, . - cycle_loop

/*
 * wfi_instret(): minstret over a WFI that returns at once (the caller
 * leaves an interrupt pending, enabled in mie, with mstatus.MIE clear:
 * no trap) and the 8 instructions after it, which QEMU translates in
 * the same block unless the WFI ends it (patch 0026)
 */
    .global wfi_instret
    .type wfi_instret, @function
wfi_instret:
    csrr t0, minstret
    wfi
    .rept 8
    nop
    .endr
    csrr t1, minstret
    sub a0, t1, t0
    ret
    .size wfi_instret, . - wfi_instret

    .global instret_loop
    .type instret_loop, @function
instret_loop:
    csrr t0, minstret
    li t2, 10
1:  addi t2, t2, -1
    bnez t2, 1b
    csrr t1, minstret
    sub a0, t1, t0
    ret
    .size instret_loop, . - instret_loop

/*
 * hpm_loop(a0 = buffer of 2 words): mhpmcounter3 over a loop of 10
 * iterations, each one load, one store, one multiply, one divide, one
 * JAL, one JALR and one conditional branch (and no other of the E31's
 * class 0 events but integer arithmetic and system instructions)
 */
    .global hpm_loop
    .type hpm_loop, @function
hpm_loop:
    csrr t0, mhpmcounter3
    li t2, 10
1:  lw t1, 0(a0)
    sw t1, 4(a0)
    mul t1, t1, t2
    divu t1, t1, t2
    jal t3, hpm_leaf
    addi t2, t2, -1
    bnez t2, 1b
    csrr t1, mhpmcounter3
    sub a0, t1, t0
    ret
    .size hpm_loop, . - hpm_loop

    .type hpm_leaf, @function
hpm_leaf:
    jr t3
    .size hpm_leaf, . - hpm_leaf
