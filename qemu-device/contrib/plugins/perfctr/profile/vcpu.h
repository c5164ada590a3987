/*
 * perfctr plugin: the profiler's state of each vCPU, shared by
 * profile.c (the flow followed, exact counts) and sample.c (samples)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_PROFILE_VCPU_H
#define PERFCTR_PROFILE_VCPU_H

#include <glib.h>
#include <stdint.h>

#include "profile/block.h"
#include "profile/calltree.h"

#define NOWHERE UINT64_MAX
/*
 * Flat (lazy.c): a followed block's end, added to the ticks, so that
 * the next block's check for a sample also calls back for it (one
 * check a block, not two)
 */
#define TICKS_FOLLOWED (UINT64_C(1) << 62)

/* Per vCPU, in the translated code */
typedef struct InlineState {
    uint64_t ticks;         /* instructions executed, less those consumed */
    uint64_t followed;      /* sampling: the block just ended, if followed */
    uint64_t lazy;          /* calls followed lazily: lazy.h */
    uint64_t returned;      /* the block of the return noted there */
} InlineState;

typedef struct Vcpu {
    Block *block;           /* exact: the block entered last, or NULL */
    uint64_t block_ticks;   /* ticks when it was last charged */
    uint64_t block_began;   /* its instructions begun this time */
    CallStack *calls;       /* of the context that runs */
    uint64_t consumed;      /* instructions taken off the ticks */
    uint64_t start;         /* instructions before the profile started */
    uint64_t not_begun;     /* of the running block, in a callback in it */
    /* Sampling (sample.c) */
    uint64_t offset;        /* U_k of the last sample */
    uint64_t random;        /* the offsets' state (xorshift64) */
    /*
     * Samples not counted yet: where each fell (an instruction's entry
     * in its block's insn_pc) and the call stack's node
     */
    struct PendingSample *pending;
    size_t n_pending;
    /* Samples taken at the entry of the block entered last */
    Block *sampled;
    uint64_t sampled_ticks; /* the ticks after them (while it runs) */
    GArray *tentative;
    InlineState *inline_state;  /* its entry in the scoreboard */
} Vcpu;

/* profile.c's lock (config_lock()), held by every callback */
void profile_enter(void);
void profile_leave(void);

/* The vCPU's state, the lock held */
Vcpu *profile_vcpu(unsigned index);

/* Instructions executed on the vCPU so far (begun, in a callback) */
static inline uint64_t profile_vcpu_executed(const Vcpu *v)
{
    return v->consumed + (v->inline_state->ticks & ~TICKS_FOLLOWED) -
           v->not_begun;
}

/*
 * At the entry of block, before a sample there: follow what the block
 * before did, if its end was followed (flat), or make real the calls
 * noted lazily, so that the sample has its call stack
 */
void profile_follow_before_sample(Vcpu *v, unsigned index,
                                  const Block *block);

#endif
