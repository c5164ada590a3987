/*
 * perfctr plugin: where the time goes (PC histogram, call stacks, arcs)
 *
 * Each block entered adds its instruction count to its vCPU's ticks,
 * inline in the translated code (as QEMU's icount does), and QEMU's
 * hook reports a block left before its end (a fault, an I/O access, a
 * target reached): the instructions that did not begin are taken back.
 * In exact mode each instruction also counts its own executions, inline,
 * or with call stacks in the callback each block entry makes.  In
 * sampling mode, a block whose entry takes the ticks to the next
 * sample (a conditional callback) takes the sample at the instruction
 * where they reach it, tentatively: if the block is left before that
 * instruction begins, the sample is undone.  So samples fall on exact
 * instruction boundaries and do not depend on the host, at the cost
 * of one inline add and one comparison per block.  Neither changes
 * what the guest sees: -icount is not touched.
 *
 * Sample k is taken at instruction k * period + U_k, with U_k drawn
 * evenly from [0, period) by a fixed pseudo-random sequence (jittered
 * systematic sampling): one sample per period, as many as with a fixed
 * period, every run draws the same ones, and they cannot lock onto a
 * periodic interrupt whose period is a multiple of the sampling period
 * (which would sample its handler always or never).
 *
 * Call stacks follow the flow of control between blocks: at the entry
 * of a block, the last instruction executed before it (a call, a
 * return, a branch) says what happened (follow.c).  In sampling mode
 * only a block that ends in such an instruction is followed: its last
 * instruction stores the block inline, and the next block's entry
 * calls back when one is stored.  In exact mode every block entry
 * calls back, to charge the block that ran.  The stack is a tree of
 * call sites (calltree.c); the instructions run since the previous
 * block entry are charged to the node that was current, and each call
 * adds to the arc (call site, callee).  Each execution context (a
 * task, an exception handler: contexts.c) has a call stack of its own,
 * rooted at a node of its own; exceptions and their returns switch
 * between them.
 *
 * In sampling mode on a Cortex-M or RISC-V most calls are followed
 * lazily (lazy.c): noted inline, and made frames here only once
 * something needs them (settle()).  With stacks=flat on a Cortex-M no
 * frame is made: each context's stack stays at its root, the calls are
 * counted (their arcs) and returns are not followed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "profile/block.h"
#include "profile/calltree.h"
#include "profile/charges.h"
#include "profile/contexts.h"
#include "profile/follow.h"
#include "profile/lazy.h"
#include "profile/pairs.h"
#include "profile/profile.h"
#include "profile/unwind.h"

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

/* A sample taken at a block's entry, undone if the block is left early */
typedef struct Tentative {
    size_t insn;            /* in the block */
    uint64_t gap;           /* the ticks it deferred the next sample by */
    uint64_t offset, random;    /* the sampling state before it */
} Tentative;

typedef struct Vcpu {
    Block *block;           /* exact: the block entered last, or NULL */
    uint64_t block_ticks;   /* ticks when it was last charged */
    uint64_t block_began;   /* its instructions begun this time */
    CallStack *calls;       /* of the context that runs */
    uint64_t consumed;      /* instructions taken off the ticks */
    uint64_t start;         /* instructions before the profile started */
    uint64_t offset;        /* U_k of the last sample */
    uint64_t random;        /* the offsets' state (xorshift64) */
    uint64_t not_begun;     /* of the running block, in a callback in it */
    /* Samples taken at the entry of the block entered last */
    Block *sampled;
    uint64_t sampled_ticks; /* the ticks after them (while it runs) */
    GArray *tentative;
    InlineState *inline_state;  /* its entry in the scoreboard */
} Vcpu;

