/*
 * A program of known call structure (ARCH/callgraph.S) for the profiler
 * tests: measured in a section too, so that the report shows whether
 * profiling changed what the guest counts.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"

void callgraph_run(void);

int main(void)
{
    PERF_RESET(PERFORMANCE_COUNTER_BASE);
    PERF_START_MEASURING(PERFORMANCE_COUNTER_BASE);
    PERF_BEGIN(PERFORMANCE_COUNTER_BASE, 1);
    callgraph_run();
    PERF_END(PERFORMANCE_COUNTER_BASE, 1);
    PERF_STOP_MEASURING(PERFORMANCE_COUNTER_BASE);
    perf_print_formatted_report((void *)PERFORMANCE_COUNTER_BASE,
                                ALT_CPU_FREQ, 1, "callgraph_run");
    return 0;
}
