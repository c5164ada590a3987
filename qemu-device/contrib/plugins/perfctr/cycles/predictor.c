/*
 * perfctr plugin: a dynamic branch predictor for the timing models
 * (the Cortex-M7's): a 2-bit saturating counter per conditional branch,
 * in a table indexed by the branch's pc, as bimodal predictors are.
 *
 * cycles.c charges each block as if its branch went the way the static
 * guess says (backward taken, forward not) and calls back when the
 * other way is entered.  A counter is kept relative to that guess (0
 * and 1: the predictor agrees with it, 2 and 3: it does not), so that
 * in the common case, a branch that goes the way of its guess and whose
 * counter agrees strongly, nothing calls back: only a branch that went
 * the other way, or whose counter is not at 0, costs a callback.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "cycles/predictor.h"
#include "cycles/slots.h"
#include "isa/isa.h"

#define TABLE_SIZE 4096
#define NOT_PREDICTED 0     /* SLOT_BRANCH of a branch the table ignores */

enum {
    AGREES,             /* strongly: predicts the static guess */
    AGREES_WEAKLY,
    DISAGREES_WEAKLY,   /* predicts the other way */
    DISAGREES,
};

static unsigned first_slot;

unsigned predictor_slots(unsigned first)
{
    first_slot = first;
    return TABLE_SIZE;
}

static unsigned entry_of(uint64_t pc)
{
    return first_slot + ((pc >> 1) & (TABLE_SIZE - 1));
}

/* The branch's counter is not at AGREES: confirm the guess with a call */
static void unsettled_cb(unsigned vcpu, void *udata)
{
    cycles_slots_of(vcpu)[SLOT_HIT] = (uintptr_t)udata;
}

void predictor_instrument_branch(struct qemu_plugin_insn *last,
                                 uint64_t guessed)
{
    /* (an indirect one guessed taken is left to the static guess) */
    unsigned entry = guessed == NO_PC ? NOT_PREDICTED :
                     entry_of(qemu_plugin_insn_vaddr(last));

    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        last, QEMU_PLUGIN_INLINE_STORE_U64, cycles_slot(SLOT_BRANCH), entry);
    if (entry == NOT_PREDICTED) {
        return;
    }
    qemu_plugin_register_vcpu_insn_exec_cond_cb(
        last, unsettled_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_NE,
        cycles_slot(entry), AGREES, (void *)(uintptr_t)guessed);
}

/* The branch went the way of its guess */
static void guessed_cb(unsigned vcpu, void *udata)
{
    uint64_t *slots = cycles_slots_of(vcpu);
    uint64_t *counter = &slots[slots[SLOT_BRANCH]];
    uint64_t packed = slots[SLOT_DELTA];

    slots[SLOT_HIT] = NO_PC;
    if (*counter >= DISAGREES_WEAKLY) {
        cycles_add(vcpu, slots, (int32_t)(uint32_t)packed,
                   (int32_t)(packed >> 32));
    }
    if (*counter > AGREES) {
        (*counter)--;
    }
}

void predictor_instrument_entry(struct qemu_plugin_tb *tb)
{
    qemu_plugin_register_vcpu_tb_exec_cond_cb(
        tb, guessed_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_EQ,
        cycles_slot(SLOT_HIT), qemu_plugin_tb_vaddr(tb), NULL);
}

/* The branch went the other way: cycles.c has not charged that yet */
void predictor_other_way(unsigned vcpu, uint64_t *slots)
{
    uint64_t entry = slots[SLOT_BRANCH];
    uint64_t *counter = &slots[entry];
    uint64_t packed = slots[SLOT_DELTA];

    if (entry == NOT_PREDICTED || *counter <= AGREES_WEAKLY) {
        cycles_add(vcpu, slots, (int32_t)(uint32_t)packed,
                   (int32_t)(packed >> 32));
    }
    if (entry != NOT_PREDICTED && *counter < DISAGREES) {
        (*counter)++;
    }
}

void predictor_left_code(unsigned vcpu, uint64_t pc)
{
    if (qemu_plugin_u64_get(cycles_slot(SLOT_HIT), vcpu) == pc) {
        guessed_cb(vcpu, NULL);
    }
}
