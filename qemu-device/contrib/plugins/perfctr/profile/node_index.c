/*
 * perfctr plugin: values per call-tree node (node_index.h)
 *
 * The profile looks up, at every call and (in exact mode) every block
 * entry, something of the node that runs: the child a call site makes,
 * the counter a block's instructions go to.  One table of all the
 * pairs is too large to stay in the host's cache (FreeRTOS's full
 * demo, exact with stacks: 191,800 counters at 25,913 nodes; a block's
 * own cache of 8 nodes missed 14.4 M of 37.0 M times, and the lookups
 * were a third of the run).  Here each node has a small open-addressing
 * table of its own that forgets nothing: the node that runs is in the
 * cache.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <stdbool.h>

#include "profile/node_index.h"

#define FIRST_SLOTS 8

typedef struct Slot {
    uint64_t key;
    uint64_t value;         /* 0: the slot is free */
} Slot;

typedef struct NodeTable {
    Slot *slots;
    uint32_t mask;          /* slots - 1 */
    uint32_t used;          /* at most half of them */
} NodeTable;

struct NodeIndex {
    GArray *nodes;          /* NodeTable by node */
};

NodeIndex *node_index_new(void)
{
    NodeIndex *x = g_new0(NodeIndex, 1);

    x->nodes = g_array_new(false, true, sizeof(NodeTable));
    return x;
}

static Slot *find(Slot *slots, uint32_t mask, uint64_t key)
{
    /* Fibonacci hashing: pcs and addresses differ in their middle bits */
    uint32_t i = (key >> 1) * UINT64_C(0x9e3779b97f4a7c15) >> 40 & mask;

    while (slots[i].value && slots[i].key != key) {
        i = (i + 1) & mask;
    }
    return &slots[i];
}

static void grow(NodeTable *t)
{
    Slot *old = t->slots;
    uint32_t i, old_size = t->mask + 1;

    t->mask = 2 * old_size - 1;
    t->slots = g_new0(Slot, 2 * old_size);
    for (i = 0; i < old_size; i++) {
        if (old[i].value) {
            *find(t->slots, t->mask, old[i].key) = old[i];
        }
    }
    g_free(old);
}

uint64_t *node_index_value(NodeIndex *x, uint64_t node, uint64_t key)
{
    NodeTable *t;
    Slot *slot;

    if (node >= x->nodes->len) {
        g_array_set_size(x->nodes, node + 1);      /* (cleared) */
    }
    t = &g_array_index(x->nodes, NodeTable, node);
    if (!t->slots) {
        t->slots = g_new0(Slot, FIRST_SLOTS);
        t->mask = FIRST_SLOTS - 1;
    }
    slot = find(t->slots, t->mask, key);
    if (slot->value) {
        return &slot->value;
    }
    if (2 * (t->used + 1) > t->mask + 1) {
        grow(t);
        slot = find(t->slots, t->mask, key);
    }
    slot->key = key;
    t->used++;
    return &slot->value;
}

void node_index_clear(NodeIndex *x)
{
    guint i;

    for (i = 0; i < x->nodes->len; i++) {
        g_free(g_array_index(x->nodes, NodeTable, i).slots);
    }
    g_array_set_size(x->nodes, 0);
}
