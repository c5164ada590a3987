/*
 * Performance counter core: the Nios II HAL driver's API.
 *
 * Programs written for the Altera/Intel HAL compile unchanged: the same
 * macros (each one store to the core), functions and side effects.
 * Extensions of this project are in perfctr.h, not here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef ALTERA_AVALON_PERFORMANCE_COUNTER_H
#define ALTERA_AVALON_PERFORMANCE_COUNTER_H

#include "alt_types.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stop and zero every counter, event count and section flag */
#define PERF_RESET(p) IOWR((p), 0, 1)
/* Start the global counter (counts one global event) */
#define PERF_START_MEASURING(p) IOWR((p), 1, 0)
/* Stop the global counter; begun sections pause with it */
#define PERF_STOP_MEASURING(p) IOWR((p), 0, 0)
/* Begin section n (1..); counts an occurrence if the core is started */
#define PERF_BEGIN(p, n) IOWR((p), (n) * 4 + 1, 0)
/* End section n */
#define PERF_END(p, n) IOWR((p), (n) * 4, 0)

/* Stops the global counter, then reads section n's 64-bit time */
alt_u64 perf_get_section_time(void *hw_base_address, int which_section);
/* Stops the global counter, then reads its 64-bit time */
alt_u64 perf_get_total_time(void *hw_base_address);
/* Occurrences of section n (n = 0: global starts); stops nothing */
alt_u32 perf_get_num_starts(void *hw_base_address, int which_section);
/* CPU clock in Hz: ALT_CPU_FREQ from the board's system.h */
alt_u32 alt_get_cpu_freq(void);

/*
 * Stop the global counter and print the report table to stdout, one
 * row per section with the given names.  Returns 0.  Not for ISRs.
 */
int perf_print_formatted_report(void *perf_base, alt_u32 clock_freq_hertz,
                                int num_sections,
                                const char *section_name_1, ...);

#ifdef __cplusplus
}
#endif

#endif
