/*
 * What every board provides besides the performance counter: a guest
 * timer of its own, to compare with the counter and to wait on, and
 * what the Nios II HAL layer (alt_timestamp, usleep, alt_nticks, the
 * check of a core's base) is built on.  Rates and widths: system.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef BOARD_H
#define BOARD_H

#include "alt_types.h"

/* Start the board's free-running timer (BOARD_TIMER_HZ in system.h) */
void board_timer_start(void);
/* Ticks since board_timer_start(), wrapping at 2^32 */
alt_u32 board_timer_read(void);

/*
 * The board clock: BOARD_TIMER_HZ, free-running, never reset by the
 * library (started by the first call where it needs starting), so that
 * board_timer_start() and alt_timestamp_start() disturb nothing else.
 * BOARD_CLOCK_BITS wide: differences are right modulo 2^BOARD_CLOCK_BITS.
 */
alt_u64 board_clock_read(void);

/*
 * Sleep (WFI) for about ticks of the board clock, at most one second,
 * or until an interrupt is pending; interrupts stay masked meanwhile,
 * so no handler runs.  Under -icount QEMU skips the sleeping time.
 */
void board_sleep(alt_u32 ticks);

/* System clock ticks since reset, BOARD_TICKS_PER_SECOND a second */
alt_u32 board_nticks(void);

/*
 * Read the 32-bit word at addr into *value: 0, or -1 if the read
 * faulted (nothing answers there; *value is then 0).  On MPS2 an empty
 * address reads 0 rather than faulting.
 */
int board_probe_read(alt_u32 addr, alt_u32 *value);

/*
 * From now on, make a load or store where nothing answers stop the
 * program with a message naming the address and the pc
 * (perfctr_fault_report()),
 * where the C library's own fault handling would not say it.
 */
void board_fault_report_install(void);

/*
 * The performance counter cores' interrupt lines (system.h's
 * PERFORMANCE_COUNTER_IRQ...; docs/boards.md).  Unmask the interrupt line
 * of the counter core at base at the board's interrupt controller and
 * let the CPU take interrupts: 0, or -1 if the board has no line for
 * base.  The board's vector calls perfctr_irq_dispatch(base, pc)
 * (perfctr.h) with the pc the program resumes at.
 */
int board_perfctr_irq_enable(alt_u32 base);
void board_perfctr_irq_disable(alt_u32 base);

/* Called by the board's fault handling; print why, exit(1) */
void perfctr_fault_report(alt_u32 address, alt_u32 pc);
void perfctr_trap_report(alt_u32 cause, alt_u32 pc, alt_u32 value);

#endif
