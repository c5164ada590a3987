/*
 * A program of known call structure, in hand-written A64 code
 * (AArch64), so that each function's own instruction count and call
 * count are known exactly (tests/boot/test_hotspots.py):
 *
 *   callgraph_run  called once     3035 instructions of its own
 *   callgraph_a    1000 calls      13 each, 13000 in all
 *   callgraph_b    3000 calls (3 per a)  2 each, 6000 in all
 *   callgraph_c    10 calls        40002 each, 400020 in all
 *
 * The structure is arm/callgraph.S's.  A function that calls saves its
 * link register and the callee-saved register it counts in with one
 * STP and restores them with one LDP (the stack pointer moved by 16,
 * so it stays 16-byte aligned), but A64 has no POP {pc}: the RET is an
 * instruction of its own, hence one instruction more than the Arm
 * version in callgraph_run and in each callgraph_a.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

/* void callgraph_run(void): a() 1000 times, then c() 10 times */
    .global callgraph_run
    .type callgraph_run, %function
callgraph_run:
    stp x19, x30, [sp, #-16]!   // 2
    mov w19, #1000
1:  bl callgraph_a              // 3 per iteration
    subs w19, w19, #1
    b.ne 1b
    mov w19, #10                // 1
2:  bl callgraph_c              // 3 per iteration
    subs w19, w19, #1
    b.ne 2b
    ldp x19, x30, [sp], #16     // 2
    ret
    .size callgraph_run, . - callgraph_run

/* b() 3 times: 2 + 3 * 3 + 2 = 13 instructions */
    .global callgraph_a
    .type callgraph_a, %function
callgraph_a:
    stp x19, x30, [sp, #-16]!   // 2
    mov w19, #3
1:  bl callgraph_b              // 3 per iteration
    subs w19, w19, #1
    b.ne 1b
    ldp x19, x30, [sp], #16     // 2
    ret
    .size callgraph_a, . - callgraph_a

/* 2 instructions */
    .global callgraph_b
    .type callgraph_b, %function
callgraph_b:
    add x0, x0, #1
    ret
    .size callgraph_b, . - callgraph_b

/* Most of the work: 1 + 2 * 20000 + 1 = 40002 instructions */
    .global callgraph_c
    .type callgraph_c, %function
callgraph_c:
    mov w1, #20000              // one MOVZ
1:  subs w1, w1, #1
    b.ne 1b
    ret
    .size callgraph_c, . - callgraph_c
