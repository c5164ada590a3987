/*
 * A program of known call structure, in hand-written Arm code (Thumb,
 * Armv6-M's or Thumb-2, or Arm state on ARMv6, the ARM1176 of raspi1ap:
 * only instructions all have), so that each function's own instruction count and call
 * count are known exactly (tests/boot/test_hotspots.py):
 *
 *   callgraph_run  called once     3034 instructions of its own
 *   callgraph_a    1000 calls      12 each, 12000 in all
 *   callgraph_b    3000 calls (3 per a)  2 each, 6000 in all
 *   callgraph_c    10 calls        40002 each, 400020 in all
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
#ifdef __thumb__
    .thumb
#define FUNCTION .thumb_func
#else
    .arm
#define FUNCTION
#endif
    .text

/* void callgraph_run(void): a() 1000 times, then c() 10 times */
    .global callgraph_run
    .type callgraph_run, %function
    FUNCTION
callgraph_run:
    push {r4, lr}               @ 1
    ldr r4, =1000               @ 1
1:  bl callgraph_a              @ 3 per iteration
    subs r4, r4, #1
    bne 1b
    movs r4, #10                @ 1
2:  bl callgraph_c              @ 3 per iteration
    subs r4, r4, #1
    bne 2b
    pop {r4, pc}                @ 1
    .size callgraph_run, . - callgraph_run

/* b() 3 times: 12 instructions */
    .global callgraph_a
    .type callgraph_a, %function
    FUNCTION
callgraph_a:
    push {r4, lr}               @ 1
    movs r4, #3                 @ 1
1:  bl callgraph_b              @ 3 per iteration
    subs r4, r4, #1
    bne 1b
    pop {r4, pc}                @ 1
    .size callgraph_a, . - callgraph_a

/* 2 instructions */
    .global callgraph_b
    .type callgraph_b, %function
    FUNCTION
callgraph_b:
    adds r0, r0, #1
    bx lr
    .size callgraph_b, . - callgraph_b

/* Most of the work: 1 + 2 * 20000 + 1 = 40002 instructions */
    .global callgraph_c
    .type callgraph_c, %function
    FUNCTION
callgraph_c:
    ldr r1, =20000
1:  subs r1, r1, #1
    bne 1b
    bx lr
    .size callgraph_c, . - callgraph_c
    .ltorg
