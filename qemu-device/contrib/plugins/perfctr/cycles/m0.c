/*
 * perfctr plugin: the Cortex-M0 timing model, from its Technical
 * Reference Manual's instruction timings (DDI 0432C, Table 3-1), which
 * jnk0le's measurements ("pipeline cycle test", doc/cortex_m0.md: "there
 * is no load to use latency") agree with:
 * - no pipelining between instructions: each takes its own cycles;
 * - 1 cycle for data processing, 2 for a load or store, 1+N for LDM,
 *   STM, PUSH and POP of N registers (the pc included), 4 for MRS, MSR
 *   and the barriers;
 * - MULS 1 cycle with the fast multiplier (cycles=m0: the STM32F0's,
 *   the nRF51's), 32 with the small one (cycles=m0-small-mul);
 * - a taken branch 3 (B<c>, B, BX, BLX, MOV pc), BL 4, POP {pc} 4+N; a
 *   conditional branch not taken 1.
 * Left out: the memory system (flash wait states and the prefetch
 * buffer; all at zero wait states) and sleep.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/model.h"

#define M0_REFILL 2             /* a taken branch's cycles beyond its 1 */
#define M0_SYSTEM 4             /* MRS, MSR, DMB, DSB, ISB */

static unsigned m0_cycles(const InsnTiming *t, unsigned mul_cycles)
{
    switch (t->cls) {
    case TC_MUL:
        return mul_cycles;
    case TC_LOAD:
    case TC_STORE:
        return 2;
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return 1 + t->nregs;
    case TC_BARRIER:
        return M0_SYSTEM;
    case TC_SYSTEM:
        return t->wide ? M0_SYSTEM : 1;     /* MRS, MSR; CPS, SVC... */
    case TC_BRANCH:
        return t->wide ? 2 : 1;             /* BL: its two halves */
    default:
        return 1;
    }
}

static void schedule(const CyclesInsn *insns, size_t n, unsigned *cost,
                     unsigned mul_cycles)
{
    size_t i;

    for (i = 0; i < n; i++) {
        cost[i] = m0_cycles(&insns[i].t, mul_cycles);
    }
}

static void m0_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    schedule(insns, n, cost, 1);
}

static void m0_small_mul_schedule(const CyclesInsn *insns, size_t n,
                                  unsigned *cost)
{
    schedule(insns, n, cost, 32);
}

static void m0_branch_costs(const CyclesInsn *insns, size_t n,
                            const unsigned *cost, bool conditional,
                            bool backward, unsigned *taken, unsigned *fall)
{
    *taken = M0_REFILL;
    *fall = 0;
}

static bool m0_operand_cost(const InsnTiming *t)
{
    return false;
}

const CyclesCore cycles_m0 = {
    .name = "m0",
    .schedule = m0_schedule,
    .branch_costs = m0_branch_costs,
    .has_operand_cost = m0_operand_cost,
};

const CyclesCore cycles_m0_small_mul = {
    .name = "m0-small-mul",
    .schedule = m0_small_mul_schedule,
    .branch_costs = m0_branch_costs,
    .has_operand_cost = m0_operand_cost,
};
