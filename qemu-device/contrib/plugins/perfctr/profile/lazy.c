/*
 * perfctr plugin: calls followed lazily (profile.c follows the rest)
 *
 * Most calls return before anything needs their frame, so in sampling
 * mode on a Cortex-M or RISC-V a direct call is not followed as it is
 * made: its last instruction counts its arc inline and notes the call
 * in the vCPU's lazy slot (lazy.h).  A return adds LAZY_RETURNED to
 * the slot; the block at the call's return address finds the pair
 * there and clears the slot, inline, with no callback.  profile.c's
 * other followed blocks add LAZY_FOLLOWED, so every block makes one
 * check at its entry.  Anything that needs the stack first (a sample,
 * another call, an exception, a return elsewhere) has profile.c make
 * the frame, with the stack pointer QEMU's translator noted at the
 * call (perfctr-hook.h): the Arm and RISC-V translators do, and only a
 * Cortex-M's and RISC-V's instructions decode one way, as the plugin
 * decodes them (an A-profile core also runs Arm code, which decoded as
 * Thumb can look like a call).
 *
 * Flat (stacks=flat, on a Cortex-M), no frame is ever made: a direct
 * call to a function's first instruction counts its arc and notes its
 * return address in the slot, inline; the first block of every
 * function clears the slot, inline; a return does nothing.  Only the
 * block at a call's return address that finds the call still noted
 * calls back: the call was in an IT block and not taken, and its count
 * is taken back (a call to the next instruction is not lazy: it would
 * look the same).  profile.c's followed blocks (indirect calls, a
 * write of the stack pointer) still call back, for their arcs and the
 * tasks and handlers, through the check each block makes for a sample.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "perfctr-hook.h"
#include "profile/contexts.h"
#include "profile/lazy.h"

/* QEMU exports it; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_hook_call_stack_pointer

static const PerfctrConfig *config;
static qemu_plugin_u64 lazy, returned;
static qemu_plugin_vcpu_udata_cb_t entered, entered_less_one, not_taken;
static bool following, flat;
static gsize decided;
static GMutex lock;
/*
 * The lazy calls' blocks, by return address; the first pcs of blocks
 * that do not cancel a lazy call's return
 */
static GHashTable *sites, *block_starts;
/*
 * In front of sites, without the lock: the block found last for a
 * return address, by its low bits (profile.c looks one up for each
 * lazy call whose frame it makes: millions in an RTOS's run)
 */
#define RECENT_SITES 1024
static Block *recent_sites[RECENT_SITES];

static Block **recent_site(uint64_t ret)
{
    return &recent_sites[(ret >> 1) & (RECENT_SITES - 1)];
}

static void enter(void)
{
    config_lock(config, &lock);
}

static void leave(void)
{
    config_unlock(config, &lock);
}

void lazy_init(const PerfctrConfig *cfg, qemu_plugin_u64 slot,
               qemu_plugin_u64 returned_block,
               qemu_plugin_vcpu_udata_cb_t entered_cb,
               qemu_plugin_vcpu_udata_cb_t entered_less_one_cb,
               qemu_plugin_vcpu_udata_cb_t not_taken_cb)
{
    config = cfg;
    lazy = slot;
    returned = returned_block;
    entered = entered_cb;
    entered_less_one = entered_less_one_cb;
    not_taken = not_taken_cb;
    g_mutex_init(&lock);
    sites = g_hash_table_new(g_int64_hash, g_int64_equal);
    block_starts = g_hash_table_new(g_int64_hash, g_int64_equal);
}

bool lazy_on(void)
{
    if (g_once_init_enter(&decided)) {
        /* (the registers, which say a Cortex-M, are known by then) */
        following = config->stacks && config->period &&
                    perfctr_hook_call_stack_pointer &&
                    (config->isa == ISA_RISCV ||
                     (config->isa == ISA_THUMB && contexts_m_profile()));
        flat = following && config->flat && config->isa == ISA_THUMB;
        g_once_init_leave(&decided, 1);
    }
    return following;
}

bool lazy_flat(void)
{
    return lazy_on() && flat;
}

/* Whether pc is a function's first instruction (all are without them) */
static bool function_start(uint64_t pc)
{
    unsigned found = address_range_find(config->functions,
                                        config->n_functions, pc);

    return !config->n_functions ||
           (found < config->n_functions &&
            config->functions[found].start == pc);
}

/*
 * A call followed lazily: direct, unconditional, sp kept, and every
 * block at its return address instrumented to cancel the pair (none
 * translated without: one in an IT block not taken must see it too)
 */
