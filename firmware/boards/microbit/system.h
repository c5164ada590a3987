/*
 * microbit (the BBC micro:bit: a Nordic nRF51822, Cortex-M0, QEMU's
 * hw/arm/microbit.c and nrf51_soc.c): what a Nios II BSP's generated
 * system.h would say about the performance counter cores, for this board
 * as scripts/profile sets it up.  The scripts read the values below to
 * attach the devices, so this file is the one place they are set.  The
 * board support is the Cortex-M one (firmware/boards/cortex-m/) with the
 * part's TIMER0 as the board timer (nrf51/).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=6, 64 ns of
 * virtual time per instruction, so the clock is 1e9 / 64 Hz (the part's
 * clock is 16 MHz).
 */
#define ALT_CPU_FREQ 15625000

/* The CPU as a Nios II BSP's system.h describes its own */
#define ALT_CPU_ARCHITECTURE "arm_cortex_m"
#define ALT_CPU_CPU_IMPLEMENTATION "small"
#define ALT_CPU_CPU_FREQ 15625000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 0
#define ALT_CPU_RESET_ADDR 0x00000000
#define ALT_CPU_EXCEPTION_ADDR 0x00000000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "microbit"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts: NVIC lines.  QEMU gives the -device
 * perf-counter lines 26-29 in the order they are plugged (an nRF51
 * peripheral's line is its ID; no peripheral has these).  The scripts
 * plug the cores in this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x40080000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 26

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
#define PERFORMANCE_COUNTER_1_IRQ 27

/* The Cortex-M board support's: the NVIC's lines, the cores' first */
#define BOARD_NVIC_LINES 32
#define BOARD_PERFCTR_IRQ_FIRST 26

/*
 * The board timer and clock (board_timer_read(), alt_timestamp(),
 * usleep()): TIMER0, 32 bits, at 1 MHz (the 16 MHz clock through its
 * prescaler: 71 minutes before it wraps), read through a capture; the
 * system tick (alt_nticks()) is that clock's, 100 a second.  SysTick
 * (board_sleep()) runs on the 16 MHz processor clock.
 */
#define BOARD_TIMER_HZ 1000000
#define BOARD_SYSTICK_HZ 16000000
#define BOARD_CLOCK_BITS 32
#define BOARD_TICKS_PER_SECOND 100

#endif
