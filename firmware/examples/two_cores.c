/*
 * Two performance counter cores on one board, as the original manual
 * advises when seven sections are not enough: core 0 times three ways
 * to sort, core 1 times three of the C library's memory routines, and
 * each prints its report.  Both count the same emulated clock.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

#define COUNT 256

/* Sections of core 0 */
#define INSERTION_SORT 1
#define SHELL_SORT 2
#define QSORT 3
/* Sections of core 1 */
#define MEMCPY 1
#define MEMCMP 2
#define MEMSET 3

static int original[COUNT], work[COUNT], copy[COUNT];

static void fill(int *a, int n)
{
    unsigned seed = 12345;
    int i;

    for (i = 0; i < n; i++) {
        seed = seed * 1103515245 + 12345;
        a[i] = (int)(seed >> 8);
    }
}

static void insertion_sort(int *a, int n)
{
    int i, j, v;

    for (i = 1; i < n; i++) {
        v = a[i];
        for (j = i; j > 0 && a[j - 1] > v; j--) {
            a[j] = a[j - 1];
        }
        a[j] = v;
    }
}

static void shell_sort(int *a, int n)
{
    int gap, i, j, v;

    for (gap = n / 2; gap > 0; gap /= 2) {
        for (i = gap; i < n; i++) {
            v = a[i];
            for (j = i; j >= gap && a[j - gap] > v; j -= gap) {
                a[j] = a[j - gap];
            }
            a[j] = v;
        }
    }
}

static int compare_ints(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;

    return (a > b) - (a < b);
}

int main(void)
{
    void *sorts = (void *)PERFORMANCE_COUNTER_BASE;
    void *memory = (void *)PERFORMANCE_COUNTER_1_BASE;
    int same;

    fill(original, COUNT);
    PERF_RESET(sorts);
    PERF_RESET(memory);
    PERF_START_MEASURING(sorts);
    PERF_START_MEASURING(memory);

    memcpy(work, original, sizeof(work));
    PERF_BEGIN(sorts, INSERTION_SORT);
    insertion_sort(work, COUNT);
    PERF_END(sorts, INSERTION_SORT);

    memcpy(work, original, sizeof(work));
    PERF_BEGIN(sorts, SHELL_SORT);
    shell_sort(work, COUNT);
    PERF_END(sorts, SHELL_SORT);

    memcpy(work, original, sizeof(work));
    PERF_BEGIN(sorts, QSORT);
    qsort(work, COUNT, sizeof(work[0]), compare_ints);
    PERF_END(sorts, QSORT);

    PERF_BEGIN(memory, MEMCPY);
    memcpy(copy, work, sizeof(copy));
    PERF_END(memory, MEMCPY);

    PERF_BEGIN(memory, MEMCMP);
    same = memcmp(copy, work, sizeof(copy)) == 0;
    PERF_END(memory, MEMCMP);

    PERF_BEGIN(memory, MEMSET);
    memset(copy, 0, sizeof(copy));
    PERF_END(memory, MEMSET);

    PERF_STOP_MEASURING(sorts);
    PERF_STOP_MEASURING(memory);

    printf("sorted %d ints; copy %s, then cleared to %d\n", COUNT,
           same ? "matches" : "differs", copy[0] | copy[COUNT - 1]);
    perf_print_formatted_report(sorts, alt_get_cpu_freq(), 3,
                                "insertion sort", "shell sort", "qsort");
    perf_print_formatted_report(memory, alt_get_cpu_freq(), 3,
                                "memcpy", "memcmp", "memset");
    return same ? 0 : 1;
}
