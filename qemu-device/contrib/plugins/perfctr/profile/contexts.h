/*
 * perfctr plugin: execution contexts (tasks and exception handlers)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CONTEXTS_H
#define PERFCTR_CONTEXTS_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "isa/isa.h"

/*
 * tasks=CURRENT:NAME:LEN:STACK, where the RTOS keeps the running task:
 * the address of the pointer (64-bit in A64) to its control block, the
 * offsets in the block of its name (LEN chars) and of its stack's
 * lowest address (- if not known); false if value is not that
 */
bool contexts_parse_tasks(const char *value);
void contexts_init(Isa isa, bool with_cycles);
void contexts_vcpu_init(unsigned index);
void contexts_restart(void);
void contexts_write(FILE *out);

/* Called by profile.c, its lock held */
void contexts_entered(unsigned index, uint64_t number, uint64_t sp);
void contexts_returned_m(unsigned index, uint64_t number, uint64_t pc,
                         uint64_t sp);
void contexts_returned_to(unsigned index, uint64_t pc, uint64_t sp);
void contexts_returned(unsigned index, uint64_t pc);
void contexts_unmatched_return(unsigned index, uint64_t pc);
/* The stack pointer was written: moved along its stack, or switched */
void contexts_sp_written(unsigned index, bool switched);

#endif
