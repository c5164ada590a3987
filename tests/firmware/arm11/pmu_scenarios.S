/*
 * ARM-state loops for the ARM1176 performance monitor tests: every
 * instruction between the PMNC write that starts the counters and the
 * one that stops them is known, so every count is known exactly.  A
 * counter counts what happens after the starting MCR, up to and
 * including the stopping MCR.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .arm
    .text

    .equ START, 4               /* perf-counter core: START global */
    .equ STOP_OR_RESET, 0

/*
 * pmu_loop(pmnc r0, n r1): write r0 to PMNC, loop n times, stop.
 * 2n + 2 instructions and cycles (n subs, n bne, mov, the stopping
 * MCR); n branches; no calls.
 */
    .global pmu_loop
    .type pmu_loop, %function
pmu_loop:
    mcr p15, 0, r0, c15, c12, 0
1:  subs r1, r1, #1
    bne 1b
    mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    bx lr
    .size pmu_loop, . - pmu_loop

/*
 * pmu_loop_then(pmnc r0, n r1, pmnc r2): the same, stopped by writing r2
 * (which keeps, say, an interrupt enable): 2n + 2 again.
 */
    .global pmu_loop_then
    .type pmu_loop_then, %function
pmu_loop_then:
    mcr p15, 0, r0, c15, c12, 0
1:  subs r1, r1, #1
    bne 1b
    mov r3, r2
    mcr p15, 0, r3, c15, c12, 0
    bx lr
    .size pmu_loop_then, . - pmu_loop_then

/*
 * pmu_calls(pmnc r0, n r1): n calls of an empty function.  4n + 2
 * instructions and cycles (bl, bx lr, subs, bne per round; mov, MCR);
 * 3n branches (bl, bx, bne); n calls (bl).
 */
    .global pmu_calls
    .type pmu_calls, %function
pmu_calls:
    push {r4, lr}
    mcr p15, 0, r0, c15, c12, 0
1:  bl pmu_leaf
    subs r1, r1, #1
    bne 1b
    mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    pop {r4, pc}
    .size pmu_calls, . - pmu_calls

pmu_leaf:
    bx lr

/*
 * pmu_not_taken(pmnc r0, n r1): n conditional branches whose condition
 * fails (and one that loops): a branch executed counts whether or not
 * it changes the flow.  4n + 2 instructions; 2n branches.
 */
    .global pmu_not_taken
    .type pmu_not_taken, %function
pmu_not_taken:
    mcr p15, 0, r0, c15, c12, 0
1:  cmp r1, #0
    beq 2f                      /* never taken: r1 >= 1 here */
    subs r1, r1, #1
    bne 1b
2:  mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    bx lr
    .size pmu_not_taken, . - pmu_not_taken

/*
 * pmu_with_core(pmnc r0, n r1, core base r2): the same interval timed
 * by the perf-counter core and the PMU.  The core counts from after its
 * START store to its STOP store, the PMU from after its starting MCR to
 * its stopping one: START, MCR, loop, STOP, MCR, so both see 2n + 2.
 */
    .global pmu_with_core
    .type pmu_with_core, %function
pmu_with_core:
    mov r3, #0
    str r3, [r2, #START]
    mcr p15, 0, r0, c15, c12, 0
1:  subs r1, r1, #1
    bne 1b
    str r3, [r2, #STOP_OR_RESET]
    mcr p15, 0, r3, c15, c12, 0
    bx lr
    .size pmu_with_core, . - pmu_with_core

/*
 * alt_u32 pmu_user_read_ccnt(int *undefined): read CCNT in User mode.
 * If the read is an undefined instruction, *undefined = 1 and 0 is
 * returned.  Runs under a vector table of its own: its undefined
 * instruction entry notes the fault and resumes after the MRC; an SVC
 * from User mode comes back to the caller's (privileged) mode.
 */
    .global pmu_user_read_ccnt
    .type pmu_user_read_ccnt, %function
pmu_user_read_ccnt:
    push {r4-r7, lr}
    mov r7, r0
    mrs r4, cpsr                /* the caller's mode; IRQs stay masked */
    cpsid i
    mrc p15, 0, r5, c12, c0, 0  /* the program's VBAR */
    ldr r6, =user_vectors
    mcr p15, 0, r6, c12, c0, 0
    mov r0, #0
    mov r2, #0                  /* undefined: set by the handler */
    cps #0x10                   /* User mode: no stack used there */
    mrc p15, 0, r0, c15, c12, 1
    svc #1                      /* back, to user_svc below */
user_back:
    mcr p15, 0, r5, c12, c0, 0
    msr cpsr_c, r4
    str r2, [r7]
    pop {r4-r7, pc}
    .size pmu_user_read_ccnt, . - pmu_user_read_ccnt

    .align 5
user_vectors:
    b .                         /* reset */
    b user_undefined
    b user_svc
    b .                         /* prefetch abort */
    b .                         /* data abort */
    b .
    b .                         /* IRQ (masked) */
    b .                         /* FIQ (masked) */

user_undefined:
    mov r2, #1
    movs pc, lr                 /* to User mode, after the MRC */
user_svc:
    /* In SVC mode with the caller's banked sp: go on there */
    b user_back

/*
 * pmu_irq_run(n r0): loop n times with IRQs unmasked under a vector
 * table whose IRQ entry is pmu_irq_entry, then mask them again.
 */
    .global pmu_irq_run
    .type pmu_irq_run, %function
pmu_irq_run:
    push {r4, r5, lr}
    mrs r4, cpsr
    mrc p15, 0, r5, c12, c0, 0  /* the program's VBAR */
    ldr r1, =irq_vectors
    mcr p15, 0, r1, c12, c0, 0
    cpsie i
1:  subs r0, r0, #1
    bne 1b
    cpsid i
    mcr p15, 0, r5, c12, c0, 0
    msr cpsr_c, r4
    pop {r4, r5, pc}
    .size pmu_irq_run, . - pmu_irq_run

    .align 5
irq_vectors:
    b .                         /* reset */
    b .                         /* undefined instruction */
    b .                         /* supervisor call */
    b .                         /* prefetch abort */
    b .                         /* data abort */
    b .
    b pmu_irq_entry
    b .                         /* FIQ */

/*
 * The overflow interrupt's handler, as Linux's ARMv6 driver does it:
 * read PMNC and write it back, which (E being set) clears the flags
 * that were set and so drops nPMUIRQ.  Notes CCNT on entry and counts
 * itself in pmu_irq_count / pmu_irq_ccnt.  IRQ mode's banked sp points
 * at a save area: picolibc gives IRQ mode no stack.
 */
pmu_irq_entry:
    ldr sp, =irq_save
    stmia sp, {r0-r2}
    mrc p15, 0, r0, c15, c12, 1
    ldr r1, =pmu_irq_ccnt
    str r0, [r1]
    mrc p15, 0, r0, c15, c12, 0
    mcr p15, 0, r0, c15, c12, 0
    ldr r1, =pmu_irq_count
    ldr r2, [r1]
    add r2, r2, #1
    str r2, [r1]
    ldmia sp, {r0-r2}
    subs pc, lr, #4

    .bss
    .balign 4
irq_save:
    .space 12
    .global pmu_irq_count
pmu_irq_count:
    .space 4
    .global pmu_irq_ccnt
pmu_irq_ccnt:
    .space 4
