/*
 * Test firmware: a 128 KiB array on the stack, as Nios II programs
 * written for a BSP with a large stack have (BUFFER_BYTES instead on a
 * board whose whole RAM is smaller, from its cross file).  picolibc's
 * default stack
 * is 2 KiB; meson.build gives this program a larger one
 * (-Wl,--defsym=__stack_size=...).  Without it, the array overruns the
 * stack into memory the heap may hand out: the program checks that the
 * whole array lies in the stack the link reserved, between picolibc's
 * __heap_end and __stack.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"

#ifdef BUFFER_BYTES
#define ARRAY_BYTES BUFFER_BYTES
#else
#define ARRAY_BYTES (128 * 1024)
#endif

/* picolibc's linker script: the stack is [__heap_end, __stack) */
extern char __heap_end[], __stack[];

static int in_stack;

static alt_u32 sum_on_stack(void)
{
    volatile alt_u8 array[ARRAY_BYTES];
    alt_u32 sum = 0;
    int i;

    in_stack = (uintptr_t)array >= (uintptr_t)__heap_end &&
               (uintptr_t)(array + ARRAY_BYTES) <= (uintptr_t)__stack;
    for (i = 0; i < ARRAY_BYTES; i++) {
        array[i] = (alt_u8)(i * 13 + 5);
    }
    for (i = 0; i < ARRAY_BYTES; i++) {
        sum += array[i];
    }
    return sum;
}

int main(void)
{
    alt_u32 sum;

    PERF_RESET(PERFORMANCE_COUNTER_BASE);
    PERF_START_MEASURING(PERFORMANCE_COUNTER_BASE);
    PERF_BEGIN(PERFORMANCE_COUNTER_BASE, 1);
    sum = sum_on_stack();
    PERF_END(PERFORMANCE_COUNTER_BASE, 1);
    PERF_STOP_MEASURING(PERFORMANCE_COUNTER_BASE);
    printf("big_stack bytes=%d sum=%lu in_stack=%d stack_bytes=%lu "
           "clocks_nonzero=%d\n", ARRAY_BYTES, (unsigned long)sum,
           in_stack, (unsigned long)(__stack - __heap_end),
           perf_get_section_time(PERFORMANCE_COUNTER_BASE, 1) != 0);
    return 0;
}
