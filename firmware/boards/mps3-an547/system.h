/*
 * mps3-an547 (the MPS3 with the AN547 FPGA image: an SSE-300 subsystem
 * with one Cortex-M55, QEMU's hw/arm/mps2-tz.c): what a Nios II BSP's
 * generated system.h would say about the performance counter cores, for
 * this board as scripts/profile sets it up.  The scripts read the values
 * below to attach the devices, so this file is the one place they are
 * set.  The board support is the MPS2 boards' (firmware/boards/cortex-m/
 * and mps2-io/) with the SSE-300's system counter as the board timer
 * (sse-300/), at the addresses below.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=5, 32 ns of
 * virtual time per instruction, so the clock is 1e9 / 32 Hz (the
 * board's nominal clock is 32 MHz).
 */
#define ALT_CPU_FREQ 31250000

/* The CPU as a Nios II BSP's system.h describes its own */
#define ALT_CPU_ARCHITECTURE "arm_cortex_m"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 31250000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 1
#define ALT_CPU_RESET_ADDR 0x10000000
#define ALT_CPU_EXCEPTION_ADDR 0x10000000
#define ALT_CPU_BREAK_ADDR 0x10000000
#define ALT_SYSTEM_NAME "mps3-an547"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts: NVIC lines as the CPU numbers them (external
 * lines, after the SSE-300's own 32).  QEMU gives the -device
 * perf-counter lines 100-103 in the order they are plugged; no device
 * it models here drives them.  The scripts plug the cores in this
 * file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x40400000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 100

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
#define PERFORMANCE_COUNTER_1_BASE 0x40401000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 101

/*
 * The MPS2 board support's addresses: the NVIC's lines (the SSE-300's
 * 32 and the FPGA's 96), the first of the counter cores' four, and the
 * FPGA I/O block (its 100 Hz counter)
 */
#define BOARD_NVIC_LINES 128
#define BOARD_PERFCTR_IRQ_FIRST 100
#define BOARD_FPGAIO_BASE 0x49302000

/*
 * The SSE-300's system counter (it has no CMSDK timers) and SysTick, on
 * the board's 32 MHz SYSCLK
 */
#define BOARD_SYSTEM_COUNTER_BASE 0x58100000
#define BOARD_TIMER_HZ 32000000
#define BOARD_SYSTICK_HZ 32000000

/*
 * The Nios II HAL layer's time (see docs/porting-from-nios2.md): the
 * board clock (alt_timestamp(), usleep()) is the system counter, 64
 * bits at BOARD_TIMER_HZ; the system tick (alt_nticks()) is the FPGA I/O
 * block's 100 Hz counter.
 */
#define BOARD_CLOCK_BITS 64
#define BOARD_TICKS_PER_SECOND 100

#endif
