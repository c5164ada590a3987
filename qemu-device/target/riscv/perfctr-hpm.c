/*
 * RISC-V hardware performance counters mhpmcounter3..31 counting the
 * events of the perfctr hook (accel/tcg/perfctr-hook.h: the perfctr TCG
 * plugin decodes them, QEMU counts the traps), selected with the event
 * encoding of the SiFive E31 Core Complex Manual: mhpmevent bits 7:0 an
 * event class, the bits above a mask of events in it, the counter
 * counting each event of the mask.  Class 0, instruction commit events:
 *
 *   bit  8  exception taken (exceptions and interrupts)
 *   bit  9  integer load retired
 *   bit 10  integer store retired
 *   bit 14  conditional branch retired
 *   bit 15  JAL retired (C.J and C.JAL too)
 *   bit 16  JALR retired (C.JR and C.JALR too)
 *   bit 17  integer multiply retired
 *   bit 18  integer divide retired
 *
 * A selector with another bit (11 atomic, 12 system, 13 integer
 * arithmetic; classes 1 and 2, pipeline and memory-system events, which
 * QEMU does not model) is left to QEMU, whose own events
 * (target/riscv/pmu.c) do not overlap the encoding: the counter then
 * holds its value, as for any event QEMU does not count.
 *
 * Counts are exact: each instruction is counted as it executes, so a
 * read counts everything before the reading instruction.  mcountinhibit
 * stops a counter; the privilege-mode filters of Sscofpmf and its
 * overflow interrupt do not apply to these events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "accel/tcg/perfctr-hook.h"
#include "perfctr-hpm.h"

#define E31_CLASS_MASK 0xffu
#define E31_CLASS_COMMIT 0
/* The event mask: above the class, below Sscofpmf's OF and filter bits */
#define E31_MASK_SHIFT 8
#define E31_MASK_BITS 48

static const PerfctrEvent e31_commit_events[] = {
    [8] = PERFCTR_EVENT_EXCEPTIONS,
    [9] = PERFCTR_EVENT_LOADS,
    [10] = PERFCTR_EVENT_STORES,
    [14] = PERFCTR_EVENT_CONDITIONAL_BRANCHES,
    [15] = PERFCTR_EVENT_DIRECT_JUMPS,
    [16] = PERFCTR_EVENT_INDIRECT_JUMPS,
    [17] = PERFCTR_EVENT_MULTIPLIES,
    [18] = PERFCTR_EVENT_DIVIDES,
};

typedef struct HpmCounter {
    uint32_t events;        /* the hook events counted (bit e); 0: QEMU's */
    uint64_t value;         /* the counter at the last sync */
    uint64_t sum_at_sync;   /* its events' counts summed, then */
} HpmCounter;

typedef struct HpmVcpu {
    PerfctrHookClient hook;
    HpmCounter ctr[RV_MAX_MHPMCOUNTERS];
} HpmVcpu;

static void hpm_reached(PerfctrHookClient *client)
{
    /* No targets are armed: nothing overflows into an interrupt */
}

static HpmVcpu *hpm_vcpu(CPURISCVState *env)
{
    return container_of(perfctr_hook_client_of(env_cpu(env)->cpu_index,
                                               sizeof(HpmVcpu), hpm_reached),
                        HpmVcpu, hook);
}

/* The hook events a selector counts; 0 if not one of the E31 encoding's */
static uint32_t hpm_events_of(uint64_t mhpmevent)
{
    uint64_t mask = extract64(mhpmevent, E31_MASK_SHIFT, E31_MASK_BITS);
    uint32_t events = 0;
    int bit;

    if ((mhpmevent & E31_CLASS_MASK) != E31_CLASS_COMMIT || !mask) {
        return 0;
    }
    for (bit = E31_MASK_SHIFT; mask; bit++, mask >>= 1) {
        if (!(mask & 1)) {
            continue;
        }
        if (bit >= ARRAY_SIZE(e31_commit_events) ||
            e31_commit_events[bit] == PERFCTR_EVENT_NONE) {
            return 0;
        }
        events |= BIT(e31_commit_events[bit]);
    }
    return events;
}

static uint64_t hpm_sum(CPURISCVState *env, uint32_t events)
{
    uint64_t sum = 0, count;
    unsigned e;

    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        if ((events & BIT(e)) &&
            perfctr_hook_read_event(env_cpu(env)->cpu_index, e, &count)) {
            sum += count;
        }
    }
    return sum;
}

