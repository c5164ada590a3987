/*
 * The test scheduler's port to AArch64 (port_aarch64.c): its exception
 * vectors and the one entry both ways into the scheduler take, an IRQ
 * (the tick) or an SVC (a task's yield, or the tick handler's own SVC,
 * taken inside it).
 *
 * Tasks run at EL1 on SP_EL0.  An exception taken to EL1 switches to
 * SP_EL1; the entry switches back to SP_EL0 at once, so that the
 * handler runs on the interrupted task's stack, as the Arm port's runs
 * in System mode: it stores x0-x30, ELR, SPSR, FPSR, FPCR and q0-q31
 * there, and that stack pointer in pxCurrentTCB; calls port_trap(cause),
 * IRQs masked; and restores the same from whatever task pxCurrentTCB
 * names then, ending with ERET.  A nested entry (port_nesting set)
 * saves and restores in place.
 *
 * SPDX-License-Identifier: MIT
 */
#define CAUSE_IRQ 0
#define CAUSE_SVC 1
#define EC_SVC 0x15
#define FRAME 800

    .section .text.port_vectors, "ax", %progbits
    .balign 2048
    .global port_vectors
port_vectors:
    // From EL1 on SP_EL0 (tasks), and on SP_EL1 (none: not expected):
    // synchronous, IRQ, FIQ, SError each
    .balign 0x80
    b port_svc_entry
    .balign 0x80
    b port_irq_entry
    .rept 14
    .balign 0x80
    b port_fault_entry
    .endr

    .macro save cause
    msr spsel, #0               // the interrupted task's stack
    sub sp, sp, #FRAME
    stp x0, x1, [sp, #0]
    stp x2, x3, [sp, #16]
    stp x4, x5, [sp, #32]
    stp x6, x7, [sp, #48]
    stp x8, x9, [sp, #64]
    stp x10, x11, [sp, #80]
    stp x12, x13, [sp, #96]
    stp x14, x15, [sp, #112]
    stp x16, x17, [sp, #128]
    stp x18, x19, [sp, #144]
    stp x20, x21, [sp, #160]
    stp x22, x23, [sp, #176]
    stp x24, x25, [sp, #192]
    stp x26, x27, [sp, #208]
    stp x28, x29, [sp, #224]
    mrs x0, elr_el1
    stp x30, x0, [sp, #240]
    mrs x0, spsr_el1
    mrs x1, fpsr
    stp x0, x1, [sp, #256]
    mrs x0, fpcr
    str x0, [sp, #272]
    add x0, sp, #288
    stp q0, q1, [x0, #0]
    stp q2, q3, [x0, #32]
    stp q4, q5, [x0, #64]
    stp q6, q7, [x0, #96]
    stp q8, q9, [x0, #128]
    stp q10, q11, [x0, #160]
    stp q12, q13, [x0, #192]
    stp q14, q15, [x0, #224]
    stp q16, q17, [x0, #256]
    stp q18, q19, [x0, #288]
    stp q20, q21, [x0, #320]
    stp q22, q23, [x0, #352]
    stp q24, q25, [x0, #384]
    stp q26, q27, [x0, #416]
    stp q28, q29, [x0, #448]
    stp q30, q31, [x0, #480]
    mov w0, #\cause
    .endm

    .type port_irq_entry, %function
port_irq_entry:
    save CAUSE_IRQ
    b port_switch
    .size port_irq_entry, . - port_irq_entry

    .type port_svc_entry, %function
port_svc_entry:
    mrs x0, esr_el1             // ELR: the instruction after the SVC
    lsr x0, x0, #26
    cmp x0, #EC_SVC
    b.ne port_fault_entry
    save CAUSE_SVC
    b port_switch
    .size port_svc_entry, . - port_svc_entry

    .type port_switch, %function
port_switch:
    ldr x1, =port_nesting
    ldr w1, [x1]
    cbnz w1, 1f                 // nested: not a task's stack
    ldr x1, =pxCurrentTCB
    ldr x1, [x1]
    mov x2, sp
    str x2, [x1]
1:  bl port_trap
    ldr x1, =port_nesting
    ldr w1, [x1]
    cbnz w1, 2f
    ldr x1, =pxCurrentTCB
    ldr x1, [x1]
    ldr x2, [x1]
    mov sp, x2
2:  add x0, sp, #288
    ldp q0, q1, [x0, #0]
    ldp q2, q3, [x0, #32]
    ldp q4, q5, [x0, #64]
    ldp q6, q7, [x0, #96]
    ldp q8, q9, [x0, #128]
    ldp q10, q11, [x0, #160]
    ldp q12, q13, [x0, #192]
    ldp q14, q15, [x0, #224]
    ldp q16, q17, [x0, #256]
    ldp q18, q19, [x0, #288]
    ldp q20, q21, [x0, #320]
    ldp q22, q23, [x0, #352]
    ldp q24, q25, [x0, #384]
    ldp q26, q27, [x0, #416]
    ldp q28, q29, [x0, #448]
    ldp q30, q31, [x0, #480]
    ldr x0, [sp, #272]
    msr fpcr, x0
    ldp x0, x1, [sp, #256]
    msr spsr_el1, x0
    msr fpsr, x1
    ldp x30, x0, [sp, #240]
    msr elr_el1, x0
    ldp x0, x1, [sp, #0]
    ldp x2, x3, [sp, #16]
    ldp x4, x5, [sp, #32]
    ldp x6, x7, [sp, #48]
    ldp x8, x9, [sp, #64]
    ldp x10, x11, [sp, #80]
    ldp x12, x13, [sp, #96]
    ldp x14, x15, [sp, #112]
    ldp x16, x17, [sp, #128]
    ldp x18, x19, [sp, #144]
    ldp x20, x21, [sp, #160]
    ldp x22, x23, [sp, #176]
    ldp x24, x25, [sp, #192]
    ldp x26, x27, [sp, #208]
    ldp x28, x29, [sp, #224]
    add sp, sp, #FRAME
    eret
    .size port_switch, . - port_switch

    .type port_fault_entry, %function
port_fault_entry:
    ldr x0, =port_fault_stack_top
    mov sp, x0
    bl port_fault
    .size port_fault_entry, . - port_fault_entry
    .ltorg

    .bss
    .balign 16
    .space 1024
port_fault_stack_top:
