/*
 * Test firmware for snapshots and migration: sections run through a
 * long computation, during which the test saves the VM and restores it
 * in a new QEMU.  The counts printed at the end must be the ones an
 * uninterrupted run prints.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "test_support.h"

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

int main(void)
{
    int i;

    PERF_RESET(PERF);
    PERF_BEGIN(PERF, 3);                /* begun while stopped */
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
    PERF_BEGIN(PERF, 2);
    printf("started\n");
    for (i = 0; i < 20; i++) {
        scenario_spin(5000000);
        PERF_BEGIN(PERF, 2);            /* occurrences go on counting */
    }
    PERF_END(PERF, 1);
    PERFCTR_SNAPSHOT(PERF);
    printf("migrate running=%lu\n",
           (unsigned long)IORD(PERF, PERFCTR_REG_RUNNING_LO));
    for (i = 0; i <= 3; i++) {
        printf("counter%d time=%llu instructions=%llu occurrences=%lu\n", i,
               (unsigned long long)perfctr_snapshot_time(PERF, i),
               (unsigned long long)perfctr_snapshot_instructions(PERF, i),
               (unsigned long)perf_get_num_starts(PERF, i));
    }
    return 0;
}
