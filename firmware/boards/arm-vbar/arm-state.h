/*
 * What differs between the two instruction sets the exception code of
 * the Arm boards with a VBAR is built in: Thumb-2 on arm-virt (picolibc
 * sets SCTLR.TE there, so exceptions are taken in Thumb state), Arm
 * state on the ARM1176 of raspi1ap (ARMv6: no ISB instruction, its
 * CP15 equivalent instead).
 *
 * SPDX-License-Identifier: MIT
 */
#ifdef __thumb__
    .thumb
#define FUNCTION .thumb_func
#define BRANCH b.w
#define LOAD_PC ldr.w pc,
/* lr on an SVC: the instruction + 2 */
#define SVC_LR_OFFSET 2
#else
    .arm
#define FUNCTION
#define BRANCH b
#define LOAD_PC ldr pc,
#define SVC_LR_OFFSET 4
#endif

/* An instruction barrier after a VBAR write; scratch is overwritten */
    .macro barrier scratch
#if __ARM_ARCH >= 7
    isb
#else
    mov \scratch, #0
    mcr p15, 0, \scratch, c7, c5, 4     /* flush the prefetch buffer */
#endif
    .endm
