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

#if defined(__arm__) && __ARM_ARCH == 6 && !defined(__ARM_ARCH_6M__)
/* The ARM1176's own monitor (raspi1ap) counts across the snapshot too */
#include "arm11_pmu.h"
#define WITH_ARM11_PMU 1
#endif

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

int main(void)
{
    int i;

    PERF_RESET(PERF);
    PERF_BEGIN(PERF, 3);                /* begun while stopped */
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
    PERF_BEGIN(PERF, 2);
#ifdef WITH_ARM11_PMU
    arm11_pmu_start(ARM11_PMU_EVT_INSTRUCTION, ARM11_PMU_EVT_BRANCH);
#endif
    printf("started\n");
    for (i = 0; i < 20; i++) {
        scenario_spin(10000000);
        PERF_BEGIN(PERF, 2);            /* occurrences go on counting */
    }
    PERF_END(PERF, 1);
#ifdef WITH_ARM11_PMU
    arm11_pmu_stop();
    printf("arm11_pmu ccnt=%lu instructions=%lu branches=%lu\n",
           (unsigned long)arm11_pmu_ccnt_read(),
           (unsigned long)arm11_pmu_pmn0_read(),
           (unsigned long)arm11_pmu_pmn1_read());
#endif
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
