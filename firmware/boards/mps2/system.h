/*
 * MPS2 boards (mps2-an385 Cortex-M3, mps2-an386 Cortex-M4, mps2-an500
 * Cortex-M7; one memory map): what a Nios II BSP's generated system.h
 * would say about the performance counter cores, for these boards as
 * scripts/profile sets them up.  The scripts read the values below to
 * attach the devices, so this file is the one place they are set.
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

/*
 * The CPU as a Nios II BSP's system.h describes its own (the names
 * programs read; the rest, and the NIOS2_ names, in alt_cpu_names.h)
 */
#define ALT_CPU_ARCHITECTURE "arm_cortex_m"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 31250000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 1
#define ALT_CPU_RESET_ADDR 0x00000000
#define ALT_CPU_EXCEPTION_ADDR 0x00000000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "mps2"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts (the _IRQ names below): NVIC external interrupt
 * lines.  QEMU gives the -device perf-counter lines 28-31 in the order
 * they are plugged (on the real FPGA images GPIO 0's pin 4-7
 * interrupts, which QEMU does not model); the scripts plug the cores in
 * this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x40030000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 28

/*
 * The names a BSP generator gives an instance called
 * "performance_counter_0", which many programs use, for the first core.
 * Keep them aliases, never numbers: perfcounter.boards attaches a
 * core for every numeric PERFORMANCE_COUNTER*_BASE in this file.
 */
#define PERFORMANCE_COUNTER_0_BASE PERFORMANCE_COUNTER_BASE
#define PERFORMANCE_COUNTER_0_SPAN PERFORMANCE_COUNTER_SPAN
#define PERFORMANCE_COUNTER_0_HOW_MANY_SECTIONS \
    PERFORMANCE_COUNTER_HOW_MANY_SECTIONS
#define PERFORMANCE_COUNTER_0_IRQ PERFORMANCE_COUNTER_IRQ

/* A second core, "performance_counter_1", on the same clock */
#define PERFORMANCE_COUNTER_1_BASE 0x40031000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 29

/*
 * The MPS2 board support's addresses: the NVIC's lines, the first of the
 * counter cores' four, and the FPGA I/O block (its 100 Hz counter)
 */
#define BOARD_NVIC_LINES 32
#define BOARD_PERFCTR_IRQ_FIRST 28
#define BOARD_FPGAIO_BASE 0x40028000

/* CMSDK APB timer 0 and SysTick, on the board's 25 MHz SYSCLK */
#define BOARD_TIMER_HZ 25000000
#define BOARD_SYSTICK_HZ 25000000

/*
 * The Nios II HAL layer's time (see docs/porting-from-nios2.md): the
 * board clock (alt_timestamp(), usleep()) is CMSDK APB timer 1, 32 bits
 * at BOARD_TIMER_HZ; the system tick (alt_nticks()) is the FPGA I/O
 * block's 100 Hz counter.
 */
#define BOARD_CLOCK_BITS 32
#define BOARD_TICKS_PER_SECOND 100

#endif
