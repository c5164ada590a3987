/*
 * raspi (BCM2835): the system timer's compare channel 1 made due while
 * CPSR.I masks it; the interrupt controller shows it pending (ARMv6 has
 * no ISR register to ask the CPU) and the program goes on.  No IRQ
 * handler: picolibc gives IRQ mode no stack, so taking it is not
 * checked (taken_after = -1).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "raspi.h"
#include "sys/alt_irq.h"
#include "irq_probe.h"

void irq_probe_run(struct irq_probe *r)
{
    alt_irq_context context;
    alt_u32 now;

    context = alt_irq_disable_all();
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CS,
                  BCM2835_SYSTIMER_M1);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_1,
                  1u << BCM2835_IRQ_SYSTIMER_1);
    now = IORD_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CLO);
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_C1, now + 2);
    while (IORD_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CLO) -
           now < 10) {
        continue;
    }
    r->pending = (IORD_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_PENDING_1) >>
                  BCM2835_IRQ_SYSTIMER_1) & 1;
    r->taken_masked = 0;    /* still running: it was not taken */
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_1,
                  1u << BCM2835_IRQ_SYSTIMER_1);
    IOWR_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CS,
                  BCM2835_SYSTIMER_M1);
    alt_irq_enable_all(context);
    r->taken_after = -1;
}
