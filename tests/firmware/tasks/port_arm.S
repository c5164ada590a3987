/*
 * The test scheduler's port to the Arm boards with a VBAR (port_arm.c):
 * its exception vectors and the one entry both ways into the scheduler
 * take, an IRQ (the tick) or an SVC (a task's yield, or the tick
 * handler's own SVC, taken inside it).  Assembled in the board's state:
 * Thumb-2 on arm-virt (picolibc sets SCTLR.TE there, so exceptions are
 * taken in Thumb state), Arm state on raspi1ap's ARM1176.
 *
 * Tasks run in System mode, as FreeRTOS's Cortex-A ports run them, so
 * that an SVC does not overwrite a task's lr.  The entry stores the
 * return state (SRS) and r0-r12, lr on the System-mode stack, the
 * interrupted task's, and that stack pointer in pxCurrentTCB; calls
 * port_trap(cause) in System mode, IRQs masked; and restores the same
 * from whatever task pxCurrentTCB names then, ending with RFE.  A
 * nested entry (port_nesting set) saves and restores in place.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
#include "arm-state.h"

#define MODE_SYS 0x1f
#define CAUSE_IRQ 0
#define CAUSE_SVC 1

    .section .text.port_vectors, "ax", %progbits
    .balign 32
    .global port_vectors
port_vectors:
    BRANCH .                    /* reset: not taken after boot */
    BRANCH port_fault_entry     /* undefined instruction */
    BRANCH port_svc_entry
    BRANCH port_fault_entry     /* prefetch abort */
    BRANCH port_fault_entry     /* data abort */
    BRANCH .                    /* reserved */
    BRANCH port_irq_entry
    BRANCH port_fault_entry     /* FIQ */

    .type port_irq_entry, %function
    FUNCTION
port_irq_entry:
    sub lr, lr, #4              /* the interrupted instruction */
    srsdb sp!, #MODE_SYS
    cps #MODE_SYS
    push {r0-r12, lr}
    mov r0, #CAUSE_IRQ
    b port_switch
    .size port_irq_entry, . - port_irq_entry

    .type port_svc_entry, %function
    FUNCTION
port_svc_entry:
    srsdb sp!, #MODE_SYS        /* lr: the instruction after the SVC */
    cps #MODE_SYS
    push {r0-r12, lr}
    mov r0, #CAUSE_SVC
    b port_switch
    .size port_svc_entry, . - port_svc_entry

    .type port_switch, %function
    FUNCTION
port_switch:
    ldr r1, =port_nesting
    ldr r1, [r1]
    cmp r1, #0
    bne 1f                      /* nested: not a task's stack */
    ldr r1, =pxCurrentTCB
    ldr r1, [r1]
    mov r2, sp
    str r2, [r1]
1:  bl port_trap
    ldr r1, =port_nesting
    ldr r1, [r1]
    cmp r1, #0
    bne 2f
    ldr r1, =pxCurrentTCB
    ldr r1, [r1]
    ldr r2, [r1]
    mov sp, r2
2:  pop {r0-r12, lr}
    rfeia sp!
    .size port_switch, . - port_switch

    .type port_fault_entry, %function
    FUNCTION
port_fault_entry:
    ldr sp, =port_fault_stack_top
    bl port_fault
    .size port_fault_entry, . - port_fault_entry
    .ltorg

    .bss
    .balign 8
    .space 512
port_fault_stack_top:
