/*
 * perfctr plugin: the profile's samples, where they fall and what each
 * counts (sample.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_SAMPLE_H
#define PERFCTR_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <qemu-plugin.h>

#include "config.h"
#include "profile/block.h"
#include "profile/pairs.h"
#include "profile/vcpu.h"

/*
 * Samples go to histogram ((pc, 0) -> samples), or with call stacks to
 * the charges (profile.c sums them into it); ticks: the vCPUs'
 */
void sample_init(const PerfctrConfig *config, PairTable *histogram,
                 qemu_plugin_u64 ticks);
/* A new vCPU's state, the nth */
void sample_vcpu_new(Vcpu *v, unsigned n);
/* Before the vCPU's first instruction: its ticks to the first sample */
void sample_vcpu_start(Vcpu *v);

/*
 * The check for a sample at block's entry, after its instructions are
 * added to the ticks (reading the registers if regs: it also follows)
 */
void sample_instrument_block(struct qemu_plugin_tb *tb, Block *block,
                             bool regs);
/* Under a QEMU without the hook: the check before each instruction */
void sample_instrument_insn(struct qemu_plugin_insn *insn, uint64_t pc);

/* Count the samples v took that are not counted yet (before a write) */
void sample_vcpu_count(Vcpu *v);

/*
 * The block v entered last was left with not_begun of its instructions
 * not begun: the samples taken there at its entry are undone
 */
void sample_block_left(Vcpu *v, uint64_t not_begun);

#endif
