/*
 * The A-profile PMU's (PMUv3) common events that the perfctr hook
 * counts exactly (accel/tcg/perfctr-hook.h), beside QEMU's own INST_RETIRED
 * and CPU_CYCLES (target/arm/helper.c):
 *
 *   0x06 LD_RETIRED        loads that pass their condition (the plugin
 *   0x07 ST_RETIRED        counts a load or store when it accesses
 *                          memory; a STREX that fails stores nothing)
 *   0x09 EXC_TAKEN         exceptions and interrupts taken (QEMU's count)
 *   0x0A EXC_RETURN        exception returns executed (QEMU's count, at
 *                          the instruction's helper: those that fail
 *                          their condition do not return)
 *   0x0C PC_WRITE_RETIRED  software changes of the pc: the perfctr
 *                          plugin's taken branches (exception returns
 *                          included, exceptions not; a branch to the
 *                          next instruction does not change it)
 *   0x21 BR_RETIRED        branches that pass their condition, taken or
 *                          not (a CBZ not taken counts, a B<c> that
 *                          fails does not): the plugin's
 *
 * BR_RETURN_RETIRED (returns that pass their condition) is not offered
 * yet (PMCEID, where the core has it, says so).
 *
 * Overflow: the hook calls back right after the instruction whose event
 * wraps a counter (a target armed at the count where it wraps), and the
 * PMU syncs there, so the overflow flag and the PMU interrupt come
 * between that instruction and the next, as for the perf-counter core.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "cpu.h"
#include "accel/tcg/perfctr-hook.h"
#include "pmu-hook-events.h"

#define PMU_EVENT_COUNTERS 31   /* PMEVCNTR0..30 */

static const struct {
    uint16_t number;
    PerfctrEvent hook;
} pmu_hook_events[] = {
    { 0x06, PERFCTR_EVENT_LOADS },
    { 0x07, PERFCTR_EVENT_STORES },
    { 0x09, PERFCTR_EVENT_EXCEPTIONS },
    { 0x0a, PERFCTR_EVENT_EXCEPTION_RETURNS },
    { 0x0c, PERFCTR_EVENT_TAKEN_BRANCHES },
    { 0x21, PERFCTR_EVENT_RETIRED_BRANCHES },
};

typedef struct PmuHookVcpu {
    PerfctrHookClient hook;
    /* Per counter: the hook event it counts, and where it overflows */
    PerfctrEvent event[PMU_EVENT_COUNTERS];
    uint64_t overflow_at[PMU_EVENT_COUNTERS];
} PmuHookVcpu;

static PerfctrEvent pmu_hook_event(uint16_t number)
{
    int i;

    for (i = 0; i < ARRAY_SIZE(pmu_hook_events); i++) {
        if (pmu_hook_events[i].number == number) {
            return pmu_hook_events[i].hook;
        }
    }
    return PERFCTR_EVENT_NONE;
}

/* A counter's hook event wrapped it: the PMU syncs, flags, interrupts */
static void pmu_hook_reached(PerfctrHookClient *client)
{
    CPUState *cs = qemu_get_cpu(client->vcpu_index);

    if (cs) {
        pmu_op_start(cpu_env(cs));
        pmu_op_finish(cpu_env(cs));
    }
}

static PmuHookVcpu *pmu_hook_vcpu(CPUARMState *env)
{
    return container_of(perfctr_hook_client_of(env_cpu(env)->cpu_index,
                                               sizeof(PmuHookVcpu),
                                               pmu_hook_reached),
                        PmuHookVcpu, hook);
}

static bool pmu_hook_supported(PerfctrEvent event)
{
    return perfctr_hook_events() & BIT(event);
}

static uint64_t pmu_hook_count(CPUARMState *env, PerfctrEvent event)
{
    uint64_t count;

    perfctr_hook_read_event(env_cpu(env)->cpu_index, event, &count);
    return count;
}

/* pm_events' two functions for an event the hook counts */
#define PMU_HOOK_EVENT(name, hook_event) \
    bool pmu_hook_##name##_supported(CPUARMState *env) \
    { \
        return pmu_hook_supported(hook_event); \
    } \
    uint64_t pmu_hook_##name##_count(CPUARMState *env) \
    { \
        return pmu_hook_count(env, hook_event); \
    }

PMU_HOOK_EVENT(ld_retired, PERFCTR_EVENT_LOADS)
PMU_HOOK_EVENT(st_retired, PERFCTR_EVENT_STORES)
PMU_HOOK_EVENT(exc_taken, PERFCTR_EVENT_EXCEPTIONS)
PMU_HOOK_EVENT(exc_return, PERFCTR_EVENT_EXCEPTION_RETURNS)
PMU_HOOK_EVENT(pc_write, PERFCTR_EVENT_TAKEN_BRANCHES)
PMU_HOOK_EVENT(br_retired, PERFCTR_EVENT_RETIRED_BRANCHES)

int64_t pmu_hook_ns_per(uint64_t count)
{
    return -1;
}

void pmu_hook_overflow_at(CPUARMState *env, int counter, uint16_t event,
                          uint64_t overflow_at)
{
    PerfctrEvent hook_event = pmu_hook_event(event);
    PmuHookVcpu *v;
    PerfctrHookClient *hook;
    int i;

    if (counter >= PMU_EVENT_COUNTERS) {
        return;
    }
    if (hook_event == PERFCTR_EVENT_NONE) {
        overflow_at = PERFCTR_NEVER;
    }
    v = pmu_hook_vcpu(env);
    /* Called at every change of exception level: most change nothing */
    if (v->event[counter] == hook_event &&
        v->overflow_at[counter] == overflow_at) {
        return;
    }
    v->event[counter] = hook_event;
    v->overflow_at[counter] = overflow_at;

    /* Each event's target: the soonest overflow of its counters */
    hook = &v->hook;
    memset(hook->target, 0xff, sizeof(hook->target));
    hook->want = 0;
    for (i = 0; i < PMU_EVENT_COUNTERS; i++) {
        if (v->event[i] != PERFCTR_EVENT_NONE) {
            hook->want |= BIT(v->event[i]);
            hook->target[v->event[i]] = MIN(hook->target[v->event[i]],
                                            v->overflow_at[i]);
        }
    }
    hook->targeted = hook->want;
    perfctr_hook_arm(hook);
}
