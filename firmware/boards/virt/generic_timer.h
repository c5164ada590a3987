/*
 * QEMU's Arm virt board: the generic timer's virtual count and timer
 * (CNTVCT, CNTV_*, usable at PL1/EL1 without EL2 or EL3), as CP15 names
 * them on arm-virt's Cortex-A15 (AArch32) and as system registers on
 * aarch64-virt's Cortex-A53.  Its interrupt is PPI 11 (GIC interrupt ID
 * 27), level-sensitive, through the GICv2 (gic.h).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef VIRT_GENERIC_TIMER_H
#define VIRT_GENERIC_TIMER_H

#include "alt_types.h"

#define VIRTUAL_TIMER_ID 27     /* PPI 11 */
#define CNTV_CTL_ENABLE 1u

/* The virtual count, 64 bits, at CNTFRQ (system.h's BOARD_TIMER_HZ) */
static inline alt_u64 generic_timer_count(void)
{
#ifdef __aarch64__
    alt_u64 v;

    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    alt_u32 lo, hi;

    __asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
    return (alt_u64)hi << 32 | lo;
#endif
}

/* Due ticks from now (CNTV_TVAL) */
static inline void generic_timer_set_tval(alt_u32 ticks)
{
#ifdef __aarch64__
    __asm__ volatile("msr cntv_tval_el0, %0\n\tisb" : : "r"((alt_u64)ticks)
                     : "memory");
#else
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 0\n\tisb" : : "r"(ticks)
                     : "memory");
#endif
}

/* Due when the count reaches value (CNTV_CVAL) */
static inline void generic_timer_set_cval(alt_u64 value)
{
#ifdef __aarch64__
    __asm__ volatile("msr cntv_cval_el0, %0\n\tisb" : : "r"(value)
                     : "memory");
#else
    __asm__ volatile("mcrr p15, 3, %0, %1, c14\n\tisb"
                     : : "r"((alt_u32)value), "r"((alt_u32)(value >> 32))
                     : "memory");
#endif
}

/* CNTV_CTL: CNTV_CTL_ENABLE, or 0 (disabled, its interrupt drops) */
static inline void generic_timer_set_ctl(alt_u32 ctl)
{
#ifdef __aarch64__
    __asm__ volatile("msr cntv_ctl_el0, %0\n\tisb" : : "r"((alt_u64)ctl)
                     : "memory");
#else
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(ctl)
                     : "memory");
#endif
}

#endif
