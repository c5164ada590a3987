/*
 * perfctr plugin: the dynamic branch predictor of the timing models
 * (predictor.c), for cycles.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_PREDICTOR_H
#define PERFCTR_CYCLES_PREDICTOR_H

#include <stdint.h>
#include <qemu-plugin.h>

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
