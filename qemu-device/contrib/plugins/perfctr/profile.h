/*
 * perfctr plugin: where the time goes (PC histogram, call stacks, arcs)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_PROFILE_H
#define PERFCTR_PROFILE_H

#include <stdio.h>
#include <qemu-plugin.h>

#include "isa.h"

typedef struct ProfileConfig {
    Isa isa;
    uint64_t period;        /* sample every period instructions; 0: exact */
    bool stacks;            /* track calls and returns */
    bool threads;           /* vCPUs may run at once: lock shared tables */
} ProfileConfig;

void profile_init(const ProfileConfig *config);
void profile_vcpu_init(unsigned index);
void profile_instrument(struct qemu_plugin_tb *tb);
/* Profile from now on, forgetting what was counted (start=) */
void profile_restart(void);
void profile_write(FILE *out);

#endif
