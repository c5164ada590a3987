/*
 * perfctr plugin: a device's targets on the model's cycles (a
 * threshold, an overflow, QEMU's next timer deadline): where the code
 * checks them (targets.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_TARGETS_H
#define PERFCTR_CYCLES_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <qemu-plugin.h>

#include "events/events.h"

/* The events of the models a device has targets on (bit e for event e) */
uint32_t targets_armed(void);
/* Whether only the cycles have one, and a block's entry can check it */
bool targets_checked_at_entry(void);
/* Count event e's target n nearer, before insn runs */
void targets_count_down(struct qemu_plugin_insn *insn, PerfctrEvent e,
                        uint64_t n);
/* Check the targets before insn (by_insn: reached by insn, the last) */
void targets_check(struct qemu_plugin_insn *insn, uint32_t targets,
                   bool by_insn);
/*
 * At the entry of tb (n instructions of cost[n], all known at
 * translation), whether the cycles' target is reached before its last:
 * QEMU then runs the head up to the instruction that reaches it
 */
void targets_check_at_entry(struct qemu_plugin_tb *tb, const unsigned *cost,
                            size_t n);
/*
 * If tb is the head QEMU runs for a block checked at entry, its costs
 * in the whole block into cost[n]; false if it is not one
 */
bool targets_head_costs(struct qemu_plugin_tb *tb, unsigned *cost, size_t n);

#endif