static const PerfctrConfig *config;
/* Sampling: a sample is taken when the ticks reach 2 * period */
static uint64_t sample_at;
static struct qemu_plugin_scoreboard *inline_board;
static qemu_plugin_u64 ticks, followed, lazy, returned;
static GMutex lock;
static GPtrArray *vcpus;
static GPtrArray *blocks;
static PairTable *histogram;    /* (pc, 0) -> samples; exact: written */
/*
 * lazy_on() and lazy_flat(), as lazy.c decides them at the first
 * translation (before any block runs), for what every block entry reads
 */
static bool calls_lazy, calls_flat;
/*
 * Exact mode with call stacks: every block entry calls back, and that
 * callback counts the instructions of the block left that began (not
 * an inline add per instruction)
 */
static bool counted_at_entry;

static void enter(void)
{
    config_lock(config, &lock);
}

static void leave(void)
{
    config_unlock(config, &lock);
}

static Vcpu *vcpu_state(unsigned index)
{
    Vcpu *v;

    while (vcpus->len <= index) {
        v = g_new0(Vcpu, 1);
        v->random = UINT64_C(0x9e3779b97f4a7c15) + vcpus->len;
        v->tentative = g_array_new(false, false, sizeof(Tentative));
        g_ptr_array_add(vcpus, v);
    }
    v = g_ptr_array_index(vcpus, index);
    if (config->threads || !v->inline_state) {
        /*
         * It moves when QEMU grows its scoreboards for a new vCPU (from
         * the 17th on): looked up at each callback when there are
         * several, which costs as much as the callback's own work
         */
        v->inline_state = qemu_plugin_scoreboard_find(inline_board, index);
    }
    return v;
}

/* Instructions executed on the vCPU so far (begun, in a callback) */
static uint64_t executed_total(Vcpu *v)
{
    return v->consumed + (v->inline_state->ticks & ~TICKS_FOLLOWED) -
           v->not_begun;
}

/* The next sample's offset into its period */
static uint64_t next_offset(Vcpu *v)
{
    v->random ^= v->random << 13;
    v->random ^= v->random >> 7;
    v->random ^= v->random << 17;
    return v->random % config->period;
}

/* Take gap instructions off the ticks: the next sample is gap later */
static void defer_sample(Vcpu *v, uint64_t gap)
{
    v->inline_state->ticks -= gap;
    v->consumed += gap;
}

/*
 * Exact: what the block entered last ran since it was last charged
 * (at now), charged to the current node
 */
static void charge_running(Vcpu *v, uint64_t now)
{
    uint64_t executed = now - v->block_ticks;

    if (v->block && executed) {
        charges_block(v->block, v->calls->node, executed);
        if (counted_at_entry) {
            charges_began(v->block, v->block_began,
                          v->block_began + executed);
        }
        v->block_began += executed;
    }
    v->block_ticks = now;
}

/*
 * Make real what the lazy slot notes, before anything reads the stack
 * or the vCPU goes on at next (a block's entry, where an exception
 * interrupted it, or NOWHERE).  A call not followed gets its frame,
 * unless next is where it returns: then its return came back there,
 * which undoes nothing, or (no return noted, nothing else followed) it
 * was a call in an IT block not taken, not counted then.  A return
 * elsewhere is followed as it would have been, unless follow_return is
 * false: the context changed after it (an exception return).
 */
static void settle(Vcpu *v, unsigned index, uint64_t next, bool follow_return)
{
    uint64_t slot = v->inline_state->lazy & ~LAZY_FOLLOWED;
    uint64_t ret = slot & ~LAZY_RETURNED;
    Block *caller;

    v->inline_state->lazy = 0;
    if (!slot) {
        return;
    }
    if (ret) {
        if (ret == next && (slot & LAZY_RETURNED)) {
            return;
        }
        caller = lazy_call_returning_to(ret);
        if (ret == next && !v->inline_state->followed) {
            qemu_plugin_u64_add((qemu_plugin_u64) { caller->lazy_calls, 0 },
                                index, -1);
            return;
        }
        follow_push_frame(v->calls, caller, caller->last_pc, ret,
                          lazy_call_stack_pointer(index));
    }
    if ((slot & LAZY_RETURNED) && follow_return) {
        Block *from = (Block *)(uintptr_t)v->inline_state->returned;

        follow(v->calls, index, from, from->n, next);
    }
}

