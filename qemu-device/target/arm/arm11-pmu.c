/*
 * ARM1176 performance monitor: the Performance Monitor Control Register
 * (PMNC, c15, c12, 0), the Cycle Counter Register (CCNT, c15, c12, 1),
 * Count Registers 0 and 1 (c15, c12, 2 and 3), and the Secure User and
 * Non-secure Access Validation Control Register (c15, c9, 0), as the
 * ARM1176JZF-S Technical Reference Manual (ARM DDI 0301H, 3.2.49-3.2.53)
 * describes them.
 *
 * Counted exactly: the cycle count (CCNT and event 0xFF) is virtual time
 * at 1 GHz, as for QEMU's other Arm PMUs, which is one cycle per
 * instruction under -icount shift=0; instructions executed (event 0x07)
 * are the instructions QEMU retires, under -icount only (without it the
 * event reads 0).  Branches executed (0x05), software changes of the PC
 * (0x0D), procedure calls (0x23) and returns (0x24) are the perfctr
 * hook's branches, taken branches, calls and returns
 * (accel/tcg/perfctr-hook.h: the perfctr TCG plugin decodes them, in
 * one place for every target); without the plugin they read 0.  Every
 * other event (caches, TLBs, stalls, prediction, the ETM inputs) reads
 * 0: QEMU does not model what they count.  EVNTBUS and the ETM are not
 * modelled: the X bit only reads back.
 *
 * Overflow interrupts (nPMUIRQ) go to the CPU's "pmu-interrupt" output;
 * the board wires it where its interrupt controller can take it.  Each
 * is signalled at the instruction where its counter wraps: a
 * virtual-clock timer for cycles and instructions, a target armed with
 * the hook for the events the plugin counts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "cpu.h"
#include "cpregs.h"
#include "internals.h"
#include "hw/irq.h"
#include "hw/registerfields.h"
#include "system/cpu-timers.h"
#include "migration/vmstate.h"
#include "accel/tcg/perfctr-hook.h"
#include "arm11-pmu.h"

FIELD(PMNC, E, 0, 1)
FIELD(PMNC, P, 1, 1)
FIELD(PMNC, C, 2, 1)
FIELD(PMNC, D, 3, 1)
FIELD(PMNC, ECR0, 4, 1)
FIELD(PMNC, ECR1, 5, 1)
FIELD(PMNC, ECC, 6, 1)
FIELD(PMNC, CR0, 8, 1)
FIELD(PMNC, CR1, 9, 1)
FIELD(PMNC, CCR, 10, 1)
FIELD(PMNC, X, 11, 1)
FIELD(PMNC, EVTCOUNT1, 12, 8)
FIELD(PMNC, EVTCOUNT0, 20, 8)

FIELD(ACCESS_VALIDATION, V, 0, 1)

/* Interrupt enables [6:4] and overflow flags [10:8], in the same order */
#define PMNC_INTEN_MASK (R_PMNC_ECR0_MASK | R_PMNC_ECR1_MASK | R_PMNC_ECC_MASK)
#define PMNC_FLAGS_MASK (R_PMNC_CR0_MASK | R_PMNC_CR1_MASK | R_PMNC_CCR_MASK)
#define PMNC_FLAGS_TO_INTEN 4
/* What reads back as written; P and C act and read 0 */
#define PMNC_RW_MASK (R_PMNC_E_MASK | R_PMNC_D_MASK | PMNC_INTEN_MASK | \
                      R_PMNC_X_MASK | R_PMNC_EVTCOUNT1_MASK | \
                      R_PMNC_EVTCOUNT0_MASK)

/* Table 3-137: the events counted here */
#define EVT_BRANCH 0x05
#define EVT_INSTRUCTION 0x07
#define EVT_PC_CHANGE 0x0d
#define EVT_CALL 0x23
#define EVT_RETURN 0x24
#define EVT_CYCLE 0xff

/* With D set, CCNT counts every 64th cycle */
#define CCNT_DIVIDER 64
#define COUNTER_RANGE (UINT64_C(1) << 32)

/*
 * The events that the perfctr hook counts (docs/arm11-pmu.md says what
 * each counts).  0x0D is the taken branches: exceptions change the mode,
 * so they are not software changes of the PC.
 */
