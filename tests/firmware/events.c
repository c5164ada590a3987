/*
 * Selectable events and thresholds on every board
 * (tests/boot/test_events.py), over hand-written assembly (events.S)
 * whose loads, stores, branches, calls and returns are known exactly.
 *
 * Prints "available mask=M", then per event "event id=E count=C" over
 * events_loop(LOOPS), "arith id=E count=C divides=D" for multiplies and
 * divides over events_arith(LOOPS) (D: whether it has a divide), then
 * "threshold event=E k=K taken=T offset=O" (the interrupted pc's
 * distance from events_run_loads, when a threshold of K loads or
 * instructions is armed over events_run), "interrupted event=E count=C
 * taken=T" (the global counter's exceptions and exception returns over
 * the run with one such interrupt); on Arm, "conditional event=E count=C"
 * over events_conditional and "conditional-threshold taken=T offset=O"
 * (a threshold of 1 load there).  AVR32's software
 * extension of a count through the overflow interrupt is the example
 * firmware/examples/counter_extension.c (tests/boot/test_examples.py).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "system.h"
#include "events.h"

#define LOOPS 100

static alt_u32 buffer[3];

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    static const int ks[] = { 1, 5, 16 };
    static const enum perfctr_event thresholds[] = {
        PERFCTR_EVENT_LOADS, PERFCTR_EVENT_INSTRUCTIONS,
    };
    alt_u64 count;
    unsigned e, t, i;

    PERF_RESET(p);
    printf("available mask=%#lx\n",
           (unsigned long)IORD(p, PERFCTR_REG_EVENTS_AVAILABLE));
    for (e = PERFCTR_EVENT_INSTRUCTIONS; e < PERFCTR_NUM_EVENTS; e++) {
        if (e == PERFCTR_EVENT_CYCLES || e == PERFCTR_EVENT_MEMORY_STALLS) {
            continue;       /* the timing model's: test_cycles, test_dwt */
        }
        PERF_RESET(p);
        if (perfctr_event_select(p, 1, e) != 0) {
            printf("event id=%u unavailable=1\n", e);
            continue;
        }
        events_loop(p, LOOPS, buffer);
        count = perfctr_event_count(p, 1);
        printf("event id=%u count=%lu\n", e, (unsigned long)count);
    }
    for (e = PERFCTR_EVENT_MULTIPLIES; e <= PERFCTR_EVENT_DIVIDES; e++) {
        PERF_RESET(p);
        perfctr_event_select(p, 1, e);
        events_arith(p, LOOPS);
        printf("arith id=%u count=%lu divides=%d\n", e,
               (unsigned long)perfctr_event_count(p, 1), EVENTS_ARITH_DIVIDES);
    }

    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE,
                           events_threshold_handler, 0) != 0) {
        printf("no interrupt line\n");
        return 1;
    }
    for (t = 0; t < sizeof(thresholds) / sizeof(thresholds[0]); t++) {
        for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
            PERF_RESET(p);
            perfctr_event_select(p, 1, thresholds[t]);
            perfctr_threshold_arm(p, 1, ks[i], 0);
            events_taken = 0;
            events_run(p, buffer);
            printf("threshold event=%u k=%d taken=%d offset=%ld\n",
                   thresholds[t], ks[i], events_taken,
                   events_taken_offset(events_run_loads));
        }
    }

    /* The interrupt of a threshold of 5 loads, as the global count sees it */
    for (e = PERFCTR_EVENT_EXCEPTIONS; e <= PERFCTR_EVENT_EXCEPTION_RETURNS;
         e += PERFCTR_EVENT_EXCEPTION_RETURNS - PERFCTR_EVENT_EXCEPTIONS) {
        PERF_RESET(p);
        perfctr_event_select(p, 0, e);
        perfctr_event_select(p, 1, PERFCTR_EVENT_LOADS);
        perfctr_threshold_arm(p, 1, 5, 0);
        events_taken = 0;
        events_run(p, buffer);
        printf("interrupted event=%u count=%lu taken=%d\n", e,
               (unsigned long)perfctr_event_count(p, 0), events_taken);
    }

#ifdef EVENTS_CONDITIONAL
    /* Loads and stores count when they pass their condition */
    for (e = PERFCTR_EVENT_LOADS; e <= PERFCTR_EVENT_STORES; e++) {
        PERF_RESET(p);
        perfctr_event_select(p, 1, e);
        events_conditional(p, buffer);
        printf("conditional event=%u count=%lu\n", e,
               (unsigned long)perfctr_event_count(p, 1));
    }
    PERF_RESET(p);
    perfctr_event_select(p, 1, PERFCTR_EVENT_LOADS);
    perfctr_threshold_arm(p, 1, 1, 0);
    events_taken = 0;
    events_conditional(p, buffer);
    printf("conditional-threshold taken=%d offset=%ld\n", events_taken,
           events_taken_offset(events_conditional_after_load));
#endif

    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);
    return 0;
}