/*
 * Flat: the vCPU goes on at next (or NOWHERE).  A call still noted
 * that returns there was not taken (in an IT block; next is its return
 * address's block, or where an exception interrupted before it): its
 * count is taken back.
 */
static void settle_flat(Vcpu *v, unsigned index, uint64_t next)
{
    uint64_t slot = v->inline_state->lazy;

    v->inline_state->lazy = 0;
    if (slot && slot == next) {     /* (0: none noted; next 0 at reset) */
        Block *caller = lazy_call_returning_to(slot);

        qemu_plugin_u64_add((qemu_plugin_u64) { caller->lazy_calls, 0 },
                            index, -1);
    }
}

/*
 * The block the vCPU leaves, with how many of its instructions ran (in
 * exact mode, the rest charged to the current node): the block entered
 * last in exact mode, in sampling mode the one just ended if it is
 * followed.
 */
static Block *leaving(Vcpu *v, uint64_t *executed)
{
    Block *last;

    if (config->period) {
        last = (Block *)(uintptr_t)v->inline_state->followed;
        v->inline_state->followed = 0;
        v->inline_state->ticks &= ~TICKS_FOLLOWED;
        *executed = last ? last->n : 0;     /* its last one began */
        return last;
    }
    last = v->block;
    if (last) {
        /* (all of them: a snapshot may have charged some already) */
        charge_running(v, executed_total(v));
        *executed = v->block_began;
    }
    return last;
}

/*
 * The vCPU left last (executed instructions of it) for next: a block's
 * entry, or, with sp (QEMU's), the pc where an exception interrupted it
 * with that stack pointer.  Follow where it went.
 */
static void leave_block(Vcpu *v, unsigned index, Block *last,
                        uint64_t executed, uint64_t next, const uint64_t *sp)
{
    bool whole = executed >= last->n;

    if (last->sp_last != SP_KEPT && whole && !sp) {
        /* (an exception's sp is noted) */
        contexts_sp_written(index, last->sp_last == SP_SWITCHED);
    }
    if (sp && whole && last->last.kind == INSN_EXCEPTION_RETURN) {
        /* Interrupted as it returned: the sp is the one it left */
        contexts_returned_to(index, next, *sp);
    } else {
        follow(v->calls, index, last, executed, next);
    }
}

/* The vCPU leaves the block it ran for next (leaving(), leave_block()) */
static void leave_for(Vcpu *v, unsigned index, uint64_t next,
                      const uint64_t *sp)
{
    uint64_t executed;
    Block *last;

    if (calls_flat) {
        settle_flat(v, index, next);
    } else if (calls_lazy) {
        settle(v, index, next, true);
    }
    last = leaving(v, &executed);
    if (last) {
        leave_block(v, index, last, executed, next, sp);
    }
}

/*
 * A block's entry (udata): every one in exact mode, in sampling mode
 * those after a block that is followed
 */
static void block_entered(unsigned index, void *udata)
{
    Block *next = udata;
    Vcpu *v;

    enter();
    v = vcpu_state(index);
    leave_for(v, index, next->pc, NULL);
    v->block = next;
    v->block_ticks = executed_total(v);
    v->block_began = 0;
    leave();
}

/* A block's entry (udata) after a lazy return was not cancelled there */
static void block_entered_less_one(unsigned index, void *udata)
{
    enter();
    vcpu_state(index)->inline_state->lazy++;   /* what the block took */
    leave();
    block_entered(index, udata);
}

/* Flat: a block (udata) at a call's return address, the call noted */
static void block_entered_not_taken(unsigned index, void *udata)
{
    Block *block = udata;

    enter();
    settle_flat(vcpu_state(index), index, block->pc);
    leave();
}

