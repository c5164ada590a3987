/*
 * perfctr plugin: event counts for the perf-counter device
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_EVENTS_H
#define PERFCTR_EVENTS_H

#include <qemu-plugin.h>

#include "isa.h"

void events_init(Isa isa, bool with_cycles);
void events_instrument(struct qemu_plugin_tb *tb);

#endif
