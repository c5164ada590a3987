/*
 * Event counts over hand-written A64 code (AArch64)
 * (tests/boot/test_events.py): how many loads, stores, branches, calls
 * and returns run between the counter accesses is known exactly.  A
 * section counts after its BEGIN store up to and including its END
 * store.  Every instruction is 4 bytes.
 *
 * The counts are arm/events.S's: the loops are SUBS and B.NE, whose
 * last B.NE fails its condition code as Arm's BNE does.  A64 has no
 * conditional loads or stores, so there is no events_conditional
 * (events.h declares it for 32-bit Arm only).
 *
 * int and alt_u32 arguments are 32 bits: AAPCS64 leaves the upper half
 * of their x register unspecified, so the counts are in w registers.
 *
 * SPDX-License-Identifier: MIT
 */
    .text

    .equ STOP_OR_RESET, 0
    .equ START, 4
    .equ END1, 16
    .equ BEGIN1, 20

/*
 * events_loop(x0 = base, w1 = n >= 1, x2 = buffer of 3 words): section 1
 * counts 7n + 1 instructions, 2n loads, n + 1 stores (with END's), 3n
 * branches (bl, ret, b.ne), n calls, n returns, 3n - 1 taken branches;
 * n conditional branches (b.ne), n direct jumps (bl), n indirect (ret);
 * 3n - 1 branches passing their condition (the last b.ne fails it).
 * The saving and restoring of the link register is outside the section.
 * events_leaf is this file's and changes no register: x0-x3 live across
 * the call.
 */
    .global events_loop
    .type events_loop, %function
events_loop:
    str x30, [sp, #-16]!
    str wzr, [x0, #START]
    str wzr, [x0, #BEGIN1]
1:  ldr w3, [x2]
    ldr w3, [x2, #4]
    str w3, [x2, #8]
    bl events_leaf
    subs w1, w1, #1
    b.ne 1b
    str wzr, [x0, #END1]
    str wzr, [x0, #STOP_OR_RESET]
    ldr x30, [sp], #16
    ret
    .size events_loop, . - events_loop

    .type events_leaf, %function
events_leaf:
    ret
    .size events_leaf, . - events_leaf

/*
 * events_run(x0 = base, x1 = buffer): section 1 around 16 loads of 4
 * bytes from events_run_loads: a threshold of k loads interrupts at
 * events_run_loads + 4k.
 */
    .global events_run
    .type events_run, %function
events_run:
    str wzr, [x0, #START]
    str wzr, [x0, #BEGIN1]
    .global events_run_loads
events_run_loads:
    .rept 16
    ldr w2, [x1]
    .endr
    str wzr, [x0, #END1]
    str wzr, [x0, #STOP_OR_RESET]
    ret
    .size events_run, . - events_run

/*
 * events_arith(x0 = base, w1 = n >= 1): section 1 counts 4n + 1
 * instructions, n multiplies (MUL, MADD's alias), n divides (UDIV: every
 * A64 core divides), n conditional branches (b.ne).
 */
    .global events_arith
    .type events_arith, %function
events_arith:
    str wzr, [x0, #START]
    str wzr, [x0, #BEGIN1]
1:  mul w2, w1, w1
    udiv w2, w2, w1
    subs w1, w1, #1
    b.ne 1b
    str wzr, [x0, #END1]
    str wzr, [x0, #STOP_OR_RESET]
    ret
    .size events_arith, . - events_arith
