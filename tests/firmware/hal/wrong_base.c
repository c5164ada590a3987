/*
 * Test firmware: a program with a base where no core answers (32 KiB
 * past the first core: nothing there on any board).  It must stop with
 * a message naming the address and a non-zero exit code, not print a
 * table of zeros: at its first getter or report (MPS2, where an empty
 * address reads 0), or at its first store (virt boards, where the store
 * faults).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

#define P_COUNTER_BASE (PERFORMANCE_COUNTER_BASE + 0x8000)

static volatile alt_u32 sink;

int main(void)
{
    int i;

    printf("wrong_base base=%lu\n", (unsigned long)P_COUNTER_BASE);
    PERF_RESET(P_COUNTER_BASE);
    PERF_START_MEASURING(P_COUNTER_BASE);
    PERF_BEGIN(P_COUNTER_BASE, 1);
    for (i = 0; i < 100; i++) {
        sink = i;
    }
    PERF_END(P_COUNTER_BASE, 1);
    PERF_STOP_MEASURING(P_COUNTER_BASE);
    perf_print_formatted_report(P_COUNTER_BASE, ALT_CPU_FREQ, 1, "loop");
    printf("wrong_base reached_the_end=1\n");
    return 0;
}
