/*
 * perfctr plugin: where the exact profile finds the counter of a
 * block's instructions run at a call-tree node
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CHARGES_H
#define PERFCTR_CHARGES_H

#include <stdint.h>

#include "profile/block.h"
#include "profile/pairs.h"

/* Its counters are table's, keyed (node, block's pc) */
void charges_init(PairTable *table);
/* The counter of block's instructions run at node */
uint64_t *charges_counter(const Block *block, uint64_t node);
/* The table was cleared: its counters are forgotten here too */
void charges_clear(void);

#endif
