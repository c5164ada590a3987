/*
 * perfctr plugin: a map from (call-tree node, key) to a value, kept per
 * node, for what is looked up at the node that runs (see node_index.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_NODE_INDEX_H
#define PERFCTR_NODE_INDEX_H

#include <stdint.h>

typedef struct NodeIndex NodeIndex;

NodeIndex *node_index_new(void);
/*
 * The value of (node, key), 0 until the caller stores another there,
 * which it must do before the next call (0 marks a free slot)
 */
uint64_t *node_index_value(NodeIndex *x, uint64_t node, uint64_t key);
/* Forget every value */
void node_index_clear(NodeIndex *x);

#endif
