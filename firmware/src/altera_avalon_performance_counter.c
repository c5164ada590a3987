/*
 * Performance counter core: the HAL driver's functions.
 *
 * Defined with the vendor's own parameter types (void *): GCC takes
 * them as compatible with the header's transparent-union declarations,
 * which is what lets a program repeat the vendor's prototypes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "system.h"

alt_u64 perf_get_section_time(void *hw_base_address, int which_section)
{
    alt_u64 lo, hi;

    perfctr_require_core(hw_base_address);
    /* Stopping first is what makes the separate lo and hi reads agree */
    PERF_STOP_MEASURING(hw_base_address);
    lo = IORD(hw_base_address, which_section * 4);
    hi = IORD(hw_base_address, which_section * 4 + 1);
    return hi << 32 | lo;
}

alt_u64 perf_get_total_time(void *hw_base_address)
{
    return perf_get_section_time(hw_base_address, 0);
}

alt_u32 perf_get_num_starts(void *hw_base_address, int which_section)
{
    perfctr_require_core(hw_base_address);
    return IORD(hw_base_address, which_section * 4 + 2);
}

alt_u32 alt_get_cpu_freq(void)
{
    return ALT_CPU_FREQ;
}

void *alt_get_performance_counter_base(void)
{
    return (void *)PERFORMANCE_COUNTER_0_BASE;
}
