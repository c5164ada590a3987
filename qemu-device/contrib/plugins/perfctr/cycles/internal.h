/*
 * perfctr plugin: what cycles.c shares with the parts of the cycle
 * counting in files of their own (predictor.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_INTERNAL_H
#define PERFCTR_CYCLES_INTERNAL_H

#include <stdint.h>
#include <qemu-plugin.h>

#define NO_PC UINT64_MAX

/* Per-vCPU scoreboard slots, in uint64_t */
enum {
    SLOT_CYCLES,
    SLOT_INSNS,
    SLOT_MISS,          /* the destination the last guess did not take */
    SLOT_HIT,           /* the one it took, if the predictor asks */
    SLOT_BRANCH,        /* the predictor's slot for the last branch */
    SLOT_DELTA,         /* what taking it costs more: int32 | window << 32 */
    SLOT_FELL,          /* the pc a block without a branch fell through to */
    SLOT_MEMORY_STALLS, /* cycles beyond the first of loads and stores */
    SLOT_WINDOWS,       /* then cycles and instructions of each window */
};

qemu_plugin_u64 cycles_slot(unsigned index);
/* The slots of a vCPU, from a callback: one lookup, then plain adds */
uint64_t *cycles_slots_of(unsigned vcpu);
/* Add cycles to the total and to a window (or -1), from a callback */
void cycles_add(unsigned vcpu, uint64_t *slots, int64_t cycles, int window);

/* The dynamic branch predictor (predictor.c) */

/* Its table starts at slot first; the number of slots it takes */
unsigned predictor_slots(unsigned first);
/* last, a conditional branch whose static guess goes to guessed */
void predictor_instrument_branch(struct qemu_plugin_insn *last,
                                 uint64_t guessed);
void predictor_instrument_entry(struct qemu_plugin_tb *tb);
/* The last branch went against its static guess: charge and learn */
void predictor_other_way(unsigned vcpu, uint64_t *slots);
void predictor_left_code(unsigned vcpu, uint64_t pc);

#endif
