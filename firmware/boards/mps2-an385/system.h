/*
 * mps2-an385 (Cortex-M3): what a Nios II BSP's generated system.h would
 * say about the performance counter core, for this board as
 * scripts/profile sets it up.  The scripts read the values below to
 * attach the device, so this file is the one place they are set.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=5, 32 ns of
 * virtual time per instruction, so the clock is 1e9 / 32 Hz.
 */
#define ALT_CPU_FREQ 31250000

#define PERFORMANCE_COUNTER_BASE 0x40030000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7

/* CMSDK APB timer 0, on the board's 25 MHz SYSCLK */
#define BOARD_TIMER_HZ 25000000

#endif
