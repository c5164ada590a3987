/*
 * A course-lab style Nios II program, as its authors wrote it for a
 * system whose counter instance is named "p_counter": P_COUNTER_BASE is
 * not in our system.h, so it is mapped on the command line
 * (scripts/profile -D P_COUNTER_BASE=PERFORMANCE_COUNTER_BASE).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <unistd.h>
#include "system.h"
#include "alt_types.h"
#include "sys/alt_timestamp.h"
#include "sys/alt_alarm.h"
#include "alt_stdio.h"
#include "altera_avalon_performance_counter.h"

#define N 256

static int matrix_a[N], matrix_b[N];

static int dot(const int *a, const int *b)
{
    int sum = 0;

    for (int i = 0; i < N; i++) {
        sum += a[i] * b[i];
    }
    return sum;
}

int main(void)
{
    alt_u32 ts_start, ts_end;
    alt_u32 ticks_start = alt_nticks();
    int result;

    for (int i = 0; i < N; i++) {
        matrix_a[i] = i;
        matrix_b[i] = N - i;
    }
    alt_putstr("lab: start\n");
    if (alt_timestamp_start() < 0) {
        alt_printf("no timestamp timer\n");
        return 1;
    }
    PERF_RESET(P_COUNTER_BASE);
    PERF_START_MEASURING(P_COUNTER_BASE);

    ts_start = alt_timestamp();
    PERF_BEGIN(P_COUNTER_BASE, 1);
    result = dot(matrix_a, matrix_b);
    PERF_END(P_COUNTER_BASE, 1);
    ts_end = alt_timestamp();

    PERF_BEGIN(P_COUNTER_BASE, 2);
    usleep(20000);
    PERF_END(P_COUNTER_BASE, 2);

    PERF_STOP_MEASURING(P_COUNTER_BASE);
    printf("dot=%d timestamp_ticks=%lu freq=%lu nticks=%lu\n", result,
           (unsigned long)(ts_end - ts_start),
           (unsigned long)alt_timestamp_freq(),
           (unsigned long)(alt_nticks() - ticks_start));
    perf_print_formatted_report(P_COUNTER_BASE, alt_get_cpu_freq(), 2,
                                "dot product", "usleep 20 ms");
    return 0;
}
