/*
 * Performance counter core: what the device's files share
 * (perf-counter.c, the registers; perf-counter-count.c, the counting;
 * perf-counter-readout.c, the host readout)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_PERF_COUNTER_INTERNAL_H
#define HW_MISC_PERF_COUNTER_INTERNAL_H

#include "hw/misc/perf-counter.h"
#include "hw/registerfields.h"

/* The extension block's VERSION, also in the host readout */
#define PERF_COUNTER_VERSION 2

/* A counter's CTRL (at 0x404 + 16i) and FLAGS (0x900 + 4i, W1C) */
FIELD(CTRL, THRESH_EN, 0, 1)
FIELD(CTRL, OVF_EN, 1, 1)
FIELD(CTRL, THRESH_ON_TIME, 2, 1)
FIELD(FLAGS, THRESH, 0, 1)
FIELD(FLAGS, OVF, 1, 1)

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
                            const PerfCounterNow *now);
uint64_t perf_counter_event_count(PerfCounterState *s, unsigned counter,
                                  const PerfCounterNow *now);

/* The counting (perf-counter-count.c) */
/* After a change of the event selects or the clock: events_counted */
void perf_counter_events_counted_update(PerfCounterState *s);
/* An event the counters did not count until now counts from @now */
void perf_counter_baseline_new(PerfCounterState *s, PerfCounterNow *now);
/* Bring every running counter up to @now; call before any state change */
void perf_counter_sync(PerfCounterState *s, const PerfCounterNow *now);
/* Raise the flags reached by @now (synced); arm for the next ones */
void perf_counter_update(PerfCounterState *s, const PerfCounterNow *now);
/* The counters whose flags are set (bit i) */
uint64_t perf_counter_pending(PerfCounterState *s);
/* The timer's and the hook's callbacks: a flag may be due */
void perf_counter_timer_expired(void *opaque);
void perf_counter_reached(PerfctrHookClient *client);

/* The host readout (perf-counter-readout.c) */
void perf_counter_readout_record(PerfCounterState *s,
                                 PerfCounterEventKind kind,
                                 unsigned section, const PerfCounterNow *now);
bool perf_counter_readout_realize(PerfCounterState *s, Error **errp);
void perf_counter_readout_unrealize(PerfCounterState *s);
void perf_counter_readout_class_init(ObjectClass *oc);

#endif
