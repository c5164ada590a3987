/*
 * Benchmark firmware: a hot loop of PERF_BEGIN/PERF_END pairs, or (with
 * BENCH_RAM) of the same two stores to RAM, so that the host cost of an
 * access to the counter can be compared with that of a plain store.
 *
 * SPDX-License-Identifier: MIT
 */
#include "system.h"
#include "altera_avalon_performance_counter.h"

#define ITERATIONS 2000000

#ifdef BENCH_RAM
static volatile alt_u32 ram[8];
#define TARGET ((void *)ram)
#else
#define TARGET ((void *)PERFORMANCE_COUNTER_BASE)
#endif

int main(void)
{
    int i;

    PERF_RESET((void *)PERFORMANCE_COUNTER_BASE);
    PERF_START_MEASURING((void *)PERFORMANCE_COUNTER_BASE);
    for (i = 0; i < ITERATIONS; i++) {
        PERF_BEGIN(TARGET, 1);
        PERF_END(TARGET, 1);
    }
    return 0;
}