static const struct {
    uint32_t event;
    PerfctrEvent hook;
} arm11_pmu_hook_events[] = {
    { EVT_BRANCH, PERFCTR_EVENT_BRANCHES },
    { EVT_PC_CHANGE, PERFCTR_EVENT_TAKEN_BRANCHES },
    { EVT_CALL, PERFCTR_EVENT_CALLS },
    { EVT_RETURN, PERFCTR_EVENT_RETURNS },
};

static PerfctrEvent arm11_pmu_hook_event(uint32_t event)
{
    int i;

    for (i = 0; i < ARRAY_SIZE(arm11_pmu_hook_events); i++) {
        if (arm11_pmu_hook_events[i].event == event) {
            return arm11_pmu_hook_events[i].hook;
        }
    }
    return PERFCTR_EVENT_NONE;
}

typedef struct Arm11PmuSources {
    uint64_t cycles;
    uint64_t insns;
    uint64_t events[PERFCTR_EVENT_COUNT];   /* arm11_pmu_hook_events */
} Arm11PmuSources;

static void arm11_pmu_sources(ARMCPU *cpu, Arm11PmuSources *now)
{
    int i;

    now->cycles = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    now->insns = icount_enabled() ? icount_get_raw() : 0;
    memset(now->events, 0, sizeof(now->events));
    for (i = 0; i < ARRAY_SIZE(arm11_pmu_hook_events); i++) {
        PerfctrEvent e = arm11_pmu_hook_events[i].hook;

        /* 0 without the plugin */
        perfctr_hook_read_event(CPU(cpu)->cpu_index, e, &now->events[e]);
    }
}

static uint64_t arm11_pmu_event_delta(uint32_t event,
                                      const Arm11PmuSources *delta)
{
    switch (event) {
    case EVT_CYCLE:
        return delta->cycles;
    case EVT_INSTRUCTION:
        return delta->insns;
    default:
        return delta->events[arm11_pmu_hook_event(event)];
    }
}

/* Add n to a 32-bit counter; set flag in PMNC if it wrapped */
static void arm11_pmu_add(CPUARMState *env, uint32_t *counter, uint64_t n,
                          uint32_t flag)
{
    if (*counter + n >= COUNTER_RANGE) {
        env->arm11_pmu.pmnc |= flag;
    }
    *counter += n;
}

/*
 * Bring the counters up to now: what happened since the last sync is
 * counted if E was set all along (every change of E syncs first).
 */
static void arm11_pmu_sync(ARMCPU *cpu)
{
    CPUARMState *env = &cpu->env;
    Arm11PmuSources now, delta;
    uint32_t pmnc = env->arm11_pmu.pmnc;
    uint64_t steps;
    unsigned e;

    arm11_pmu_sources(cpu, &now);
    delta.cycles = now.cycles - env->arm11_pmu.cycles_at_sync;
    delta.insns = now.insns - env->arm11_pmu.insns_at_sync;
    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        delta.events[e] = now.events[e] - env->arm11_pmu.events_at_sync[e];
    }
    env->arm11_pmu.cycles_at_sync = now.cycles;
    env->arm11_pmu.insns_at_sync = now.insns;
    memcpy(env->arm11_pmu.events_at_sync, now.events, sizeof(now.events));

    if (!FIELD_EX32(pmnc, PMNC, E)) {
        return;
    }
    steps = delta.cycles;
    if (FIELD_EX32(pmnc, PMNC, D)) {
        steps += env->arm11_pmu.prescale;
        env->arm11_pmu.prescale = steps % CCNT_DIVIDER;
        steps /= CCNT_DIVIDER;
    }
    arm11_pmu_add(env, &env->arm11_pmu.ccnt, steps, R_PMNC_CCR_MASK);
    arm11_pmu_add(env, &env->arm11_pmu.count[0],
                  arm11_pmu_event_delta(FIELD_EX32(pmnc, PMNC, EVTCOUNT0),
                                        &delta),
                  R_PMNC_CR0_MASK);
    arm11_pmu_add(env, &env->arm11_pmu.count[1],
                  arm11_pmu_event_delta(FIELD_EX32(pmnc, PMNC, EVTCOUNT1),
                                        &delta),
                  R_PMNC_CR1_MASK);
}

/*
 * The earliest virtual time at which a counter may overflow, in ns from
 * now, or -1 if time does not tell (a hook event, see arm11_pmu_arm_hook)
 * or never (no event).
 */
