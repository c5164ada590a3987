/*
 * The one hook between the perfctr TCG plugin and the perf-counter
 * device: the plugin counts events in executed guest code and tells
 * QEMU how to read them; the device reads them on each access.
 *
 * Plugins reach QEMU only through exported symbols, so this header is
 * plain C, included by both sides (the plugin through contrib's
 * include path), and perfctr_hook_set_event_reader is exported.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef QEMU_PERFCTR_HOOK_H
#define QEMU_PERFCTR_HOOK_H

#include <stdbool.h>
#include <stdint.h>

/* Events the plugin counts exactly; the numbers are the register values */
typedef enum PerfctrEvent {
    PERFCTR_EVENT_NONE = 0,
    PERFCTR_EVENT_INSTRUCTIONS = 1,     /* executed instructions */
    PERFCTR_EVENT_LOADS = 2,            /* instructions that read memory */
    PERFCTR_EVENT_STORES = 3,           /* instructions that write memory */
    PERFCTR_EVENT_BRANCHES = 4,         /* branch, call, return executed */
    PERFCTR_EVENT_CALLS = 5,            /* calls executed */
    PERFCTR_EVENT_RETURNS = 6,          /* returns executed */
    PERFCTR_EVENT_TAKEN_BRANCHES = 7,   /* branches that changed the pc */
    PERFCTR_EVENT_EXCEPTIONS = 8,       /* exceptions and interrupts taken */
    PERFCTR_EVENT_CYCLES = 9,           /* estimated cycles (timing model) */
    PERFCTR_EVENT_COUNT
} PerfctrEvent;

/* The count of event so far on the vCPU; 0 for events it does not count */
typedef uint64_t (*PerfctrEventReader)(unsigned vcpu_index,
                                       PerfctrEvent event);

/* Called by the plugin when it is installed (exported by QEMU) */
void perfctr_hook_set_event_reader(PerfctrEventReader reader);

/* Called by the device: false if no plugin counts events */
bool perfctr_hook_read_event(unsigned vcpu_index, PerfctrEvent event,
                             uint64_t *count);

#endif
