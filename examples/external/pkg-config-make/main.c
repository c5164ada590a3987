/*
 * A program built outside perf-counter's tree, with the library as
 * a pkg-config package: one section around a loop, then the HAL's report.  The
 * same program in every example of examples/external/.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

#define SUM_SECTION 1

static unsigned sum_to(unsigned n)
{
    unsigned sum = 0;

    while (n) {
        sum += n--;
    }
    return sum;
}

int main(void)
{
    void *perf = (void *)PERFORMANCE_COUNTER_BASE;
    volatile unsigned n = 1000;     /* not folded at compile time */
    unsigned sum;

    PERF_RESET(perf);
    PERF_START_MEASURING(perf);
    PERF_BEGIN(perf, SUM_SECTION);
    sum = sum_to(n);
    PERF_END(perf, SUM_SECTION);

    printf("sum of 1..%u: %u\n", n, sum);
    perf_print_formatted_report(perf, alt_get_cpu_freq(), 1, "sum_to");
    return sum == 500500 ? 0 : 1;
}
