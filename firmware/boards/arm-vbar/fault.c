/*
 * Board support for the Arm boards with a VBAR (arm-virt, raspi1ap):
 * report a fault the way picolibc's crt0 does
 * on Cortex-M ("ARM fault: KIND", then registers), so that the scripts
 * read every board's faults alike, and exit with 1.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "alt_types.h"

void arm_vbar_fault(int kind, alt_u32 pc);

static alt_u32 read_dfar(void)
{
    alt_u32 v;

    __asm__ volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(v));
    return v;
}

static alt_u32 read_ifar(void)
{
    alt_u32 v;

    __asm__ volatile("mrc p15, 0, %0, c6, c0, 2" : "=r"(v));
    return v;
}

void arm_vbar_fault(int kind, alt_u32 pc)
{
    static const char *const kinds[] = {
        "undefined instruction", "unexpected svc", "prefetch abort",
        "data abort", "unexpected irq", "unexpected fiq",
    };

    printf("ARM fault: %s\n", kinds[kind]);
    printf("\tPC:   0x%08lx\n", (unsigned long)pc);
    if (kind == 3) {
        printf("\tADDR: 0x%08lx\n", (unsigned long)read_dfar());
    } else if (kind == 2) {
        printf("\tADDR: 0x%08lx\n", (unsigned long)read_ifar());
    }
    fflush(stdout);
    _Exit(1);
}
