/*
 * perfctr plugin: the exact profile's counters, indexed per call-tree
 * node (charges.h)
 *
 * Each block caches the counters of the last few nodes it ran at
 * (block.h), but a function that many paths call (an RTOS's queue
 * functions, called by every task) runs each of its blocks at more
 * nodes than that, and the (node, pc) table is too large to stay in
 * the host's cache (FreeRTOS's full demo: 190,000 pairs, a miss in 2
 * of 5 block entries).  So each node keeps the counters of the blocks
 * it ran, in a small open-addressing table of its own that never
 * forgets one: the node that runs is in the cache, and the large table
 * is read once per pair.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "profile/charges.h"

#define FIRST_SLOTS 8

typedef struct Slot {
    const Block *block;     /* NULL: the slot is free */
    uint64_t *count;
} Slot;

typedef struct NodeCharges {
    Slot *slots;
    uint32_t mask;          /* slots - 1 */
    uint32_t used;          /* at most half of them */
} NodeCharges;

static PairTable *table;
static GArray *nodes;       /* NodeCharges by node */

void charges_init(PairTable *pairs)
{
    table = pairs;
    nodes = g_array_new(false, true, sizeof(NodeCharges));
}

static Slot *find(Slot *slots, uint32_t mask, const Block *block)
{
    /* Fibonacci hashing of the address (blocks are g_new'd apart) */
    uint32_t i = ((uintptr_t)block >> 4) * UINT64_C(0x9e3779b97f4a7c15) >>
                 40 & mask;

    while (slots[i].block && slots[i].block != block) {
        i = (i + 1) & mask;
    }
    return &slots[i];
}

static void grow(NodeCharges *c)
{
    Slot *old = c->slots;
    uint32_t i, old_size = c->mask + 1;

    c->mask = 2 * old_size - 1;
    c->slots = g_new0(Slot, 2 * old_size);
    for (i = 0; i < old_size; i++) {
        if (old[i].block) {
            *find(c->slots, c->mask, old[i].block) = old[i];
        }
    }
    g_free(old);
}

uint64_t *charges_counter(const Block *block, uint64_t node)
{
    NodeCharges *c;
    Slot *slot;

    if (node >= nodes->len) {
        g_array_set_size(nodes, node + 1);     /* (cleared) */
    }
    c = &g_array_index(nodes, NodeCharges, node);
    if (!c->slots) {
        c->slots = g_new0(Slot, FIRST_SLOTS);
        c->mask = FIRST_SLOTS - 1;
    }
    slot = find(c->slots, c->mask, block);
    if (slot->block) {
        return slot->count;
    }
    if (2 * (c->used + 1) > c->mask + 1) {
        grow(c);
        slot = find(c->slots, c->mask, block);
    }
    *slot = (Slot) { block, pair_counter(table, node, block->pc) };
    c->used++;
    return slot->count;
}

void charges_clear(void)
{
    guint i;

    for (i = 0; i < nodes->len; i++) {
        g_free(g_array_index(nodes, NodeCharges, i).slots);
    }
    g_array_set_size(nodes, 0);
}
