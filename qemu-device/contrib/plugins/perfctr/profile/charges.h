/*
 * perfctr plugin: what the profile charges, per call-tree node and pc
 * (instructions in exact mode, samples in sampling mode), and in exact
 * mode each instruction's executions
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CHARGES_H
#define PERFCTR_CHARGES_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/block.h"
#include "profile/pairs.h"

void charges_init(void);
/* Sampling: a sample at pc with the call stack node, or one undone */
void charges_add(uint64_t node, uint64_t pc, int64_t amount);
/* Exact: amount instructions of block ran at node */
void charges_block(Block *block, uint64_t node, uint64_t amount);
/*
 * Exact, when each block entry calls back: block's instructions from up
 * to (not with) to began once more (else they count themselves inline,
 * in block->counts)
 */
void charges_began(Block *block, uint64_t from, uint64_t to);
/* Exact: every block's instructions' executions, by pc, into histogram */
void charges_gather(GPtrArray *blocks, PairTable *histogram);
/* Sampling with call stacks: the samples by pc, into histogram */
void charges_gather_samples(PairTable *histogram);
/* The profile starts again: every count forgotten, the blocks' too */
void charges_restart(GPtrArray *blocks);
/* Write "stack node pc count" for every count not 0 */
void charges_write(FILE *out);

#endif
