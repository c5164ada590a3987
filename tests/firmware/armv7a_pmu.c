/*
 * The A-profile PMU of arm-virt's Cortex-A15 (tests/boot/
 * test_armv7a_pmu.py reads the lines printed here): the common events
 * counted through the perfctr hook, over hand-written Thumb code
 * (armv7a/pmu_loops.S) and one interrupt of the perf-counter core.
 * Prints:
 *   "loop event=E n=N count=C": counter 0 counting E over pmu_count_loop(N)
 *   "conditional event=E count=C": the same over pmu_count_conditional()
 *   "branches event=E count=C": the same over pmu_count_branches()
 *   "interrupt event=E count=C": counter 0 counting E around one interrupt
 *   "overflow preset=P pmovsr=F": pmu_overflow(LOOP, P)'s PMOVSR
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "system.h"
#include "events.h"

#define LOOP 10

/* The common events (Armv7-A ARM C12.8) this test counts */
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
alt_u32 pmu_count_conditional(alt_u32 *buffer);
alt_u32 pmu_count_branches(alt_u32 nonzero);
alt_u32 pmu_overflow(alt_u32 n, alt_u32 preset);

static alt_u32 buffer[3];

static void pmu_count(alt_u32 event)
{
    alt_u32 counter0 = 1;

    __asm__ volatile("mcr p15, 0, %0, c9, c12, 0" : : "r"(0u));
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 5" : : "r"(0u));  /* PMSELR */
    __asm__ volatile("mcr p15, 0, %0, c9, c13, 1" : : "r"(event));
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 1" : : "r"(counter0));
    __asm__ volatile("mcr p15, 0, %0, c9, c12, 0" : : "r"(PMCR_E | PMCR_P));
}

static alt_u32 pmu_read(void)
{
    alt_u32 value;

    __asm__ volatile("mrc p15, 0, %0, c9, c13, 2" : "=r"(value));
    return value;
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

    for (i = 0; i < sizeof(loop_events) / sizeof(loop_events[0]); i++) {
        for (e = LOOP; e <= 2 * LOOP; e += LOOP) {
            pmu_count(loop_events[i]);
            printf("loop event=%lu n=%u count=%lu\n",
                   (unsigned long)loop_events[i], e,
                   (unsigned long)pmu_count_loop(e));
        }
    }

    for (i = LD_RETIRED; i <= ST_RETIRED; i++) {
        pmu_count(i);
        printf("conditional event=%u count=%lu\n", i,
               (unsigned long)pmu_count_conditional(buffer));
    }

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
