/*
 * perfctr plugin: the static guess of where a branch goes, for what
 * depends on it: the taken branches counted (events.c) and a branch's
 * cost (cycles.c).  Each counts a branch as the guess goes (backward
 * taken, forward not), stores the other way's pc as it runs, and only
 * when the next block starts there, or QEMU resumes there, corrects
 * the count by what going that way adds: a miss costs a callback, a
 * branch that goes as guessed costs none.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_BRANCH_GUESS_H
#define PERFCTR_BRANCH_GUESS_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"

typedef struct BranchGuess {
    bool backward;          /* to its own pc or before it, or indirect */
    bool taken;             /* the guess */
    uint64_t guessed;       /* where the guess goes; NO_PC: not known */
    uint64_t other_way;     /* where a miss goes; NO_PC: both are one */
} BranchGuess;

/*
 * The guess for the branch c at pc, which falls through to fall;
 * conditional: whether it may fall through, as the caller knows it (a
 * condition in its encoding, or an IT block).  An unconditional branch
 * is guessed taken.
 */
BranchGuess branch_guess(const InsnClass *c, uint64_t pc, uint64_t fall,
                         bool conditional);

/* What a count or a cost that is if_taken or if_not_taken adds as guessed */
static inline int64_t branch_guess_value(const BranchGuess *g,
                                         int64_t if_taken,
                                         int64_t if_not_taken)
{
    return g->taken ? if_taken : if_not_taken;
}

/* And what a miss corrects it by */
static inline int64_t branch_guess_correction(const BranchGuess *g,
                                              int64_t if_taken,
                                              int64_t if_not_taken)
{
    return g->taken ? if_not_taken - if_taken : if_taken - if_not_taken;
}

#endif