static int64_t arm11_pmu_event_overflow_ns(uint32_t event, uint32_t count)
{
    uint64_t left = COUNTER_RANGE - count;

    switch (event) {
    case EVT_CYCLE:
        return left;
    case EVT_INSTRUCTION:
        /* No sooner than one instruction per 2^shift ns */
        return icount_enabled() ? icount_to_ns(left) : -1;
    default:
        return -1;
    }
}

static void arm11_pmu_schedule(ARMCPU *cpu)
{
    CPUARMState *env = &cpu->env;
    uint32_t pmnc = env->arm11_pmu.pmnc;
    int64_t when[3], soonest = -1;
    int i;

    if (!cpu->pmu_timer) {
        return;
    }
    timer_del(cpu->pmu_timer);
    if (!FIELD_EX32(pmnc, PMNC, E)) {
        return;
    }
    when[0] = -1;
    if (FIELD_EX32(pmnc, PMNC, ECC)) {
        when[0] = COUNTER_RANGE - env->arm11_pmu.ccnt;
        if (FIELD_EX32(pmnc, PMNC, D)) {
            when[0] = when[0] * CCNT_DIVIDER - env->arm11_pmu.prescale;
        }
    }
    when[1] = FIELD_EX32(pmnc, PMNC, ECR0) ?
        arm11_pmu_event_overflow_ns(FIELD_EX32(pmnc, PMNC, EVTCOUNT0),
                                    env->arm11_pmu.count[0]) : -1;
    when[2] = FIELD_EX32(pmnc, PMNC, ECR1) ?
        arm11_pmu_event_overflow_ns(FIELD_EX32(pmnc, PMNC, EVTCOUNT1),
                                    env->arm11_pmu.count[1]) : -1;
    for (i = 0; i < ARRAY_SIZE(when); i++) {
        if (when[i] >= 0 && (soonest < 0 || when[i] < soonest)) {
            soonest = when[i];
        }
    }
    if (soonest >= 0) {
        timer_mod_ns(cpu->pmu_timer,
                     qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + soonest);
    }
}

/* nPMUIRQ: an overflow flag whose interrupt is enabled */
static void arm11_pmu_update_irq(ARMCPU *cpu)
{
    uint32_t pmnc = cpu->env.arm11_pmu.pmnc;

    qemu_set_irq(cpu->pmu_interrupt,
                 ((pmnc & PMNC_FLAGS_MASK) >> PMNC_FLAGS_TO_INTEN) & pmnc &
                 PMNC_INTEN_MASK);
}

/*
 * Targets for the hook: the count of its event at which a counter with
 * its interrupt enabled wraps, so that the interrupt comes right after
 * the instruction that wraps it.  Call after a sync (events_at_sync is
 * now).  Selecting an event asks for it, even with E clear, so that the
 * code is translated with it counted by the time E is set.
 */
static void arm11_pmu_arm_hook(ARMCPU *cpu)
{
    CPUARMState *env = &cpu->env;
    PerfctrHookClient *hook = &cpu->arm11_pmu_hook;
    uint32_t pmnc = env->arm11_pmu.pmnc;
    const uint32_t event[2] = {
        FIELD_EX32(pmnc, PMNC, EVTCOUNT0), FIELD_EX32(pmnc, PMNC, EVTCOUNT1),
    };
    const bool interrupt[2] = {
        FIELD_EX32(pmnc, PMNC, ECR0), FIELD_EX32(pmnc, PMNC, ECR1),
    };
    int i;

    memset(hook->target, 0xff, sizeof(hook->target));
    hook->want = 0;
    hook->targeted = 0;
    for (i = 0; i < 2; i++) {
        PerfctrEvent e = arm11_pmu_hook_event(event[i]);

        if (e == PERFCTR_EVENT_NONE) {
            continue;
        }
        hook->want |= BIT(e);
        if (interrupt[i]) {
            /* Ready for targets as soon as the interrupt is enabled */
            hook->targeted |= BIT(e);
        }
        if (FIELD_EX32(pmnc, PMNC, E) && interrupt[i]) {
            hook->target[e] = MIN(hook->target[e],
                                  env->arm11_pmu.events_at_sync[e] +
                                  COUNTER_RANGE - env->arm11_pmu.count[i]);
        }
    }
    perfctr_hook_arm(hook);
}

