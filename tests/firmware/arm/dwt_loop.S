/*
 * The Cortex-M DWT's CYCCNT around a loop (tests/boot/test_dwt.py):
 * dwt_loop(dwt) reads CYCCNT, runs a loop of 10 iterations, reads it
 * again and returns the difference.  The labels dwt_loop_start and
 * dwt_loop_end bound what the difference covers (each read counts
 * itself), so that the plugin's window on them counts the same
 * instructions and the same model cycles.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .thumb
    .text

    .global dwt_loop
    .type dwt_loop, %function
    .thumb_func
dwt_loop:
    isb
    ldr r1, [r0, #4]            @ CYCCNT
    .global dwt_loop_start
dwt_loop_start:
    movs r3, #10
1:  subs r3, r3, #1
    bne 1b
    ldr r2, [r0, #4]            @ CYCCNT
    .global dwt_loop_end
dwt_loop_end:
    isb
    subs r0, r2, r1
    bx lr
    .size dwt_loop, . - dwt_loop
