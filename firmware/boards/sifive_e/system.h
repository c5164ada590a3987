/*
 * sifive_e (QEMU's SiFive E board, hw/riscv/sifive_e.c: the FE310 of the
 * HiFive1, an E31 core, rv32imac, machine mode): what a Nios II BSP's
 * generated system.h would say about the performance counter cores, as
 * scripts/profile sets the board up.  The scripts read the values below
 * to attach the devices, so this file is the one place they are set.
 * The board support is the RISC-V one (firmware/boards/riscv/): the
 * CLINT and the PLIC sit where they sit on riscv32-virt.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=2, 4 ns of
 * virtual time per instruction, so the clock is 250 MHz (the FE310's
 * SDK sets its PLL to 256 MHz).
 */
#define ALT_CPU_FREQ 250000000

/*
 * The CPU as a Nios II BSP's system.h describes its own (the names
 * programs read; the rest, and the NIOS2_ names, in alt_cpu_names.h)
 */
#define ALT_CPU_ARCHITECTURE "riscv_rv32imac"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 250000000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 1
#define ALT_CPU_RESET_ADDR 0x20400000
#define ALT_CPU_EXCEPTION_ADDR 0x20400000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "sifive_e"
#include "alt_cpu_names.h"

/*
 * The cores' interrupts (the _IRQ names below): PLIC sources.  QEMU
 * gives the -device perf-counter sources 40-43 in the order they are
 * plugged (PWM0's, which nothing drives: QEMU models no PWM); the
 * scripts plug the cores in this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x10040000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 40

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
#define PERFORMANCE_COUNTER_1_BASE 0x10041000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 41

/*
 * The E31 implements the privileged architecture 1.10: no mcountinhibit
 * (1.11's)
 */
#define BOARD_RISCV_HAS_MCOUNTINHIBIT 0

/* The CLINT's machine timer (mtime), on the 32768 Hz low-frequency clock */
#define BOARD_TIMER_HZ 32768

/*
 * The Nios II HAL layer's time (see docs/porting-from-nios2.md): the
 * board clock (alt_timestamp(), usleep()) is the same 64-bit mtime; the
 * system tick (alt_nticks()) is derived from it, 128 a second (256
 * mtime ticks each: exact).
 */
#define BOARD_CLOCK_BITS 64
#define BOARD_TICKS_PER_SECOND 128

#endif
