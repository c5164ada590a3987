/*
 * perfctr plugin: probes on functions (probe.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_PROBE_H
#define PERFCTR_PROBE_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"
#include "records/stream.h"

/* What the probes need of the profile, wired by perfctr.c */
typedef struct ProbeOps {
    /* The instructions the vCPU has executed (begun, in a callback) */
    uint64_t (*executed)(unsigned vcpu_index);
    /* The id of the context (task, handler) the vCPU runs */
    unsigned (*context)(unsigned vcpu_index);
} ProbeOps;

void probe_init(const PerfctrConfig *config, const ProbeOps *ops);
void probe_vcpu_init(unsigned index);
void probe_instrument(struct qemu_plugin_tb *tb);
/* The vCPU runs another context (task, handler) from now on */
void probe_context_switched(unsigned vcpu_index, unsigned context);
void probe_write(FILE *out);
/* stream.h's writer of the records */
extern const StreamWriter probe_stream;

#endif
