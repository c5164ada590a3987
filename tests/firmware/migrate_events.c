/*
 * Test firmware for migrating the events state (version 2) mid-run
 * (tests/boot/test_migration.py).  The test saves the VM while it
 * spins: section 1 has counted 2 * LOOPS loads and has a threshold
 * armed THRESHOLD_K loads further, section 2's overflow flag is pending
 * (its count wrapped while the interrupt was not enabled yet), and
 * sections 2 (instructions) and 3 (loads) count on through a loop of
 * SPIN_LOADS loads.  After the spin it
 * prints the flags, enables the interrupt (taken at once for the
 * pending overflow) and runs the 16 loads of events_run (events.S),
 * where the threshold interrupts at the THRESHOLD_K-th.
 *
 * Prints "started", then "migrate_events loads_before=L status_irq=I
 * flags1=F flags2=F overflows=N taken=T offset=O loads1=L
 * instructions2=C loads3=L" (offset: the interrupted pc's distance
 * from events_run_loads).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"
#include "events.h"

#define LOOPS 100
#define THRESHOLD_K 5
#define BEFORE_WRAP 100
#define SPIN_LOADS 160000000

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

static alt_u32 buffer[3];
static volatile alt_u32 source, sink;
static volatile int overflows;

static void handler(alt_u32 base, alt_u32 pc, void *context)
{
    void *p = (void *)(uintptr_t)base;

    (void)context;
    events_take_threshold(p, pc);
    if (perfctr_flags(p, 2) & PERFCTR_FLAG_OVF) {
        perfctr_flags_ack(p, 2, PERFCTR_FLAG_OVF);
        overflows++;
    }
}

int main(void)
{
    alt_u64 loads_before;
    alt_u32 status, flags1, flags2;
    int i;

    PERF_RESET(PERF);
    if (perfctr_event_select(PERF, 1, PERFCTR_EVENT_LOADS) != 0 ||
        perfctr_event_select(PERF, 3, PERFCTR_EVENT_LOADS) != 0) {
        printf("loads cannot be counted\n");
        return 1;
    }
    events_loop(PERF, LOOPS, buffer);   /* 2 * LOOPS loads; stops */
    loads_before = perfctr_event_count(PERF, 1);
    perfctr_threshold_arm(PERF, 1, loads_before + THRESHOLD_K, 0);
    perfctr_overflow_enable(PERF, 2, 1);
    IOWR(PERF, PERFCTR_REG_EVCNT(2), 0xffffffffu - BEFORE_WRAP);
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 2);
    PERF_BEGIN(PERF, 3);
    printf("started\n");
    /* Saved and restored in here, with section 3's loads counting */
    for (i = 0; i < SPIN_LOADS; i++) {
        sink += source;
    }
    PERF_END(PERF, 2);
    PERF_END(PERF, 3);
    PERF_STOP_MEASURING(PERF);

    status = IORD(PERF, PERFCTR_REG_STATUS);
    flags1 = perfctr_flags(PERF, 1);
    flags2 = perfctr_flags(PERF, 2);
    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE, handler, 0) != 0) {
        printf("no interrupt line\n");
        return 1;
    }
    events_run(PERF, buffer);
    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);

    printf("migrate_events loads_before=%lu status_irq=%lu flags1=%lu "
           "flags2=%lu overflows=%d taken=%d offset=%ld loads1=%llu "
           "instructions2=%llu loads3=%llu\n",
           (unsigned long)loads_before,
           (unsigned long)(status & PERFCTR_STATUS_IRQ ? 1 : 0),
           (unsigned long)flags1, (unsigned long)flags2, overflows,
           events_taken, events_taken_offset(events_run_loads),
           (unsigned long long)perfctr_event_count(PERF, 1),
           (unsigned long long)perfctr_event_count(PERF, 2),
           (unsigned long long)perfctr_event_count(PERF, 3));
    return 0;
}
