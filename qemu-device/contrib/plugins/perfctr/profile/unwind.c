/*
 * perfctr plugin: what a branch means by the image's functions
 * (functions=): a branch with link that is a jump within its function,
 * a return past its return address into the caller's function, the
 * frame a longjmp lands in
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "profile/unwind.h"

static const PerfctrConfig *config;

void unwind_init(const PerfctrConfig *cfg)
{
    config = cfg;
}

/*
 * Whether a return to pc, which no frame returns to, goes back into the
 * function the innermost call came from: __gnu_thumb1_case_uqi and its
 * kin return past their return address, into the switch's case
 */
bool unwind_returns_into_caller(const CallStack *c, uint64_t pc)
{
    unsigned n = config->n_functions;
    unsigned f;

    if (!c->depth || !n) {
        return false;
    }
    f = address_range_find(config->functions, n, c->stack[c->depth - 1].ret);
    return f < n && f == address_range_find(config->functions, n, pc);
}

/* Whether a branch from site to pc leaves the function it is in */
bool unwind_leaves_function(uint64_t site, uint64_t pc)
{
    unsigned n = config->n_functions;

    return n && address_range_find(config->functions, n, site) !=
                address_range_find(config->functions, n, pc);
}

/*
 * The frame a return to pc, which no frame returns to, unwinds to as a
 * longjmp does (MicroPython's nlr_jump, setjmp's kin): the frame of a
 * call made from pc's function with the stack pointer the return left
 * (sp), or the nearest above it; -1 if no frame was made there
 */
int unwind_longjmp_frame(const CallStack *c, uint64_t pc, uint64_t sp)
{
    unsigned n = config->n_functions;
    unsigned f, i;
    int found = -1;

    if (!n || sp == UINT64_MAX || c->depth_lost) {
        return -1;
    }
    f = address_range_find(config->functions, n, pc);
    if (f == n) {
        return -1;
    }
    for (i = c->depth; i-- > 0;) {
        const Frame *frame = &c->stack[i];

        if (frame->sp > sp) {
            break;      /* made further up the stack than it returned to */
        }
        if (address_range_find(config->functions, n, frame->ret) == f) {
            found = i;
        }
    }
    return found;
}

/*
 * A branch with link into its own function (past its first instruction:
 * to that is recursion) is a jump: Armv6-M has no far branch but BL,
 * which GCC uses inside a function too
 */
bool unwind_jumps_within_function(uint64_t pc, const InsnClass *insn)
{
    const AddressRange *f;
    unsigned i;

    if (insn->kind != INSN_CALL || !insn->direct) {
        return false;
    }
    i = address_range_find(config->functions, config->n_functions, pc);
    if (i == config->n_functions) {
        return false;
    }
    f = &config->functions[i];
    return insn->target > f->start && insn->target < f->end;
}