/* Bring a counter of hook events up to now */
static HpmCounter *hpm_sync(CPURISCVState *env, uint32_t ctr_idx)
{
    HpmCounter *c = &hpm_vcpu(env)->ctr[ctr_idx];
    uint64_t now;

    if (c->events && !(env->mcountinhibit & BIT(ctr_idx))) {
        now = hpm_sum(env, c->events);
        c->value += now - c->sum_at_sync;
        c->sum_at_sync = now;
    }
    return c;
}

/* Ask the plugin for the events the vCPU's counters count */
static void hpm_want(HpmVcpu *v)
{
    uint32_t want = 0;
    int i;

    for (i = 0; i < RV_MAX_MHPMCOUNTERS; i++) {
        want |= v->ctr[i].events;
    }
    v->hook.want = want;
    perfctr_hook_arm(&v->hook);
}

void riscv_perfctr_hpm_select(CPURISCVState *env, uint32_t ctr_idx,
                              uint64_t mhpmevent)
{
    uint32_t events = hpm_events_of(mhpmevent);
    PMUCTRState *qemu_ctr = &env->pmu_ctrs[ctr_idx];
    HpmCounter *c;
    target_ulong half;
    uint64_t value;

    if (ctr_idx < 3 || ctr_idx >= RV_MAX_MHPMCOUNTERS) {
        return;
    }
    c = hpm_sync(env, ctr_idx);
    if (!events && !c->events) {
        return;
    }
    if (c->events) {
        value = c->value;
    } else {
        /* It goes on from the value QEMU's event left */
        riscv_pmu_read_ctr(env, &half, false, ctr_idx);
        value = half;
        if (riscv_cpu_mxl(env) == MXL_RV32) {
            riscv_pmu_read_ctr(env, &half, true, ctr_idx);
            value = deposit64(value, 32, 32, half);
        }
    }
    c->events = events;
    c->value = value;
    c->sum_at_sync = hpm_sum(env, events);
    if (!events) {
        /* Back to QEMU, which holds the value */
        qemu_ctr->mhpmcounter_val = value;
        qemu_ctr->mhpmcounter_prev = value;
        if (riscv_cpu_mxl(env) == MXL_RV32) {
            qemu_ctr->mhpmcounterh_val = value >> 32;
            qemu_ctr->mhpmcounterh_prev = value >> 32;
        }
    }
    hpm_want(hpm_vcpu(env));
}

/* The counter, brought up to now, if it counts hook events; else NULL */
static HpmCounter *hpm_counting(CPURISCVState *env, uint32_t ctr_idx)
{
    HpmCounter *c;

    if (ctr_idx < 3 || ctr_idx >= RV_MAX_MHPMCOUNTERS) {
        return NULL;
    }
    c = hpm_sync(env, ctr_idx);
    return c->events ? c : NULL;
}

bool riscv_perfctr_hpm_read(CPURISCVState *env, uint32_t ctr_idx,
                            bool upper_half, target_ulong *val)
{
    HpmCounter *c = hpm_counting(env, ctr_idx);

    if (!c) {
        return false;
    }
    *val = upper_half ? c->value >> 32 : c->value;
    return true;
}

bool riscv_perfctr_hpm_write(CPURISCVState *env, uint32_t ctr_idx,
                             bool upper_half, target_ulong val)
{
    HpmCounter *c = hpm_counting(env, ctr_idx);

    if (!c) {
        return false;
    }
    if (upper_half) {
        c->value = deposit64(c->value, 32, 32, val);
    } else if (riscv_cpu_mxl(env) == MXL_RV32) {
        c->value = deposit64(c->value, 0, 32, val);
    } else {
        c->value = val;
    }
    return true;
}

void riscv_perfctr_hpm_inhibit(CPURISCVState *env, target_ulong inhibit)
{
    uint32_t ctr_idx;
    HpmCounter *c;

    for (ctr_idx = 3; ctr_idx < RV_MAX_MHPMCOUNTERS; ctr_idx++) {
        if (!((env->mcountinhibit ^ inhibit) & BIT(ctr_idx))) {
            continue;
        }
        /* Stopping: count up to now; starting: from now */
        c = hpm_sync(env, ctr_idx);
        if (c->events) {
            c->sum_at_sync = hpm_sum(env, c->events);
        }
    }
}
