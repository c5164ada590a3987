/*
 * perfctr plugin: where a run stops and where its profile starts
 *
 *   stop=instructions:N  after N retired instructions (-icount)
 *   stop=cycles:N        after N estimated cycles (with cycles=MODEL)
 *   stop=time:NS         after NS nanoseconds of virtual time
 *   stop=pc:ADDR[:K]     when the pc reaches ADDR for the K-th time
 *                        (default 1), before that instruction runs
 *   start=ADDR           the profile and the cycles count from the
 *                        first time the pc reaches ADDR
 *
 * Counts and time are stopped by QEMU (accel/tcg/perfctr-stop.h); a pc is
 * counted here, inline, and only its K-th arrival calls back.  Both
 * are exact: the same instruction ends the run on every run.  What
 * ended the run, and what it covers, goes to out=FILE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>

#include "perfctr-stop.h"
#include "stop/stop.h"

/* QEMU exports them; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_stop_after
#pragma weak perfctr_stop_here
#pragma weak perfctr_stop_outcome

static const PerfctrConfig *config;
static StopStarted on_start;
/* Per vCPU: the arrivals at each pc stop, then the start reached */
static struct qemu_plugin_scoreboard *arrivals;
static bool started;

/* QEMU's stops after a count, as perfctr.c parsed them */
static bool arm_stops_after(void)
{
    const char *why = "this QEMU has no perf-counter stops";
    unsigned i;

    for (i = 0; i < config->n_stops_after; i++) {
        const StopAfter *stop = &config->stops_after[i];

        if (!perfctr_stop_after ||
            !perfctr_stop_after(stop->kind, stop->count, &why)) {
            g_autofree char *msg = g_strdup_printf(
                "perfctr: bad argument '%s': %s\n", stop->arg, why);

            fputs(msg, stderr);
            return false;
        }
    }
    return true;
}

bool stop_init(const PerfctrConfig *cfg, StopStarted started_cb)
{
    config = cfg;
    on_start = started_cb;
    if (!arm_stops_after()) {
        return false;
    }
    if (config->n_pc_stops && !perfctr_stop_here) {
        fputs("perfctr: this QEMU has no perf-counter stops\n", stderr);
        return false;
    }
    arrivals = qemu_plugin_scoreboard_new((config->n_pc_stops + 1) *
                                          sizeof(uint64_t));
    return true;
}

static qemu_plugin_u64 arrivals_at(size_t i)
{
    return (qemu_plugin_u64) { arrivals, i * sizeof(uint64_t) };
}

static void __attribute__((noinline)) pc_reached(unsigned vcpu_index,
                                                 void *udata)
{
    uintptr_t host_pc = (uintptr_t)__builtin_return_address(0);
    const StopAtPc *stop = udata;
    char what[64];      /* QEMU keeps a copy */

    g_snprintf(what, sizeof(what), "pc 0x%" PRIx64 " %" PRIu64, stop->pc,
               stop->nth);
    perfctr_stop_here(vcpu_index, host_pc, what);
}

static void start_reached(unsigned vcpu_index, void *udata)
{
    qemu_plugin_u64 reached = arrivals_at(config->n_pc_stops);
    int i;

    /* The first vCPU to get there starts the profile of all */
    for (i = 0; i < qemu_plugin_num_vcpus(); i++) {
        qemu_plugin_u64_set(reached, i, 1);
    }
    started = true;
    on_start(vcpu_index, (uintptr_t)udata);
}

void stop_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i, s;
    size_t stops = config->n_pc_stops;

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);

        for (s = 0; s < stops; s++) {
            const StopAtPc *stop = &config->pc_stops[s];

            if (stop->pc != pc) {
                continue;
            }
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, arrivals_at(s), 1);
            /* Reads the registers: QEMU restores the state and leaves */
            qemu_plugin_register_vcpu_insn_exec_cond_cb(
                insn, pc_reached, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_COND_EQ,
                arrivals_at(s), stop->nth, (void *)stop);
        }
        if (pc == config->start_pc) {
            qemu_plugin_register_vcpu_insn_exec_cond_cb(
                insn, start_reached, QEMU_PLUGIN_CB_NO_REGS,
                QEMU_PLUGIN_COND_EQ, arrivals_at(stops), 0,
                (void *)(uintptr_t)(n - i));    /* not begun, this one too */
        }
    }
}

void stop_write(FILE *out)
{
    const char *stopped_by = NULL;
    uint64_t instructions = 0, ns = 0;
    bool known = perfctr_stop_outcome &&
                 perfctr_stop_outcome(&stopped_by, &instructions, &ns);

    if (known) {
        fprintf(out, "run-instructions %" PRIu64 "\n", instructions);
    }
    if (perfctr_stop_outcome) {
        fprintf(out, "run-ns %" PRIu64 "\n", ns);
    }
    if (stopped_by) {
        fprintf(out, "stopped-by %s\n", stopped_by);
    }
    if (config->start_pc != NO_PC) {
        fprintf(out, "start 0x%" PRIx64 " %s\n", config->start_pc,
                started ? "reached" : "not-reached");
    }
}
