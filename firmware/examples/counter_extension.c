/*
 * A 32-bit event count extended to 64 bits in software, as AVR32 code
 * does with its performance counters: the overflow interrupt adds one
 * to a high word each time the count's low 32 bits wrap.
 *
 * So that it wraps several times quickly, each of ROUNDS rounds first
 * presets the low word BEFORE_WRAP short of its wrap (AVR32's preset;
 * the device keeps its own high word), then runs more instructions than
 * that.  After each round the software's value, high << 32 | low, is
 * printed beside the device's own 64-bit count, with OK or MISMATCH.
 * Section 1 is the extended count (instructions); section 2 counts the
 * same rounds without presets and section 3 the interrupts taken
 * (exceptions), which tests/boot/test_examples.py checks against.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

#define ROUNDS 5
#define BEFORE_WRAP 1000

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)
#define EXTENDED 1      /* the section whose count is extended */
#define PLAIN 2         /* the same rounds, never preset */
#define INTERRUPTS 3    /* exceptions and interrupts taken */

static volatile alt_u32 high;

static void overflow(alt_u32 base, alt_u32 pc, void *context)
{
    void *p = (void *)(uintptr_t)base;

    (void)pc;
    (void)context;
    if (perfctr_flags(p, EXTENDED) & PERFCTR_FLAG_OVF) {
        perfctr_flags_ack(p, EXTENDED, PERFCTR_FLAG_OVF);
        high++;
    }
}

/*
 * The extended count: the software's high word with the device's low
 * word, again if an overflow came between the two reads
 */
static alt_u64 extended_count(void)
{
    alt_u32 h, low;

    do {
        h = high;
        low = IORD(PERF, PERFCTR_REG_EVCNT(EXTENDED));
    } while (h != high);
    return (alt_u64)h << 32 | low;
}

/* At least n instructions, touching no counter */
__attribute__((noipa)) static void spin(volatile int n)
{
    while (n-- > 0) {
    }
}

int main(void)
{
    alt_u64 software[ROUNDS + 1], device[ROUNDS + 1];
    int round, mismatches = 0;

    PERF_RESET(PERF);
    if (perfctr_event_select(PERF, INTERRUPTS,
                             PERFCTR_EVENT_EXCEPTIONS) != 0) {
        printf("this QEMU cannot count exceptions\n");
        return 1;
    }
    perfctr_overflow_enable(PERF, EXTENDED, 1);
    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE, overflow, 0) != 0) {
        printf("no interrupt line for the counter core\n");
        return 1;
    }

    /* No printing in here: semihosting is an exception too */
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, INTERRUPTS);
    for (round = 1; round <= ROUNDS; round++) {
        /* The low word only, while the section is stopped */
        IOWR(PERF, PERFCTR_REG_EVCNT(EXTENDED), 0u - BEFORE_WRAP);
        /* Section 2 counts what section 1 does: its BEGIN, not END 1 */
        PERF_BEGIN(PERF, EXTENDED);
        PERF_BEGIN(PERF, PLAIN);
        spin(BEFORE_WRAP);
        PERF_END(PERF, EXTENDED);
        PERF_END(PERF, PLAIN);
        software[round] = extended_count();
        device[round] = perfctr_event_count(PERF, EXTENDED);
    }
    PERF_END(PERF, INTERRUPTS);
    PERF_STOP_MEASURING(PERF);
    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);

    printf("a 32-bit count of instructions extended by its overflow "
           "interrupt, preset %d short of its wrap in each of %d rounds\n",
           BEFORE_WRAP, ROUNDS);
    for (round = 1; round <= ROUNDS; round++) {
        int same = software[round] == device[round];

        mismatches += !same;
        printf("round %d: software 0x%08lx_%08lx device 0x%08lx_%08lx %s\n",
               round, (unsigned long)(software[round] >> 32),
               (unsigned long)(alt_u32)software[round],
               (unsigned long)(device[round] >> 32),
               (unsigned long)(alt_u32)device[round], same ? "OK" : "MISMATCH");
    }
    printf("overflow interrupts: %lu, instructions in the rounds: %lu, "
           "extended count: %llu\n",
           (unsigned long)perfctr_event_count(PERF, INTERRUPTS),
           (unsigned long)perfctr_event_count(PERF, PLAIN),
           (unsigned long long)software[ROUNDS]);
    return mismatches ? 1 : 0;
}
