/*
 * perfctr plugin: where the time goes (PC histogram, call stacks, arcs)
 *
 * Each block entered adds its instruction count to its vCPU's ticks,
 * inline in the translated code (as QEMU's icount does), and QEMU's
 * hook reports a block left before its end (a fault, an I/O access, a
 * target reached): the instructions that did not begin are taken back.
 * In exact mode each instruction also counts its own executions, inline,
 * or with call stacks in the callback each block entry makes; in
 * sampling mode the ticks say when a sample falls (sample.c).  Neither
 * changes what the guest sees: -icount is not touched.
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

#include "perfctr-hook.h"
#include "profile/block.h"
#include "profile/calltree.h"
#include "profile/charges.h"
#include "profile/contexts.h"
#include "profile/follow.h"
#include "profile/lazy.h"
#include "profile/pairs.h"
#include "profile/profile.h"
#include "profile/sample.h"
#include "profile/unwind.h"
#include "profile/vcpu.h"

/* QEMU exports it; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_hook_resume_pc

static const PerfctrConfig *config;
static struct qemu_plugin_scoreboard *inline_board;
static qemu_plugin_u64 ticks, followed, lazy, returned;
static GMutex lock;
static GPtrArray *vcpus;
static GPtrArray *blocks;
/* (pc, 0) -> samples (with call stacks, summed as written); exact: written */
static PairTable *histogram;
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

void profile_enter(void)
{
    config_lock(config, &lock);
}

void profile_leave(void)
{
    config_unlock(config, &lock);
}

/* A vCPU's state made, or its scoreboard entry looked up (again) */
static Vcpu *vcpu_found(unsigned index)
{
    Vcpu *v;

    while (vcpus->len <= index) {
        v = g_new0(Vcpu, 1);
        sample_vcpu_new(v, vcpus->len);
        g_ptr_array_add(vcpus, v);
    }
    v = g_ptr_array_index(vcpus, index);
    /*
     * It moves when QEMU grows its scoreboards for a new vCPU (from the
     * 17th on): looked up at each callback when there are several,
     * which costs as much as the callback's own work
     */
    v->inline_state = qemu_plugin_scoreboard_find(inline_board, index);
    return v;
}

/* The vCPU's state, in a load or two while there is one vCPU */
static inline Vcpu *vcpu_state(unsigned index)
{
    if (index < vcpus->len && !config->threads) {
        Vcpu *v = g_ptr_array_index(vcpus, index);

        if (v->inline_state) {
            return v;
        }
    }
    return vcpu_found(index);
}

