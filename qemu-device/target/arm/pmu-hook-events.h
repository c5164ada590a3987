/*
 * The A-profile PMU's common events that the perfctr hook counts
 * (pmu-hook-events.c), for target/arm/helper.c's pm_events
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TARGET_ARM_PMU_HOOK_EVENTS_H
#define TARGET_ARM_PMU_HOOK_EVENTS_H

#define PMU_HOOK_EVENT_DECLARE(name) \
    bool pmu_hook_##name##_supported(CPUARMState *env); \
    uint64_t pmu_hook_##name##_count(CPUARMState *env);

PMU_HOOK_EVENT_DECLARE(ld_retired)
PMU_HOOK_EVENT_DECLARE(st_retired)
PMU_HOOK_EVENT_DECLARE(exc_taken)
PMU_HOOK_EVENT_DECLARE(exc_return)
PMU_HOOK_EVENT_DECLARE(pc_write)
PMU_HOOK_EVENT_DECLARE(br_retired)

/* The hook's counts do not follow time: overflow comes by a target */
int64_t pmu_hook_ns_per(uint64_t count);

/*
 * From pmevcntr_op_finish: counter (enabled, counting event) overflows
 * once event's underlying count reaches overflow_at; PERFCTR_NEVER:
 * it is disabled or counts no hook event
 */
void pmu_hook_overflow_at(CPUARMState *env, int counter, uint16_t event,
                          uint64_t overflow_at);

#endif
