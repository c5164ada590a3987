/*
 * perfctr plugin: where the last instruction of a block went, which
 * profile.c asks at the entry of the next: a call (its arc, its frame),
 * a return, a longjmp, an exception's return, and in exact mode which
 * way a conditional branch went (coverage's)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_FOLLOW_H
#define PERFCTR_FOLLOW_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "profile/block.h"
#include "profile/calltree.h"

void follow_init(const PerfctrConfig *config);
/* lazy.c's choice at the first translation: calls counted, no frames */
void follow_flat(bool flat);
/*
 * On vCPU index, whose context's call stack is calls: what happened
 * between the last instruction it executed in block (executed of its
 * instructions) and the entry of the block at next
 */
void follow(CallStack *calls, unsigned index, Block *block, uint64_t executed,
            uint64_t next);
/* The frame of a call by block's last instruction (at site) */
void follow_push_frame(CallStack *calls, Block *block, uint64_t site,
                       uint64_t ret, uint64_t sp);
/* Whether block ends in a direct call that always goes to its target */
bool follow_calls_surely(const Block *block);
/* The profile starts again: every count forgotten, the blocks' too */
void follow_restart(GPtrArray *blocks);

/*
 * A block whose last instruction ran, for next, where the next block's
 * entry has not followed it yet (a vCPU waits between the two)
 */
typedef struct FollowPending {
    const Block *block;
    uint64_t next;
} FollowPending;

/*
 * Write the arcs and the branches' outcomes, with the call or the
 * branch's way of each of pending (FollowPending) counted too, as the
 * CPU's events count them: the next block's entry counts them later
 */
void follow_write(FILE *out, GPtrArray *blocks, GArray *pending);

#endif
