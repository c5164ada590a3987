/*
 * perfctr plugin: the Cortex-M33 timing model, from jnk0le's measured
 * pipeline rules (RP2350, "pipeline cycle test", doc/cortex_m33.md) and
 * Arm's erratum note on MULS (KA001260):
 * - one instruction a cycle; a 16-bit one may pair with a 16-bit NOP
 *   after it, IT with whatever comes before it, and a 16-bit branch with
 *   the 16-bit instruction before it, in its last cycle (not taken:
 *   free; taken: one cycle more, two after one that set the flags);
 * - results: a cycle, two for data processing in two stages (a shifted
 *   register or rotated constant operand, extend and add, DSP and SIMD),
 *   multiplies and loads (a load's result is a store's data after one;
 *   LDM's registers come a cycle apart, the lowest first);
 * - MULS, and a rotated constant operand that sets the flags, 2 cycles;
 *   LDRD and STRD 2, LDM and STM of N registers N, divisions 2 to 12 by
 *   their operands (the Armv7-M divider's rule);
 * - a taken branch 2 cycles; a load of the pc 2 more than the load.
 * Left out: the accumulate chains of multiply-accumulates, the flags of
 * a shifted operand a cycle late, instructions an IT block skips taking
 * no slot, the FPU's rules, and the memory system (all at zero wait
 * states).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/model.h"

typedef struct M33Sched {
    uint64_t next;          /* the cycle the next instruction may issue in */
    bool may_pair;          /* the previous one's last cycle has a slot */
    const InsnTiming *prev;
    uint64_t ready[32];     /* when each register's value is available */
    uint64_t data_ready[32];    /* when a store may take it as data */
} M33Sched;

static bool branch16(const InsnTiming *t)
{
    return t->cls == TC_BRANCH && !t->wide;
}

static bool pairs(const InsnTiming *prev, const InsnTiming *cur)
{
    if (cur->cls == TC_IT) {
        return true;
    }
    if (prev->wide || cur->wide || prev->sets_pc) {
        return false;
    }
    if (cur->nop) {
        return prev->cls == TC_ALU || prev->cls == TC_LOAD ||
               prev->cls == TC_STORE;
    }
    return branch16(cur) && (prev->cls == TC_ALU || prev->cls == TC_MUL ||
                             prev->cls == TC_LOAD || prev->cls == TC_STORE ||
                             prev->cls == TC_LOAD_MULTIPLE ||
                             prev->cls == TC_STORE_MULTIPLE);
}

static unsigned m33_occupancy(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_ALU:
        return t->rotated_imm && t->sets_flags ? 2 : 1;
    case TC_MUL:
        return t->wide ? 1 : 2;         /* MULS */
    case TC_DIV:
    case TC_LOAD_DOUBLE:
    case TC_STORE_DOUBLE:
    case TC_TABLE_BRANCH:
        return 2;                       /* divisions: + by operands */
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return MAX(1, t->nregs);
    default:
        return 1;
    }
}

/* From its issue until its results are available */
static unsigned m33_latency(const InsnTiming *t, unsigned occupancy)
{
    if (cycles_reads_memory(t) || cycles_is_multiply(t) || t->two_stage) {
        return occupancy + 1;
    }
    return occupancy;
}

static unsigned sched_one(M33Sched *s, const InsnTiming *t)
{
    uint32_t data = t->cls == TC_STORE || t->cls == TC_STORE_DOUBLE ||
                    t->cls == TC_STORE_MULTIPLE ? t->reads & ~t->address : 0;
    unsigned occupancy = m33_occupancy(t);
    unsigned latency = m33_latency(t, occupancy);
    uint64_t ready = 0, issue, cost;
    unsigned r;

    for (r = 0; r < 32; r++) {
        if (t->reads & (1u << r)) {
            ready = MAX(ready, data & (1u << r) ? s->data_ready[r]
                                                : s->ready[r]);
        }
    }
    if (s->may_pair && pairs(s->prev, t) && ready < s->next) {
        issue = s->next - 1;
        s->may_pair = false;
    } else {
        issue = MAX(s->next, ready);
        s->may_pair = true;
    }
    for (r = 0; r < 32; r++) {
        if (t->writes & (1u << r)) {
            uint64_t at = issue + latency;

            if (t->cls == TC_LOAD_MULTIPLE && (t->address & (1u << r))) {
                at = issue + 1;                 /* the base's write-back */
            } else if (t->cls == TC_LOAD_MULTIPLE) {
                /* a register a cycle, the lowest first */
                at = issue + 2 + __builtin_popcount(t->writes & ~t->address &
                                                    ((1u << r) - 1));
            }
            s->ready[r] = at;
            /* a load's result goes on to a store a cycle sooner */
            s->data_ready[r] = at - (cycles_reads_memory(t) ? 1 : 0);
        }
    }
    cost = MAX(s->next, issue + occupancy) - s->next;
    s->next += cost;
    s->prev = t;
    return cost;
}

static void m33_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    M33Sched s = { 0 };
    size_t i;

    for (i = 0; i < n; i++) {
        cost[i] = sched_one(&s, &insns[i].t);
    }
}

static void m33_branch_costs(const CyclesInsn *insns, size_t n,
                             const unsigned *cost, bool conditional,
                             bool backward, unsigned *taken, unsigned *fall)
{
    const CyclesInsn *last = &insns[n - 1];

    *fall = 0;
    if (last->t.cls != TC_BRANCH) {
        *taken = 2;                     /* POP {pc}, TBB... */
    } else if (cost[n - 1]) {
        *taken = 1;
    } else {
        /* Paired: the instruction before the branch had set the flags */
        *taken = n > 1 && last[-1].t.sets_flags ? 2 : 1;
    }
}

static bool m33_operand_cost(const InsnTiming *t)
{
    return t->cls == TC_DIV;
}

const CyclesCore cycles_m33 = {
    .name = "m33",
    .schedule = m33_schedule,
    .branch_costs = m33_branch_costs,
    .has_operand_cost = m33_operand_cost,
    .operand_cycles = cycles_armv7m_divide,
};
