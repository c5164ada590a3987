/*
 * QEMU's Arm "virt" board, bare metal: the performance counter cores
 * and the board's clocks, as scripts/profile sets the board up, shared
 * by arm-virt's and aarch64-virt's system.h (which give the CPU).  The
 * scripts read these values through the board's system.h, so this file
 * is the one place they are set.
 *
 * The cores sit on the board's platform bus (0x0c000000, 32 MiB), in
 * the order they are attached; the device tree describes each one in a
 * node compatible with "qemu,perf-counter" under /platform-bus@c000000.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef QEMU_VIRT_SYSTEM_H
#define QEMU_VIRT_SYSTEM_H

/*
 * One count per instruction: QEMU runs with -icount shift=0, 1 ns of
 * virtual time per instruction, so the clock is 1 GHz.
 */
#define ALT_CPU_FREQ 1000000000

/*
 * The cores' interrupts (the _IRQ names below): GIC interrupt
 * IDs.  QEMU's platform bus gives the -device perf-counter SPIs from 112
 * (ID 144) in the order they are plugged, as the device tree's
 * "interrupts" say; the scripts plug the cores in this file's order.
 */

/* The first core, "performance_counter" */
#define PERFORMANCE_COUNTER_BASE 0x0c000000
#define PERFORMANCE_COUNTER_SPAN 4096
#define PERFORMANCE_COUNTER_HOW_MANY_SECTIONS 7
#define PERFORMANCE_COUNTER_IRQ 144

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
#define PERFORMANCE_COUNTER_1_BASE 0x0c001000
#define PERFORMANCE_COUNTER_1_SPAN 4096
#define PERFORMANCE_COUNTER_1_HOW_MANY_SECTIONS 3
#define PERFORMANCE_COUNTER_1_IRQ 145

/* The Arm generic timer's virtual count (CNTVCT), at CNTFRQ */
#define BOARD_TIMER_HZ 62500000

/*
 * The Nios II HAL layer's time (see docs/porting-from-nios2.md): the
 * board clock (alt_timestamp(), usleep()) is the same 64-bit virtual
 * count; the system tick (alt_nticks()) is derived from it.
 */
#define BOARD_CLOCK_BITS 64
#define BOARD_TICKS_PER_SECOND 100

#endif