Vcpu *profile_vcpu(unsigned index)
{
    return vcpu_state(index);
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
        charge_running(v, profile_vcpu_executed(v));
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

void profile_follow_before_sample(Vcpu *v, unsigned index,
                                  const Block *block)
{
    if (v->inline_state->ticks & TICKS_FOLLOWED) {
        /* Flat: the block before was followed; followed before this one */
        v->inline_state->ticks -= TICKS_FOLLOWED + block->n;
        leave_for(v, index, block->pc, NULL);
        v->inline_state->ticks += block->n;
    } else if (calls_lazy && !calls_flat) {
        settle(v, index, NOWHERE, true);
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

    profile_enter();
    v = vcpu_state(index);
    leave_for(v, index, next->pc, NULL);
    v->block = next;
    v->block_ticks = profile_vcpu_executed(v);
    v->block_began = 0;
    profile_leave();
}

/* A block's entry (udata) after a lazy return was not cancelled there */
static void block_entered_less_one(unsigned index, void *udata)
{
    profile_enter();
    vcpu_state(index)->inline_state->lazy++;   /* what the block took */
    profile_leave();
    block_entered(index, udata);
}

/* Flat: a block (udata) at a call's return address, the call noted */
static void block_entered_not_taken(unsigned index, void *udata)
{
    Block *block = udata;

    profile_enter();
    settle_flat(vcpu_state(index), index, block->pc);
    profile_leave();
}

/* After an instruction that writes the stack pointer (udata: how) */
static void sp_written(unsigned index, void *udata)
{
    profile_enter();
    contexts_sp_written(index, (uintptr_t)udata == SP_SWITCHED);
    profile_leave();
}

/* Before an instruction that switches stacks, QEMU keeping sp's moves */
static void sp_switching(unsigned index, void *udata)
{
    profile_enter();
    contexts_sp_switching(index);
    profile_leave();
}

void profile_block_left(unsigned index, uint64_t not_begun)
{
    Vcpu *v;

    profile_enter();
    v = vcpu_state(index);
    /* A followed end its last instruction noted before it did not begin */
    v->inline_state->ticks &= ~TICKS_FOLLOWED;
    sample_block_left(v, not_begun);
    v->inline_state->ticks -= not_begun;
    /* Its last instruction, which may have stored it, did not begin */
    v->inline_state->followed = 0;
    v->inline_state->lazy &= ~LAZY_FOLLOWED;
    profile_leave();
}

uint64_t profile_executed(unsigned index)
{
    return profile_vcpu_executed(vcpu_state(index));
}

void profile_irq_pended(unsigned index, uint64_t number)
{
    profile_enter();
    contexts_irq_pended(index, number);
    profile_leave();
}

void profile_irq_cleared(unsigned index, uint64_t number)
{
    profile_enter();
    contexts_irq_cleared(index, number);
    profile_leave();
}

unsigned profile_running_context(unsigned index)
{
    unsigned id;

    profile_enter();
    id = contexts_running(index);
    profile_leave();
    return id;
}

void profile_switch(unsigned index, CallStack *to)
{
    Vcpu *v = vcpu_state(index);
    uint64_t now = profile_vcpu_executed(v);

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
    profile_enter();
    leave_for(vcpu_state(index), index, resume_pc, &sp);
    contexts_entered(index, number, sp);
    profile_leave();
}

void profile_exception_returned(unsigned index, uint64_t number,
                                uint64_t pc, uint64_t sp)
{
    profile_enter();
    contexts_returned_m(index, number, pc, sp);
    profile_leave();
}

void profile_init(const PerfctrConfig *cfg)
{
    config = cfg;
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
    sample_init(cfg, histogram, ticks);
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
        sample_instrument_block(tb, block, lazy_flat());   /* (it follows) */
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
            sample_instrument_insn(insn, pc);
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
    profile_enter();
    g_ptr_array_add(blocks, block);
    profile_leave();
}

void profile_vcpu_init(unsigned index)
{
    Vcpu *v;

    if (!config->period) {
        return;
    }
    profile_enter();
    v = vcpu_state(index);
    sample_vcpu_start(v);
    profile_leave();
}

void profile_restart(unsigned index, uint64_t not_begun)
{
    int vcpu;

    profile_enter();
    vcpu_state(index)->not_begun = config->counts_blocks ? not_begun : 0;
    pair_table_clear(histogram);
    charges_restart(blocks);
    follow_restart(blocks);
    for (vcpu = 0; vcpu < qemu_plugin_num_vcpus(); vcpu++) {
        Vcpu *v = vcpu_state(vcpu);

        v->n_pending = 0;           /* (samples before the start) */

        /* The calls made so far stay on the stacks: they still return */
        v->start = profile_vcpu_executed(v);
        v->block_ticks = v->start;
    }
    calltree_restart();
    if (config->stacks) {
        contexts_restart();             /* (followed with stacks only) */
    }
    vcpu_state(index)->not_begun = 0;
    profile_leave();
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
 * The block the vCPU ran last, with where it went (pending), if the
 * next block's entry is still to follow it: a snapshot between the two
 * (at a controller's deadline, say) counts its call or its branch's
 * way, which the CPU's events have counted.  Where it went is QEMU's
 * pc; without it, only a call that always goes to its target counts.
 */
static bool end_not_followed(Vcpu *v, unsigned index, FollowPending *pending)
{
    const Block *block = config->period ?
        (Block *)(uintptr_t)v->inline_state->followed : v->block;

    if (!block || (!config->period && v->block_began < block->n)) {
        return false;
    }
    pending->block = block;
    if (perfctr_hook_resume_pc &&
        perfctr_hook_resume_pc(index, &pending->next)) {
        return true;
    }
    pending->next = block->last.target;
    return follow_calls_surely(block);
}

void profile_write(FILE *out)
{
    g_autoptr(GArray) pending = g_array_new(false, false,
                                            sizeof(FollowPending));
    uint64_t total = 0;
    int vcpu;

    profile_enter();
    for (vcpu = 0; vcpu < qemu_plugin_num_vcpus(); vcpu++) {
        Vcpu *v = vcpu_state(vcpu);
        uint64_t now = profile_vcpu_executed(v);
        FollowPending end;

        total += now - v->start;
        if (!config->period) {
            charge_running(v, now);
        } else {
            sample_vcpu_count(v);
        }
        if (end_not_followed(v, vcpu, &end)) {
            g_array_append_val(pending, end);
        }
    }
    if (!config->period) {
        gather_exact_histogram();
    } else if (config->stacks) {
        pair_table_clear(histogram);
        charges_gather_samples(histogram);
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
    follow_write(out, blocks, pending);
    calltree_write(out);
    charges_write(out);
    profile_leave();
}
