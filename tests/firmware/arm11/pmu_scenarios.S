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
 * pmu_flow(pmnc r0, n r1, core base r2): every kind of branch, timed by
 * the perf-counter core's global counter too (START, MCR, loop, STOP,
 * MCR: no branch between the two starts or the two stops, so both see
 * the same branches).  A round: BL (a call, returned from by BX LR),
 * BLX register (a call, returned from by POP {pc}), BXJ (BX without
 * Jazelle) over a NOP, a BEQ that fails its condition and the BNE that
 * loops.  11n + 2 instructions; 7n branches; 2n calls; 2n returns;
 * 6n - 1 changes of the PC (all but the BEQs and the last BNE).
 */
    .global pmu_flow
    .type pmu_flow, %function
pmu_flow:
    push {r4, r5, r6, lr}
    ldr r5, =pmu_leaf_pop
    mov r6, #0
    str r6, [r2, #START]
    mcr p15, 0, r0, c15, c12, 0
1:  bl pmu_leaf
    blx r5
    adr r3, 3f
    bxj r3
    nop
3:  cmp r1, #0
    beq 2f                      /* never taken: r1 >= 1 here */
    subs r1, r1, #1
    bne 1b
2:  str r6, [r2, #STOP_OR_RESET]
    mcr p15, 0, r6, c15, c12, 0
    pop {r4, r5, r6, pc}
    .size pmu_flow, . - pmu_flow

pmu_leaf_pop:
    push {r4, lr}
    pop {r4, pc}

/*
 * pmu_svc(pmnc r0, n r1): n supervisor calls under pmu_vectors, whose
 * SVC entry returns at once with MOVS pc, lr.  4n + 2 instructions; 2n
 * branches (MOVS, BNE); n returns (the exception returns); 2n - 1
 * changes of the PC (the SVCs, exceptions, are not); no calls.
 */
    .global pmu_svc
    .type pmu_svc, %function
pmu_svc:
    push {r4, r5, r6, lr}       /* lr: SVC mode's, which the SVCs reuse */
    mrs r4, cpsr
    cpsid i
    mrc p15, 0, r5, c12, c0, 0  /* the program's VBAR */
    ldr r6, =pmu_vectors
    mcr p15, 0, r6, c12, c0, 0
    mcr p15, 0, r0, c15, c12, 0
1:  svc #0
    subs r1, r1, #1
    bne 1b
    mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    mcr p15, 0, r5, c12, c0, 0
    msr cpsr_c, r4
    pop {r4, r5, r6, pc}
    .size pmu_svc, . - pmu_svc

/*
 * Chains of 16 steps, each with one event, for overflow interrupts
 * armed k events before the wrap: started by writing r0 to PMNC, the
 * interrupt comes right after the k-th step, at <name>_steps + k * the
 * step's size.  A B or BL that skips a NOP (8 bytes: a branch, a change
 * of the PC; or a call), or BX LR to the step's end (12 bytes: a
 * return).
 */
    .global pmu_chain_branches
    .type pmu_chain_branches, %function
pmu_chain_branches:
    mcr p15, 0, r0, c15, c12, 0
    .global pmu_chain_branches_steps
pmu_chain_branches_steps:
    .rept 16
    b 1f
    nop
1:
    .endr
    mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    bx lr
    .size pmu_chain_branches, . - pmu_chain_branches

    .global pmu_chain_calls
    .type pmu_chain_calls, %function
pmu_chain_calls:
    push {r4, lr}
    mcr p15, 0, r0, c15, c12, 0
    .global pmu_chain_calls_steps
pmu_chain_calls_steps:
    .rept 16
    bl 1f
    nop
1:
    .endr
    mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    pop {r4, pc}
    .size pmu_chain_calls, . - pmu_chain_calls

    .global pmu_chain_returns
    .type pmu_chain_returns, %function
pmu_chain_returns:
    push {r4, lr}
    mcr p15, 0, r0, c15, c12, 0
    .global pmu_chain_returns_steps
pmu_chain_returns_steps:
    .rept 16
    adr lr, 1f
    bx lr
    nop
1:
    .endr
    mov r2, #0
    mcr p15, 0, r2, c15, c12, 0
    pop {r4, pc}
    .size pmu_chain_returns, . - pmu_chain_returns

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
 * pmu_spin(n r0): loop n times
 */
    .global pmu_spin
    .type pmu_spin, %function
pmu_spin:
1:  subs r0, r0, #1
    bne 1b
    bx lr
    .size pmu_spin, . - pmu_spin

/*
 * pmu_irq_call(fn r0, arg r1): fn(arg) with IRQs unmasked under
 * pmu_vectors, whose IRQ entry is pmu_irq_entry, then mask them again.
 */
    .global pmu_irq_call
    .type pmu_irq_call, %function
pmu_irq_call:
    push {r4, r5, r6, lr}
    mov r6, r0
    mrs r4, cpsr
    mrc p15, 0, r5, c12, c0, 0  /* the program's VBAR */
    ldr r2, =pmu_vectors
    mcr p15, 0, r2, c12, c0, 0
    mov r0, r1
    cpsie i
    blx r6
    cpsid i
    mcr p15, 0, r5, c12, c0, 0
    msr cpsr_c, r4
    pop {r4, r5, r6, pc}
    .size pmu_irq_call, . - pmu_irq_call

    .align 5
pmu_vectors:
    b .                         /* reset */
    b .                         /* undefined instruction */
    movs pc, lr                 /* supervisor call: straight back */
    b .                         /* prefetch abort */
    b .                         /* data abort */
    b .
    b pmu_irq_entry
    b .                         /* FIQ */

/*
 * The overflow interrupt's handler, as Linux's ARMv6 driver does it:
 * read PMNC and write it back, which (E being set) clears the flags
 * that were set and so drops nPMUIRQ.  Notes CCNT on entry (with its
 * third instruction) and the interrupted pc, and counts itself, in
 * pmu_irq_ccnt, pmu_irq_pc and pmu_irq_count.  IRQ mode's banked sp
 * points at a save area: picolibc gives IRQ mode no stack.
 */
pmu_irq_entry:
    ldr sp, =irq_save
    stmia sp, {r0-r2}
    mrc p15, 0, r0, c15, c12, 1
    ldr r1, =pmu_irq_ccnt
    str r0, [r1]
    sub r0, lr, #4
    ldr r1, =pmu_irq_pc
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
    .global pmu_irq_pc
pmu_irq_pc:
    .space 4
