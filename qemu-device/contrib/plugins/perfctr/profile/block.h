/*
 * perfctr plugin: a translated block, as the profiler (profile.c) and
 * its lazy following of calls (lazy.c) need it
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_BLOCK_H
#define PERFCTR_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <qemu-plugin.h>

#include "isa/isa.h"

#define CHARGE_CACHE 8
#define CALLEE_CACHE 4

/* A translated block, as the profiler needs it */
/*
 * What leaving a block reads comes first, the last instruction's pc and
 * the next one's with it: a program of many small functions leaves
 * blocks whose struct is not in the host's cache, and each further
 * line read (the per-instruction arrays) was a miss of its own
 */
typedef struct Block {
    uint64_t pc;
    size_t n;
    uint64_t last_pc;               /* its last instruction's */
    uint64_t last_fall;             /* the pc after that one */
    InsnClass last;                 /* of the last instruction */
    SpWrite sp_last;                /* what its last instruction does */
    uint64_t callee;                /* its call went to */
    uint64_t *calls;
    /*
     * The nodes its call made, by the calling node's low bits: a
     * function called from several tasks or callers calls from a node
     * of each
     */
    uint64_t caller_node[CALLEE_CACHE];
    uint64_t callee_node[CALLEE_CACHE];
    uint64_t *insn_pc;
    uint8_t *insn_len;
    struct qemu_plugin_scoreboard *counts;  /* exact mode: per insn */
    /*
     * Or, when each block entry calls back (exact mode with call
     * stacks): its runs whole, and the runs of part of it, by where
     * they began (+1) and ended (-1)
     */
    uint64_t runs;
    int64_t *began_from;
    /*
     * Caches of the tables' entries this block used last: the nodes its
     * instructions were charged to, by the node's low bits (a recursive
     * function's blocks run at a node per depth)
     */
    uint64_t charged_node[CHARGE_CACHE];
    uint64_t *charged[CHARGE_CACHE];
    uint64_t *outcomes[2];          /* its branch not taken, taken */
    bool lazy_call;                 /* its call is followed lazily (lazy.c) */
    /* That call's executions, and those already added to the arcs */
    struct qemu_plugin_scoreboard *lazy_calls;
    uint64_t lazy_counted;
} Block;

#endif