/* After an instruction that writes the stack pointer (udata: how) */
static void sp_written(unsigned index, void *udata)
{
    enter();
    contexts_sp_written(index, (uintptr_t)udata == SP_SWITCHED);
    leave();
}

/* Before an instruction that switches stacks, QEMU keeping sp's moves */
static void sp_switching(unsigned index, void *udata)
{
    enter();
    contexts_sp_switching(index);
    leave();
}

/* Take a sample at pc; the gap it deferred the next one by */
static uint64_t take_sample(Vcpu *v, uint64_t pc)
{
    uint64_t offset = next_offset(v);
    uint64_t gap = config->period + offset - v->offset;

    defer_sample(v, gap);
    v->offset = offset;
    (*pair_counter(histogram, pc, 0))++;
    if (config->stacks) {
        charges_add(v->calls->node, pc, 1);
    }
    return gap;
}

/* Under a QEMU without the hook: at the instruction at pc (udata) */
static void sample(unsigned index, void *udata)
{
    enter();
    take_sample(vcpu_state(index), (uintptr_t)udata);
    leave();
}

/*
 * At the entry of a block (udata), its instructions counted, which takes
 * the ticks to the next sample: the instructions of it where they reach
 * each sample are the samples, until the block is left before one.
 */
static void sample_block(unsigned index, void *udata)
{
    Block *block = udata;
    Vcpu *v;

    enter();
    v = vcpu_state(index);
    if (v->inline_state->ticks & TICKS_FOLLOWED) {
        /* Flat: the block before was followed; followed before this one */
        v->inline_state->ticks -= TICKS_FOLLOWED + block->n;
        leave_for(v, index, block->pc, NULL);
        v->inline_state->ticks += block->n;
    } else if (calls_lazy && !calls_flat) {
        settle(v, index, NOWHERE, true);
    }
    g_array_set_size(v->tentative, 0);
    while (v->inline_state->ticks >= sample_at) {
        uint64_t before = v->inline_state->ticks - block->n;
        Tentative t = {
            .insn = sample_at - 1 - before,
            .offset = v->offset,
            .random = v->random,
        };

        t.gap = take_sample(v, block->insn_pc[t.insn]);
        g_array_append_val(v->tentative, t);
    }
    v->sampled = block;
    v->sampled_ticks = v->inline_state->ticks;
    leave();
}

/* Undo a sample taken at the entry of block */
static void undo_sample(Vcpu *v, Block *block, const Tentative *t)
{
    uint64_t pc = block->insn_pc[t->insn];

    (*pair_counter(histogram, pc, 0))--;
    if (config->stacks) {
        charges_add(v->calls->node, pc, -1);
    }
    v->inline_state->ticks += t->gap;
    v->consumed -= t->gap;
    v->offset = t->offset;
    v->random = t->random;
}

void profile_block_left(unsigned index, uint64_t not_begun)
{
    Vcpu *v;
    GArray *tentative;

    enter();
    v = vcpu_state(index);
    /* A followed end its last instruction noted before it did not begin */
    v->inline_state->ticks &= ~TICKS_FOLLOWED;
    tentative = v->tentative;
    if (tentative->len &&
        v->inline_state->ticks == v->sampled_ticks) {
        /* The block sampled at its entry: undo those not reached */
        size_t began = v->sampled->n - not_begun;

        while (tentative->len &&
               g_array_index(tentative, Tentative,
                             tentative->len - 1).insn >= began) {
            undo_sample(v, v->sampled,
                        &g_array_index(tentative, Tentative,
                                       tentative->len - 1));
            g_array_set_size(tentative, tentative->len - 1);
        }
    }
    g_array_set_size(tentative, 0);
    v->inline_state->ticks -= not_begun;
    /* Its last instruction, which may have stored it, did not begin */
    v->inline_state->followed = 0;
    v->inline_state->lazy &= ~LAZY_FOLLOWED;
    leave();
}

