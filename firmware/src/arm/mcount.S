/*
 * __gnu_mcount_nc, the hook GCC calls at the entry of every function
 * built with -pg on Arm (EABI):
 *
 *     push {lr}
 *     bl __gnu_mcount_nc
 *
 * so lr is in the callee and the pushed word is the callee's return
 * address, in its caller.  Every register but ip is preserved, the
 * pushed word is popped into lr, and control returns to the callee.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .text
    .global __gnu_mcount_nc
    .type __gnu_mcount_nc, %function

#ifndef __thumb__
    /* The library is built for Arm state (ARM11): so is the hook */
    .arm
__gnu_mcount_nc:
    push {r0, r1, r2, r3, lr}
    ldr r0, [sp, #20]           @ the call site: the callee's return address
    bic r0, r0, #1
    bic r1, lr, #1              @ the callee
    bl perfctr_gprof_arc
    pop {r0, r1, r2, r3, ip}    @ ip: back into the callee
    pop {lr}                    @ the callee's own return address
    bx ip
#else
    .thumb
    .thumb_func
__gnu_mcount_nc:
    /* 20 bytes, with the caller's pushed word 24: sp stays 8-aligned */
    push {r0, r1, r2, r3, lr}
    ldr r0, [sp, #20]           @ the call site: the callee's return address
    mov r1, lr                  @ the callee
#if __ARM_ARCH_ISA_THUMB >= 2
    bic r0, r0, #1
    bic r1, r1, #1
    bl perfctr_gprof_arc
    pop {r0, r1, r2, r3, ip}    @ ip: back into the callee
    pop {lr}                    @ the callee's own return address
    bx ip
#else
    /* Thumb-1 (Armv6-M): no BIC with an immediate, no POP to lr */
    movs r2, #1
    bics r0, r2
    bics r1, r2
    bl perfctr_gprof_arc
    ldr r0, [sp, #20]
    mov lr, r0                  @ the callee's own return address
    ldr r0, [sp, #16]
    mov ip, r0                  @ back into the callee
    pop {r0, r1, r2, r3}
    add sp, #8
    bx ip
#endif
#endif
    .size __gnu_mcount_nc, . - __gnu_mcount_nc
