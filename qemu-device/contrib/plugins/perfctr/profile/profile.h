/*
 * perfctr plugin: where the time goes (PC histogram, call stacks, arcs)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_PROFILE_H
#define PERFCTR_PROFILE_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"
#include "profile/calltree.h"

/* With config->stacks it tells contexts.c where the flow goes */
void profile_init(const PerfctrConfig *config);
void profile_vcpu_init(unsigned index);
void profile_instrument(struct qemu_plugin_tb *tb);
/*
 * Profile from now on, forgetting what was counted (start=): from a
 * callback in vCPU index's running block, not_begun of whose
 * instructions have not begun
 */
void profile_restart(unsigned index, uint64_t not_begun);
void profile_write(FILE *out);

/* From the hook (PerfctrPluginOps): a block left early, exceptions */
void profile_block_left(unsigned index, uint64_t not_begun);
void profile_exception_entered(unsigned index, uint64_t number,
                               uint64_t resume_pc, uint64_t sp);
void profile_exception_returned(unsigned index, uint64_t number,
                                uint64_t pc, uint64_t sp);

/*
 * For contexts.c (its ContextsOps), with the profile's lock held: the
 * instructions the vCPU has executed; run a context's call stack from
 * now on, charging what ran to the one that ran it
 */
uint64_t profile_executed(unsigned index);
void profile_switch(unsigned index, CallStack *to);

/* From QEMU's hook: an exception pended (the contexts' latency) */
void profile_irq_pended(unsigned index, uint64_t number);
void profile_irq_cleared(unsigned index, uint64_t number);
/* The id of the context the vCPU runs (its lock taken): for the probes */
unsigned profile_running_context(unsigned index);

#endif
