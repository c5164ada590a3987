/*
 * perfctr plugin: where a run stops and where its profile starts
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_STOP_H
#define PERFCTR_STOP_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"

/*
 * What reaching start= does (perfctr.c's: restart the profile and the
 * cycles), called in vCPU index's running block, not_begun of whose
 * instructions have not begun
 */
typedef void (*StopStarted)(unsigned vcpu_index, uint64_t not_begun);

/* Arm config's stops; false (with a message) if QEMU cannot stop */
bool stop_init(const PerfctrConfig *config, StopStarted started);
/* First of all instrumentation: a stop abandons its instruction */
void stop_instrument(struct qemu_plugin_tb *tb);
/* What ended the run, what it covered, whether the start was reached */
void stop_write(FILE *out);

#endif
