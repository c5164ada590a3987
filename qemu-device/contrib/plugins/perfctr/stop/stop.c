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
 * Counts and time are stopped by QEMU (qemu/perfctr-stop.h); a pc is
 * counted here, inline, and only its K-th arrival calls back.  Both
 * are exact: the same instruction ends the run on every run.  What
 * ended the run, and what it covers, goes to out=FILE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cycles/cycles.h"
#include "profile/profile.h"
#include "stop/stop.h"
#include "perfctr-stop.h"

/* QEMU exports them; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_stop_after
#pragma weak perfctr_stop_here
#pragma weak perfctr_stop_outcome

#define NO_PC UINT64_MAX

typedef struct PcStop {
    uint64_t pc;
    uint64_t nth;
    char what[64];
} PcStop;

static GArray *pc_stops;
static uint64_t start_pc = NO_PC;
/* Per vCPU: the arrivals at each pc stop, then the start reached */
static struct qemu_plugin_scoreboard *arrivals;
static bool started;

static bool parse_count(const char *text, uint64_t *value)
{
    char *end;

    *value = g_ascii_strtoull(text, &end, 0);
    return end != text && !*end;
}

bool stop_parse(const char *value, const char **why)
{
    g_auto(GStrv) part = g_strsplit(value, ":", 3);
    uint64_t count;
    PerfctrStopKind kind;

    if (!part[0] || !part[1] || !parse_count(part[1], &count)) {
        *why = "give instructions:N, cycles:N, time:NS or pc:ADDR[:K]";
        return false;
    }
    if (g_str_equal(part[0], "pc")) {
        PcStop stop = { .pc = count, .nth = 1 };

        if (part[2] && (!parse_count(part[2], &stop.nth) || !stop.nth)) {
            *why = "K in pc:ADDR:K counts from 1";
            return false;
        }
        g_snprintf(stop.what, sizeof(stop.what), "pc 0x%" PRIx64 " %" PRIu64,
                   stop.pc, stop.nth);
        if (!pc_stops) {
            pc_stops = g_array_new(false, false, sizeof(PcStop));
        }
        g_array_append_val(pc_stops, stop);
        return true;
    }
    if (part[2]) {
        *why = "only pc:ADDR:K has a third part";
        return false;
    }
    if (g_str_equal(part[0], "instructions")) {
        kind = PERFCTR_STOP_INSTRUCTIONS;
    } else if (g_str_equal(part[0], "cycles")) {
        kind = PERFCTR_STOP_CYCLES;
    } else if (g_str_equal(part[0], "time")) {
        kind = PERFCTR_STOP_TIME;
    } else {
        *why = "give instructions:N, cycles:N, time:NS or pc:ADDR[:K]";
        return false;
    }
    if (!perfctr_stop_after) {
        *why = "this QEMU has no perf-counter stops";
        return false;
    }
    return perfctr_stop_after(kind, count, why);
}

bool stop_parse_start(const char *value)
{
    return parse_count(value, &start_pc);
}

bool stop_init(void)
{
    size_t n = pc_stops ? pc_stops->len : 0;

    if (n && !perfctr_stop_here) {
        fputs("perfctr: this QEMU has no perf-counter stops\n", stderr);
        return false;
    }
    arrivals = qemu_plugin_scoreboard_new((n + 1) * sizeof(uint64_t));
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
    PcStop *stop = udata;

    perfctr_stop_here(vcpu_index, host_pc, stop->what);
}

static void start_reached(unsigned vcpu_index, void *udata)
{
    qemu_plugin_u64 reached = arrivals_at(pc_stops ? pc_stops->len : 0);
    int i;

    /* The first vCPU to get there starts the profile of all */
    for (i = 0; i < qemu_plugin_num_vcpus(); i++) {
        qemu_plugin_u64_set(reached, i, 1);
    }
    started = true;
    profile_restart(vcpu_index, (uintptr_t)udata);
    cycles_restart();
}

bool stop_point(uint64_t pc)
{
    guint i;

    for (i = 0; pc_stops && i < pc_stops->len; i++) {
        if (g_array_index(pc_stops, PcStop, i).pc == pc) {
            return true;
        }
    }
    return pc == start_pc;
}

void stop_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i, s;
    size_t stops = pc_stops ? pc_stops->len : 0;

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);

        for (s = 0; s < stops; s++) {
            PcStop *stop = &g_array_index(pc_stops, PcStop, s);

            if (stop->pc != pc) {
                continue;
            }
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, arrivals_at(s), 1);
            /* Reads the registers: QEMU restores the state and leaves */
            qemu_plugin_register_vcpu_insn_exec_cond_cb(
                insn, pc_reached, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_COND_EQ,
                arrivals_at(s), stop->nth, stop);
        }
        if (pc == start_pc) {
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
    if (start_pc != NO_PC) {
        fprintf(out, "start 0x%" PRIx64 " %s\n", start_pc,
                started ? "reached" : "not-reached");
    }
}
