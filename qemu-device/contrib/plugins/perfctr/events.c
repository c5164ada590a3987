/*
 * perfctr plugin: event counts for the perf-counter device
 *
 * Each executed instruction adds to its vCPU's counts of the events it
 * is (a load, a store, a branch...), inline in the translated code and
 * before the instruction runs, as the instruction count of -icount
 * does; so when the device reads them during an access, the accessing
 * instruction is counted, as for the clock.  The device reads them
 * through the hook QEMU exports (include/qemu/perfctr-hook.h).
 *
 * An instruction counts whether or not its condition passed (Thumb IT
 * blocks, Arm conditional execution), as the architectures' "executed"
 * events do.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "cycles.h"
#include "events.h"
#include "perfctr-hook.h"

/* QEMU exports it; weak so that the plugin still loads in another QEMU */
void perfctr_hook_set_event_reader(PerfctrEventReader reader)
    __attribute__((weak));

static Isa isa;
static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 counts[PERFCTR_EVENT_COUNT];

static uint64_t read_event(unsigned vcpu_index, PerfctrEvent event)
{
    if (event <= PERFCTR_EVENT_NONE || event >= PERFCTR_EVENT_COUNT) {
        return 0;
    }
    if (event == PERFCTR_EVENT_CYCLES) {
        return cycles_read(vcpu_index);
    }
    return qemu_plugin_u64_get(counts[event], vcpu_index);
}

void events_init(Isa guest_isa)
{
    unsigned e;

    isa = guest_isa;
    board = qemu_plugin_scoreboard_new(PERFCTR_EVENT_COUNT *
                                       sizeof(uint64_t));
    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        counts[e] = (qemu_plugin_u64) { board, e * sizeof(uint64_t) };
    }
    if (perfctr_hook_set_event_reader) {
        perfctr_hook_set_event_reader(read_event);
    } else {
        qemu_plugin_outs("perfctr: this QEMU has no perf-counter hook; "
                         "events are not available to the device\n");
    }
}

static void count(struct qemu_plugin_insn *insn, PerfctrEvent event)
{
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_ADD_U64, counts[event], 1);
}

void events_instrument(struct qemu_plugin_tb *tb)
{
    size_t i, n = qemu_plugin_tb_n_insns(tb);

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint8_t bytes[4];
        size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
        InsnClass c;

        isa_classify(isa, bytes, got, qemu_plugin_insn_vaddr(insn), &c);
        count(insn, PERFCTR_EVENT_INSTRUCTIONS);
        if (c.load) {
            count(insn, PERFCTR_EVENT_LOADS);
        }
        if (c.store) {
            count(insn, PERFCTR_EVENT_STORES);
        }
        if (c.kind != INSN_OTHER && c.kind != INSN_TRAP) {
            count(insn, PERFCTR_EVENT_BRANCHES);
        }
        if (c.kind == INSN_CALL) {
            count(insn, PERFCTR_EVENT_CALLS);
        }
        if (c.kind == INSN_RETURN || c.kind == INSN_EXCEPTION_RETURN) {
            count(insn, PERFCTR_EVENT_RETURNS);
        }
    }
}
