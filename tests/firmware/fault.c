/*
 * A guest that faults: a store to an address where no board has
 * anything, in a function of its own.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "alt_types.h"

#define NOWHERE 0xf0000000u

__attribute__((noinline)) void store_to_nowhere(volatile alt_u32 *p)
{
    *p = 1;
}

int main(void)
{
    printf("storing to 0x%08x\n", NOWHERE);
    store_to_nowhere((volatile alt_u32 *)NOWHERE);
    printf("still running\n");
    return 0;
}
