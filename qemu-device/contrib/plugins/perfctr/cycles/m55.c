/*
 * perfctr plugin: the Cortex-M55 timing model, from Arm's scheduling
 * model of the core in LLVM (llvm/lib/Target/ARM/ARMScheduleM55.td: "a
 * lot like the M4/M33 in terms of scheduling", with dual issue of
 * 16-bit instructions):
 * - one instruction a cycle; two 16-bit ones in the same cycle when one
 *   of them is a NOP, an IT, a 16-bit branch, a 16-bit move or add or
 *   subtract of a constant, a MOV between registers or an extend, and
 *   the second needs nothing the first writes (flags included);
 * - results: a cycle; two for loads, multiplies of every kind, and data
 *   processing in two stages (a shifted register or rotated constant
 *   operand, extend and add, DSP and SIMD);
 * - LDRD and STRD one cycle (the core's 64-bit data path), LDM, STM,
 *   PUSH and POP two registers a cycle, divisions 2 to 12 cycles by
 *   their operands (the Armv7-M divider's rule; Arm publishes no M55
 *   figure);
 * - a taken branch refills the pipeline: 2 cycles more, 3 after a load
 *   of the pc (LLVM's MispredictPenalty of 3 in all); no prediction.
 * Left out: MVE and floating point (one cycle each: their beats, two
 * to an instruction, and the overlap of beats in different pipelines
 * are not modelled), the load/store and low-overhead branch extensions'
 * own timings, and the memory system (all at zero wait states).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/model.h"

#define M55_REFILL 2

typedef struct M55Sched {
    uint64_t next;          /* the cycle the next instruction may issue in */
    bool may_pair;          /* the previous one issued alone in its cycle */
    const CyclesInsn *prev;
    uint64_t ready[32];     /* when each register's value is available */
    uint64_t flags_ready;   /* when the condition flags are */
} M55Sched;

/* What may issue beside another 16-bit instruction */
static bool dual_issues(const InsnTiming *t)
{
    return t->dual16 || t->nop || t->cls == TC_IT ||
           (t->cls == TC_BRANCH && !t->wide);
}

static bool reads_flags(const CyclesInsn *in)
{
    return in->t.conditional || in->in_it;
}

/* In an IT block a 16-bit one sets them only if it compares or tests */
static bool sets_flags(const CyclesInsn *in)
{
    return in->t.sets_flags &&
           !(in->in_it && !in->t.wide && in->t.writes);
}

static bool pairs(const CyclesInsn *prev, const CyclesInsn *cur)
{
    if (prev->t.wide || cur->t.wide || prev->t.sets_pc ||
        !(dual_issues(&prev->t) || dual_issues(&cur->t))) {
        return false;
    }
    return !(cur->t.reads & prev->t.writes) &&
           !(sets_flags(prev) && reads_flags(cur));
}

static unsigned m55_occupancy(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_DIV:
    case TC_TABLE_BRANCH:
        return 2;                       /* divisions: + by operands */
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return MAX(1, (t->nregs + 1) / 2);
    default:
        return 1;
    }
}

/* From its issue until its results are available */
static unsigned m55_latency(const InsnTiming *t, unsigned occupancy)
{
    if (cycles_reads_memory(t) || cycles_is_multiply(t) || t->two_stage) {
        return occupancy + 1;
    }
    return occupancy;
}

static unsigned sched_one(M55Sched *s, const CyclesInsn *in)
{
    const InsnTiming *t = &in->t;
    unsigned occupancy = m55_occupancy(t);
    unsigned latency = m55_latency(t, occupancy);
    uint64_t ready = reads_flags(in) ? s->flags_ready : 0, issue, cost;
    unsigned r;

    for (r = 0; r < 32; r++) {
        if (t->reads & (1u << r)) {
            ready = MAX(ready, s->ready[r]);
        }
    }
    if (s->may_pair && pairs(s->prev, in) && ready < s->next) {
        issue = s->next - 1;
        s->may_pair = false;
    } else {
        issue = MAX(s->next, ready);
        s->may_pair = occupancy == 1;
    }
    for (r = 0; r < 32; r++) {
        if (t->writes & (1u << r)) {
            s->ready[r] = issue + latency;
        }
    }
    if (sets_flags(in)) {
        s->flags_ready = issue + latency;
    }
    cost = MAX(s->next, issue + occupancy) - s->next;
    s->next += cost;
    s->prev = in;
    return cost;
}

static void m55_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    M55Sched s = { 0 };
    size_t i;

    for (i = 0; i < n; i++) {
        cost[i] = sched_one(&s, &insns[i]);
    }
}

static void m55_branch_costs(const CyclesInsn *insns, size_t n,
                             const unsigned *cost, bool conditional,
                             bool backward, unsigned *taken, unsigned *fall)
{
    *fall = 0;
    *taken = insns[n - 1].t.cls == TC_BRANCH ? M55_REFILL : M55_REFILL + 1;
}

static bool m55_operand_cost(const InsnTiming *t)
{
    return t->cls == TC_DIV;
}

const CyclesCore cycles_m55 = {
    .name = "m55",
    .schedule = m55_schedule,
    .branch_costs = m55_branch_costs,
    .has_operand_cost = m55_operand_cost,
    .operand_cycles = cycles_armv7m_divide,
};
