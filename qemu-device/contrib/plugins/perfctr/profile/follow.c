/*
 * perfctr plugin: where the last instruction of a block went
 *
 * profile.c asks at the entry of the next block, or where an exception
 * interrupted.  Calls are counted by arc (call site, callee) and push a
 * frame on the running context's call stack (unless lazy.c made them
 * flat); returns pop to the frame they return to; longjmps and Thumb-1's
 * helpers are unwound by the image's functions (unwind.c); a return to
 * no frame is another context's (contexts.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "profile/contexts.h"
#include "profile/follow.h"
#include "profile/lazy.h"
#include "profile/pairs.h"
#include "profile/unwind.h"

static const PerfctrConfig *config;
static PairTable *arcs;         /* (call site, callee) -> calls */
/* Exact: (conditional branch, 1 if taken) -> times (coverage's) */
static PairTable *branches;
/* Calls counted, no frames made (lazy.c's stacks=flat) */
static bool flat;

void follow_init(const PerfctrConfig *cfg)
{
    config = cfg;
    arcs = pair_table_new();
    branches = pair_table_new();
}

void follow_flat(bool calls_flat)
{
    flat = calls_flat;
}

void follow_push_frame(CallStack *calls, Block *block, uint64_t site,
                       uint64_t ret, uint64_t sp)
{
    uint64_t node = calls->node;
    unsigned slot = node % CALLEE_CACHE;

    if (!block->callee_node[slot] || block->caller_node[slot] != node) {
        block->callee_node[slot] = calltree_child(node, site);
        block->caller_node[slot] = node;
    }
    calltree_push(calls, block->callee_node[slot], ret, sp);
}

/* A call by the last instruction of block, to callee */
static void call(CallStack *calls, unsigned index, Block *block,
                 uint64_t site, uint64_t ret, uint64_t callee)
{
    if (!block->calls || block->callee != callee) {
        block->calls = pair_counter(arcs, site, callee);
        block->callee = callee;
    }
    (*block->calls)++;
    if (!flat) {
        follow_push_frame(calls, block, site, ret,
                          contexts_stack_pointer(index));
    }
}

/* A longjmp's landing at next: unwound to its frame, if it is one */
static bool longjmp_landed(CallStack *calls, unsigned index, uint64_t next)
{
    int frame = unwind_longjmp_frame(calls, next,
                                     contexts_stack_pointer(index));

    if (frame < 0) {
        return false;
    }
    calltree_pop_frame(calls, frame);
    return true;
}

void follow(CallStack *calls, unsigned index, Block *block, uint64_t executed,
            uint64_t next)
{
    InsnClass last = { .kind = INSN_OTHER };
    uint64_t site = block->pc, fall = block->pc;

    if (executed >= block->n) {
        site = block->last_pc;
        fall = block->last_fall;
        last = block->last;
    } else if (executed) {
        site = block->insn_pc[executed - 1];
        fall = site + block->insn_len[executed - 1];
    }
    if (last.kind == INSN_BRANCH && last.conditional && last.direct &&
        !config->period) {
        /* Which way it went, for coverage */
        bool taken = next != fall;

        if (!block->outcomes[taken]) {
            block->outcomes[taken] = pair_counter(branches, site, taken);
        }
        (*block->outcomes[taken])++;
    }
    if (flat && last.kind != INSN_CALL &&
        last.kind != INSN_EXCEPTION_RETURN) {
        return;                         /* no frames to follow */
    }
    switch (last.kind) {
    case INSN_CALL:
        if (next == fall) {
            return;                     /* a conditional call not taken */
        }
        if (!last.direct || next == last.target) {
            call(calls, index, block, site, fall, next);
            return;
        }
        break;
    case INSN_RETURN:
        if (calltree_pop_to(calls, next)) {
            return;
        }
        if (unwind_returns_into_caller(calls, next)) {
            /* Past its return address: Thumb-1's switch helpers */
            calltree_pop_to(calls, calls->stack[calls->depth - 1].ret);
            return;
        }
        if (next != fall && !longjmp_landed(calls, index, next)) {
            /* To a caller we did not see: maybe another task's */
            contexts_unmatched_return(index, next);
        }
        return;
    case INSN_EXCEPTION_RETURN:
        /* Even to the next instruction: it follows the handler's code */
        contexts_returned(index, next);
        return;
    case INSN_BRANCH:
        if (!last.direct && calls->depth &&
            calls->stack[calls->depth - 1].ret == next) {
            /* A return through another register: bx ip in mcount */
            calltree_pop_to(calls, next);
            return;
        }
        if (!last.direct && unwind_leaves_function(site, next)) {
            /* Thumb-1's longjmp returns with bx r3 */
            longjmp_landed(calls, index, next);
        }
        return;
    case INSN_OTHER:
    case INSN_TRAP:
        return;
    }
}

bool follow_calls_surely(const Block *block)
{
    return block->last.kind == INSN_CALL && block->last.direct &&
           !block->last.conditional &&
           block->last.target != block->last_fall;
}

void follow_restart(GPtrArray *blocks)
{
    guint b;

    pair_table_clear(arcs);
    pair_table_clear(branches);
    lazy_count_calls(blocks, arcs, true);
    for (b = 0; b < blocks->len; b++) {
        Block *block = g_ptr_array_index(blocks, b);

        /* Their cached entries went with the tables */
        block->calls = NULL;
        block->outcomes[0] = block->outcomes[1] = NULL;
    }
}

/*
 * Add amount to the arc or the branch's way of each of pending, as
 * follow() counts them once the next block is entered
 */
static void count_pending(GArray *pending, int64_t amount)
{
    guint i;

    for (i = 0; i < pending->len; i++) {
        const FollowPending *p = &g_array_index(pending, FollowPending, i);
        const Block *block = p->block;
        InsnClass last = block->last;

        if (last.kind == INSN_BRANCH && last.conditional && last.direct &&
            !config->period) {
            *pair_counter(branches, block->last_pc,
                          p->next != block->last_fall) += amount;
        } else if (last.kind == INSN_CALL && p->next != block->last_fall &&
                   (!last.direct || p->next == last.target)) {
            *pair_counter(arcs, block->last_pc, p->next) += amount;
        }
    }
}

void follow_write(FILE *out, GPtrArray *blocks, GArray *pending)
{
    lazy_count_calls(blocks, arcs, false);
    count_pending(pending, 1);
    pair_table_write(arcs, out, "arc", true);
    pair_table_write(branches, out, "branch", true);
    count_pending(pending, -1);                 /* followed later */
}
