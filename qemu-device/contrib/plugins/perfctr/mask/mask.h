/*
 * perfctr plugin: stretches with interrupts masked (mask.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_MASK_H
#define PERFCTR_MASK_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "config.h"

/* What the mask needs of the profile, wired by perfctr.c */
typedef struct MaskOps {
    /* The instructions the vCPU has executed (begun, in a callback) */
    uint64_t (*executed)(unsigned vcpu_index);
    /* Whether the vCPU runs an exception handler */
    bool (*in_handler)(unsigned vcpu_index);
    /* Its callback before instruction index of tb reads the time */
    void (*reads_time_before)(struct qemu_plugin_tb *tb, size_t index);
} MaskOps;

void mask_init(const PerfctrConfig *config, const MaskOps *ops);
void mask_vcpu_init(unsigned index);
void mask_instrument(struct qemu_plugin_tb *tb);
void mask_write(FILE *out);

#endif
