/*
 * perfctr plugin: where a run stops and where its profile starts
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_STOP_H
#define PERFCTR_STOP_H

#include <stdio.h>
#include <qemu-plugin.h>

/* A stop= value; false with *why if it is not one */
bool stop_parse(const char *value, const char **why);
/* A start= value: an address; false if it is not one */
bool stop_parse_start(const char *value);
/* After the arguments; false (with a message) if QEMU cannot stop */
bool stop_init(void);
/* First of all instrumentation: a stop abandons its instruction */
void stop_instrument(struct qemu_plugin_tb *tb);
/* Whether a stop or the start is at pc: counts must be settled before */
bool stop_point(uint64_t pc);
/* What ended the run, what it covered, whether the start was reached */
void stop_write(FILE *out);

#endif