uint64_t profile_executed(unsigned index)
{
    return executed_total(vcpu_state(index));
}

void profile_irq_pended(unsigned index, uint64_t number)
{
    enter();
    contexts_irq_pended(index, number);
    leave();
}

void profile_irq_cleared(unsigned index, uint64_t number)
{
    enter();
    contexts_irq_cleared(index, number);
    leave();
}

unsigned profile_running_context(unsigned index)
{
    unsigned id;

    enter();
    id = contexts_running(index);
    leave();
    return id;
}

void profile_switch(unsigned index, CallStack *to)
{
    Vcpu *v = vcpu_state(index);
    uint64_t now = executed_total(v);

    if (calls_flat) {
        settle_flat(v, index, NOWHERE);
    } else if (calls_lazy) {
        settle(v, index, NOWHERE, false);       /* on the old stack */
    }
    if (!config->period) {
        charge_running(v, now);
    }
    v->block = NULL;
    v->block_ticks = now;
    v->calls = to;
    v->inline_state->followed = 0;      /* the old one's */
    v->inline_state->ticks &= ~TICKS_FOLLOWED;
}

void profile_exception_entered(unsigned index, uint64_t number,
                               uint64_t resume_pc, uint64_t sp)
{
    enter();
    leave_for(vcpu_state(index), index, resume_pc, &sp);
    contexts_entered(index, number, sp);
    leave();
}

void profile_exception_returned(unsigned index, uint64_t number,
                                uint64_t pc, uint64_t sp)
{
    enter();
    contexts_returned_m(index, number, pc, sp);
    leave();
}

void profile_init(const PerfctrConfig *cfg)
{
    config = cfg;
    sample_at = 2 * config->period;
    counted_at_entry = config->stacks && !config->period &&
                       config->counts_blocks;
    g_mutex_init(&lock);
    inline_board = qemu_plugin_scoreboard_new(sizeof(InlineState));
    ticks = qemu_plugin_scoreboard_u64_in_struct(inline_board, InlineState,
                                                 ticks);
    followed = qemu_plugin_scoreboard_u64_in_struct(inline_board,
                                                    InlineState, followed);
    lazy = qemu_plugin_scoreboard_u64_in_struct(inline_board, InlineState,
                                                lazy);
    returned = qemu_plugin_scoreboard_u64_in_struct(inline_board,
                                                    InlineState, returned);
    lazy_init(config, lazy, returned, block_entered, block_entered_less_one,
              block_entered_not_taken);
    vcpus = g_ptr_array_new();
    blocks = g_ptr_array_new();
    histogram = pair_table_new();
    charges_init();
    follow_init(cfg);
    calltree_init();
    unwind_init(cfg);
}

static bool links_next(struct qemu_plugin_insn *insn)
{
    uint8_t bytes[4];
    size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));

    return isa_links_next(config->isa, bytes, got);
}

static SpWrite sp_write(struct qemu_plugin_insn *insn)
{
    uint8_t bytes[4];
    size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));

    return isa_sp_write(config->isa, bytes, got);
}

/* What follow() needs to see at the next block's entry */
static bool is_followed(const Block *block)
{
    if (block->lazy_call || lazy_return(block)) {
        return false;
    }
    switch (block->last.kind) {
    case INSN_CALL:
    case INSN_EXCEPTION_RETURN:
        return true;
    case INSN_RETURN:
        if (!lazy_flat()) {
            return true;
        }
        break;
    case INSN_BRANCH:
        if (!lazy_flat() && !block->last.direct) {
            return true;
        }
        break;
    case INSN_OTHER:
    case INSN_TRAP:
        break;
    }
    return block->sp_last != SP_KEPT;
}

