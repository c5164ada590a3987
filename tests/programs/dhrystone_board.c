/*
 * The board part of Dhrystone for the E31 (sifive_e), for scripts/bench
 * --dhrystone (docs/cycles.md, "Against silicon").  Dhrystone is not
 * ours and is not in this repository: the bench compiles dhry_1.c and
 * dhry_2.c of the user's checkout of SiFive's freedom-e-sdk (its legacy
 * SDK, which published the HiFive1's figure) with that SDK's flags, and
 * this file in place of its dhry_stubs.c, which reads the board's timer.
 *
 * There the loop ran between two calls of time() (built with -DTIME);
 * here section 1 of the counter core runs between them, with
 * clock=cycles: the timing model's cycles.  The runs come from the
 * scanf() the SDK wraps too (DHRY_RUNS, set by the bench).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

#ifndef DHRY_RUNS
#define DHRY_RUNS 1000
#endif

static int calls;

long time(long *t)
{
    (void)t;
    if (calls++ == 0) {
        PERF_RESET(PERF);
        PERF_START_MEASURING(PERF);
        PERF_BEGIN(PERF, 1);
        return 0;
    }
    PERF_END(PERF, 1);
    printf("dhrystone cycles=%llu instructions=%llu runs=%d\n",
           (unsigned long long)perf_get_section_time(PERF, 1),
           (unsigned long long)perfctr_instructions(PERF, 1), DHRY_RUNS);
    return 0;
}

/* The runs, as the SDK's dhry_stubs.c sets them */
int __wrap_scanf(const char *format, int *runs)
{
    (void)format;
    *runs = DHRY_RUNS;
    return 1;
}
