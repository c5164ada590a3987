/*
 * raspi board support: reading an address that may be empty, and
 * saying so when a program touches one.  On this board a load or store
 * where nothing answers (outside RAM and the peripherals) is a data
 * abort.  ARM state: the ARM1176 takes exceptions in ARM state.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .arm
    .text

/*
 * int board_probe_read(alt_u32 addr, alt_u32 *value): 0, or -1 if the
 * load faulted (*value is then 0).  The load runs under a vector table
 * of its own whose data abort entry resumes after it.
 */
    .global board_probe_read
    .type board_probe_read, %function
board_probe_read:
    push {r4, r5, lr}
    mrs r4, cpsr                  @ IRQs masked while VBAR is ours
    cpsid i
    mrc p15, 0, r5, c12, c0, 0    @ the program's VBAR
    ldr r3, =probe_vectors
    mcr p15, 0, r3, c12, c0, 0
    mov r2, #0                    @ faulted
    ldr r0, [r0]                  @ on abort: r0 = 0, r2 = 1, on at 1:
1:  mcr p15, 0, r5, c12, c0, 0
    msr cpsr_c, r4
    str r0, [r1]
    rsbs r0, r2, #0
    pop {r4, r5, pc}
    .size board_probe_read, . - board_probe_read

    .align 5
probe_vectors:
    b .                           @ reset
    b .                           @ undefined instruction
    b .                           @ supervisor call
    b .                           @ prefetch abort
    b probe_data_abort
    b .
    b .                           @ IRQ (masked)
    b .                           @ FIQ

probe_data_abort:
    ldr lr, =1b
    mov r0, #0
    mov r2, #1
    subs pc, lr, #0               @ back to the caller's mode, after the load

/*
 * void board_fault_report_install(void): from now on, a data abort (a
 * load or store where nothing answers, such as PERF_RESET on a wrong
 * base) calls perfctr_fault_report(address), which explains and exits.
 * The other exceptions go to picolibc's handlers.
 */
    .global board_fault_report_install
    .type board_fault_report_install, %function
board_fault_report_install:
    ldr r0, =report_vectors
    mcr p15, 0, r0, c12, c0, 0
    bx lr
    .size board_fault_report_install, . - board_fault_report_install

    .align 5
report_vectors:
    ldr pc, =arm_halt_vector
    ldr pc, =arm_undef_vector
    ldr pc, =arm_svc_vector
    ldr pc, =arm_prefetch_abort_vector
    b report_data_abort
    ldr pc, =arm_not_used_vector
    ldr pc, =arm_irq_vector
    ldr pc, =arm_fiq_vector

report_data_abort:
    mrc p15, 0, r0, c6, c0, 0     @ DFAR: the address that faulted
    sub r3, lr, #8                @ the instruction that faulted
    mrs r1, spsr                  @ back to the program's mode and stack,
    and r1, r1, #0x1f             @ IRQs and FIQs masked: it never resumes
    orr r1, r1, #0xc0
    msr cpsr_c, r1
    mov r2, sp
    bic r2, r2, #7
    mov sp, r2
    mov r1, r3
    bl perfctr_fault_report
    b .
    .ltorg
