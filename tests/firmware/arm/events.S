/*
 * Event counts over hand-written Arm code, Thumb (Armv6-M's or Thumb-2)
 * or Arm state as the board's code is (tests/boot/test_events.py):
 * how many loads, stores, branches, calls and returns run between the
 * counter accesses is known exactly.  A section counts after its BEGIN
 * store up to and including its END store.
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
/* Armv6-M: Thumb without IT blocks, MUL's three-register form, divides */
#if defined(__thumb__) && __ARM_ARCH_ISA_THUMB < 2
#define THUMB1 1
#endif
    .text

    .equ STOP_OR_RESET, 0
    .equ START, 4
    .equ END1, 16
    .equ BEGIN1, 20

/*
 * events_loop(r0 = base, r1 = n >= 1, r2 = buffer of 3 words): section 1
 * counts 7n + 1 instructions, 2n loads, n + 1 stores (with END's), 3n
 * branches (bl, bx lr, bne), n calls, n returns, 3n - 1 taken branches;
 * n conditional branches (bne), n direct jumps (bl), n indirect (bx lr).
 */
    .global events_loop
    .type events_loop, %function
    FUNCTION
events_loop:
    push {r4, lr}
    movs r4, #0
    str r4, [r0, #START]
    str r4, [r0, #BEGIN1]
1:  ldr r3, [r2]
    ldr r3, [r2, #4]
    str r3, [r2, #8]
    bl events_leaf
    subs r1, r1, #1
    bne 1b
    str r4, [r0, #END1]
    str r4, [r0, #STOP_OR_RESET]
    pop {r4, pc}
    .size events_loop, . - events_loop

    .type events_leaf, %function
    FUNCTION
events_leaf:
    bx lr
    .size events_leaf, . - events_leaf

/*
 * events_run(r0 = base, r1 = buffer): section 1 around 16 loads from
 * events_run_loads (2 bytes each in Thumb, 4 in Arm state), so that a
 * threshold of k loads interrupts at events_run_loads + k * size.
 */
    .global events_run
    .type events_run, %function
    FUNCTION
events_run:
    movs r3, #0
    str r3, [r0, #START]
    str r3, [r0, #BEGIN1]
    .global events_run_loads
events_run_loads:
    .rept 16
    ldr r2, [r1]
    .endr
    str r3, [r0, #END1]
    str r3, [r0, #STOP_OR_RESET]
    bx lr
    .size events_run, . - events_run

/*
 * events_arith(r0 = base, r1 = n >= 1): section 1 counts n multiplies,
 * n divides where the core has them (__ARM_FEATURE_IDIV, else none),
 * n conditional branches.
 */
    .global events_arith
    .type events_arith, %function
    FUNCTION
events_arith:
    movs r3, #0
    str r3, [r0, #START]
    str r3, [r0, #BEGIN1]
#ifdef THUMB1
1:  muls r2, r1, r2                 @ (the product is not used)
#else
1:  mul r2, r1, r1
#endif
#ifdef __ARM_FEATURE_IDIV
    udiv r2, r2, r1
#endif
    subs r1, r1, #1
    bne 1b
    str r3, [r0, #END1]
    str r3, [r0, #STOP_OR_RESET]
    bx lr
    .size events_arith, . - events_arith

#ifndef THUMB1
/*
 * events_conditional(r0 = base, r1 = buffer): section 1 around a load
 * and a store that fail their condition, then a load and a store that
 * pass it: 1 load, 2 stores (END's included).  A threshold of 1 load
 * interrupts at events_conditional_after_load.
 */
    .global events_conditional
    .type events_conditional, %function
    FUNCTION
events_conditional:
    movs r3, #0
    str r3, [r0, #START]
    str r3, [r0, #BEGIN1]
    cmp r3, #0
    it ne
    ldrne r2, [r1]
    it ne
    strne r2, [r1, #4]
    it eq
    ldreq r2, [r1]
    .global events_conditional_after_load
events_conditional_after_load:
    it eq
    streq r2, [r1, #4]
    str r3, [r0, #END1]
    str r3, [r0, #STOP_OR_RESET]
    bx lr
    .size events_conditional, . - events_conditional
#endif
