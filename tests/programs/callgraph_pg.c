/*
 * Known call structure in C, for the -pg workflow (scripts/profile
 * --gprof, tests/boot/test_hotspots.py): main calls callee_a 1000 times
 * and callee_c 10 times; callee_a calls callee_b 3 times; callee_c does
 * most of the work.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"

volatile int sink;

__attribute__((noinline)) void callee_b(void)
{
    sink++;
}

__attribute__((noinline)) void callee_a(void)
{
    for (int i = 0; i < 3; i++) {
        callee_b();
    }
}

__attribute__((noinline)) void callee_c(void)
{
    for (int i = 0; i < 20000; i++) {
        sink += i;
    }
}

int main(void)
{
    PERF_RESET(PERFORMANCE_COUNTER_BASE);
    PERF_START_MEASURING(PERFORMANCE_COUNTER_BASE);
    PERF_BEGIN(PERFORMANCE_COUNTER_BASE, 1);
    for (int i = 0; i < 1000; i++) {
        callee_a();
    }
    for (int i = 0; i < 10; i++) {
        callee_c();
    }
    PERF_END(PERFORMANCE_COUNTER_BASE, 1);
    PERF_STOP_MEASURING(PERFORMANCE_COUNTER_BASE);
    perf_print_formatted_report((void *)PERFORMANCE_COUNTER_BASE,
                                ALT_CPU_FREQ, 1, "calls");
    return 0;
}
