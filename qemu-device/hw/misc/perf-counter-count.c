/*
 * Performance counter core: the counting (perf-counter.c has the
 * registers): clocks and event counts brought up to the instant of
 * each access, thresholds and overflows raised at the instruction that
 * reaches them, through a virtual-clock timer or a target armed with
 * the perfctr hook
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "qemu/host-utils.h"
#include "hw/irq.h"
#include "hw/misc/perf-counter.h"
#include "perf-counter-internal.h"
#include "hw/registerfields.h"
#include "system/cpu-timers.h"

/*
 * The hook's events the counters count (bit e), and those they may set
 * targets on: the events of enabled thresholds and overflows.  Cycles
 * are counted whenever a timing model runs, so they are wanted only
 * for targets (which cost more).
 */
static void perf_counter_hook_events(PerfCounterState *s, uint32_t *want,
                                     uint32_t *targeted)
{
    unsigned i;

    *want = *targeted = 0;
    for (i = 0; i <= s->num_sections; i++) {
        uint32_t ctrl = s->ctrl[i];
        unsigned e = s->evsel[i];
        bool on_time = FIELD_EX32(ctrl, CTRL, THRESH_ON_TIME);

        if (e > PERFCTR_EVENT_INSTRUCTIONS && e != PERFCTR_EVENT_CYCLES) {
            *want |= BIT(e);
        }
        if (e > PERFCTR_EVENT_INSTRUCTIONS &&
            (FIELD_EX32(ctrl, CTRL, OVF_EN) ||
             (FIELD_EX32(ctrl, CTRL, THRESH_EN) && !on_time))) {
            *targeted |= BIT(e);
        }
        if (FIELD_EX32(ctrl, CTRL, THRESH_EN) && on_time &&
            s->clock_event != PERFCTR_EVENT_NONE) {
            *targeted |= BIT(s->clock_event);
        }
    }
}

/* The hook's events the counters count in: those selected, the clock */
void perf_counter_events_counted_update(PerfCounterState *s)
{
    uint32_t events = 0;
    unsigned i;

    if (s->clock_event != PERFCTR_EVENT_NONE) {
        events |= BIT(s->clock_event);
    }
    for (i = 0; i <= s->num_sections; i++) {
        if (s->evsel[i] > PERFCTR_EVENT_INSTRUCTIONS) {
            events |= BIT(s->evsel[i]);
        }
    }
    s->events_counted = events;
}

PerfCounterNow perf_counter_now(PerfCounterState *s)
{
    PerfCounterNow now = {
        .ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
        .insns = icount_enabled() ? icount_get_raw() : 0,
        /* Only those: each read costs the access time */
        .read = s->events_counted,
    };
    uint32_t left = now.read;

    while (left) {
        unsigned e = ctz32(left);

        left &= left - 1;
        perfctr_hook_read_event(s->cpu, e, &now.events[e]);
    }
    return now;
}

/* An event the counters did not count until now counts from @now */
void perf_counter_baseline_new(PerfCounterState *s, PerfCounterNow *now)
{
    uint32_t added = s->events_counted & ~now->read;
    unsigned e;

    if (!added) {
        return;
    }
    /* Nothing advances during an access: only the new ones differ */
    *now = perf_counter_now(s);
    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        if (added & BIT(e)) {
            s->sync_events[e] = now->events[e];
        }
    }
}

static bool perf_counter_counting(PerfCounterState *s, unsigned counter)
{
    return s->enabled &&
           (counter == 0 || (s->section_running & BIT_ULL(counter)));
}

/* The events counter @counter's selected event has had since the sync */
static uint64_t perf_counter_new_events(PerfCounterState *s, unsigned counter,
                                        const PerfCounterNow *now)
{
    unsigned e = s->evsel[counter];

    if (e == PERFCTR_EVENT_NONE || !perf_counter_counting(s, counter)) {
        return 0;
    }
    if (e == PERFCTR_EVENT_INSTRUCTIONS) {
        return now->insns - s->sync_insns;
    }
    return now->events[e] - s->sync_events[e];
}

/* The time (ns, or cycles) counter @counter has had since the sync */
static uint64_t perf_counter_new_time(PerfCounterState *s, unsigned counter,
                                      const PerfCounterNow *now)
{
    PerfctrEvent clock = s->clock_event;

    if (!perf_counter_counting(s, counter)) {
        return 0;
    }
    if (clock == PERFCTR_EVENT_NONE) {
        return now->ns - s->sync_ns;
    }
    return now->events[clock] - s->sync_events[clock];
}

/* Bring every running counter up to @now; call before any state change */
void perf_counter_sync(PerfCounterState *s, const PerfCounterNow *now)
{
    /* Only the counting ones move: the global counter, running sections */
    uint64_t counting = s->enabled ? s->section_running | 1 : 0;

    while (counting) {
        unsigned i = ctz64(counting);

        counting &= counting - 1;
        s->counted_time[i] += perf_counter_new_time(s, i, now);
        s->counted_events[i] += perf_counter_new_events(s, i, now);
    }
    s->sync_ns = now->ns;
    s->sync_insns = now->insns;
    memcpy(s->sync_events, now->events, sizeof(s->sync_events));
}

uint64_t perf_counter_ticks(PerfCounterState *s, unsigned counter,
                            const PerfCounterNow *now)
{
    uint64_t time = s->counted_time[counter] +
                    perf_counter_new_time(s, counter, now);

    if (s->clock_event != PERFCTR_EVENT_NONE) {
        return time;
    }
    return muldiv64(time, s->freq_hz, NANOSECONDS_PER_SECOND);
}

