/*
 * The hook between the perfctr TCG plugin and the perf-counter device
 * (see include/qemu/perfctr-hook.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/perfctr-hook.h"

static PerfctrEventReader event_reader;

void perfctr_hook_set_event_reader(PerfctrEventReader reader)
{
    qatomic_set(&event_reader, reader);
}

bool perfctr_hook_read_event(unsigned vcpu_index, PerfctrEvent event,
                             uint64_t *count)
{
    PerfctrEventReader reader = qatomic_read(&event_reader);

    if (!reader) {
        return false;
    }
    *count = reader(vcpu_index, event);
    return true;
}
