/*
 * Performance counter core: what the device's files share
 * (perf-counter.c, the registers and counting; perf-counter-readout.c,
 * the host readout)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_PERF_COUNTER_INTERNAL_H
#define HW_MISC_PERF_COUNTER_INTERNAL_H

#include "hw/misc/perf-counter.h"

/* The extension block's VERSION, also in the host readout */
#define PERF_COUNTER_VERSION 2

/* The emulated clocks and event counts, read once per access */
typedef struct PerfCounterNow {
    int64_t ns;         /* QEMU_CLOCK_VIRTUAL */
    int64_t insns;      /* retired instructions; 0 without -icount */
    uint64_t events[PERFCTR_EVENT_COUNT];   /* the hook's; 0 if none */
    uint32_t read;      /* the events read (bit e): the others are 0 */
} PerfCounterNow;

PerfCounterNow perf_counter_now(PerfCounterState *s);
/* Counter @counter's time in clocks, and its event count, at @now */
uint64_t perf_counter_ticks(PerfCounterState *s, unsigned counter,
                            PerfCounterNow now);
uint64_t perf_counter_event_count(PerfCounterState *s, unsigned counter,
                                  PerfCounterNow now);

/* The host readout (perf-counter-readout.c) */
void perf_counter_readout_record(PerfCounterState *s,
                                 PerfCounterEventKind kind,
                                 unsigned section, PerfCounterNow now);
bool perf_counter_readout_realize(PerfCounterState *s, Error **errp);
void perf_counter_readout_unrealize(PerfCounterState *s);
void perf_counter_readout_class_init(ObjectClass *oc);

#endif
