/*
 * Selectable events, thresholds and overflow interrupts on every board
 * (tests/boot/test_events.py), over hand-written assembly (events.S)
 * whose loads, stores, branches, calls and returns are known exactly.
 *
 * Prints "available mask=M", then per event "event id=E count=C" over
 * events_loop(LOOPS), then "threshold event=E k=K taken=T offset=O" (the
 * interrupted pc's distance from events_run_loads, when a threshold of
 * K loads or instructions is armed over events_run), then "overflow
 * wraps=W high=H low=L extended_high=X exceptions=N" (AVR32's software extension of
 * a 32-bit count, across WRAPS wraps, with the interrupts taken counted
 * by section 1 as exceptions).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "system.h"

#define LOOPS 100
#define WRAPS 5
#define BEFORE_WRAP 1000

void events_loop(void *base, int n, alt_u32 *buffer);
void events_run(void *base, alt_u32 *buffer);
extern char events_run_loads[];

static alt_u32 buffer[3];
static volatile int taken;
static volatile alt_u32 taken_pc;
static volatile alt_u32 extended_high;

static void handler(alt_u32 base, alt_u32 pc, void *context)
{
    void *p = (void *)(uintptr_t)base;

    if (perfctr_flags(p, 1) & PERFCTR_FLAG_THRESH) {
        perfctr_threshold_disarm(p, 1);
        perfctr_flags_ack(p, 1, PERFCTR_FLAG_THRESH);
        taken_pc = pc;
        taken++;
    }
    if (perfctr_flags(p, 0) & PERFCTR_FLAG_OVF) {
        perfctr_flags_ack(p, 0, PERFCTR_FLAG_OVF);
        extended_high++;
    }
}

/* n iterations of a loop, for instructions to count */
__attribute__((noinline)) static void spin(volatile int n)
{
    while (n-- > 0) {
    }
}

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    static const int ks[] = { 1, 5, 16 };
    static const enum perfctr_event thresholds[] = {
        PERFCTR_EVENT_LOADS, PERFCTR_EVENT_INSTRUCTIONS,
    };
    alt_u64 count;
    unsigned e, t, i;

    PERF_RESET(p);
    printf("available mask=%#lx\n",
           (unsigned long)IORD(p, PERFCTR_REG_EVENTS_AVAILABLE));
    for (e = PERFCTR_EVENT_INSTRUCTIONS; e <= PERFCTR_EVENT_EXCEPTIONS; e++) {
        PERF_RESET(p);
        if (perfctr_event_select(p, 1, e) != 0) {
            printf("event id=%u unavailable=1\n", e);
            continue;
        }
        events_loop(p, LOOPS, buffer);
        count = perfctr_event_count(p, 1);
        printf("event id=%u count=%lu\n", e, (unsigned long)count);
    }

    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE, handler, 0) != 0) {
        printf("no interrupt line\n");
        return 1;
    }
    for (t = 0; t < sizeof(thresholds) / sizeof(thresholds[0]); t++) {
        for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
            PERF_RESET(p);
            perfctr_event_select(p, 1, thresholds[t]);
            perfctr_threshold_arm(p, 1, ks[i], 0);
            taken = 0;
            events_run(p, buffer);
            printf("threshold event=%u k=%d taken=%d offset=%ld\n",
                   thresholds[t], ks[i], taken,
                   (long)(taken_pc - (alt_u32)(uintptr_t)events_run_loads));
        }
    }

    /* AVR32: an overflow interrupt extends the 32-bit count in software */
    PERF_RESET(p);
    perfctr_overflow_enable(p, 0, 1);
    perfctr_event_select(p, 1, PERFCTR_EVENT_EXCEPTIONS);
    PERF_START_MEASURING(p);
    PERF_BEGIN(p, 1);
    for (i = 0; i < WRAPS; i++) {
        /* Near the wrap, as software presets for an interrupt per K */
        IOWR(p, PERFCTR_REG_EVCNT(0), 0xffffffffu - BEFORE_WRAP);
        spin(BEFORE_WRAP);
    }
    PERF_END(p, 1);
    PERF_STOP_MEASURING(p);
    count = perfctr_event_count(p, 0);
    printf("overflow wraps=%u high=%lu low=%lu extended_high=%lu "
           "exceptions=%lu\n", WRAPS,
           (unsigned long)(count >> 32), (unsigned long)(alt_u32)count,
           (unsigned long)extended_high,
           (unsigned long)perfctr_event_count(p, 1));
    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);
    return 0;
}
