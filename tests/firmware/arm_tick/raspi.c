/*
 * The tick on raspi1ap (hw/arm/bcm2835_peripherals.c): the BCM2835
 * system timer, 1 MHz (system.h's BOARD_TIMER_HZ), compare channel 1:
 * each compare (C1, matched against the low 32 bits of the count) is
 * the previous one plus the period.  Its match raises GPU interrupt 1
 * (IRQ pending 1 bit 1, enabled through Enable IRQs 1) at the interrupt
 * controller, a level until CS.M1 is written 1.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arm_tick.h"
#include "io.h"
#include "raspi.h"
#include "system.h"

static alt_u32 period, next_compare;

void arm_tick_start(alt_u32 period_us)
{
    period = BOARD_TIMER_HZ / 1000000 * period_us;
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CS,
                  BCM2835_SYSTIMER_M1);
    next_compare = IORD_32DIRECT(BCM2835_SYSTIMER_BASE,
                                 BCM2835_SYSTIMER_CLO) + period;
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_C1, next_compare);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_1,
                  1u << BCM2835_IRQ_SYSTIMER_1);
}

int arm_tick_ack(void)
{
    alt_u32 pending = IORD_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_PENDING_1);

    if (!(pending & (1u << BCM2835_IRQ_SYSTIMER_1))) {
        return 0;
    }
    /* Clear the match (drops the line), then the next compare */
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CS,
                  BCM2835_SYSTIMER_M1);
    next_compare += period;
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_C1, next_compare);
    return 1;
}

void arm_tick_stop(void)
{
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_1,
                  1u << BCM2835_IRQ_SYSTIMER_1);
}
