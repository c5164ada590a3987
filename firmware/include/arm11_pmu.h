/*
 * The ARM1176's performance monitor (CP15 c15, c12), as the ARM1176JZF-S
 * Technical Reference Manual describes it and as this project's QEMU
 * models it (docs/arm11-pmu.md: which events count exactly, which read
 * 0): one inline function per register, each a single MRC or MCR.
 *
 * Privileged modes always reach the registers; User mode only once
 * privileged code has set V in the Secure User and Non-secure Access
 * Validation Control Register (arm11_pmu_set_user_access()), otherwise
 * every access is an undefined instruction.
 *
 * The functions are compiled in ARM state whatever the program's
 * (ARMv6 Thumb has no coprocessor instructions).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef ARM11_PMU_H
#define ARM11_PMU_H

#include "alt_types.h"

/* Performance Monitor Control Register (PMNC) bits */
#define ARM11_PMU_PMNC_E (1u << 0)          /* enable all three counters */
#define ARM11_PMU_PMNC_P (1u << 1)          /* write 1: zero PMN0 and PMN1 */
#define ARM11_PMU_PMNC_C (1u << 2)          /* write 1: zero CCNT */
#define ARM11_PMU_PMNC_D (1u << 3)          /* CCNT counts every 64th cycle */
#define ARM11_PMU_PMNC_ECR0 (1u << 4)       /* interrupt on PMN0 overflow */
#define ARM11_PMU_PMNC_ECR1 (1u << 5)       /* interrupt on PMN1 overflow */
#define ARM11_PMU_PMNC_ECC (1u << 6)        /* interrupt on CCNT overflow */
#define ARM11_PMU_PMNC_CR0 (1u << 8)        /* PMN0 overflowed; write 1 clears */
#define ARM11_PMU_PMNC_CR1 (1u << 9)        /* PMN1 overflowed; write 1 clears */
#define ARM11_PMU_PMNC_CCR (1u << 10)       /* CCNT overflowed; write 1 clears */
#define ARM11_PMU_PMNC_X (1u << 11)         /* export events (EVNTBUS) */
#define ARM11_PMU_PMNC_EVTCOUNT1_SHIFT 12
#define ARM11_PMU_PMNC_EVTCOUNT0_SHIFT 20
#define ARM11_PMU_PMNC_OVERFLOWS \
    (ARM11_PMU_PMNC_CR0 | ARM11_PMU_PMNC_CR1 | ARM11_PMU_PMNC_CCR)
/* PMNC bits selecting event e for PMN0 / PMN1 */
#define ARM11_PMU_PMNC_EVTCOUNT0(e) \
    ((alt_u32)(e) << ARM11_PMU_PMNC_EVTCOUNT0_SHIFT)
#define ARM11_PMU_PMNC_EVTCOUNT1(e) \
    ((alt_u32)(e) << ARM11_PMU_PMNC_EVTCOUNT1_SHIFT)

/*
 * Events (TRM Table 3-137) that QEMU counts exactly; the branch events
 * with the perfctr plugin loaded (scripts/profile always loads it)
 */
#define ARM11_PMU_EVT_BRANCH 0x05           /* branch instruction executed */
#define ARM11_PMU_EVT_INSTRUCTION 0x07      /* instruction executed */
#define ARM11_PMU_EVT_PC_CHANGE 0x0d        /* software changed the PC */
#define ARM11_PMU_EVT_CALL 0x23             /* procedure call executed */
#define ARM11_PMU_EVT_RETURN 0x24           /* procedure return executed */
#define ARM11_PMU_EVT_CYCLE 0xff            /* one each cycle */
/* Some that read 0 under QEMU (docs/arm11-pmu.md lists them all) */
#define ARM11_PMU_EVT_ICACHE_MISS 0x00
#define ARM11_PMU_EVT_BRANCH_MISPREDICTED 0x06
#define ARM11_PMU_EVT_DCACHE_MISS 0x0b

/* Secure User and Non-secure Access Validation Control Register */
#define ARM11_PMU_VALIDATION_V (1u << 0)

#define ARM11_PMU_FN static inline __attribute__((target("arm")))

#define ARM11_PMU_READ(name, crm, opc2) \
    ARM11_PMU_FN alt_u32 name(void) \
    { \
        alt_u32 v; \
        __asm__ volatile("mrc p15, 0, %0, c15, c" #crm ", " #opc2 \
                         : "=r"(v) : : "memory"); \
        return v; \
    }
#define ARM11_PMU_WRITE(name, crm, opc2) \
    ARM11_PMU_FN void name(alt_u32 v) \
    { \
        __asm__ volatile("mcr p15, 0, %0, c15, c" #crm ", " #opc2 \
                         : : "r"(v) : "memory"); \
    }

/* PMNC (c15, c12, 0) */
ARM11_PMU_READ(arm11_pmu_pmnc_read, 12, 0)
ARM11_PMU_WRITE(arm11_pmu_pmnc_write, 12, 0)
/* Cycle Counter Register (c15, c12, 1) */
ARM11_PMU_READ(arm11_pmu_ccnt_read, 12, 1)
ARM11_PMU_WRITE(arm11_pmu_ccnt_write, 12, 1)
/* Count Register 0 (c15, c12, 2) */
ARM11_PMU_READ(arm11_pmu_pmn0_read, 12, 2)
ARM11_PMU_WRITE(arm11_pmu_pmn0_write, 12, 2)
/* Count Register 1 (c15, c12, 3) */
ARM11_PMU_READ(arm11_pmu_pmn1_read, 12, 3)
ARM11_PMU_WRITE(arm11_pmu_pmn1_write, 12, 3)
/* Secure User and Non-secure Access Validation Control (c15, c9, 0) */
ARM11_PMU_READ(arm11_pmu_validation_read, 9, 0)
ARM11_PMU_WRITE(arm11_pmu_validation_write, 9, 0)

/*
 * Zero all three counters, clear the overflow flags and start counting
 * event0 in PMN0, event1 in PMN1 and cycles in CCNT (every cycle, no
 * interrupts)
 */
ARM11_PMU_FN void arm11_pmu_start(alt_u32 event0, alt_u32 event1)
{
    arm11_pmu_pmnc_write(ARM11_PMU_PMNC_E | ARM11_PMU_PMNC_P |
                         ARM11_PMU_PMNC_C | ARM11_PMU_PMNC_OVERFLOWS |
                         ARM11_PMU_PMNC_EVTCOUNT0(event0) |
                         ARM11_PMU_PMNC_EVTCOUNT1(event1));
}

/* Stop all three counters; the event selection is kept */
ARM11_PMU_FN void arm11_pmu_stop(void)
{
    arm11_pmu_pmnc_write(arm11_pmu_pmnc_read() &
                         ~(ARM11_PMU_PMNC_E | ARM11_PMU_PMNC_OVERFLOWS));
}

/* Let User mode reach the monitor (privileged modes only; Secure to set) */
ARM11_PMU_FN void arm11_pmu_set_user_access(int allowed)
{
    arm11_pmu_validation_write(allowed ? ARM11_PMU_VALIDATION_V : 0);
}

#undef ARM11_PMU_READ
#undef ARM11_PMU_WRITE

#endif
