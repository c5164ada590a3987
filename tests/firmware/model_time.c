/*
 * Guest time in modelled cycles (tests/boot/test_model_time.py), on the
 * Cortex-M boards: SysTick on the processor clock (QEMU's SYSCLK, system.h's
 * BOARD_SYSTICK_HZ) interrupts every SYSTICK_PERIOD_US microseconds while
 * main() spins, and the handler reads DWT CYCCNT.  Prints
 *   "entries N N ...": CYCCNT at each of the first TICKS interrupts
 * Under -icount alone CYCCNT and time both count instructions; with a
 * timing model both count its cycles, so the entries are the period
 * apart in cycles either way.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#include "system.h"

#define DEMCR (*(volatile uint32_t *)0xe000edfc)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL (*(volatile uint32_t *)0xe0001000)
#define DWT_CYCCNT (*(volatile uint32_t *)0xe0001004)
#define DWT_LAR (*(volatile uint32_t *)0xe0001fb0)
#define DWT_UNLOCK 0xc5acce55       /* the Cortex-M7's lock; ignored else */
#define SYST_CSR (*(volatile uint32_t *)0xe000e010)
#define SYST_RVR (*(volatile uint32_t *)0xe000e014)
#define SYST_CVR (*(volatile uint32_t *)0xe000e018)
#define SYST_CSR_RUN 7u             /* ENABLE, TICKINT, processor clock */

/* 1000 clocks of a 25 MHz SYSCLK, 800 of a 20 MHz one */
#define SYSTICK_PERIOD_US 40
#define TICKS 8

static volatile uint32_t entries[TICKS];
static volatile int ticks;

void arm_systick_isr(void)
{
    if (ticks < TICKS) {
        entries[ticks] = DWT_CYCCNT;
    }
    ticks++;
}

int main(void)
{
    int i;

    DWT_LAR = DWT_UNLOCK;
    DEMCR |= DEMCR_TRCENA;
    DWT_CYCCNT = 0;
    DWT_CTRL = 1;
    SYST_RVR = BOARD_SYSTICK_HZ / 1000 * SYSTICK_PERIOD_US / 1000 - 1;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_RUN;
    while (ticks < TICKS) {
        /* A long block: the deadline falls inside it, not at its end */
        __asm__ volatile(".rept 32\n\tnop\n\t.endr");
    }
    SYST_CSR = 0;
    printf("entries");
    for (i = 0; i < TICKS; i++) {
        printf(" %lu", (unsigned long)entries[i]);
    }
    printf("\n");
    return 0;
}
