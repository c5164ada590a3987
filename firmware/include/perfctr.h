/*
 * Extensions of this project to the performance counter HAL API.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef PERFCTR_H
#define PERFCTR_H

#include <stdio.h>
#include "alt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One row of a performance counter report */
struct perfctr_row {
    const char *name;
    alt_u64 clocks;
    alt_u32 occurrences;
};

/*
 * Write the report that perf_print_formatted_report() prints, for given
 * values, to out.  The format is the HAL's, field for field; columns
 * widen where a name or value would not fit, and a zero total gives 0%.
 * Returns 0, or -1 if writing failed.
 */
int perfctr_report_write(FILE *out, alt_u32 clock_hz, alt_u64 total_clocks,
                         int num_rows, const struct perfctr_row *rows);

#ifdef __cplusplus
}
#endif

#endif
