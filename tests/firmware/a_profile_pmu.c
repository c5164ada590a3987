/*
 * The A-profile PMU of the Cortex-A boards (tests/boot/
 * test_a_profile_pmu.py reads the lines printed here): the common
 * events counted through the perfctr hook, over hand-written code
 * (arm-virt's Cortex-A15: Thumb, armv7a/pmu_loops.S; aarch64-virt's
 * Cortex-A53 in AArch64: a64/pmu_loops.S) and one interrupt of the
 * perf-counter core.  Prints:
 *   "loop event=E n=N count=C": counter 0 counting E over pmu_count_loop(N)
 *   "conditional event=E count=C": the same over pmu_count_conditional()
 *     (AArch32 only: A64 has no conditional loads or stores)
 *   "branches event=E count=C": the same over pmu_count_branches()
 *   "interrupt event=E count=C": counter 0 counting E around one interrupt
 *   "overflow preset=P pmovsr=F": pmu_overflow(LOOP, P)'s overflow flags
 *     (PMOVSR; PMOVSCLR_EL0 in AArch64)
 *   "pmceid pmceid0=A pmceid1=B": the common events the PMU says it counts
 *     (AArch64 only: QEMU gives the Cortex-A15 no PMCEID registers)
 *
 * The PMU is the same in both states, only reached differently: CP15
 * registers (MCR/MRC) in AArch32, system registers (MSR/MRS) in
 * AArch64.  Counter 0 is selected through PMSELR and read through
 * PMXEVCNTR in both, as the assembly does.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "system.h"
#include "events.h"

#define LOOP 10

/* The common events (Armv7-A ARM C12.8; Armv8-A's the same) counted here */
#define LD_RETIRED 0x06
#define ST_RETIRED 0x07
#define INST_RETIRED 0x08
#define EXC_TAKEN 0x09
#define EXC_RETURN 0x0a
#define PC_WRITE_RETIRED 0x0c
#define BR_RETIRED 0x21

#define PMCR_E (1u << 0)
#define PMCR_P (1u << 1)

alt_u32 pmu_count_loop(alt_u32 n);
alt_u32 pmu_count_branches(alt_u32 nonzero);
alt_u32 pmu_overflow(alt_u32 n, alt_u32 preset);
#ifndef __aarch64__
alt_u32 pmu_count_conditional(alt_u32 *buffer);
#endif

static alt_u32 buffer[3];

/*
 * Counter 0 counts event from 0, alone: the PMU stopped, counter 0
 * selected and given the event, enabled, then the PMU reset and started
 */
static void pmu_count(alt_u32 event)
{
    alt_u32 counter0 = 1;

#ifdef __aarch64__
    __asm__ volatile("msr pmcr_el0, %0" : : "r"((uint64_t)0));
    __asm__ volatile("msr pmselr_el0, %0" : : "r"((uint64_t)0));
    __asm__ volatile("msr pmxevtyper_el0, %0" : : "r"((uint64_t)event));
    __asm__ volatile("msr pmcntenset_el0, %0" : : "r"((uint64_t)counter0));
    __asm__ volatile("msr pmcr_el0, %0"
                     : : "r"((uint64_t)(PMCR_E | PMCR_P)));
#else
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 0" : : "r"(0u));
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 5" : : "r"(0u));  /* PMSELR */
    __asm__ volatile("mcr p15, 0, %0, c9, c13, 1" : : "r"(event));
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 1" : : "r"(counter0));
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 0" : : "r"(PMCR_E | PMCR_P));
#endif
}

/* The selected counter (counter 0): 32 bits on both cores */
static alt_u32 pmu_read(void)
{
#ifdef __aarch64__
    uint64_t value;

    __asm__ volatile("mrs %0, pmxevcntr_el0" : "=r"(value));
    return (alt_u32)value;
#else
    alt_u32 value;

    __asm__ volatile("mrc p15, 0, %0, c9, c13, 2" : "=r"(value));
    return value;
#endif
}

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    static const alt_u32 loop_events[] = {
        LD_RETIRED, ST_RETIRED, INST_RETIRED, EXC_TAKEN, EXC_RETURN,
        PC_WRITE_RETIRED, BR_RETIRED,
    };
    static const alt_u32 presets[] = {
        0u - (LOOP - 1), 0u - LOOP,     /* wraps at the last branch; not */
    };
    alt_u32 before;
    unsigned i, e;

#ifdef __aarch64__
    {
        /*
         * Bit n: event n (PMCEID0_EL0), 0x20 + n (PMCEID1_EL0); their
         * upper halves, events 0x4000 on, are not QEMU's
         */
        uint64_t id0, id1;

        __asm__ volatile("mrs %0, pmceid0_el0" : "=r"(id0));
        __asm__ volatile("mrs %0, pmceid1_el0" : "=r"(id1));
        printf("pmceid pmceid0=%#lx pmceid1=%#lx\n",
               (unsigned long)(alt_u32)id0, (unsigned long)(alt_u32)id1);
    }
#endif

    for (i = 0; i < sizeof(loop_events) / sizeof(loop_events[0]); i++) {
        for (e = LOOP; e <= 2 * LOOP; e += LOOP) {
            pmu_count(loop_events[i]);
            printf("loop event=%lu n=%u count=%lu\n",
                   (unsigned long)loop_events[i], e,
                   (unsigned long)pmu_count_loop(e));
        }
    }

#ifndef __aarch64__
    for (i = LD_RETIRED; i <= ST_RETIRED; i++) {
        pmu_count(i);
        printf("conditional event=%u count=%lu\n", i,
               (unsigned long)pmu_count_conditional(buffer));
    }
#endif

    for (i = 0; i < 2; i++) {
        alt_u32 event = i ? BR_RETIRED : PC_WRITE_RETIRED;

        pmu_count(event);
        printf("branches event=%lu count=%lu\n", (unsigned long)event,
               (unsigned long)pmu_count_branches(1));
    }

    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE,
                           events_threshold_handler, 0) != 0) {
        printf("no interrupt line\n");
        return 1;
    }
    for (e = EXC_TAKEN; e <= EXC_RETURN; e++) {
        PERF_RESET(p);
        perfctr_event_select(p, 1, PERFCTR_EVENT_LOADS);
        perfctr_threshold_arm(p, 1, 5, 0);
        events_taken = 0;
        pmu_count(e);
        before = pmu_read();
        events_run(p, buffer);
        printf("interrupt event=%u count=%lu taken=%d\n", e,
               (unsigned long)(pmu_read() - before), events_taken);
    }
    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);

    for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
        pmu_count(PC_WRITE_RETIRED);
        printf("overflow preset=%#lx pmovsr=%#lx\n",
               (unsigned long)presets[i],
               (unsigned long)pmu_overflow(LOOP, presets[i]));
    }
    return 0;
}
