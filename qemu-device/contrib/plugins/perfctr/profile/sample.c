/*
 * perfctr plugin: the profile's samples (profile=N)
 *
 * Each block entered adds its instruction count to its vCPU's ticks
 * (profile.c), and a block whose entry takes the ticks to the next
 * sample (a conditional callback) takes the sample at the instruction
 * where they reach it, tentatively: if the block is left before that
 * instruction begins, the sample is undone.  So samples fall on exact
 * instruction boundaries and do not depend on the host, at the cost of
 * one inline add and one comparison per block.
 *
 * Sample k is taken at instruction k * period + U_k, with U_k drawn
 * evenly from [0, period) by a fixed pseudo-random sequence (jittered
 * systematic sampling): one sample per period, as many as with a fixed
 * period, every run draws the same ones, and they cannot lock onto a
 * periodic interrupt whose period is a multiple of the sampling period
 * (which would sample its handler always or never).  A sample counts
 * its pc in the histogram or, with call stacks, its pc at the call
 * stack's node (charges.c), from which the histogram is summed when it
 * is written: one table's counter per sample, not two.
 *
 * A sample is not counted as it is taken but noted, where it fell (its
 * instruction's entry in the block's pcs) and its node, and counted
 * PENDING_SAMPLES at a time, or before the profile is written.  Taken
 * 1,000 instructions apart, each sample's pc, table slot and counter
 * were misses of the host's cache (0.87 us a sample on many_functions.c,
 * two thirds of it on those three); counted together, the table is
 * mostly in the cache.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "profile/charges.h"
#include "profile/sample.h"

#define PENDING_SAMPLES 4096

/* A sample taken, not counted yet */
typedef struct PendingSample {
    const uint64_t *pc;     /* in its block's insn_pc */
    uint64_t node;          /* of the call stack (with stacks) */
} PendingSample;

/* A sample taken at a block's entry, undone if the block is left early */
typedef struct Tentative {
    size_t insn;            /* in the block */
    uint64_t gap;           /* the ticks it deferred the next sample by */
    uint64_t offset, random;    /* the sampling state before it */
} Tentative;

static const PerfctrConfig *config;
static PairTable *histogram;
static qemu_plugin_u64 ticks;
/* A sample is taken when the ticks reach 2 * period */
static uint64_t sample_at;

void sample_init(const PerfctrConfig *cfg, PairTable *samples,
                 qemu_plugin_u64 vcpu_ticks)
{
    config = cfg;
    histogram = samples;
    ticks = vcpu_ticks;
    sample_at = 2 * config->period;
}

void sample_vcpu_new(Vcpu *v, unsigned n)
{
    v->random = UINT64_C(0x9e3779b97f4a7c15) + n;
    v->tentative = g_array_new(false, false, sizeof(Tentative));
    v->pending = g_new(PendingSample, PENDING_SAMPLES);
}

/* Count pc at node (ignored without stacks) by amount */
static void count_sample(uint64_t pc, uint64_t node, int64_t amount)
{
    if (config->stacks) {
        charges_add(node, pc, amount);
    } else {
        *pair_counter(histogram, pc, 0) += amount;
    }
}

void sample_vcpu_count(Vcpu *v)
{
    size_t i;

    for (i = 0; i < v->n_pending; i++) {
        count_sample(*v->pending[i].pc, v->pending[i].node, 1);
    }
    v->n_pending = 0;
}

/* The next sample's offset into its period */
static uint64_t next_offset(Vcpu *v)
{
    v->random ^= v->random << 13;
    v->random ^= v->random >> 7;
    v->random ^= v->random << 17;
    return v->random % config->period;
}

void sample_vcpu_start(Vcpu *v)
{
    /* The first sample at instruction U_0 + 1 (counting from 1) */
    v->offset = next_offset(v);
    v->inline_state->ticks = sample_at - v->offset - 1;
    v->consumed = -v->inline_state->ticks;      /* none executed */
}

/* Take gap instructions off the ticks: the next sample is gap later */
static void defer_sample(Vcpu *v, uint64_t gap)
{
    v->inline_state->ticks -= gap;
    v->consumed += gap;
}

/* Draw the next sample's offset; the gap it is deferred by */
static uint64_t next_sample(Vcpu *v)
{
    uint64_t offset = next_offset(v);
    uint64_t gap = config->period + offset - v->offset;

    defer_sample(v, gap);
    v->offset = offset;
    return gap;
}

/* The node a sample of v counts at (0 without call stacks) */
static uint64_t sample_node(const Vcpu *v)
{
    return config->stacks ? v->calls->node : 0;
}

/* Take a sample at *pc (an entry of a block's insn_pc), noted */
static uint64_t take_sample(Vcpu *v, const uint64_t *pc)
{
    uint64_t node = sample_node(v);

    if (v->n_pending == PENDING_SAMPLES) {
        sample_vcpu_count(v);
    }
    v->pending[v->n_pending++] = (PendingSample) { pc, node };
    return next_sample(v);
}

/* Under a QEMU without the hook: at the instruction at pc (udata) */
static void sample(unsigned index, void *udata)
{
    Vcpu *v;

    profile_enter();
    v = profile_vcpu(index);
    count_sample((uintptr_t)udata, sample_node(v), 1);
    next_sample(v);
    profile_leave();
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

    profile_enter();
    v = profile_vcpu(index);
    profile_follow_before_sample(v, index, block);
    g_array_set_size(v->tentative, 0);
    while (v->inline_state->ticks >= sample_at) {
        uint64_t before = v->inline_state->ticks - block->n;
        Tentative t = {
            .insn = sample_at - 1 - before,
            .offset = v->offset,
            .random = v->random,
        };

        t.gap = take_sample(v, &block->insn_pc[t.insn]);
        g_array_append_val(v->tentative, t);
    }
    v->sampled = block;
    v->sampled_ticks = v->inline_state->ticks;
    profile_leave();
}

/* Undo a sample taken at the entry of block */
static void undo_sample(Vcpu *v, Block *block, const Tentative *t)
{
    const uint64_t *pc = &block->insn_pc[t->insn];
    uint64_t node = sample_node(v);

    if (v->n_pending && v->pending[v->n_pending - 1].pc == pc &&
        v->pending[v->n_pending - 1].node == node) {
        v->n_pending--;
    } else {
        count_sample(*pc, node, -1);    /* (counted since) */
    }
    v->inline_state->ticks += t->gap;
    v->consumed -= t->gap;
    v->offset = t->offset;
    v->random = t->random;
}

void sample_block_left(Vcpu *v, uint64_t not_begun)
{
    GArray *tentative = v->tentative;

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
}

void sample_instrument_block(struct qemu_plugin_tb *tb, Block *block,
                             bool regs)
{
    qemu_plugin_register_vcpu_tb_exec_cond_cb(
        tb, sample_block,
        regs ? QEMU_PLUGIN_CB_R_REGS : QEMU_PLUGIN_CB_NO_REGS,
        QEMU_PLUGIN_COND_GE, ticks, sample_at, block);
}

void sample_instrument_insn(struct qemu_plugin_insn *insn, uint64_t pc)
{
    qemu_plugin_register_vcpu_insn_exec_cond_cb(
        insn, sample, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_GE,
        ticks, sample_at, (void *)(uintptr_t)pc);
}
