/*
 * aarch64-virt (QEMU "virt" board, Cortex-A53 in AArch64 at EL1, bare
 * metal): what a Nios II BSP's generated system.h would say, as
 * scripts/profile sets the board up:
 * the CPU here, the performance counter cores and the board's clocks in
 * qemu_virt_system.h, which both virt boards share (the scripts follow
 * the #include).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SYSTEM_H
#define SYSTEM_H

/*
 * The CPU as a Nios II BSP's system.h describes its own (the names
 * programs read; the rest, and the NIOS2_ names, in alt_cpu_names.h)
 */
#define ALT_CPU_ARCHITECTURE "arm_cortex_a53"
#define ALT_CPU_CPU_IMPLEMENTATION "fast"
#define ALT_CPU_CPU_FREQ 1000000000u
#define ALT_CPU_HARDWARE_DIVIDE_PRESENT 1
#define ALT_CPU_RESET_ADDR 0x40000000
#define ALT_CPU_EXCEPTION_ADDR 0x40000000
#define ALT_CPU_BREAK_ADDR 0x00000000
#define ALT_SYSTEM_NAME "aarch64-virt"
#include "alt_cpu_names.h"

#include "qemu_virt_system.h"

#endif
