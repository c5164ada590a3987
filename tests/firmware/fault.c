/*
 * A guest that faults: a store to an address where no board has
 * anything, in a function of its own.  Built twice: as it is, and with
 * USE_GETTER, a program that reads its counter first (which installs
 * the library's wrong-base fault report on the virt boards).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "alt_types.h"
#include "system.h"
#include "altera_avalon_performance_counter.h"

#define NOWHERE 0xf0000000u

__attribute__((noinline)) void store_to_nowhere(volatile alt_u32 *p)
{
    *p = 1;
}

int main(void)
{
#ifdef USE_GETTER
    printf("starts %lu\n", (unsigned long)perf_get_num_starts(
        (void *)PERFORMANCE_COUNTER_BASE, 0));
#endif
    printf("storing to 0x%08x\n", NOWHERE);
    store_to_nowhere((volatile alt_u32 *)NOWHERE);
    printf("still running\n");
    return 0;
}
