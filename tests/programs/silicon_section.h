/*
 * What the programs that compare the timing models with published
 * silicon counts share (silicon_aes.c, silicon_pqc.c): one call is
 * timed in section 1 of the counter core, as their authors time it
 * with a cycle counter read before and after.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef SILICON_SECTION_H
#define SILICON_SECTION_H

#include <stdint.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

/* Section 1's clocks added by the last measured call */
static uint64_t last;

static uint64_t measured(void)
{
    uint64_t total = perf_get_section_time(PERF, 1);    /* stops */
    uint64_t added = total - last;

    last = total;
    PERF_START_MEASURING(PERF);
    return added;
}

#endif
