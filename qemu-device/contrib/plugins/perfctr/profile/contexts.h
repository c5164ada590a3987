/*
 * perfctr plugin: execution contexts (tasks and exception handlers)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CONTEXTS_H
#define PERFCTR_CONTEXTS_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"
#include "records/stream.h"
#include "profile/calltree.h"

/*
 * What the contexts need of the profile and of the timing model,
 * wired by perfctr.c; called with the profile's lock held
 */
typedef struct ContextsOps {
    /* The instructions the vCPU has executed (begun, in a callback) */
    uint64_t (*executed)(unsigned vcpu_index);
    /* Run stack from now on, charging what ran to the one that ran it */
    void (*run_stack)(unsigned vcpu_index, CallStack *stack);
    /* The vCPU's estimated cycles so far; NULL without a timing model */
    uint64_t (*cycles)(unsigned vcpu_index);
} ContextsOps;

void contexts_init(const PerfctrConfig *config, const ContextsOps *ops);
void contexts_vcpu_init(unsigned index);
/* Whether the guest is a Cortex-M (it has msp and psp), once a vCPU is */
bool contexts_m_profile(void);

/* Called by profile.c, its lock held */
void contexts_restart(void);
void contexts_write(FILE *out);
/* stream.h's writer: the contexts (id, kind, key), then the switches */
extern const StreamWriter contexts_stream;
void contexts_entered(unsigned index, uint64_t number, uint64_t sp);
void contexts_returned_m(unsigned index, uint64_t number, uint64_t pc,
                         uint64_t sp);
void contexts_returned_to(unsigned index, uint64_t pc, uint64_t sp);
void contexts_returned(unsigned index, uint64_t pc);
void contexts_unmatched_return(unsigned index, uint64_t pc);
/* Exception number was pended (its latency starts) */
void contexts_irq_pended(unsigned index, uint64_t number);
/* ... and cleared before it was taken */
void contexts_irq_cleared(unsigned index, uint64_t number);
/* The id of the context the vCPU runs */
unsigned contexts_running(unsigned index);
/* Whether the vCPU runs an exception handler (its own state: no lock) */
bool contexts_in_handler(unsigned index);
/* The vCPU's stack pointer now; UINT64_MAX if it cannot be read */
uint64_t contexts_stack_pointer(unsigned index);
/* The stack pointer was written: moved along its stack, or switched */
void contexts_sp_written(unsigned index, bool switched);
/*
 * Whether QEMU keeps what a move of the stack pointer along its stack
 * writes (then only a switch of stacks calls contexts_sp_written), once
 * contexts_init() ran
 */
bool contexts_sp_moves_kept(void);
/* ... and before an instruction that switches stacks, there */
void contexts_sp_switching(unsigned index);

#endif
