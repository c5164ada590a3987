/*
 * perfctr plugin: the per-vCPU scoreboard of the cycle counting, which
 * cycles.c adds to inline and the callbacks of cycles.c, predictor.c
 * and memory.c add to as they run
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_SLOTS_H
#define PERFCTR_CYCLES_SLOTS_H

#include <stdbool.h>
#include <stdint.h>
#include <qemu-plugin.h>

/*
 * Per-vCPU scoreboard slots, in uint64_t.  The instructions and the
 * windows' counts known at translation are not added here but counted
 * by runs.c and summed when read: these slots hold the callbacks' part
 */
enum {
    SLOT_CYCLES,
    SLOT_INSNS,         /* (runs.c counts the instructions: the sum's place) */
    SLOT_MISS,          /* the destination the last guess did not take */
    SLOT_HIT,           /* the one it took, if the predictor asks */
    SLOT_BRANCH,        /* the predictor's slot for the last branch */
    SLOT_DELTA,         /* what taking it costs more: int32 | window << 32 */
    SLOT_FELL,          /* the pc a block without a branch fell through to */
    SLOT_MEMORY_STALLS, /* cycles beyond the first of loads and stores */
    SLOT_WINDOWS,       /* then cycles and instructions of each window */
};

/* n slots per vCPU, all 0; more_vcpus: several may run */
void cycles_slots_init(unsigned n, bool more_vcpus);
qemu_plugin_u64 cycles_slot(unsigned index);
/* The slots of a vCPU, from a callback: one lookup, then plain adds */
uint64_t *cycles_slots_of(unsigned vcpu);
/*
 * Add cycles to the total and to a window (or -1), from a callback,
 * and count them down to a device's target on them
 */
void cycles_add(unsigned vcpu, uint64_t *slots, int64_t cycles, int window);

#endif