/* Block entry: follow, count the block, sample (registered in this order) */
static void instrument_entry(struct qemu_plugin_tb *tb, Block *block,
                             bool calls)
{
    if (lazy_on()) {
        lazy_instrument_entry(tb, block, calls);    /* followed blocks too */
    }
    if (config->stacks && !config->period) {
        /* Registers are read at a block's entry (all in memory then) */
        qemu_plugin_register_vcpu_tb_exec_cb(tb, block_entered,
                                             QEMU_PLUGIN_CB_R_REGS, block);
    } else if (config->stacks && !lazy_on()) {
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, block_entered, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_COND_NE,
            followed, 0, block);
    }
    if (!config->counts_blocks) {
        return;                         /* counted per instruction */
    }
    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
        tb, QEMU_PLUGIN_INLINE_ADD_U64, ticks, block->n);
    if (config->period) {
        /* (flat: it follows too) */
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, sample_block,
            lazy_flat() ? QEMU_PLUGIN_CB_R_REGS : QEMU_PLUGIN_CB_NO_REGS,
            QEMU_PLUGIN_COND_GE, ticks, sample_at, block);
    }
}

void profile_instrument(struct qemu_plugin_tb *tb)
{
    Block *block = g_new0(Block, 1);
    SpWrite sp_pending = SP_KEPT;
    struct qemu_plugin_insn *insn = NULL;
    bool calls = false;
    size_t i;

    calls_lazy = lazy_on();
    calls_flat = lazy_flat();
    follow_flat(calls_flat);
    block->pc = qemu_plugin_tb_vaddr(tb);
    block->n = qemu_plugin_tb_n_insns(tb);
    block->insn_pc = g_new(uint64_t, block->n);
    block->insn_len = g_new(uint8_t, block->n);
    if (!config->period && !counted_at_entry) {
        block->counts = qemu_plugin_scoreboard_new(block->n *
                                                   sizeof(uint64_t));
    }
    for (i = 0; i < block->n; i++) {
        uint64_t pc;
        size_t len;
        SpWrite writes_sp;

        insn = qemu_plugin_tb_get_insn(tb, i);
        pc = qemu_plugin_insn_vaddr(insn);
        len = qemu_plugin_insn_size(insn);
        writes_sp = config->stacks ? sp_write(insn) : SP_KEPT;
        if (writes_sp == SP_MOVED && contexts_sp_moves_kept()) {
            writes_sp = SP_KEPT;            /* (QEMU keeps it) */
        }
        if (sp_pending != SP_KEPT) {
            /* Before this one: the stack pointer it left */
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, sp_written, QEMU_PLUGIN_CB_R_REGS,
                (void *)(uintptr_t)sp_pending);
        }
        if (writes_sp == SP_SWITCHED && contexts_sp_moves_kept()) {
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, sp_switching, QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
        sp_pending = writes_sp;
        block->insn_pc[i] = pc;
        block->insn_len[i] = len;
        if (!config->counts_blocks) {
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, ticks, 1);
        }
        if (config->period && !config->counts_blocks) {
            qemu_plugin_register_vcpu_insn_exec_cond_cb(
                insn, sample, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_GE,
                ticks, sample_at, (void *)(uintptr_t)pc);
        } else if (block->counts) {
            qemu_plugin_u64 count = { block->counts, i * sizeof(uint64_t) };

            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, count, 1);
        }
        if (i == block->n - 1) {
            uint8_t bytes[4];
            size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));

            block->last_pc = pc;
            block->last_fall = pc + len;
            isa_classify(config->isa, bytes, got, pc, &block->last);
            calls = block->last.kind == INSN_CALL;
            if (i && links_next(qemu_plugin_tb_get_insn(tb, i - 1))) {
                isa_linked(&block->last);
            }
            if (unwind_jumps_within_function(pc, &block->last)) {
                block->last.kind = INSN_BRANCH;
            }
        }
    }
    block->sp_last = sp_pending;
    lazy_classify(block);
    if (config->stacks && config->period && is_followed(block)) {
        /* As it begins: a block left before has not done it */
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            insn, QEMU_PLUGIN_INLINE_STORE_U64, followed,
            (uintptr_t)block);
        if (lazy_on()) {
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64,
                lazy_flat() ? ticks : lazy,
                lazy_flat() ? TICKS_FOLLOWED : LAZY_FOLLOWED);
        }
    }
    if (lazy_on()) {
        lazy_instrument_exit(insn, block);
    }
    instrument_entry(tb, block, calls);
    enter();
    g_ptr_array_add(blocks, block);
    leave();
}

