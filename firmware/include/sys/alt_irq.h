/*
 * Nios II HAL interrupt API: what can be offered on these CPUs.
 *
 * alt_irq_disable_all() / alt_irq_enable_all() really mask and restore
 * the CPU's interrupts: PRIMASK on Cortex-M, CPSR.I on Cortex-A and ARM11,
 * PSTATE.I (DAIF) in AArch64, mstatus.MIE on RISC-V.  The context is what the Nios II status
 * register would hold: NIOS2_STATUS_PIE_MSK (1) if interrupts were
 * enabled, 0 if not; so nesting works as in the HAL, and nios2.h's
 * NIOS2_READ_STATUS / NIOS2_WRITE_STATUS use the same values.
 *
 * Registering handlers for Nios II interrupt numbers cannot be offered:
 * those numbers mean nothing here.  Using those functions is a
 * compile-time error that names them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef __ALT_IRQ_H__
#define __ALT_IRQ_H__

#include "alt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef alt_u32 alt_irq_context;

/* The CPU's interrupt mask, as a Nios II status.PIE bit */
static ALT_INLINE int ALT_ALWAYS_INLINE alt_irq_enabled(void)
{
    alt_u32 r;

#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M'
    __asm__ volatile("mrs %0, primask" : "=r"(r));
    return !(r & 1);
#elif defined(__arm__)
    /* Cortex-A, ARM11 */
    __asm__ volatile("mrs %0, cpsr" : "=r"(r));
    return !(r & 0x80);
#elif defined(__aarch64__)
    alt_u64 daif;

    __asm__ volatile("mrs %0, daif" : "=r"(daif));
    r = (alt_u32)daif;
    return !(r & 0x80);
#elif defined(__riscv)
    __asm__ volatile("csrr %0, mstatus" : "=r"(r));
    return (r & 0x8) != 0;
#else
#error "sys/alt_irq.h: no interrupt mask for this CPU"
#endif
}

/* Mask every interrupt; returns the previous state, for enable_all */
static ALT_INLINE alt_irq_context ALT_ALWAYS_INLINE alt_irq_disable_all(void)
{
    alt_irq_context was = alt_irq_enabled();

#if defined(__riscv)
    __asm__ volatile("csrci mstatus, 0x8" : : : "memory");
#elif defined(__aarch64__)
    __asm__ volatile("msr daifset, #2" : : : "memory");
#else
    __asm__ volatile("cpsid i" : : : "memory");
#endif
    return was;
}

/* Set the mask back to what alt_irq_disable_all() returned: enabled
 * if bit 0 (PIE) is set, masked if not, as the HAL does */
static ALT_INLINE void ALT_ALWAYS_INLINE
alt_irq_enable_all(alt_irq_context context)
{
    if (context & 1) {
#if defined(__riscv)
        __asm__ volatile("csrsi mstatus, 0x8" : : : "memory");
#elif defined(__aarch64__)
        __asm__ volatile("msr daifclr, #2" : : : "memory");
#else
        __asm__ volatile("cpsie i" : : : "memory");
#endif
    } else {
        (void)alt_irq_disable_all();
    }
}

/* Names that cannot be offered: a use does not compile, and says why */
#define ALT_IRQ_NOT_OFFERED_(name) \
    (__extension__({ \
        _Static_assert(0, name " is not offered: Nios II interrupt " \
                       "numbers and handlers have no meaning on this " \
                       "board (see docs/porting-from-nios2.md)"); \
        0; \
    }))
#define alt_irq_register(...) ALT_IRQ_NOT_OFFERED_("alt_irq_register")
#define alt_ic_isr_register(...) ALT_IRQ_NOT_OFFERED_("alt_ic_isr_register")
#define alt_ic_irq_enable(...) ALT_IRQ_NOT_OFFERED_("alt_ic_irq_enable")
#define alt_ic_irq_disable(...) ALT_IRQ_NOT_OFFERED_("alt_ic_irq_disable")
#define alt_ic_irq_enabled(...) ALT_IRQ_NOT_OFFERED_("alt_ic_irq_enabled")
#define alt_irq_enable(...) ALT_IRQ_NOT_OFFERED_("alt_irq_enable")
#define alt_irq_disable(...) ALT_IRQ_NOT_OFFERED_("alt_irq_disable")
#define alt_irq_pending(...) ALT_IRQ_NOT_OFFERED_("alt_irq_pending")
#define alt_irq_interruptible(...) \
    ALT_IRQ_NOT_OFFERED_("alt_irq_interruptible")
#define alt_irq_non_interruptible(...) \
    ALT_IRQ_NOT_OFFERED_("alt_irq_non_interruptible")

#ifdef __cplusplus
}
#endif

#endif
