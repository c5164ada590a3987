/*
 * A call-heavy program for scripts/bench: recursive Fibonacci, 7 million
 * calls (FIB_N 32; the cost of cycle counting is timed with 35),
 * measured in a section, so that the guest clocks -pg adds show (built
 * with and without -pg by the bench), and what counting events
 * costs (built with -DEVENTS=1: loads; -DEVENTS=2: loads, branches and
 * taken branches).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

#ifndef FIB_N
#define FIB_N 32
#endif

__attribute__((noinline)) static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    volatile unsigned result;

    PERF_RESET(PERFORMANCE_COUNTER_BASE);
#if EVENTS >= 1
    perfctr_event_select((void *)PERFORMANCE_COUNTER_BASE, 1,
                         PERFCTR_EVENT_LOADS);
#endif
#if EVENTS >= 2
    perfctr_event_select((void *)PERFORMANCE_COUNTER_BASE, 0,
                         PERFCTR_EVENT_TAKEN_BRANCHES);
    perfctr_event_select((void *)PERFORMANCE_COUNTER_BASE, 2,
                         PERFCTR_EVENT_BRANCHES);
#endif
    PERF_START_MEASURING(PERFORMANCE_COUNTER_BASE);
    PERF_BEGIN(PERFORMANCE_COUNTER_BASE, 1);
    result = fib(FIB_N);
    PERF_END(PERFORMANCE_COUNTER_BASE, 1);
    PERF_STOP_MEASURING(PERFORMANCE_COUNTER_BASE);
    printf("fib(%d) = %u clocks=%llu\n", FIB_N, result,
           (unsigned long long)perf_get_section_time(
               (void *)PERFORMANCE_COUNTER_BASE, 1));
    return 0;
}
