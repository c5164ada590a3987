/*
 * riscv32-virt (QEMU "virt" board, rv32imac, machine mode): what a
 * Nios II BSP's generated system.h would say about the performance
 * counter cores, as scripts/profile sets the board up.  The scripts read
 * the values below to attach the devices, so this file is the one place
 * they are set.
 *
 * The cores sit on the board's platform bus (0x04000000, 32 MiB), in
 * the order they are attached; the device tree (its address arrives in
 * a1) describes each one in a node compatible with "qemu,perf-counter"
 * under /platform-bus@4000000.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=3, 8 ns of
 * virtual time per instruction, so the clock is 125 MHz.
 */
#define ALT_CPU_FREQ 125000000

/*
 * The CPU as a Nios II BSP's system.h describes its own (the names
 * programs read; the rest, and the NIOS2_ names, in alt_cpu_names.h)
 */
#define ALT_CPU_ARCHITECTURE "riscv_rv32imac"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 125000000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 1
#define ALT_CPU_RESET_ADDR 0x80000000
#define ALT_CPU_EXCEPTION_ADDR 0x80000000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "riscv32-virt"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts (the _IRQ names below): PLIC sources.  QEMU's
 * platform bus gives the -device perf-counter sources from 64 in the
 * order they are plugged, as the device tree's "interrupts" say; the
 * scripts plug the cores in this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x04000000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 64

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
#define PERFORMANCE_COUNTER_1_BASE 0x04001000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 65

/* QEMU's rv32 implements the privileged architecture 1.12 */
#define BOARD_RISCV_HAS_MCOUNTINHIBIT 1

/* The ACLINT machine timer (mtime), 10 MHz on this board */
#define BOARD_TIMER_HZ 10000000

/*
 * The Nios II HAL layer's time (see docs/porting-from-nios2.md): the
 * board clock (alt_timestamp(), usleep()) is the same 64-bit mtime; the
 * system tick (alt_nticks()) is derived from it.
 */
#define BOARD_CLOCK_BITS 64
#define BOARD_TICKS_PER_SECOND 100

#endif
