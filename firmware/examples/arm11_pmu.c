/*
 * The ARM1176's own performance monitor and the performance counter
 * core, measuring the same routine (raspi1ap): CCNT counts cycles, PMN0
 * instructions executed and PMN1 branch instructions executed, while a
 * section of the counter core times the same call.  Under QEMU's
 * -icount shift=0 a cycle is an instruction, so CCNT, PMN0 and the
 * section agree but for the few instructions between the two starts
 * and the two stops.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "arm11_pmu.h"

#define ROUTINE_SECTION 1
#define N 1000

static alt_u32 values[N];

/* Insertion sort of a descending array: the worst case */
__attribute__((noinline)) static void routine(alt_u32 *v, int n)
{
    int i, j;

    for (i = 1; i < n; i++) {
        alt_u32 x = v[i];

        for (j = i; j > 0 && v[j - 1] > x; j--) {
            v[j] = v[j - 1];
        }
        v[j] = x;
    }
}

int main(void)
{
    void *perf = (void *)PERFORMANCE_COUNTER_BASE;
    alt_u32 ccnt, instructions, branches;
    alt_u64 section;
    int i;

    for (i = 0; i < N; i++) {
        values[i] = N - i;
    }

    PERF_RESET(perf);
    PERF_START_MEASURING(perf);
    PERF_BEGIN(perf, ROUTINE_SECTION);
    arm11_pmu_start(ARM11_PMU_EVT_INSTRUCTION, ARM11_PMU_EVT_BRANCH);
    routine(values, N);
    arm11_pmu_stop();
    PERF_END(perf, ROUTINE_SECTION);
    PERF_STOP_MEASURING(perf);

    ccnt = arm11_pmu_ccnt_read();
    instructions = arm11_pmu_pmn0_read();
    branches = arm11_pmu_pmn1_read();
    section = perf_get_section_time(perf, ROUTINE_SECTION);

    printf("insertion sort of %d ints: %s\n", N,
           values[0] == 1 && values[N - 1] == N ? "sorted" : "NOT SORTED");
    printf("ARM1176 PMU: CCNT %lu cycles, PMN0 %lu instructions, "
           "PMN1 %lu branches\n", (unsigned long)ccnt,
           (unsigned long)instructions, (unsigned long)branches);
    printf("counter core: section %llu clocks\n",
           (unsigned long long)section);
    perf_print_formatted_report(perf, ALT_CPU_FREQ, 1, "insertion sort");
    return 0;
}
