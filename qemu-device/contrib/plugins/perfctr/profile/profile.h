/*
 * perfctr plugin: where the time goes (PC histogram, call stacks, arcs)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_PROFILE_H
#define PERFCTR_PROFILE_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "isa/isa.h"

typedef struct ProfileConfig {
    Isa isa;
    uint64_t period;        /* sample every period instructions; 0: exact */
    bool stacks;            /* track calls and returns */
    bool threads;           /* vCPUs may run at once: lock shared tables */
    bool counts_blocks;     /* QEMU reports blocks left early (the hook) */
} ProfileConfig;

/* The call stack of one execution context (contexts.c) */
typedef struct CallStack CallStack;

void profile_init(const ProfileConfig *config);
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
 * For contexts.c, with the profile's lock held (it is called from here):
 * a new call stack rooted at a node of its own; its root; empty it; the
 * instructions the vCPU has executed; run a context's call stack from
 * now on, charging what ran to the one that ran it.
 */
CallStack *profile_new_stack(void);
uint64_t profile_stack_root(const CallStack *c);
void profile_stack_clear(CallStack *c);
uint64_t profile_executed(unsigned index);
void profile_switch(unsigned index, CallStack *to);

#endif
