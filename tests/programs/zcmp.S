/*
 * A function built of Zcmp's push and pop (tests/boot/test_cpu.py), hand
 * encoded: Debian's binutils for RISC-V predates Zc*.  It returns its
 * argument plus one.
 *
 * SPDX-License-Identifier: MIT
 */
    .text
    .globl zcmp_fn
    .type zcmp_fn, @function
    .option push
    .option norvc
zcmp_fn:
    .2byte 0xb842               /* cm.push {ra}, -16 */
    addi a0, a0, 1
    .2byte 0xbe42               /* cm.popret {ra}, 16 */
    .size zcmp_fn, . - zcmp_fn
    .option pop
