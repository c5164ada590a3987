/*
 * A program of known call structure, in hand-written RV32 code, so that
 * each function's own instruction count and call count are known
 * exactly (tests/boot/test_hotspots.py):
 *
 *   callgraph_run  called once     3039 instructions of its own
 *   callgraph_a    1000 calls      17 each, 17000 in all
 *   callgraph_b    3000 calls (3 per a)  2 each, 6000 in all
 *   callgraph_c    10 calls        40003 each, 400030 in all
 *
 * SPDX-License-Identifier: MIT
 */
    .text

/* void callgraph_run(void): a() 1000 times, then c() 10 times */
    .global callgraph_run
    .type callgraph_run, @function
callgraph_run:
    addi sp, sp, -16            # 4
    sw ra, 12(sp)
    sw s0, 8(sp)
    li s0, 1000
1:  jal callgraph_a             # 3 per iteration
    addi s0, s0, -1
    bnez s0, 1b
    li s0, 10                   # 1
2:  jal callgraph_c             # 3 per iteration
    addi s0, s0, -1
    bnez s0, 2b
    lw ra, 12(sp)               # 4
    lw s0, 8(sp)
    addi sp, sp, 16
    ret
    .size callgraph_run, . - callgraph_run

/* b() 3 times: 17 instructions */
    .global callgraph_a
    .type callgraph_a, @function
callgraph_a:
    addi sp, sp, -16            # 4
    sw ra, 12(sp)
    sw s0, 8(sp)
    li s0, 3
1:  jal callgraph_b             # 3 per iteration
    addi s0, s0, -1
    bnez s0, 1b
    lw ra, 12(sp)               # 4
    lw s0, 8(sp)
    addi sp, sp, 16
    ret
    .size callgraph_a, . - callgraph_a

/* 2 instructions */
    .global callgraph_b
    .type callgraph_b, @function
callgraph_b:
    addi a0, a0, 1
    ret
    .size callgraph_b, . - callgraph_b

/* Most of the work: 2 + 2 * 20000 + 1 = 40003 instructions */
    .global callgraph_c
    .type callgraph_c, @function
callgraph_c:
    li t0, 20000                # lui, addi
1:  addi t0, t0, -1
    bnez t0, 1b
    ret
    .size callgraph_c, . - callgraph_c
