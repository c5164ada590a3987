/*
 * lm3s6965evb (TI's Stellaris LM3S6965 evaluation board, one Cortex-M3;
 * QEMU's hw/arm/stellaris.c): what a Nios II BSP's generated system.h
 * would say about the performance counter cores, for this board as
 * scripts/profile sets it up.  The scripts read the values below to
 * attach the devices, so this file is the one place they are set.  The
 * board support is the Cortex-M one (firmware/boards/cortex-m/) and the
 * part's (stellaris/), with the addresses below.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=5, 32 ns of
 * virtual time per instruction, so the clock is 1e9 / 32 Hz (the part
 * runs at 12.5 MHz from reset, at 50 MHz at most).
 */
#define ALT_CPU_FREQ 31250000

/* The CPU as a Nios II BSP's system.h describes its own */
#define ALT_CPU_ARCHITECTURE "arm_cortex_m"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 31250000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 1
#define ALT_CPU_RESET_ADDR 0x00000000
#define ALT_CPU_EXCEPTION_ADDR 0x00000000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "lm3s6965evb"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts: NVIC lines.  QEMU gives the -device
 * perf-counter lines 60-63, the last four of the part's 64, in the order
 * they are plugged; no interrupt of the part uses them.  The scripts
 * plug the cores in this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x40080000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 60

/*
 * The names a BSP generator gives an instance called
 * "performance_counter_0", for the first core.  Keep them aliases, never
 * numbers: perfcounter.boards attaches a core for every numeric
 * PERFORMANCE_COUNTER*_BASE in this file.
 */
#define PERFORMANCE_COUNTER_0_BASE PERFORMANCE_COUNTER_BASE
#define PERFORMANCE_COUNTER_0_SPAN PERFORMANCE_COUNTER_SPAN
#define PERFORMANCE_COUNTER_0_HOW_MANY_SECTIONS \
    PERFORMANCE_COUNTER_HOW_MANY_SECTIONS
#define PERFORMANCE_COUNTER_0_IRQ PERFORMANCE_COUNTER_IRQ

/* A second core, "performance_counter_1", on the same clock */
#define PERFORMANCE_COUNTER_1_BASE 0x40081000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 61

/* The Cortex-M board support's: the NVIC's lines, the cores' first */
#define BOARD_NVIC_LINES 64
#define BOARD_PERFCTR_IRQ_FIRST 60

/*
 * The board timer and clock (board_timer_read(), alt_timestamp(),
 * usleep()): the watchdog's 32-bit count, on the 12.5 MHz SYSCLK the
 * system control block gives from reset (QEMU's general-purpose timers
 * cannot be read); the system tick (alt_nticks()) is that clock's, 100
 * a second.  SysTick (board_sleep()) runs on the same SYSCLK.
 */
#define BOARD_TIMER_HZ 12500000
#define BOARD_SYSTICK_HZ 12500000
#define BOARD_CLOCK_BITS 32
#define BOARD_TICKS_PER_SECOND 100

#endif
