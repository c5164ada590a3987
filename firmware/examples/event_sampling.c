/*
 * Event-based sampling, as with the XScale PMU: the counter core
 * interrupts after every SAMPLE_EVERY-th event, the handler adds the
 * interrupted pc to a histogram by function and moves the threshold
 * SAMPLE_EVERY further, and main prints the histogram at the end.
 *
 * The event is calls.  Under -icount the interrupt is taken right after
 * the call that reached the threshold, so the pc is the first
 * instruction of the function called: the histogram is a sampled call
 * profile.  Three phases call mix(), scale() and fold() MIX_CALLS,
 * SCALE_CALLS and FOLD_CALLS times; the interrupt's own path makes
 * calls too (the vector, the dispatch, this handler's), which the
 * counter counts as well, so SAMPLE_EVERY must exceed them (5 to 7;
 * 37 on raspi1ap, whose vector asks every line).  Sections 1 to 3
 * count each phase's calls, those included, so that the histogram can
 * be checked against them (tests/boot/test_examples.py).  Select
 * PERFCTR_EVENT_INSTRUCTIONS or _LOADS instead to sample the loops.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "perfctr.h"

#define SAMPLE_EVENT PERFCTR_EVENT_CALLS
#define SAMPLE_EVERY 100
#define MIX_CALLS 3000
#define SCALE_CALLS 2000
#define FOLD_CALLS 1000

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)
#define NUM_PHASES 3

/* noipa: neither inlined nor cloned, so each call is a call to it */
__attribute__((noipa)) static alt_u32 mix(alt_u32 x)
{
    return (x ^ x >> 13) * 0x9e3779b1u;
}

__attribute__((noipa)) static alt_u32 scale(alt_u32 x)
{
    return x * 5 + 3;
}

__attribute__((noipa)) static alt_u32 fold(alt_u32 x)
{
    return (x >> 16) + (x & 0xffff);
}

int main(void);

/*
 * The functions the program knows the addresses of, as a symbol table
 * without sizes: a pc belongs to the one with the greatest address at
 * or below it, and to none ("elsewhere") below them all.
 */
static struct {
    const char *name;
    void *address;
    alt_u32 samples;
} functions[] = {
    { "mix", (void *)mix, 0 },
    { "scale", (void *)scale, 0 },
    { "fold", (void *)fold, 0 },
    { "main", (void *)main, 0 },
};
#define NUM_FUNCTIONS (sizeof(functions) / sizeof(functions[0]))

static alt_u32 elsewhere;
static alt_u64 next_sample;

/* Without the Thumb bit that Arm function pointers carry */
static alt_u32 code_address(void *function)
{
    return (alt_u32)(uintptr_t)function & ~1u;
}

static void record(alt_u32 pc)
{
    unsigned i, best = NUM_FUNCTIONS;

    for (i = 0; i < NUM_FUNCTIONS; i++) {
        alt_u32 start = code_address(functions[i].address);

        if (start <= pc && (best == NUM_FUNCTIONS ||
                            start > code_address(functions[best].address))) {
            best = i;
        }
    }
    if (best < NUM_FUNCTIONS) {
        functions[best].samples++;
    } else {
        elsewhere++;
    }
}

static void sample(alt_u32 base, alt_u32 pc, void *context)
{
    void *p = (void *)(uintptr_t)base;

    (void)context;
    if (perfctr_flags(p, 0) & PERFCTR_FLAG_THRESH) {
        /* Move the comparison up before acknowledging, or it fires again */
        next_sample += SAMPLE_EVERY;
        perfctr_threshold_arm(p, 0, next_sample, 0);
        perfctr_flags_ack(p, 0, PERFCTR_FLAG_THRESH);
        record(pc);
    }
}

int main(void)
{
    static const char *const phases[NUM_PHASES] = { "mix", "scale", "fold" };
    alt_u32 x = 1, total = 0;
    unsigned i, n;

    PERF_RESET(PERF);
    /* The global counter samples; section n counts phase n */
    for (n = 0; n <= NUM_PHASES; n++) {
        if (perfctr_event_select(PERF, n, SAMPLE_EVENT) != 0) {
            printf("this QEMU cannot count %s\n",
                   perfctr_event_name(SAMPLE_EVENT));
            return 1;
        }
    }
    next_sample = SAMPLE_EVERY;
    perfctr_threshold_arm(PERF, 0, next_sample, 0);
    if (perfctr_irq_attach(PERFORMANCE_COUNTER_BASE, sample, 0) != 0) {
        printf("no interrupt line for the counter core\n");
        return 1;
    }

    /* Only the phases' calls and the interrupts' between START and STOP */
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
    for (i = 0; i < MIX_CALLS; i++) {
        x = mix(x);
    }
    PERF_END(PERF, 1);
    PERF_BEGIN(PERF, 2);
    for (i = 0; i < SCALE_CALLS; i++) {
        x = scale(x);
    }
    PERF_END(PERF, 2);
    PERF_BEGIN(PERF, 3);
    for (i = 0; i < FOLD_CALLS; i++) {
        x = fold(x);
    }
    PERF_END(PERF, 3);
    PERF_STOP_MEASURING(PERF);
    perfctr_irq_detach(PERFORMANCE_COUNTER_BASE);

    printf("event-based sampling: a sample every %d %s (result 0x%08lx)\n",
           SAMPLE_EVERY, perfctr_event_name(SAMPLE_EVENT), (unsigned long)x);
    for (n = 1; n <= NUM_PHASES; n++) {
        printf("phase %s: %lu %s\n", phases[n - 1],
               (unsigned long)perfctr_event_count(PERF, n),
               perfctr_event_name(SAMPLE_EVENT));
    }
    printf("histogram of the interrupted pcs:\n");
    for (i = 0; i < NUM_FUNCTIONS; i++) {
        printf("  %-9s %5lu\n", functions[i].name,
               (unsigned long)functions[i].samples);
        total += functions[i].samples;
    }
    printf("  %-9s %5lu\n", "elsewhere", (unsigned long)elsewhere);
    total += elsewhere;
    printf("total: %lu samples of %lu %s\n", (unsigned long)total,
           (unsigned long)perfctr_event_count(PERF, 0),
           perfctr_event_name(SAMPLE_EVENT));
    return 0;
}
