/*
 * perfctr plugin: estimated cycles (a timing model per core)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_H
#define PERFCTR_CYCLES_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"

/* The model of name (m0, m3, m7, e31...); false if there is none */
bool cycles_model_named(const char *name, CyclesModel *model);

/*
 * Count with config->cycles_model; false (with a message) if it does
 * not fit the guest's isa or the memory
 */
bool cycles_init(const PerfctrConfig *config);
/* A vCPU was created: find the registers the model reads */
void cycles_vcpu_init(unsigned vcpu);
/*
 * Before anything instruments tb (stops included), then before the
 * events and the profile, then after them
 */
void cycles_instrument_entry(struct qemu_plugin_tb *tb);
void cycles_instrument_first(struct qemu_plugin_tb *tb);
void cycles_instrument(struct qemu_plugin_tb *tb);
/*
 * A callback before instruction index of tb, being translated, reads
 * the cycles (between cycles_instrument_first() and cycles_instrument())
 */
void cycles_read_before(struct qemu_plugin_tb *tb, size_t index);
/* Estimated cycles of vcpu_index so far (exact during an access) */
uint64_t cycles_read(unsigned vcpu_index);
/* Of them, those beyond the first of its loads and stores */
uint64_t cycles_read_memory_stalls(unsigned vcpu_index);
/* The vCPU left translated code and resumes at pc: settle the guess */
void cycles_left_code(unsigned vcpu_index, uint64_t pc);
/* Count the totals written at exit from now on (start=) */
void cycles_restart(void);
void cycles_write(FILE *out);

#endif
