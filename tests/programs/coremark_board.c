/*
 * The board part of CoreMark (its core_portme.c) for the MPS2 boards,
 * for scripts/bench --coremark (docs/cycles.md, "Against silicon").
 * CoreMark is not ours and is not in this repository: the bench
 * compiles the core_*.c files of the user's checkout of the Arduino
 * port that published the silicon figures (PaulStoffregen/CoreMark),
 * with that port's core_portme.h, and this file in place of its
 * core_portme.c, which reads Arduino's millis().
 *
 * There the timed part ran between two reads of a millisecond clock;
 * here section 1 of the counter core runs from start_time() to
 * stop_time(), with clock=cycles: the timing model's cycles.  A
 * model's cycles are exact, so a few iterations (ITERATIONS, set by the
 * bench) say what a 10 s run would, and core_main.c's check that the
 * run lasted 10 s does not apply: the bench prints its own line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdio.h>

#include "coremark.h"
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

/* The port's core_portme.h renames main() to coremark_main() for the
 * Arduino sketch that calls it; here it is called from main() */
#undef main

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

#ifndef COREMARK_ITERATIONS
#define COREMARK_ITERATIONS 10
#endif

/* The seeds of a performance run, as the port's own core_portme.c */
volatile ee_s32 seed1_volatile = 0x0;
volatile ee_s32 seed2_volatile = 0x0;
volatile ee_s32 seed3_volatile = 0x66;
volatile ee_s32 seed4_volatile = COREMARK_ITERATIONS;
volatile ee_s32 seed5_volatile = 0;

ee_u32 default_num_contexts = 1;

int coremark_main(void);

void start_time(void)
{
    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
}

void stop_time(void)
{
    PERF_END(PERF, 1);
    /* (the instructions: whether a difference is the code's or the
     * model's CPI) */
    printf("coremark cycles=%llu instructions=%llu iterations=%ld\n",
           (unsigned long long)perf_get_section_time(PERF, 1),
           (unsigned long long)perfctr_instructions(PERF, 1),
           (long)seed4_volatile);
}

CORE_TICKS get_time(void)
{
    return (CORE_TICKS)perf_get_section_time(PERF, 1);
}

secs_ret time_in_secs(CORE_TICKS ticks)
{
    return (secs_ret)ticks / ALT_CPU_FREQ;
}

void portable_init(core_portable *p, int *argc, char *argv[])
{
    (void)argc;
    (void)argv;
    p->portable_id = 1;
}

void portable_fini(core_portable *p)
{
    p->portable_id = 0;
}

int ee_printf(const char *fmt, ...)
{
    va_list args;
    int n;

    va_start(args, fmt);
    n = vprintf(fmt, args);
    va_end(args);
    return n;
}

int main(void)
{
    coremark_main();
    return 0;
}
