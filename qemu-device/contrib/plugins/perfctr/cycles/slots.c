/*
 * perfctr plugin: the per-vCPU scoreboard of the cycle counting (see
 * slots.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/slots.h"
#include "events/events.h"

static struct qemu_plugin_scoreboard *board;
static bool threads;
/*
 * With one vCPU, its entries of the slots and of the events (the cycles
 * countdown), looked up once: a scoreboard moves only when QEMU grows
 * it for a 17th vCPU, and the lookups were 5% of a --cycles run (11 M
 * callbacks in 125 M instructions of FreeRTOS's full demo)
 */
static void *only_slots, *only_events;

void cycles_slots_init(unsigned n, bool more_vcpus)
{
    board = qemu_plugin_scoreboard_new(n * sizeof(uint64_t));
    threads = more_vcpus;
}

qemu_plugin_u64 cycles_slot(unsigned index)
{
    return (qemu_plugin_u64) { board, index * sizeof(uint64_t) };
}

/* vcpu's entry of score, kept in *only when one vCPU runs */
static void *entry_of(struct qemu_plugin_scoreboard *score, unsigned vcpu,
                      void **only)
{
    if (threads) {
        return qemu_plugin_scoreboard_find(score, vcpu);
    }
    if (!*only) {
        *only = qemu_plugin_scoreboard_find(score, vcpu);
    }
    return *only;
}

uint64_t *cycles_slots_of(unsigned vcpu)
{
    return entry_of(board, vcpu, &only_slots);
}

static uint64_t *countdown_of(unsigned vcpu)
{
    qemu_plugin_u64 entry = events_countdown(PERFCTR_EVENT_CYCLES);

    return (uint64_t *)((char *)entry_of(entry.score, vcpu, &only_events) +
                        entry.offset);
}

void cycles_add(unsigned vcpu, uint64_t *slots, int64_t cycles, int window)
{
    slots[SLOT_CYCLES] += cycles;
    if (window >= 0) {
        slots[SLOT_WINDOWS + 2 * window] += cycles;
    }
    if (events_targeted(PERFCTR_EVENT_CYCLES)) {
        *countdown_of(vcpu) -= cycles;
    }
}
