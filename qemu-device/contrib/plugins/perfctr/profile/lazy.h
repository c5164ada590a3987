/*
 * perfctr plugin: calls followed lazily, in sampling mode on a Cortex-M
 * or RISC-V (lazy.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_LAZY_H
#define PERFCTR_LAZY_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>
#include <qemu-plugin.h>

#include "config.h"
#include "profile/block.h"
#include "profile/pairs.h"

/*
 * The lazy slot, a word per vCPU: the return address of a call not
 * followed yet, plus LAZY_RETURNED once a return was made after it (or
 * LAZY_RETURNED alone: a return whose call was followed), plus
 * LAZY_FOLLOWED once a block that profile.c follows ended.  Flat
 * (lazy_flat()): the return address of the last call, until its
 * callee's first block clears the slot.
 */
#define LAZY_RETURNED (UINT64_C(1) << 63)
#define LAZY_FOLLOWED (UINT64_C(1) << 62)

/*
 * profile.c's per-vCPU slots (the lazy one, and the block of the return
 * noted there), and its callbacks for a block's entry that follows what
 * the slot notes: as it is, once the block took 1 off it, and (flat) at
 * a call's return address with the call noted: it was not taken
 */
void lazy_init(const PerfctrConfig *config, qemu_plugin_u64 slot,
               qemu_plugin_u64 returned,
               qemu_plugin_vcpu_udata_cb_t entered,
               qemu_plugin_vcpu_udata_cb_t entered_less_one,
               qemu_plugin_vcpu_udata_cb_t not_taken);
/* Whether calls are followed lazily: decided at the first translation */
bool lazy_on(void);
/* ... and only counted, with no call stacks (stacks=flat, a Cortex-M) */
bool lazy_flat(void);

/* At translation, before block is instrumented: is its call lazy */
void lazy_classify(Block *block);
bool lazy_return(const Block *block);
/*
 * The checks at block's entry (calls: it ends in a call, which notes
 * the stack pointer anew), and the notes its last instruction makes
 */
void lazy_instrument_entry(struct qemu_plugin_tb *tb, Block *block,
                           bool calls);
void lazy_instrument_exit(struct qemu_plugin_insn *last, Block *block);

/* The stack pointer of vCPU index's last call, as QEMU noted it */
uint64_t lazy_call_stack_pointer(unsigned index);
/* The lazy call's block that returns to ret (one of them) */
Block *lazy_call_returning_to(uint64_t ret);
/*
 * The lazy calls counted inline since last time, into arcs; with
 * restart, dropped (the arcs start again)
 */
void lazy_count_calls(GPtrArray *blocks, PairTable *arcs, bool restart);

#endif
