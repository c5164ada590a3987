/*
 * perfctr plugin: what the profile charges (charges.h)
 *
 * Exact mode charges every block entered to the node that ran it: each
 * block caches the counters of the last nodes it ran at (block.h), and
 * behind that each node keeps its blocks' counters (node_index.c), as
 * a function that every task calls runs its blocks at more nodes than
 * a block keeps.  A charge the block's cache misses is noted and made
 * later, PENDING_CHARGES at a time: looked up as they came, the nodes'
 * tables were misses of the host's cache (FreeRTOS's full demo, exact
 * with stacks: 15.7 M of 37.0 M block entries), and together they are
 * mostly in it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <string.h>

#include "profile/charges.h"
#include "profile/node_index.h"

static PairTable *charges;      /* (node, pc) -> instructions or samples */
static NodeIndex *counters;     /* exact: (node, block) -> its counter */

void charges_init(void)
{
    charges = pair_table_new();
    counters = node_index_new();
}

void charges_add(uint64_t node, uint64_t pc, int64_t amount)
{
    *pair_counter(charges, node, pc) += amount;
}

/* The counter of block's instructions run at node */
static uint64_t *counter(const Block *block, uint64_t node)
{
    uint64_t *found = node_index_value(counters, node, (uintptr_t)block);

    if (!*found) {
        *found = (uintptr_t)pair_counter(charges, node, block->pc);
    }
    return (uint64_t *)(uintptr_t)*found;
}

#define PENDING_CHARGES 4096

/* A charge the block's cache missed, not made yet */
typedef struct PendingCharge {
    Block *block;
    uint64_t node;
    uint64_t amount;
} PendingCharge;

static PendingCharge pending[PENDING_CHARGES];
static size_t n_pending;

/* The block's cached counter of node, or NULL */
static uint64_t *cached(const Block *block, uint64_t node)
{
    unsigned slot = node % CHARGE_CACHE;

    return block->charged_node[slot] == node ? block->charged[slot] : NULL;
}

/* The block's counter of node, looked up and cached if it is not */
static uint64_t *counter_cached(Block *block, uint64_t node)
{
    unsigned slot = node % CHARGE_CACHE;

    if (block->charged_node[slot] != node || !block->charged[slot]) {
        block->charged[slot] = counter(block, node);
        block->charged_node[slot] = node;
    }
    return block->charged[slot];
}

static void charges_settle(void)
{
    size_t i;

    for (i = 0; i < n_pending; i++) {
        *counter_cached(pending[i].block, pending[i].node) +=
            pending[i].amount;
    }
    n_pending = 0;
}

void charges_block(Block *block, uint64_t node, uint64_t amount)
{
    uint64_t *count = cached(block, node);

    if (count) {
        *count += amount;
        return;
    }
    if (n_pending == PENDING_CHARGES) {
        charges_settle();
    }
    pending[n_pending++] = (PendingCharge) { block, node, amount };
}

void charges_began(Block *block, uint64_t from, uint64_t to)
{
    to = MIN(to, block->n);
    if (from >= to) {
        return;
    }
    if (!from && to == block->n) {
        block->runs++;
        return;
    }
    if (!block->began_from) {
        block->began_from = g_new0(int64_t, block->n + 1);
    }
    block->began_from[from]++;
    block->began_from[to]--;
}

void charges_gather(GPtrArray *blocks, PairTable *histogram)
{
    guint b;
    size_t i;

    for (b = 0; b < blocks->len; b++) {
        Block *block = g_ptr_array_index(blocks, b);
        int64_t partly = 0;         /* the runs of part of it, at i */

        for (i = 0; i < block->n; i++) {
            qemu_plugin_u64 count = { block->counts, i * sizeof(uint64_t) };
            uint64_t n;

            if (block->counts) {
                n = qemu_plugin_u64_sum(count);
            } else {
                partly += block->began_from ? block->began_from[i] : 0;
                n = block->runs + partly;
            }
            if (n) {
                *pair_counter(histogram, block->insn_pc[i], 0) += n;
            }
        }
    }
}

void charges_gather_samples(PairTable *histogram)
{
    pair_table_add_by_b(charges, histogram);
}

void charges_restart(GPtrArray *blocks)
{
    guint b;
    size_t i;
    int vcpu;

    n_pending = 0;
    pair_table_clear(charges);
    node_index_clear(counters);
    for (b = 0; b < blocks->len; b++) {
        Block *block = g_ptr_array_index(blocks, b);

        /* Their cached counters went with the table */
        memset(block->charged, 0, sizeof(block->charged));
        block->runs = 0;
        if (block->began_from) {
            memset(block->began_from, 0, (block->n + 1) * sizeof(int64_t));
        }
        for (i = 0; block->counts && i < block->n; i++) {
            qemu_plugin_u64 count = { block->counts, i * sizeof(uint64_t) };

            for (vcpu = 0; vcpu < qemu_plugin_num_vcpus(); vcpu++) {
                qemu_plugin_u64_set(count, vcpu, 0);
            }
        }
    }
}

void charges_write(FILE *out)
{
    charges_settle();
    pair_table_write(charges, out, "stack", true);
}
