/*
 * The board support of Embench IoT (its boardsupport.c) for the MPS2
 * boards, for scripts/bench --embench (docs/cycles.md, "Against
 * silicon").  Embench is not ours and is not in this repository: the
 * bench compiles each benchmark of the user's checkout with the
 * checkout's support/main.c and support/beebsc.c and this file.
 *
 * On the reference board, a cycle counter (DWT CYCCNT) runs from
 * start_trigger() to stop_trigger(); here section 1 of the counter core
 * does, with clock=cycles: the timing model's cycles.  Linked with
 * -Wl,--wrap=verify_benchmark, so that main()'s call of the benchmark's
 * check comes here first and its verdict is printed (main() only
 * returns it).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

/* Embench's support.h says so; repeated to need no header of its own */
void initialise_board(void);
void start_trigger(void);
void stop_trigger(void);
int __real_verify_benchmark(int result);
int __wrap_verify_benchmark(int result);

void initialise_board(void)
{
    PERF_RESET(PERF);
}

/* Not inlined, as on the reference board: the same call on each side */
void __attribute__((noinline)) start_trigger(void)
{
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
}

void __attribute__((noinline)) stop_trigger(void)
{
    PERF_END(PERF, 1);
    /* (the instructions: whether a difference is the code's or the
     * model's CPI) */
    printf("embench cycles=%llu instructions=%llu\n",
           (unsigned long long)perf_get_section_time(PERF, 1),
           (unsigned long long)perfctr_instructions(PERF, 1));
}

int __wrap_verify_benchmark(int result)
{
    int correct = __real_verify_benchmark(result);

    /* 1 verified, 0 wrong, -1 (by support.h) not checked */
    printf("embench verify=%d\n", correct);
    return correct;
}
