/*
 * The frame of the cycle sequences (arm/cycles.S for the Thumb-2 cores,
 * armv6m/cycles.S for the Cortex-M0): each function sets its registers
 * up, then runs its sequence between the labels cyc_NAME_start and
 * cyc_NAME_end, whose cycles the plugin counts with window=START-END.
 * An ISB (which ends QEMU's translated block) stands before and after
 * each sequence, so that no instruction outside it pipelines, pairs or
 * folds with one inside.  r4 points to cyc_data, whose first word holds
 * its own address (for chains of dependent loads); r5 is 4.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .thumb

/* The registers a sequence may use (Armv6-M: PUSH and POP of r0-r7) */
#if __ARM_ARCH_ISA_THUMB >= 2
#define CYC_SAVED r4-r11
#else
#define CYC_SAVED r4-r7
#endif

    .bss
    .balign 8
cyc_data:
    .space 256

    .text

.macro begin name
    .global cyc_\name
    .type cyc_\name, %function
    .thumb_func
cyc_\name:
    push {CYC_SAVED, lr}
    ldr r4, =cyc_data
    str r4, [r4]
    movs r5, #4
.endm

.macro start name
    isb
    .global cyc_\name\()_start
cyc_\name\()_start:
.endm

.macro finish name
    .global cyc_\name\()_end
cyc_\name\()_end:
    isb
    pop {CYC_SAVED, pc}
    .ltorg
    .size cyc_\name, . - cyc_\name
.endm
