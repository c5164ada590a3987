/*
 * perfctr plugin: the per-vCPU scoreboard of the cycle counting (see
 * slots.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/slots.h"
#include "events/events.h"

static struct qemu_plugin_scoreboard *board;

void cycles_slots_init(unsigned n)
{
    board = qemu_plugin_scoreboard_new(n * sizeof(uint64_t));
}

qemu_plugin_u64 cycles_slot(unsigned index)
{
    return (qemu_plugin_u64) { board, index * sizeof(uint64_t) };
}

uint64_t *cycles_slots_of(unsigned vcpu)
{
    return qemu_plugin_scoreboard_find(board, vcpu);
}

void cycles_add(unsigned vcpu, uint64_t *slots, int64_t cycles, int window)
{
    slots[SLOT_CYCLES] += cycles;
    if (window >= 0) {
        slots[SLOT_WINDOWS + 2 * window] += cycles;
    }
    if (events_targeted(PERFCTR_EVENT_CYCLES)) {
        qemu_plugin_u64_add(events_countdown(PERFCTR_EVENT_CYCLES), vcpu,
                            -cycles);
    }
}
