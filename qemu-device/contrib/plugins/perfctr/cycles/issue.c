/*
 * perfctr plugin: in-order issue, as operands and units allow, for the
 * timing models of the Cortex-M7 (dual issue) and the E31 (single):
 * each instruction issues once its operands are ready and the one
 * before has issued; its result is ready latency cycles later.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/model.h"

typedef struct Sched {
    uint64_t end;           /* when the previous instruction has issued */
    uint64_t issue;         /* when it began to */
    bool slot_free;         /* it issued alone and might take a partner */
    const InsnTiming *prev;
    uint64_t ready[32];     /* when each register's value is available */
    /* With two stages: for an early reader, for an address, for data */
    uint64_t early[32], address[32], made[32];
    uint64_t mul_free;      /* when the multiplier is free */
} Sched;

static uint64_t latest(const uint64_t *when, uint32_t regs)
{
    uint64_t ready = 0;
    unsigned r;

    for (r = 0; r < 32; r++) {
        if ((regs & (1u << r)) && when[r] > ready) {
            ready = when[r];
        }
    }
    return ready;
}

static uint32_t reg_bit(int8_t r)
{
    return r >= 0 ? 1u << r : 0;
}

/*
 * With two stages: a store's data may come from the instruction it
 * issues with; a multiply takes a load's result a cycle late, as an
 * address does, and its accumulator a cycle early (MACs chain each
 * cycle)
 */
static uint64_t two_stage_ready(const Sched *s, const InsnTiming *t)
{
    uint32_t data = t->reads & ~t->address;
    uint64_t address = latest(s->address, t->address);

    if (t->cls == TC_STORE || t->cls == TC_STORE_DOUBLE ||
        t->cls == TC_STORE_MULTIPLE) {
        return MAX(latest(s->made, data), address);
    }
    if (cycles_is_multiply(t)) {
        uint32_t factors = reg_bit(t->op_a) | reg_bit(t->op_b);
        uint64_t sum = latest(s->ready, data & ~factors);

        return MAX(MAX(latest(s->address, data & factors),
                       sum ? sum - 1 : 0), address);
    }
    return MAX(MAX(latest(s->early, data & t->early),
                   latest(s->ready, data & ~t->early)), address);
}

static uint64_t operands_ready(const IssueRules *rules, const Sched *s,
                               const InsnTiming *t)
{
    return rules->two_stages ? two_stage_ready(s, t) :
                               latest(s->ready, t->reads);
}

static unsigned sched_one(const IssueRules *rules, Sched *s,
                          const InsnTiming *t)
{
    uint64_t ready = operands_ready(rules, s, t), issue, end;
    unsigned latency = rules->latency(t), occupancy = rules->occupancy(t);
    unsigned r;

    if (rules->pair) {
        if (s->slot_free && s->prev && rules->pair(s->prev, t) &&
            ready <= s->issue) {
            issue = s->issue;
            s->slot_free = false;
        } else {
            issue = MAX(s->end, ready);
            s->slot_free = occupancy == 1 && !rules->alone(t);
        }
    } else {
        issue = MAX(s->end, ready);
    }
    if (rules->shared_multiplier &&
        (cycles_is_multiply(t) || t->cls == TC_DIV)) {
        issue = MAX(issue, s->mul_free);
        s->mul_free = issue + latency;
    }
    for (r = 0; r < 32; r++) {
        if (t->writes & (1u << r)) {
            /* (a base register's write-back is the address unit's) */
            bool base = t->writeback && (t->address & (1u << r));
            bool load = cycles_reads_memory(t) && !base;

            s->ready[r] = issue + (base ? 1 : latency);
            s->early[r] = s->ready[r] + 1;
            s->address[r] = load ? s->early[r] : s->ready[r];
            s->made[r] = issue;
        }
    }
    end = MAX(s->end, issue + occupancy);
    r = end - s->end;
    s->end = end;
    s->issue = issue;
    s->prev = t;
    return r;
}

void cycles_issue_schedule(const IssueRules *rules, const CyclesInsn *insns,
                           size_t n, unsigned *cost)
{
    Sched s = { 0 };
    size_t i;

    for (i = 0; i < n; i++) {
        cost[i] = sched_one(rules, &s, &insns[i].t);
    }
}

void cycles_predicted_branch(unsigned penalty, bool conditional,
                             bool backward, unsigned *taken, unsigned *fall)
{
    if (!conditional) {
        *taken = *fall = 0;
    } else {
        *taken = backward ? 0 : penalty;
        *fall = backward ? penalty : 0;
    }
}
