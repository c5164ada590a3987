/*
 * perfctr plugin: what a branch means by the image's functions
 * (functions=), for the call tree profile.c follows
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_UNWIND_H
#define PERFCTR_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "isa/isa.h"
#include "profile/calltree.h"

void unwind_init(const PerfctrConfig *config);
/* A direct branch with link at pc into its own function: a jump */
bool unwind_jumps_within_function(uint64_t pc, const InsnClass *insn);
/* Whether a branch from site to pc leaves the function it is in */
bool unwind_leaves_function(uint64_t site, uint64_t pc);
/* A return to pc that no frame expects, into the innermost caller */
bool unwind_returns_into_caller(const CallStack *c, uint64_t pc);
/* The frame a longjmp landing at pc with stack pointer sp pops; -1 */
int unwind_longjmp_frame(const CallStack *c, uint64_t pc, uint64_t sp);

#endif
