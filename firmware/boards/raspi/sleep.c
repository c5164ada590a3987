/*
 * raspi board support: sleeping with WFI, woken by the system timer's
 * compare channel 1 through the interrupt controller.  The CPU's IRQ
 * mask (CPSR.I) is set meanwhile: WFI wakes on a pending interrupt all
 * the same, and no handler runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "raspi.h"

void board_sleep(alt_u32 ticks)
{
    alt_u32 cpsr, now;

    if (ticks == 0) {
        return;
    }
    __asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr) : : "memory");
    now = IORD_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CLO);
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CS,
                  BCM2835_SYSTIMER_M1);
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_C1, now + ticks);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_1,
                  1u << BCM2835_IRQ_SYSTIMER_1);
    /* ARMv6: WFI is the CP15 wait-for-interrupt operation */
    __asm__ volatile("mcr p15, 0, %0, c7, c10, 4\n\t"   /* DSB */
                     "mcr p15, 0, %0, c7, c0, 4"        /* WFI */
                     : : "r"(0) : "memory");
    /* A cleared match drops the (level) interrupt */
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_1,
                  1u << BCM2835_IRQ_SYSTIMER_1);
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CS,
                  BCM2835_SYSTIMER_M1);
    if (!(cpsr & 0x80)) {
        __asm__ volatile("cpsie i" : : : "memory");
    }
}
