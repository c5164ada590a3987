/*
 * Selectable events, thresholds and interrupt flags (extension version 2).
 *
 * SPDX-License-Identifier: MIT
 */
#include "perfctr.h"

static const char *const event_names[PERFCTR_NUM_EVENTS] = {
    "none", "instructions", "loads", "stores", "branches", "calls",
    "returns", "taken-branches", "exceptions", "cycles",
    "conditional-branches", "direct-jumps", "indirect-jumps", "multiplies",
    "divides", "exception-returns", "retired-branches", "memory-stalls",
};

const char *perfctr_event_name(enum perfctr_event event)
{
    return (unsigned)event < PERFCTR_NUM_EVENTS ? event_names[event] : "?";
}

int perfctr_event_available(void *p, enum perfctr_event event)
{
    return (unsigned)event < PERFCTR_NUM_EVENTS &&
           (IORD(p, PERFCTR_REG_EVENTS_AVAILABLE) >> event & 1);
}

int perfctr_event_select(void *p, int n, enum perfctr_event event)
{
    if (event != PERFCTR_EVENT_NONE && !perfctr_event_available(p, event)) {
        return -1;
    }
    IOWR(p, PERFCTR_REG_EVSEL(n), event);
    return 0;
}

alt_u64 perfctr_event_count(void *p, int n)
{
    return perfctr_instructions(p, n);
}

void perfctr_event_preset(void *p, int n, alt_u64 value)
{
    IOWR(p, PERFCTR_REG_EVCNT(n) + 1, (alt_u32)(value >> 32));
    IOWR(p, PERFCTR_REG_EVCNT(n), (alt_u32)value);
}

void perfctr_threshold_arm(void *p, int n, alt_u64 value, int on_time)
{
    alt_u32 ctrl = IORD(p, PERFCTR_REG_CTRL(n)) &
                   ~(alt_u32)PERFCTR_CTRL_THRESH_ON_TIME;

    IOWR(p, PERFCTR_REG_THRESH(n), (alt_u32)value);
    IOWR(p, PERFCTR_REG_THRESH(n) + 1, (alt_u32)(value >> 32));
    IOWR(p, PERFCTR_REG_CTRL(n), ctrl | PERFCTR_CTRL_THRESH_EN |
         (on_time ? PERFCTR_CTRL_THRESH_ON_TIME : 0));
}

void perfctr_threshold_disarm(void *p, int n)
{
    IOWR(p, PERFCTR_REG_CTRL(n),
         IORD(p, PERFCTR_REG_CTRL(n)) & ~(alt_u32)PERFCTR_CTRL_THRESH_EN);
}

void perfctr_overflow_enable(void *p, int n, int enable)
{
    alt_u32 ctrl = IORD(p, PERFCTR_REG_CTRL(n)) &
                   ~(alt_u32)PERFCTR_CTRL_OVF_EN;

    IOWR(p, PERFCTR_REG_CTRL(n), ctrl | (enable ? PERFCTR_CTRL_OVF_EN : 0));
}

alt_u32 perfctr_flags(void *p, int n)
{
    return IORD(p, PERFCTR_REG_FLAGS(n));
}

void perfctr_flags_ack(void *p, int n, alt_u32 flags)
{
    IOWR(p, PERFCTR_REG_FLAGS(n), flags);
}
