/*
 * perfctr plugin: event counts for the perf-counter device
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_EVENTS_H
#define PERFCTR_EVENTS_H

#include <qemu-plugin.h>

#include "config.h"
#include "perfctr-hook.h"

/* The timing model's counts (cycles.c), wired by perfctr.c */
typedef struct EventsCyclesReader {
    uint64_t (*cycles)(unsigned vcpu_index);
    uint64_t (*memory_stalls)(unsigned vcpu_index);
} EventsCyclesReader;

/*
 * Offer the devices the events counted through ops, and the timing
 * model's through cycles (NULL: there is none)
 */
void events_init(const PerfctrConfig *config,
                 const EventsCyclesReader *cycles, PerfctrPluginOps *ops);
void events_instrument(struct qemu_plugin_tb *tb);
/* The vCPU left translated code and resumes at pc: settle the guesses */
void events_left_code(unsigned vcpu_index, uint64_t pc);

/* For cycles.c, which counts PERFCTR_EVENT_CYCLES */
/* A device may arm targets on event: count it instruction by instruction */
bool events_targeted(PerfctrEvent event);
/* The countdown to event's target; each counted event takes 1 off */
qemu_plugin_u64 events_countdown(PerfctrEvent event);
/*
 * Check whether event's target has been reached: before insn runs, or
 * (by_insn) by insn itself, its last count added (the block's last)
 */
void events_check(struct qemu_plugin_insn *insn, PerfctrEvent event,
                  bool by_insn);

#endif
