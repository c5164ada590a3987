/*
 * Test firmware: a program that, like many, repeats the vendor's own
 * prototypes (spelled as in the vendor's altera_avalon_performance_
 * counter.h) after including the header.  It must compile, without a
 * warning (-Werror), and the functions must work.
 *
 * SPDX-License-Identifier: MIT
 */
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "vendor_decl.h"

alt_u64 perf_get_total_time   (void* hw_base_address);
alt_u64 perf_get_section_time (void* hw_base_address, int which_section);
alt_u32 perf_get_num_starts   (void* hw_base_address, int which_section);

int perf_print_formatted_report (void* perf_base,
                                 alt_u32 clock_freq_hertz,
                                 int num_sections, ...);

void* alt_get_performance_counter_base(void);
alt_u32 alt_get_cpu_freq(void);

alt_u64 vendor_decl_section_time(int n)
{
    return perf_get_section_time(alt_get_performance_counter_base(), n);
}
