/*
 * perfctr plugin: in-order issue, as operands and units allow, for the
 * timing models of the Cortex-M7 (dual issue) and the E31 (single):
 * each instruction issues once its operands are ready and the one
 * before has issued; its result is ready latency cycles later.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles-model.h"

typedef struct Sched {
    uint64_t end;           /* when the previous instruction has issued */
    uint64_t issue;         /* when it began to */
    bool slot_free;         /* it issued alone and might take a partner */
    const InsnTiming *prev;
    uint64_t ready[32];     /* when each register's value is available */
    uint64_t mul_free;      /* when the multiplier is free */
} Sched;

static uint64_t operands_ready(const Sched *s, const InsnTiming *t)
{
    uint64_t ready = 0;
    unsigned r;

    for (r = 0; r < 32; r++) {
        if ((t->reads & (1u << r)) && s->ready[r] > ready) {
            ready = s->ready[r];
        }
    }
    return ready;
}

static unsigned sched_one(const IssueRules *rules, Sched *s,
                          const InsnTiming *t)
{
    uint64_t ready = operands_ready(s, t), issue, end;
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
            s->ready[r] = issue + latency;
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