/* After a sync: the interrupt line, the timer and the hook's targets */
static void arm11_pmu_update(ARMCPU *cpu)
{
    arm11_pmu_update_irq(cpu);
    arm11_pmu_schedule(cpu);
    arm11_pmu_arm_hook(cpu);
}

static void arm11_pmu_check(ARMCPU *cpu)
{
    arm11_pmu_sync(cpu);
    arm11_pmu_update(cpu);
}

static void arm11_pmu_timer_cb(void *opaque)
{
    arm11_pmu_check(opaque);
}

/* A target armed in arm11_pmu_arm_hook (or another client's) is reached */
static void arm11_pmu_reached(PerfctrHookClient *client)
{
    arm11_pmu_check(container_of(client, ARMCPU, arm11_pmu_hook));
}

/* User mode reaches the monitor only with V set (Table 3-138) */
static CPAccessResult arm11_pmu_access(CPUARMState *env,
                                       const ARMCPRegInfo *ri, bool isread)
{
    if (arm_current_el(env) == 0 &&
        !FIELD_EX32(env->arm11_pmu.access_validation, ACCESS_VALIDATION, V)) {
        return CP_ACCESS_UNDEFINED;
    }
    return CP_ACCESS_OK;
}

/* Read/write in Secure privileged modes, read-only in Non-secure ones */
static CPAccessResult arm11_pmu_validation_access(CPUARMState *env,
                                                  const ARMCPRegInfo *ri,
                                                  bool isread)
{
    if (!isread && !arm_is_secure(env)) {
        return CP_ACCESS_UNDEFINED;
    }
    return CP_ACCESS_OK;
}

static uint64_t arm11_pmnc_read(CPUARMState *env, const ARMCPRegInfo *ri)
{
    arm11_pmu_check(env_archcpu(env));
    return env->arm11_pmu.pmnc;
}

static void arm11_pmnc_write(CPUARMState *env, const ARMCPRegInfo *ri,
                             uint64_t value)
{
    uint32_t pmnc;

    arm11_pmu_sync(env_archcpu(env));
    pmnc = env->arm11_pmu.pmnc;
    if (FIELD_EX32(value, PMNC, P)) {
        env->arm11_pmu.count[0] = 0;
        env->arm11_pmu.count[1] = 0;
    }
    if (FIELD_EX32(value, PMNC, C)) {
        env->arm11_pmu.ccnt = 0;
        env->arm11_pmu.prescale = 0;
    }
    /*
     * Overflow flags are cleared by writing 1; "this interrupt can only
     * be cleared if bit 0 of the Performance Monitor Control Register is
     * high": only a write that leaves E set clears them.
     */
    if (FIELD_EX32(value, PMNC, E)) {
        pmnc &= ~(value & PMNC_FLAGS_MASK);
    }
    env->arm11_pmu.pmnc = (pmnc & PMNC_FLAGS_MASK) | (value & PMNC_RW_MASK);
    arm11_pmu_update(env_archcpu(env));
}

static uint32_t *arm11_pmu_counter(CPUARMState *env, const ARMCPRegInfo *ri)
{
    switch (ri->opc2) {
    case 1:
        return &env->arm11_pmu.ccnt;
    case 2:
        return &env->arm11_pmu.count[0];
    default:
        return &env->arm11_pmu.count[1];
    }
}

static uint64_t arm11_counter_read(CPUARMState *env, const ARMCPRegInfo *ri)
{
    arm11_pmu_check(env_archcpu(env));
    return *arm11_pmu_counter(env, ri);
}

static void arm11_counter_write(CPUARMState *env, const ARMCPRegInfo *ri,
                                uint64_t value)
{
    arm11_pmu_sync(env_archcpu(env));
    *arm11_pmu_counter(env, ri) = value;
    arm11_pmu_update(env_archcpu(env));
}

static uint64_t arm11_validation_read(CPUARMState *env,
                                      const ARMCPRegInfo *ri)
{
    return env->arm11_pmu.access_validation;
}

static void arm11_validation_write(CPUARMState *env, const ARMCPRegInfo *ri,
                                   uint64_t value)
{
    env->arm11_pmu.access_validation = value & R_ACCESS_VALIDATION_V_MASK;
}

