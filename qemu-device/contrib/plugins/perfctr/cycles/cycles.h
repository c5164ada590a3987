/*
 * perfctr plugin: estimated cycles (a timing model per core)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_H
#define PERFCTR_CYCLES_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "isa/isa.h"

typedef enum CyclesModel {
    CYCLES_OFF,
    CYCLES_M0,          /* Cortex-M0, fast multiplier (microbit) */
    CYCLES_M0_SMALL_MUL, /* Cortex-M0, 32-cycle multiplier */
    CYCLES_M3,          /* Cortex-M3 (mps2-an385) */
    CYCLES_M4,          /* Cortex-M4 (mps2-an386) */
    CYCLES_M7,          /* Cortex-M7 (mps2-an500) */
    CYCLES_M33,         /* Cortex-M33 (mps2-an505) */
    CYCLES_M55,         /* Cortex-M55 (mps3-an547) */
    CYCLES_E31,         /* SiFive E31, for rv32 (riscv32 virt) */
} CyclesModel;

/* The model of name (m0, m3, m7, e31...); false if there is none */
bool cycles_parse_model(const char *name, CyclesModel *model);
/* A window "START-END" (hex or decimal; END excluded); false if bad */
bool cycles_add_window(const char *range);
/* Parse "START-END" the same way; false if bad */
bool cycles_parse_range(const char *range, uint64_t *start, uint64_t *end);

/* False (with a message) if model does not fit the guest's isa */
bool cycles_init(CyclesModel model, Isa isa);
/* A vCPU was created: find the registers the model reads */
void cycles_vcpu_init(unsigned vcpu);
void cycles_instrument(struct qemu_plugin_tb *tb);
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
