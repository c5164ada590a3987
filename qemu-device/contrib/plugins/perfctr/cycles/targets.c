/*
 * perfctr plugin: a device's targets on the model's cycles
 *
 * A device arms a target on the cycle count (a threshold, an overflow,
 * QEMU's next timer deadline: perfctr-hook.h); it is called back after
 * the instruction whose cost reached it.  A block whose costs are all
 * known at translation checks at its entry whether its instructions
 * before the last reach the target; the rare one that does is left
 * before its first instruction, and QEMU runs its head, up to the
 * instruction that reaches it, as a block of its own
 * (perfctr_hook_run_first(), as icount does when a budget ends inside
 * a block), costed as in the whole block and checked at its end.
 * cycles.c checks other blocks before each instruction.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "cycles/targets.h"

/* QEMU exports it; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_hook_run_first

/* A block's static costs but its last's, for its entry's check */
typedef struct Head {
    uint64_t pc;
    size_t n;
    unsigned cost[];
} Head;

/* The head QEMU translates next (translations run on the vCPU's thread) */
static __thread const Head *next_head;
static __thread size_t next_head_n;

uint32_t targets_armed(void)
{
    uint32_t targeted = 0;

    if (events_targeted(PERFCTR_EVENT_CYCLES)) {
        targeted |= 1u << PERFCTR_EVENT_CYCLES;
    }
    if (events_targeted(PERFCTR_EVENT_MEMORY_STALLS)) {
        targeted |= 1u << PERFCTR_EVENT_MEMORY_STALLS;
    }
    return targeted;
}

bool targets_checked_at_entry(void)
{
    return targets_armed() == (1u << PERFCTR_EVENT_CYCLES) &&
           perfctr_hook_run_first;
}

void targets_count_down(struct qemu_plugin_insn *insn, PerfctrEvent e,
                        uint64_t n)
{
    if (n) {
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            insn, QEMU_PLUGIN_INLINE_ADD_U64, events_countdown(e), -n);
    }
}

void targets_check(struct qemu_plugin_insn *insn, uint32_t targets,
                   bool by_insn)
{
    if (targets & (1u << PERFCTR_EVENT_CYCLES)) {
        events_check(insn, PERFCTR_EVENT_CYCLES, by_insn);
    }
    if (targets & (1u << PERFCTR_EVENT_MEMORY_STALLS)) {
        events_check(insn, PERFCTR_EVENT_MEMORY_STALLS, by_insn);
    }
}

/* The block reaches the target before its last instruction: run its head */
static void __attribute__((noinline)) reaches_inside(unsigned vcpu_index,
                                                     void *udata)
{
    uintptr_t host_pc = (uintptr_t)__builtin_return_address(0);
    const Head *head = udata;
    uint64_t left = qemu_plugin_u64_get(
        events_countdown(PERFCTR_EVENT_CYCLES), vcpu_index);
    uint64_t sum = 0;
    size_t k;

    /* Up to the instruction whose cost takes the countdown below 0 */
    for (k = 0; k + 2 < head->n; k++) {
        sum += head->cost[k];
        if (sum > left) {
            break;
        }
    }
    next_head = head;
    next_head_n = k + 1;
    perfctr_hook_run_first(vcpu_index, host_pc, k + 1);
}

/* A head translated before runs: the next translation is not of it */
static void head_entered(unsigned vcpu_index, void *udata)
{
    next_head = NULL;
}

void targets_check_at_entry(struct qemu_plugin_tb *tb, const unsigned *cost,
                            size_t n)
{
    uint64_t sum = 0;
    Head *head;
    size_t i;

    if (n < 2) {
        return;
    }
    head = g_malloc(sizeof(Head) + (n - 1) * sizeof(unsigned));
    head->pc = qemu_plugin_tb_vaddr(tb);
    head->n = n;
    for (i = 0; i + 1 < n; i++) {
        head->cost[i] = cost[i];
        sum += cost[i];
    }
    if (!sum) {
        g_free(head);
        return;
    }
    /* Reads the registers: QEMU restores the state and leaves */
    qemu_plugin_register_vcpu_insn_exec_cond_cb(
        qemu_plugin_tb_get_insn(tb, 0), reaches_inside, QEMU_PLUGIN_CB_R_REGS,
        QEMU_PLUGIN_COND_LT, events_countdown(PERFCTR_EVENT_CYCLES), sum,
        head);
}

bool targets_head_costs(struct qemu_plugin_tb *tb, unsigned *cost, size_t n)
{
    bool head = next_head && next_head->pc == qemu_plugin_tb_vaddr(tb) &&
                next_head_n == n;

    if (head) {
        memcpy(cost, next_head->cost, n * sizeof(unsigned));
        qemu_plugin_register_vcpu_tb_exec_cb(tb, head_entered,
                                             QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
    next_head = NULL;
    return head;
}