/*
 * Reset zeroes the state (CPUARMState's reset area); this drops the
 * interrupt, stops the timer and disarms the hook
 */
static void arm11_pmu_reset(CPUARMState *env, const ARMCPRegInfo *ri)
{
    arm11_pmu_update(env_archcpu(env));
}

#define ARM11_PMU_REG(NAME, OPC2, READ, WRITE) \
    { .name = NAME, .cp = 15, .opc1 = 0, .crn = 15, .crm = 12, \
      .opc2 = OPC2, .access = PL0_RW, .accessfn = arm11_pmu_access, \
      .type = ARM_CP_IO | ARM_CP_NO_RAW, .readfn = READ, .writefn = WRITE }

static const ARMCPRegInfo arm11_pmu_cp_reginfo[] = {
    ARM11_PMU_REG("PMNC", 0, arm11_pmnc_read, arm11_pmnc_write),
    ARM11_PMU_REG("CCNT", 1, arm11_counter_read, arm11_counter_write),
    ARM11_PMU_REG("PMN0", 2, arm11_counter_read, arm11_counter_write),
    ARM11_PMU_REG("PMN1", 3, arm11_counter_read, arm11_counter_write),
    { .name = "ARM11_ACCESS_VALIDATION", .cp = 15, .opc1 = 0, .crn = 15,
      .crm = 9, .opc2 = 0, .access = PL1_RW,
      .accessfn = arm11_pmu_validation_access, .type = ARM_CP_NO_RAW,
      .readfn = arm11_validation_read, .writefn = arm11_validation_write,
      .resetfn = arm11_pmu_reset },
};

void arm11_pmu_define_cp_regs(ARMCPU *cpu)
{
    define_arm_cp_regs(cpu, arm11_pmu_cp_reginfo);
    if (!cpu->pmu_timer) {
        cpu->pmu_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, arm11_pmu_timer_cb,
                                      cpu);
    }
    cpu->arm11_pmu_hook.vcpu_index = CPU(cpu)->cpu_index;
    cpu->arm11_pmu_hook.reached = arm11_pmu_reached;
    memset(cpu->arm11_pmu_hook.target, 0xff,
           sizeof(cpu->arm11_pmu_hook.target));
    perfctr_hook_add_client(&cpu->arm11_pmu_hook);
}

/* Called when the CPU object goes: realized ones are the hook's clients */
void arm11_pmu_finalize(ARMCPU *cpu)
{
    if (cpu->arm11_pmu_hook.reached) {
        perfctr_hook_remove_client(&cpu->arm11_pmu_hook);
    }
}

/* Counted up to the save: the hook's counts are not migrated */
static int arm11_pmu_pre_save(void *opaque)
{
    arm11_pmu_sync(opaque);
    return 0;
}

/* Count on from this QEMU's hook counts; arm its timer and targets */
static int arm11_pmu_post_load(void *opaque, int version_id)
{
    ARMCPU *cpu = opaque;
    Arm11PmuSources now;

    arm11_pmu_sources(cpu, &now);
    memcpy(cpu->env.arm11_pmu.events_at_sync, now.events,
           sizeof(now.events));
    arm11_pmu_update(cpu);
    return 0;
}

static bool arm11_pmu_needed(void *opaque)
{
    ARMCPU *cpu = opaque;

    return arm_feature(&cpu->env, ARM_FEATURE_ARM11_PMU);
}

/* Version 1 had the translator's branch and call counts */
const VMStateDescription vmstate_arm11_pmu = {
    .name = "cpu/arm11_pmu",
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = arm11_pmu_needed,
    .pre_save = arm11_pmu_pre_save,
    .post_load = arm11_pmu_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(env.arm11_pmu.pmnc, ARMCPU),
        VMSTATE_UINT32(env.arm11_pmu.ccnt, ARMCPU),
        VMSTATE_UINT32_ARRAY(env.arm11_pmu.count, ARMCPU, 2),
        VMSTATE_UINT32(env.arm11_pmu.prescale, ARMCPU),
        VMSTATE_UINT32(env.arm11_pmu.access_validation, ARMCPU),
        VMSTATE_UINT64(env.arm11_pmu.cycles_at_sync, ARMCPU),
        VMSTATE_UINT64(env.arm11_pmu.insns_at_sync, ARMCPU),
        VMSTATE_END_OF_LIST()
    }
};
