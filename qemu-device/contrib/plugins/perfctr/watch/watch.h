/*
 * perfctr plugin: stores watched (watch.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_WATCH_H
#define PERFCTR_WATCH_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"
#include "records/stream.h"

/* What the watch needs of the profile, wired by perfctr.c */
typedef struct WatchOps {
    /* The instructions the vCPU has executed (begun, in a callback) */
    uint64_t (*executed)(unsigned vcpu_index);
    /* The id of the context (task, handler) the vCPU runs */
    unsigned (*context)(unsigned vcpu_index);
    /* The timing model's cycles so far; NULL without a model */
    uint64_t (*cycles)(unsigned vcpu_index);
} WatchOps;

void watch_init(const PerfctrConfig *config, const WatchOps *ops);
void watch_instrument(struct qemu_plugin_tb *tb);
void watch_write(FILE *out);
/* stream.h's writer of the records */
extern const StreamWriter watch_stream;

#endif
