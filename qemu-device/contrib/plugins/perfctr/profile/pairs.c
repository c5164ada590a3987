/*
 * perfctr plugin: counters keyed by a pair of integers (see pairs.h)
 *
 * Linear probing in a power-of-two array of slots, at most half full.
 * The counts live apart from the slots, in chunks that never move, so
 * that growing the table leaves the callers' pointers good.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/pairs.h"

#define FIRST_SLOTS 1024
#define CHUNK_COUNTS 4096

typedef struct Slot {
    uint64_t a, b;
    uint64_t *count;        /* NULL: the slot is free */
} Slot;

struct PairTable {
    Slot *slots;
    size_t mask;            /* slots - 1 */
    size_t used;
    GPtrArray *chunks;      /* of CHUNK_COUNTS counts each */
    size_t counts;          /* handed out from the chunks */
};

static size_t pair_hash(uint64_t a, uint64_t b)
{
    /* splitmix64's finaliser over both */
    uint64_t x = a * UINT64_C(0x9e3779b97f4a7c15) ^ b;

    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

PairTable *pair_table_new(void)
{
    PairTable *t = g_new0(PairTable, 1);

    t->slots = g_new0(Slot, FIRST_SLOTS);
    t->mask = FIRST_SLOTS - 1;
    t->chunks = g_ptr_array_new_with_free_func(g_free);
    return t;
}

static Slot *find(Slot *slots, size_t mask, uint64_t a, uint64_t b)
{
    size_t i = pair_hash(a, b) & mask;

    while (slots[i].count && (slots[i].a != a || slots[i].b != b)) {
        i = (i + 1) & mask;
    }
    return &slots[i];
}

static void grow(PairTable *t)
{
    size_t old_size = t->mask + 1, i;
    Slot *old = t->slots;

    t->mask = 2 * old_size - 1;
    t->slots = g_new0(Slot, 2 * old_size);
    for (i = 0; i < old_size; i++) {
        if (old[i].count) {
            *find(t->slots, t->mask, old[i].a, old[i].b) = old[i];
        }
    }
    g_free(old);
}

static uint64_t *new_count(PairTable *t)
{
    size_t chunk = t->counts / CHUNK_COUNTS;
    uint64_t *count;

    if (chunk == t->chunks->len) {
        g_ptr_array_add(t->chunks, g_new(uint64_t, CHUNK_COUNTS));
    }
    count = (uint64_t *)g_ptr_array_index(t->chunks, chunk) +
            t->counts % CHUNK_COUNTS;
    t->counts++;
    *count = 0;
    return count;
}

uint64_t *pair_counter(PairTable *t, uint64_t a, uint64_t b)
{
    Slot *slot = find(t->slots, t->mask, a, b);

    if (slot->count) {
        return slot->count;
    }
    if (2 * (t->used + 1) > t->mask + 1) {
        grow(t);
        slot = find(t->slots, t->mask, a, b);
    }
    *slot = (Slot) { a, b, new_count(t) };
    t->used++;
    return slot->count;
}

void pair_table_clear(PairTable *t)
{
    memset(t->slots, 0, (t->mask + 1) * sizeof(Slot));
    t->used = 0;
    t->counts = 0;          /* the chunks are used again */
}

void pair_table_add_by_b(const PairTable *from, PairTable *to)
{
    size_t i;

    for (i = 0; i <= from->mask; i++) {
        const Slot *slot = &from->slots[i];

        if (slot->count && *slot->count) {
            *pair_counter(to, slot->b, 0) += *slot->count;
        }
    }
}

static gint by_pair(gconstpointer x, gconstpointer y)
{
    const Slot *p = x, *q = y;

    if (p->a != q->a) {
        return p->a < q->a ? -1 : 1;
    }
    return p->b < q->b ? -1 : p->b > q->b;
}

void pair_table_write(PairTable *t, FILE *out, const char *tag, bool with_b)
{
    g_autofree Slot *sorted = NULL;
    size_t i, n = 0;

    if (!t->used) {
        return;
    }
    sorted = g_new(Slot, t->used);
    for (i = 0; i <= t->mask; i++) {
        if (t->slots[i].count && *t->slots[i].count) {
            sorted[n++] = t->slots[i];
        }
    }
    qsort(sorted, n, sizeof(Slot), by_pair);
    for (i = 0; i < n; i++) {
        if (with_b) {
            fprintf(out, "%s 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n",
                    tag, sorted[i].a, sorted[i].b, *sorted[i].count);
        } else {
            fprintf(out, "%s 0x%" PRIx64 " %" PRIu64 "\n",
                    tag, sorted[i].a, *sorted[i].count);
        }
    }
}
