/*
 * perfctr plugin: the Cortex-M7 timing model, from measured rules:
 * in-order dual issue of independent pairs (a store with the value
 * its partner makes), early and late ALU stages (a shifted operand read
 * a cycle early), result latencies to the late ALU (loads 1, byte and
 * halfword loads 2, multiplies 2), LDM/STM ceil(N/2), a dynamic branch
 * predictor (predictor.c) and a mispredicted branch 8 (6 when its flags
 * were set 3 cycles before it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/model.h"

#define M7_MISPREDICTED 8
/* Flags set this many cycles before a branch are forwarded to it: 6 */
#define M7_FLAGS_EARLY 3
#define M7_MISPREDICTED_EARLY 6

/* What issues alone */
static bool m7_single(const InsnTiming *t)
{
    return t->cls == TC_LOAD_MULTIPLE || t->cls == TC_STORE_MULTIPLE ||
           t->cls == TC_LOAD_DOUBLE || t->cls == TC_STORE_DOUBLE ||
           t->cls == TC_DIV || t->cls == TC_TABLE_BRANCH ||
           t->cls == TC_BARRIER || t->cls == TC_SYSTEM;
}

/* Whether cur may issue in the same cycle as prev (prev first) */
static bool m7_pair(const InsnTiming *prev, const InsnTiming *cur)
{
    bool prev_load = prev->cls == TC_LOAD, cur_load = cur->cls == TC_LOAD;
    bool prev_store = prev->cls == TC_STORE, cur_store = cur->cls == TC_STORE;
    bool prev_mac = prev->cls == TC_MAC || prev->cls == TC_MLAL;
    bool cur_mac = cur->cls == TC_MAC || cur->cls == TC_MLAL;

    if (m7_single(prev) || m7_single(cur) || prev->sets_pc) {
        return false;
    }
    /* A store may take its data from its partner; nothing else may */
    if (prev->writes & (cur_store ? cur->address : cur->reads)) {
        return false;
    }
    /* The operand-2 matrix: two shifted operands do not pair */
    if (prev->two_stage && cur->two_stage) {
        return false;
    }
    if ((prev_load && cur_load) || (prev_store && cur_store) ||
        (cycles_is_multiply(prev) && cycles_is_multiply(cur)) ||
        (prev_mac && cur_store) || (prev_store && cur_mac)) {
        return false;
    }
    return true;
}

/* Until a late reader may issue (an early one: a cycle more) */
static unsigned m7_latency(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_LOAD:
        return t->size < 4 ? 2 : 1;
    case TC_LOAD_DOUBLE:
    case TC_LOAD_MULTIPLE:
    case TC_MUL:
    case TC_MAC:
    case TC_MULL:
    case TC_MLAL:
        return 2;
    default:
        return 1;
    }
}

static unsigned m7_occupancy(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return MAX(1, (t->nregs + 1) / 2);
    case TC_DIV:
        return 2;                       /* + by operands */
    default:
        return 1;
    }
}

static const IssueRules m7_rules = {
    .latency = m7_latency,
    .occupancy = m7_occupancy,
    .pair = m7_pair,
    .alone = m7_single,
    .two_stages = true,
};

static void m7_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    cycles_issue_schedule(&m7_rules, insns, n, cost);
}

/*
 * Whether the B<c> that ends the block reads flags set at least
 * M7_FLAGS_EARLY cycles before it issues (forwarded: a misprediction
 * costs less; a flag set in an earlier block is at least the block's
 * cycles before).  CBZ and CBNZ test a register, not the flags.
 */
static bool flags_early(const CyclesInsn *insns, size_t n,
                        const unsigned *cost)
{
    unsigned since = 0;
    size_t i = n - 1;

    if (!insns[i].c.predicated && !insns[i].in_it) {
        return false;
    }
    /* From the issue of the instruction that set them to the branch's */
    do {
        since += cost[i];
    } while (i > 0 && !insns[--i].t.sets_flags);
    return since >= M7_FLAGS_EARLY;
}

static void m7_branch_costs(const CyclesInsn *insns, size_t n,
                            const unsigned *cost, bool conditional,
                            bool backward, unsigned *taken, unsigned *fall)
{
    unsigned penalty = flags_early(insns, n, cost) ? M7_MISPREDICTED_EARLY :
                       M7_MISPREDICTED;

    cycles_predicted_branch(penalty, conditional, backward, taken, fall);
}

static bool m7_operand_cost(const InsnTiming *t)
{
    return t->cls == TC_DIV;
}

const CyclesCore cycles_m7 = {
    .name = "m7",
    .schedule = m7_schedule,
    .branch_costs = m7_branch_costs,
    .dynamic_predictor = true,
    .has_operand_cost = m7_operand_cost,
    .operand_cycles = cycles_armv7m_divide,
};
