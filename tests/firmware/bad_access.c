/*
 * Test firmware making accesses that mean nothing to the core; QEMU
 * must log each under -d guest_errors and otherwise ignore it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

int main(void)
{
    alt_u32 reserved;

    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    IOWR(PERF, 2, 5);                         /* event count: read-only */
    reserved = IORD(PERF, 3);                 /* reserved word */
    *(volatile alt_u8 *)PERF = 1;             /* byte store: not RESET */
    IOWR(PERF, 4 * (PERFORMANCE_COUNTER_HOW_MANY_SECTIONS + 1) + 1, 0);
    PERF_STOP_MEASURING(PERF);
    printf("bad_access reserved=%lu starts=%lu running=%d\n",
           (unsigned long)reserved,
           (unsigned long)perf_get_num_starts(PERF, 0),
           perf_get_total_time(PERF) != 0);
    return 0;
}
