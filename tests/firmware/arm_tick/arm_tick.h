/*
 * A periodic timer interrupt on the Arm boards with a VBAR, for the test
 * programs that take interrupts of their own (uart_ticker, tasks):
 * virt.c (the generic timer through the GICv2), raspi.c (the
 * BCM2835 system timer through its interrupt controller).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef ARM_TICK_H
#define ARM_TICK_H

#include "alt_types.h"

/*
 * Program the first compare period_us of virtual time from now and
 * enable its interrupt at the controller (not CPSR.I: the caller's)
 */
void arm_tick_start(alt_u32 period_us);

/*
 * From the IRQ handler: acknowledge the controller; nonzero if it was
 * the tick, whose next compare is then the previous one plus the
 * period (no drift), which drops its line
 */
int arm_tick_ack(void);

/* No more ticks */
void arm_tick_stop(void);

#endif