uint64_t perf_counter_event_count(PerfCounterState *s, unsigned counter,
                                  const PerfCounterNow *now)
{
    return s->counted_events[counter] +
           perf_counter_new_events(s, counter, now);
}

/*
 * Virtual ns a counter must count to show @ticks clocks; UINT64_MAX
 * (never) where they would not fit in 64 bits (a threshold near 2^64 on
 * a clock slower than 1 GHz: muldiv64() would wrap, and the loop below
 * count up to it one by one)
 */
static uint64_t perf_counter_ns_for(PerfCounterState *s, uint64_t ticks)
{
    uint64_t ns;

    if (s->freq_hz < NANOSECONDS_PER_SECOND &&
        ticks > muldiv64(UINT64_MAX, s->freq_hz, NANOSECONDS_PER_SECOND)) {
        return UINT64_MAX;
    }
    ns = muldiv64(ticks, NANOSECONDS_PER_SECOND, s->freq_hz);

    while (muldiv64(ns, s->freq_hz, NANOSECONDS_PER_SECOND) < ticks) {
        ns++;
    }
    return ns;
}

uint64_t perf_counter_pending(PerfCounterState *s)
{
    uint64_t pending = 0;
    unsigned i;

    for (i = 0; i <= s->num_sections; i++) {
        if (s->flags[i]) {
            pending |= BIT_ULL(i);
        }
    }
    return pending;
}

/*
 * Set the flags of the thresholds and wraps reached by @now (synced),
 * drive the interrupt line, and arm the timer and the hook for the
 * next ones.  A threshold is a comparison, like RISC-V's mtimecmp: its
 * flag is set whenever it is enabled and the count is at or above it,
 * so acknowledging it while that holds sets it again.  A wrap is bits
 * 63..32 of the event count going up.
 */
void perf_counter_update(PerfCounterState *s, const PerfCounterNow *now)
{
    int64_t deadline = INT64_MAX;
    unsigned i, e;

    memset(s->hook.target, 0xff, sizeof(s->hook.target));
    for (i = 0; i <= s->num_sections; i++) {
        uint64_t count = s->counted_events[i];
        uint32_t ctrl = s->ctrl[i];
        uint64_t left = 0;
        bool counting;

        if (!(ctrl & (R_CTRL_THRESH_EN_MASK | R_CTRL_OVF_EN_MASK))) {
            /* Neither flag nor target: only the wraps to keep up with */
            s->wraps[i] = count >> 32;
            continue;
        }
        counting = perf_counter_counting(s, i);
        e = s->evsel[i];
        if (count >> 32 != s->wraps[i]) {
            if (count >> 32 > s->wraps[i] &&
                FIELD_EX32(ctrl, CTRL, OVF_EN)) {
                s->flags[i] |= R_FLAGS_OVF_MASK;
            }
            s->wraps[i] = count >> 32;
        }
        if (FIELD_EX32(ctrl, CTRL, THRESH_EN)) {
            uint64_t value = FIELD_EX32(ctrl, CTRL, THRESH_ON_TIME) ?
                             perf_counter_ticks(s, i, now) : count;

            if (value >= s->thresh[i]) {
                s->flags[i] |= R_FLAGS_THRESH_MASK;
            } else if (!FIELD_EX32(ctrl, CTRL, THRESH_ON_TIME)) {
                left = s->thresh[i] - count;
            } else if (counting && s->clock_event != PERFCTR_EVENT_NONE) {
                PerfctrEvent clock = s->clock_event;

                s->hook.target[clock] = MIN(s->hook.target[clock],
                                            now->events[clock] +
                                            s->thresh[i] - value);
            } else if (counting) {
                uint64_t ns = perf_counter_ns_for(s, s->thresh[i]) -
                              s->counted_time[i];

                deadline = MIN(deadline, now->ns + MIN(ns, INT64_MAX / 2));
            }
        }
        if (FIELD_EX32(ctrl, CTRL, OVF_EN)) {
            uint64_t to_wrap = BIT_ULL(32) - extract64(count, 0, 32);

            left = left ? MIN(left, to_wrap) : to_wrap;
        }
        if (left && counting && e == PERFCTR_EVENT_INSTRUCTIONS &&
            icount_enabled()) {
            deadline = MIN(deadline, now->ns +
                           icount_to_ns(MIN(left, INT64_MAX >> 8)));
        } else if (left && counting && e > PERFCTR_EVENT_INSTRUCTIONS) {
            s->hook.target[e] = MIN(s->hook.target[e], now->events[e] + left);
        }
    }
    /*
     * Driven at every update, not only when the level changes: QEMU's
     * sifive PLIC pends a source only when it is raised and does not
     * look again when the guest enables it later
     */
    qemu_set_irq(s->irq, perf_counter_pending(s) != 0);
    if (deadline == INT64_MAX) {
        timer_del(s->timer);
    } else {
        timer_mod(s->timer, deadline);
    }
    perf_counter_hook_events(s, &s->hook.want, &s->hook.targeted);
    perfctr_hook_arm(&s->hook);
}

/* Sync, then update: after anything that changes what is counted */
static void perf_counter_check(PerfCounterState *s)
{
    PerfCounterNow now = perf_counter_now(s);

    perf_counter_sync(s, &now);
    perf_counter_update(s, &now);
}

/* A time or instruction threshold is due (or the CPU slept: check) */
void perf_counter_timer_expired(void *opaque)
{
    perf_counter_check(PERF_COUNTER(opaque));
}

/* The hook: a target of an event count was reached */
void perf_counter_reached(PerfctrHookClient *client)
{
    perf_counter_check(container_of(client, PerfCounterState, hook));
}
