/*
 * perfctr plugin: the SiFive E31 timing model: single issue, result
 * latencies (LW 2, LB/LH 3, MUL 5, CSR 3), one multiplier and divider
 * (a division 1 bit a cycle), a mispredicted branch 3.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/model.h"

#define E31_MISPREDICTED 3

static unsigned e31_latency(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_LOAD:
        return t->size < 4 ? 3 : 2;
    case TC_MUL:
    case TC_MULL:
        return 5;
    case TC_DIV:
        return 2;                       /* + by operands */
    case TC_SYSTEM:
        return 3;                       /* CSR reads */
    default:
        return 1;
    }
}

static unsigned e31_occupancy(const InsnTiming *t)
{
    return t->cls == TC_DIV ? 2 : 1;
}

static const IssueRules e31_rules = {
    .latency = e31_latency,
    .occupancy = e31_occupancy,
    .shared_multiplier = true,
};

static void e31_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    cycles_issue_schedule(&e31_rules, insns, n, cost);
}

static void e31_branch_costs(const CyclesInsn *insns, size_t n,
                             const unsigned *cost, bool conditional,
                             bool backward, unsigned *taken, unsigned *fall)
{
    cycles_predicted_branch(E31_MISPREDICTED, conditional, backward, taken,
                            fall);
}

static bool e31_operand_cost(const InsnTiming *t)
{
    return t->cls == TC_DIV;
}

static unsigned e31_operand_cycles(const InsnTiming *t, uint32_t a,
                                   uint32_t b)
{
    unsigned q = cycles_quotient_bits(a, b, t->is_signed);

    return MAX(2, 1 + q) - 2;           /* 1 bit a cycle */
}

const CyclesCore cycles_e31 = {
    .name = "e31",
    .riscv = true,
    .schedule = e31_schedule,
    .branch_costs = e31_branch_costs,
    .has_operand_cost = e31_operand_cost,
    .operand_cycles = e31_operand_cycles,
};
