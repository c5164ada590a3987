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
 * A single vCPU's slots and its countdown to a cycles target, looked up
 * once: a scoreboard moves only when QEMU grows it for a 17th vCPU, and
 * the lookups were 5% of a --cycles run (11 M callbacks in 125 M
 * instructions of FreeRTOS's full demo)
 */
static uint64_t *only_slots, *only_countdown;

void cycles_slots_init(unsigned n, bool more_vcpus)
{
    board = qemu_plugin_scoreboard_new(n * sizeof(uint64_t));
    threads = more_vcpus;
}

qemu_plugin_u64 cycles_slot(unsigned index)
{
    return (qemu_plugin_u64) { board, index * sizeof(uint64_t) };
}

uint64_t *cycles_slots_of(unsigned vcpu)
{
    if (threads) {
        return qemu_plugin_scoreboard_find(board, vcpu);
    }
    if (!only_slots) {
        only_slots = qemu_plugin_scoreboard_find(board, vcpu);
    }
    return only_slots;
}

static uint64_t *countdown_of(unsigned vcpu)
{
    qemu_plugin_u64 entry = events_countdown(PERFCTR_EVENT_CYCLES);
    uint64_t *found;

    if (only_countdown) {
        return only_countdown;
    }
    found = (uint64_t *)((char *)qemu_plugin_scoreboard_find(entry.score,
                                                             vcpu) +
                         entry.offset);
    if (!threads) {
        only_countdown = found;
    }
    return found;
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
