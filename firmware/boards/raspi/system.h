/*
 * raspi1ap (QEMU "raspi1ap", BCM2835, ARM1176JZF-S, bare metal): what a
 * Nios II BSP's generated system.h would say about the performance
 * counter cores, as scripts/profile sets the board up.  The scripts read
 * the values below to attach the devices, so this file is the one place
 * they are set.
 *
 * The cores sit after the BCM2835's peripherals (0x20000000-0x20ffffff),
 * in the 16 MiB window 0x21000000-0x21ffffff that the patched board
 * gives -device perf-counter, in the order they are attached.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=0, 1 ns of
 * virtual time per instruction, so the clock is 1 GHz.  The ARM1176's
 * own cycle counter (arm11_pmu.h) counts the same clock.
 */
#define ALT_CPU_FREQ 1000000000

/*
 * The CPU as a Nios II BSP's system.h describes its own (the names
 * programs read; the rest, and the NIOS2_ names, in alt_cpu_names.h)
 */
#define ALT_CPU_ARCHITECTURE "arm_arm1176jzf_s"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 1000000000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 0
#define ALT_CPU_RESET_ADDR 0x00008000
#define ALT_CPU_EXCEPTION_ADDR 0x00000000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "raspi1ap"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts (the _IRQ names below): BCM2835 GPU interrupts
 * (IRQ pending 1).  Our QEMU gives the -device perf-counter GPU
 * interrupts 12-15 (the VideoCore's multicore sync lines, which nothing
 * else drives there) in the order they are plugged; the scripts plug
 * the cores in this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x21000000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 12

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
#define PERFORMANCE_COUNTER_1_BASE 0x21001000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 13

/* The BCM2835 system timer's free-running count (CHI:CLO), 1 MHz */
#define BOARD_TIMER_HZ 1000000

/*
 * The Nios II HAL layer's time (see docs/porting-from-nios2.md): the
 * board clock (alt_timestamp(), usleep()) is the same 64-bit count; the
 * system tick (alt_nticks()) is derived from it.
 */
#define BOARD_CLOCK_BITS 64
#define BOARD_TICKS_PER_SECOND 100

#endif
