/*
 * perfctr plugin: counters keyed by a pair of integers
 *
 * The profile's tables (pc samples, charges per call-tree node, call
 * arcs, branches' outcomes) are looked up at every block entry in exact
 * mode, behind caches (a block's, node_index.c): an open-addressing
 * table with the hash inline, where a GHashTable's calls through
 * function pointers cost a third of the run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_PAIRS_H
#define PERFCTR_PAIRS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct PairTable PairTable;

PairTable *pair_table_new(void);
/*
 * The counter of (a, b), created at 0: it stays where it is until the
 * table is cleared (callers keep pointers to it)
 */
uint64_t *pair_counter(PairTable *t, uint64_t a, uint64_t b);
/* Forget every counter */
void pair_table_clear(PairTable *t);
/* Each count of from, at (a, b), added to to's count at (b, 0) */
void pair_table_add_by_b(const PairTable *from, PairTable *to);
/* Write "tag a [b] count" for every counter not 0, sorted by (a, b) */
void pair_table_write(PairTable *t, FILE *out, const char *tag, bool with_b);

#endif
