/*
 * Section 1's threshold interrupt, recorded for the events tests
 * (events.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include "events.h"
#include "perfctr.h"

volatile int events_taken;
volatile alt_u32 events_taken_pc;

void events_take_threshold(void *p, alt_u32 pc)
{
    if (perfctr_flags(p, 1) & PERFCTR_FLAG_THRESH) {
        perfctr_threshold_disarm(p, 1);
        perfctr_flags_ack(p, 1, PERFCTR_FLAG_THRESH);
        events_taken_pc = pc;
        events_taken++;
    }
}

void events_threshold_handler(alt_u32 base, alt_u32 pc, void *context)
{
    (void)context;
    events_take_threshold((void *)(uintptr_t)base, pc);
}

long events_taken_offset(const char *label)
{
    return (long)(events_taken_pc - (alt_u32)(uintptr_t)label);
}
