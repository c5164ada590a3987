/*
 * Board support for the Arm boards with a VBAR (arm-virt, raspi1ap):
 * reading an address that may be empty, and saying so when a program
 * touches one.  On these boards a load or store where nothing answers
 * is a data abort; picolibc's crt0 leaves VBAR at 0, where nothing
 * useful is, so such an abort would hang.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
#include "arm-state.h"
    .text

/*
 * int board_probe_read(alt_u32 addr, alt_u32 *value): 0, or -1 if the
 * load faulted (*value is then 0).  The load runs under a vector table
 * of its own whose data abort entry resumes after it.
 */
    .global board_probe_read
    .type board_probe_read, %function
    FUNCTION
board_probe_read:
    push {r4, r5, lr}
    mrs r4, cpsr                  @ IRQs masked while VBAR is ours
    cpsid i
    mrc p15, 0, r5, c12, c0, 0    @ the program's VBAR
    ldr r3, =probe_vectors
    mcr p15, 0, r3, c12, c0, 0
    barrier r3
    mov r2, #0                    @ faulted
    ldr r0, [r0]                  @ on abort: r0 = 0, r2 = 1, on at 1:
1:  mcr p15, 0, r5, c12, c0, 0
    barrier r3
    msr cpsr_c, r4
    str r0, [r1]
    rsbs r0, r2, #0
    pop {r4, r5, pc}
    .size board_probe_read, . - board_probe_read

    .align 5
probe_vectors:
    BRANCH .                      @ reset
    BRANCH .                      @ undefined instruction
    BRANCH .                      @ supervisor call
    BRANCH .                      @ prefetch abort
    BRANCH probe_data_abort
    BRANCH .
    BRANCH .                      @ IRQ (masked)
    BRANCH .                      @ FIQ

probe_data_abort:
    ldr lr, =1b
    mov r0, #0
    mov r2, #1
    subs pc, lr, #0               @ back to the caller's mode, after the load

/*
 * void board_fault_report_install(void): from now on, a data abort (a
 * load or store where nothing answers, such as PERF_RESET on a wrong
 * base) calls perfctr_fault_report(address), which explains and exits.
 * An IRQ goes to the board's handler (exceptions.S); the other
 * exceptions go to picolibc's handlers.
 */
    .global board_fault_report_install
    .type board_fault_report_install, %function
    FUNCTION
board_fault_report_install:
    ldr r0, =report_vectors
    mcr p15, 0, r0, c12, c0, 0
    barrier r0
    bx lr
    .size board_fault_report_install, . - board_fault_report_install

    .align 5
report_vectors:
    LOAD_PC =arm_halt_vector
    LOAD_PC =arm_undef_vector
    LOAD_PC =arm_svc_vector
    LOAD_PC =arm_prefetch_abort_vector
    BRANCH report_data_abort
    LOAD_PC =arm_not_used_vector
    LOAD_PC =arm_vbar_irq_entry
    LOAD_PC =arm_fiq_vector

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
