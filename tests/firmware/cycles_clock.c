/*
 * Estimated cycles as the counter's clock (clock=cycles; tests/boot/
 * test_cycles.py), over ARCH/cycles_clock.S.
 *
 * Prints "loop clocks=C instructions=I" (section 1 around clock_loop),
 * "guess late=C first=C" (section 1 around guess_late, run after
 * guess_late_warm, and around guess_first), "io first=C again=C"
 * (section 1 around io_store_load, twice), then for each threshold K
 * "threshold k=K taken=T offset=O": the
 * section's time armed to interrupt at K clocks over clock_adds, and
 * the interrupted pc's distance from clock_adds_start.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "altera_avalon_performance_counter.h"
#include "events.h"
#include "perfctr.h"
#include "system.h"

void clock_loop(void *base);
void clock_adds(void *base);
void guess_late(void *base);
void guess_late_warm(void *base);
void guess_first(void *base);
void io_store_load(void *base);
extern char clock_adds_start[];

/* Section 1's time over routine (base) */
static unsigned long section_time(void *base, void (*routine)(void *))
{
    PERF_RESET(base);
    PERF_START_MEASURING(base);
    routine(base);
    PERF_STOP_MEASURING(base);
    return (unsigned long)perf_get_section_time(base, 1);
}

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    static const int ks[] = { 1, 5, 16 };
    unsigned i;

    PERF_RESET(p);
    PERF_START_MEASURING(p);
    clock_loop(p);
    PERF_STOP_MEASURING(p);
    printf("loop clocks=%lu instructions=%lu\n",
           (unsigned long)perf_get_section_time(p, 1),
           (unsigned long)perfctr_event_count(p, 1));
    guess_late_warm(p);
    printf("guess late=%lu", section_time(p, guess_late));
    printf(" first=%lu\n", section_time(p, guess_first));
    printf("io first=%lu", section_time(p, io_store_load));
    printf(" again=%lu\n", section_time(p, io_store_load));

    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE,
                           events_threshold_handler, 0) != 0) {
        printf("no interrupt line\n");
        return 1;
    }
    for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
        PERF_RESET(p);
        perfctr_threshold_arm(p, 1, ks[i], 1);
        PERF_START_MEASURING(p);
        events_taken = 0;
        clock_adds(p);
        PERF_STOP_MEASURING(p);
        printf("threshold k=%d taken=%d offset=%ld\n", ks[i], events_taken,
               events_taken_offset(clock_adds_start));
    }
    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);
    return 0;
}
