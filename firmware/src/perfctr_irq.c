/*
 * The performance counter cores' interrupts: a handler per core, called
 * by the board's vector (perfctr_irq_dispatch) while the core's line is
 * high.  The board code (board.h) knows the lines and the interrupt
 * controller.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "board.h"
#include "io.h"
#include "perfctr.h"
#include "sys/alt_irq.h"
#include "system.h"

#define PERFCTR_IRQ_CORES 4

/* The cores system.h declares, with their interrupt lines */
static const struct {
    alt_u32 base;
    alt_u32 line;
} core_lines[] = {
    { PERFORMANCE_COUNTER_BASE, PERFORMANCE_COUNTER_IRQ },
#ifdef PERFORMANCE_COUNTER_1_BASE
    { PERFORMANCE_COUNTER_1_BASE, PERFORMANCE_COUNTER_1_IRQ },
#endif
};
#define NUM_CORE_LINES (sizeof(core_lines) / sizeof(core_lines[0]))

int perfctr_irq_line(alt_u32 base)
{
    unsigned i;

    for (i = 0; i < NUM_CORE_LINES; i++) {
        if (core_lines[i].base == base) {
            return core_lines[i].line;
        }
    }
    return -1;
}

alt_u32 perfctr_irq_core(alt_u32 line)
{
    unsigned i;

    for (i = 0; i < NUM_CORE_LINES; i++) {
        if (core_lines[i].line == line) {
            return core_lines[i].base;
        }
    }
    return 0;
}

static struct perfctr_irq_slot {
    alt_u32 base;
    perfctr_irq_handler_fn handler;     /* NULL: a free slot */
    void *context;
} slots[PERFCTR_IRQ_CORES];

/* The bases whose unhandled interrupt has been reported */
static alt_u32 reported[PERFCTR_IRQ_CORES];
static unsigned num_reported;

static struct perfctr_irq_slot *find(alt_u32 base)
{
    unsigned i;

    for (i = 0; i < PERFCTR_IRQ_CORES; i++) {
        if (slots[i].handler && slots[i].base == base) {
            return &slots[i];
        }
    }
    return NULL;
}

int perfctr_irq_attach(alt_u32 base, perfctr_irq_handler_fn handler,
                       void *context)
{
    alt_irq_context was;
    struct perfctr_irq_slot *slot;
    unsigned i;

    if (!handler) {
        return -1;
    }
    was = alt_irq_disable_all();
    slot = find(base);
    for (i = 0; !slot && i < PERFCTR_IRQ_CORES; i++) {
        if (!slots[i].handler) {
            slot = &slots[i];
        }
    }
    if (!slot) {
        alt_irq_enable_all(was);
        return -1;
    }
    slot->base = base;
    slot->context = context;
    slot->handler = handler;
    if (board_perfctr_irq_enable(base) != 0) {
        slot->handler = NULL;
        alt_irq_enable_all(was);
        return -1;
    }
    return 0;
}

void perfctr_irq_detach(alt_u32 base)
{
    alt_irq_context was = alt_irq_disable_all();
    struct perfctr_irq_slot *slot = find(base);

    board_perfctr_irq_disable(base);
    if (slot) {
        slot->handler = NULL;
    }
    alt_irq_enable_all(was);
}

void perfctr_irq_dispatch(alt_u32 base, alt_u32 pc)
{
    struct perfctr_irq_slot *slot = find(base);
    unsigned i;

    /*
     * The line is low by now: an interrupt controller that latched a
     * second rise (QEMU's PLIC pends a source on each raise, even one
     * that repeats a high level while the handler ran) asks again for
     * what was handled.  Not the core's doing: nothing to call.
     * (PENDING: bit i while counter i has a flag set.)
     */
    if (!IORD(base, PERFCTR_REG_PENDING_LO) &&
        !IORD(base, PERFCTR_REG_PENDING_HI)) {
        return;
    }
    if (slot) {
        slot->handler(base, pc, slot->context);
        return;
    }
    board_perfctr_irq_disable(base);
    for (i = 0; i < num_reported && reported[i] != base; i++) {
        continue;
    }
    if (i < num_reported) {
        return;
    }
    if (num_reported < PERFCTR_IRQ_CORES) {
        reported[num_reported++] = base;
    }
    printf("perf-counter: an interrupt from the core at 0x%08lx, which has "
           "no handler (perfctr_irq_attach): its line is disabled\n",
           (unsigned long)base);
    fflush(stdout);
}
