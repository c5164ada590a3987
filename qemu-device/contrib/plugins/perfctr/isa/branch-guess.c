/*
 * perfctr plugin: the static guess of where a branch goes (see
 * branch-guess.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/branch-guess.h"

BranchGuess branch_guess(const InsnClass *c, uint64_t pc, uint64_t fall,
                         bool conditional)
{
    BranchGuess g;

    /* An indirect one is guessed as a backward one: taken */
    g.backward = !c->direct || c->target <= pc;
    g.taken = !conditional || g.backward;
    if (g.taken) {
        g.guessed = c->direct ? c->target : NO_PC;
        g.other_way = fall;
    } else {
        g.guessed = fall;
        g.other_way = c->target;
    }
    if (c->direct && c->target == fall) {
        g.other_way = NO_PC;
    }
    return g;
}