void lazy_classify(Block *block)
{
    if (!lazy_on() || block->last.kind != INSN_CALL ||
        !block->last.direct || block->last.conditional ||
        block->sp_last != SP_KEPT ||
        (flat && (block->last.target == block->last_fall ||
                  !function_start(block->last.target)))) {
        return;
    }
    enter();
    block->lazy_call = !g_hash_table_contains(block_starts,
                                              &block->last_fall);
    leave();
}

bool lazy_return(const Block *block)
{
    return lazy_on() && !flat && block->last.kind == INSN_RETURN &&
           block->sp_last == SP_KEPT;
}

/*
 * At the block its lazy calls return to, the pair flagged there
 * cancels, inline: what is followed is any other value than 0 and
 * LAZY_RETURNED + pc, two comparisons around a subtraction (a call
 * noted that returns here was in an IT block, not taken).  Elsewhere
 * anything but a call noted is followed; before a call, anything noted.
 * Flat, see above.
 */
void lazy_instrument_entry(struct qemu_plugin_tb *tb, Block *block,
                           bool calls)
{
    enum qemu_plugin_cb_flags cb = QEMU_PLUGIN_CB_R_REGS;
    bool returned_to;

    enter();
    returned_to = g_hash_table_contains(sites, &block->pc);
    if (!returned_to) {
        g_hash_table_add(block_starts, &block->pc);
    }
    leave();
    if (flat) {
        if (returned_to) {
            qemu_plugin_register_vcpu_tb_exec_cond_cb(
                tb, not_taken, cb, QEMU_PLUGIN_COND_EQ, lazy, block->pc,
                block);
        }
        if (function_start(block->pc)) {
            qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
                tb, QEMU_PLUGIN_INLINE_STORE_U64, lazy, 0);
        }
    } else if (returned_to) {
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, entered, cb, QEMU_PLUGIN_COND_GT, lazy,
            LAZY_RETURNED + block->pc, block);
        qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
            tb, QEMU_PLUGIN_INLINE_ADD_U64, lazy, -1);
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, entered_less_one, cb, QEMU_PLUGIN_COND_LT, lazy,
            LAZY_RETURNED + block->pc - 1, block);
        qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
            tb, QEMU_PLUGIN_INLINE_STORE_U64, lazy, 0);
    } else {
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, entered, cb,
            calls ? QEMU_PLUGIN_COND_NE : QEMU_PLUGIN_COND_GE, lazy,
            calls ? 0 : LAZY_FOLLOWED, block);
    }
}

void lazy_instrument_exit(struct qemu_plugin_insn *last, Block *block)
{
    if (block->lazy_call) {
        block->lazy_calls = qemu_plugin_scoreboard_new(sizeof(uint64_t));
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            last, QEMU_PLUGIN_INLINE_ADD_U64,
            (qemu_plugin_u64) { block->lazy_calls, 0 }, 1);
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            last, QEMU_PLUGIN_INLINE_STORE_U64, lazy, block->last_fall);
        enter();
        g_hash_table_insert(sites, &block->last_fall, block);
        __atomic_store_n(recent_site(block->last_fall), block,
                         __ATOMIC_RELEASE);
        leave();
    } else if (lazy_return(block)) {
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            last, QEMU_PLUGIN_INLINE_ADD_U64, lazy, LAZY_RETURNED);
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            last, QEMU_PLUGIN_INLINE_STORE_U64, returned, (uintptr_t)block);
    }
}

uint64_t lazy_call_stack_pointer(unsigned index)
{
    return perfctr_hook_call_stack_pointer(index);
}

Block *lazy_call_returning_to(uint64_t ret)
{
    Block **recent = recent_site(ret);
    Block *block = __atomic_load_n(recent, __ATOMIC_ACQUIRE);

    if (block && block->last_fall == ret) {
        return block;
    }
    enter();
    block = g_hash_table_lookup(sites, &ret);
    __atomic_store_n(recent, block, __ATOMIC_RELEASE);
    leave();
    return block;
}

void lazy_count_calls(GPtrArray *blocks, PairTable *arcs, bool restart)
{
    guint b;

    for (b = 0; b < blocks->len; b++) {
        Block *block = g_ptr_array_index(blocks, b);
        uint64_t n;

        if (!block->lazy_calls) {
            continue;
        }
        n = qemu_plugin_u64_sum((qemu_plugin_u64) { block->lazy_calls, 0 });
        if (n != block->lazy_counted && !restart) {
            *pair_counter(arcs, block->last_pc, block->last.target) +=
                n - block->lazy_counted;
        }
        block->lazy_counted = n;
    }
}
