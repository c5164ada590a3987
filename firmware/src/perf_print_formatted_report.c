/*
 * perf_print_formatted_report(): read the core, print the HAL's table.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

/* The vendor's prototype: the names are all in the variable part */
int perf_print_formatted_report(void *perf_base, alt_u32 clock_freq_hertz,
                                int num_sections, ...)
{
    struct perfctr_row rows[num_sections > 0 ? num_sections : 1];
    alt_u64 total_clocks;
    va_list names;
    int i;

    /* The HAL stops first, so a report without a prior STOP is fine */
    perfctr_require_core(perf_base);
    PERF_STOP_MEASURING(perf_base);
    total_clocks = perf_get_total_time(perf_base);

    va_start(names, num_sections);
    for (i = 0; i < num_sections; i++) {
        /* Read exactly num_sections names, no more */
        rows[i].name = va_arg(names, const char *);
        rows[i].clocks = perf_get_section_time(perf_base, i + 1);
        rows[i].occurrences = perf_get_num_starts(perf_base, i + 1);
    }
    va_end(names);

    perfctr_report_write(stdout, clock_freq_hertz, total_clocks,
                         num_sections, rows);
    return 0;
}
