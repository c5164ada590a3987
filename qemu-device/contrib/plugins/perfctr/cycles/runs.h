/*
 * perfctr plugin: the instructions and the windows' counts known at
 * translation, summed when read (runs.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_RUNS_H
#define PERFCTR_CYCLES_RUNS_H

#include <stdint.h>
#include <qemu-plugin.h>

#include "config.h"

void runs_init(const PerfctrConfig *cfg);
/*
 * Before insn runs: insns instructions, and cycles and insns in window
 * (or -1), counted each time it does
 */
void runs_count(struct qemu_plugin_insn *insn, int window, uint64_t cycles,
                uint64_t insns);
/*
 * Add what the runs counted so far (all vCPUs) to *insns, and to each
 * window's cycles and instructions, windows[2 * w] and windows[2 * w + 1]
 */
void runs_add_sums(uint64_t *insns, uint64_t *windows);

#endif