void profile_vcpu_init(unsigned index)
{
    Vcpu *v;

    if (!config->period) {
        return;
    }
    enter();
    v = vcpu_state(index);
    /* The first sample at instruction U_0 + 1 (counting from 1) */
    v->offset = next_offset(v);
    v->inline_state->ticks = sample_at - v->offset - 1;
    v->consumed = -v->inline_state->ticks;      /* none executed */
    leave();
}

void profile_restart(unsigned index, uint64_t not_begun)
{
    int vcpu;

    enter();
    vcpu_state(index)->not_begun = config->counts_blocks ? not_begun : 0;
    pair_table_clear(histogram);
    charges_restart(blocks);
    follow_restart(blocks);
    for (vcpu = 0; vcpu < qemu_plugin_num_vcpus(); vcpu++) {
        Vcpu *v = vcpu_state(vcpu);

        /* The calls made so far stay on the stacks: they still return */
        v->start = executed_total(v);
        v->block_ticks = v->start;
    }
    calltree_restart();
    if (config->stacks) {
        contexts_restart();             /* (followed with stacks only) */
    }
    vcpu_state(index)->not_begun = 0;
    leave();
}

/*
 * Exact mode: every block's per-instruction counts added up by pc, into
 * the histogram, which holds nothing else then (and may be written
 * more than once: a controller's snapshots, then at exit)
 */
static void gather_exact_histogram(void)
{
    pair_table_clear(histogram);
    charges_gather(blocks, histogram);
}

/*
 * The block the vCPU ran last if it ended in a direct call, which the
 * next block's entry follows (NULL if not): the call has happened (the
 * CPU's events count it) when a snapshot comes between the two, at a
 * controller's deadline say
 */
static Block *call_not_followed(Vcpu *v)
{
    Block *block = config->period ?
        (Block *)(uintptr_t)v->inline_state->followed : v->block;

    if (!block || !follow_calls_surely(block) ||
        (!config->period && v->block_began < block->n)) {
        return NULL;
    }
    return block;
}

void profile_write(FILE *out)
{
    g_autoptr(GPtrArray) made = g_ptr_array_new();
    uint64_t total = 0;
    int vcpu;

    enter();
    for (vcpu = 0; vcpu < qemu_plugin_num_vcpus(); vcpu++) {
        Vcpu *v = vcpu_state(vcpu);
        uint64_t now = executed_total(v);
        Block *call;

        total += now - v->start;
        if (!config->period) {
            charge_running(v, now);
        }
        call = call_not_followed(v);
        if (call) {
            g_ptr_array_add(made, call);
        }
    }
    if (!config->period) {
        gather_exact_histogram();
    }
    fprintf(out, "perfctr-profile 2\n");
    fprintf(out, "mode %s\n", config->period ? "sample" : "exact");
    fprintf(out, "period %" PRIu64 "\n", config->period ? config->period : 1);
    fprintf(out, "instructions %" PRIu64 "\n", total);
    fprintf(out, "depth-lost %" PRIu64 "\n", calltree_depth_lost());
    fprintf(out, "stacks %s\n", !config->stacks ? "off" :
            lazy_flat() ? "flat" : "on");
    if (config->stacks) {
        contexts_write(out);
    }
    pair_table_write(histogram, out, "pc", false);
    follow_write(out, blocks, made);
    calltree_write(out);
    charges_write(out);
    leave();
}
