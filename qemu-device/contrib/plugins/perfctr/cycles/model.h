/*
 * perfctr plugin: what a core's timing model gives the cycle counting
 * of cycles.c, one file per core (m0.c, m3.c, m7.c, m33.c, m55.c,
 * e31.c; issue.c is the in-order issue scheduler the dual- and
 * single-issue ones share)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_MODEL_H
#define PERFCTR_CYCLES_MODEL_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"

/* An instruction of the block being scheduled */
typedef struct CyclesInsn {
    uint64_t pc;
    unsigned len;
    InsnTiming t;
    InsnClass c;
    bool in_it;         /* inside a Thumb IT block: may not execute */
} CyclesInsn;

typedef struct CyclesCore {
    const char *name;               /* as cycles= names it: m3, e31... */
    bool riscv;                     /* for rv32 guests; else Thumb ones */
    /* Each instruction's cost in a block that starts idle */
    void (*schedule)(const CyclesInsn *insns, size_t n, unsigned *cost);
    /*
     * What the branch that ends a block, insns[n - 1], costs beyond its
     * schedule when taken and when it falls through (conditional: it
     * may; backward: to an earlier pc, or indirect); cost is what the
     * schedule gave each instruction of the block
     */
    void (*branch_costs)(const CyclesInsn *insns, size_t n,
                         const unsigned *cost, bool conditional,
                         bool backward, unsigned *taken, unsigned *fall);
    /*
     * Conditional branches are predicted by a table of counters
     * (predictor.c), not by the static guess alone; a
     * misprediction costs what branch_costs gives the other way
     */
    bool dynamic_predictor;
    /* Code may run from a flash part (memory.c, memory=) */
    bool flash;
    /*
     * With flash: whether the schedule pipelined cur behind prev, a
     * load (where the addresses show two memory blocks, it may not)
     */
    bool (*pipelined)(const InsnTiming *prev, const InsnTiming *cur);
    /* Whether an instruction's time depends on its operands' values */
    bool (*has_operand_cost)(const InsnTiming *t);
    /* The cycles such an instruction takes beyond its schedule */
    unsigned (*operand_cycles)(const InsnTiming *t, uint32_t a, uint32_t b);
} CyclesCore;

extern const CyclesCore cycles_m0, cycles_m0_small_mul, cycles_m3,
                        cycles_m4, cycles_m7, cycles_m33, cycles_m55,
                        cycles_e31;

/* Classes */

static inline bool cycles_data_processing(const InsnTiming *t)
{
    return t->cls <= TC_DIV || t->cls == TC_SYSTEM;
}

static inline bool cycles_reads_memory(const InsnTiming *t)
{
    return t->cls == TC_LOAD || t->cls == TC_LOAD_DOUBLE ||
           t->cls == TC_LOAD_MULTIPLE || t->cls == TC_TABLE_BRANCH;
}

static inline bool cycles_accesses_memory(const InsnTiming *t)
{
    return (t->cls >= TC_LOAD && t->cls <= TC_STORE_MULTIPLE) ||
           t->cls == TC_TABLE_BRANCH;
}

static inline bool cycles_is_multiply(const InsnTiming *t)
{
    return t->cls >= TC_MUL && t->cls <= TC_MLAL;
}

/* Operands */

static inline uint32_t cycles_magnitude(uint32_t v, bool is_signed)
{
    return is_signed && (int32_t)v < 0 ? -v : v;
}

/* Quotient bits a shift-and-subtract divider produces */
static inline unsigned cycles_quotient_bits(uint32_t n, uint32_t d,
                                            bool is_signed)
{
    n = cycles_magnitude(n, is_signed);
    d = cycles_magnitude(d, is_signed);
    if (!d || n < d) {
        return 0;
    }
    return __builtin_clz(d) - __builtin_clz(n) + 1;
}

/* The Armv7-M divider (M3, M4, M7): 2 to 12 cycles, beyond its 2 */
static inline unsigned cycles_armv7m_divide(const InsnTiming *t, uint32_t a,
                                            uint32_t b)
{
    unsigned q = cycles_quotient_bits(a, b, t->is_signed);

    return MIN(12, 2 + (q + 2) / 3) - 2;
}

/* In-order issue (issue.c): the rules of one core */
typedef struct IssueRules {
    unsigned (*latency)(const InsnTiming *t);   /* until its result */
    unsigned (*occupancy)(const InsnTiming *t); /* cycles it issues in */
    /* Dual issue: whether cur may issue in prev's cycle; NULL: single */
    bool (*pair)(const InsnTiming *prev, const InsnTiming *cur);
    bool (*alone)(const InsnTiming *t);         /* takes no partner */
    bool shared_multiplier; /* multiplies and divides wait for the last */
    /*
     * Operands read in two stages (the Cortex-M7's early and late
     * ALU): latency is until a late reader may issue; a register read
     * early (InsnTiming's early: shifted, extended) needs a cycle more,
     * and so does an address or a multiply's factor from a load; a
     * store's data may issue with the instruction that makes it
     */
    bool two_stages;
} IssueRules;

void cycles_issue_schedule(const IssueRules *rules, const CyclesInsn *insns,
                           size_t n, unsigned *cost);
/*
 * A static predictor's branch costs (backward taken, forward not): a
 * mispredicted conditional branch costs penalty, nothing else does
 */
void cycles_predicted_branch(unsigned penalty, bool conditional,
                             bool backward, unsigned *taken, unsigned *fall);

#endif
