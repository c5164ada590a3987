/*
 * perfctr: the perf-counter project's instrumentation plugin
 *
 * One plugin observes executed guest code for every host-side feature:
 * it decodes each translated instruction (isa.c) and instruments it for
 * the profiler (profile.c) and its tasks and handlers (contexts.c), for
 * the device's event counters (events.c) and for a timing model's
 * estimated cycles (cycles.c).  Arguments:
 *
 *   profile=exact    count every executed instruction by pc
 *   profile=N        sample the pc every N executed instructions
 *   out=FILE         where to write the profile and cycles at exit
 *   stacks=on|off    follow calls and returns (default on)
 *   events=on|off    count the events the devices want (default on;
 *                    nothing is instrumented until a device wants one)
 *   isa=thumb|a32|a64
 *                    the Arm instruction set the guest runs (default
 *                    thumb; a64 for qemu-system-aarch64)
 *   cycles=MODEL     estimate cycles with a core's timing model: m0,
 *                    m0-small-mul, m3, m4, m7, m33, m55 (Thumb) or e31
 *                    (rv32), none for a32 or a64; the device reads them as
 *                    PERFCTR_EVENT_CYCLES, out=FILE gets the totals
 *   window=START-END also count the cycles and instructions executed at
 *                    pcs START (included) to END (excluded); repeatable
 *   memory=PART      code and read-only data in PART's flash, read a
 *                    line at a time with its wait states, prefetch
 *                    buffer and cache (memory.c; M3/M4 models)
 *   flash=START-END  where that flash is (default 0-0x20000000)
 *   wait-states=N    flash wait states: the part's instead, or without
 *                    a part those each pipeline refill adds (default 0)
 *   stop=WHAT        end the run at an exact point: instructions:N,
 *                    cycles:N, time:NS or pc:ADDR[:K] (stop.c);
 *                    repeatable, the first reached ends it
 *   start=ADDR       profile and count cycles from the first time the
 *                    pc reaches ADDR
 *   tasks=CURRENT:NAME:LEN:STACK
 *                    where the RTOS keeps the running task's control
 *                    block, and its name and stack in it (contexts.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "profile/contexts.h"
#include "cycles/cycles.h"
#include "cycles/memory.h"
#include "events/events.h"
#include "profile/profile.h"
#include "stop/stop.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#pragma weak perfctr_hook_set_plugin

static char *out_path;
static bool profiling;
static bool counting_events = true;
static CyclesModel cycles_model;
static bool following_contexts;
static PerfctrPluginOps hook_ops;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    /*
     * Stops first, then events: both may abandon an instruction before
     * it runs, which must then not have been counted by anything else.
     */
    stop_instrument(tb);
    if (counting_events) {
        events_instrument(tb);
    }
    if (profiling) {
        profile_instrument(tb);
    }
    if (cycles_model) {
        cycles_instrument(tb);
    }
}

static void vcpu_created(qemu_plugin_id_t id, unsigned vcpu)
{
    if (profiling) {
        profile_vcpu_init(vcpu);
    }
    if (cycles_model) {
        cycles_vcpu_init(vcpu);
    }
    if (following_contexts) {
        contexts_vcpu_init(vcpu);
    }
}

static void finished(qemu_plugin_id_t id, void *udata)
{
    FILE *out = fopen(out_path, "w");

    if (!out) {
        g_autofree char *msg = g_strdup_printf(
            "perfctr: cannot write %s: %s\n", out_path, strerror(errno));
        fputs(msg, stderr);
        return;
    }
    if (profiling) {
        profile_write(out);
    } else {
        fprintf(out, "perfctr-profile 1\nmode none\n");
    }
    if (cycles_model) {
        cycles_write(out);
    }
    stop_write(out);
    fclose(out);
}

static bool refuse(const char *arg, const char *why)
{
    g_autofree char *msg = g_strdup_printf("perfctr: bad argument '%s': %s\n",
                                           arg, why);
    fputs(msg, stderr);
    return false;
}

static bool parse(const char *arg, ProfileConfig *config)
{
    g_auto(GStrv) kv = g_strsplit(arg, "=", 2);
    const char *key = kv[0], *value = kv[1];

    if (!value) {
        return refuse(arg, "expected KEY=VALUE");
    }
    if (g_str_equal(key, "out")) {
        g_free(out_path);
        out_path = g_strdup(value);
    } else if (g_str_equal(key, "profile")) {
        char *end;

        profiling = true;
        if (g_str_equal(value, "exact")) {
            config->period = 0;
            return true;
        }
        config->period = g_ascii_strtoull(value, &end, 10);
        if (*end || !config->period) {
            return refuse(arg, "give exact or a period of 1 or more");
        }
    } else if (g_str_equal(key, "stacks")) {
        if (!qemu_plugin_bool_parse(key, value, &config->stacks)) {
            return refuse(arg, "give on or off");
        }
    } else if (g_str_equal(key, "events")) {
        if (!qemu_plugin_bool_parse(key, value, &counting_events)) {
            return refuse(arg, "give on or off");
        }
    } else if (g_str_equal(key, "isa")) {
        if (g_str_equal(value, "thumb")) {
            config->isa = ISA_THUMB;
        } else if (g_str_equal(value, "a32")) {
            config->isa = ISA_A32;
        } else if (g_str_equal(value, "a64")) {
            config->isa = ISA_A64;
        } else {
            return refuse(arg, "give thumb, a32 or a64");
        }
    } else if (g_str_equal(key, "cycles")) {
        if (!cycles_parse_model(value, &cycles_model)) {
            return refuse(arg, "give m0, m0-small-mul, m3, m4, m7, m33, m55 "
                          "or e31");
        }
    } else if (g_str_equal(key, "window")) {
        if (!cycles_add_window(value)) {
            return refuse(arg, "give START-END, START below END");
        }
    } else if (g_str_equal(key, "memory")) {
        if (!memory_parse_part(value)) {
            g_autofree char *why = g_strdup_printf("known parts are %s",
                                                   memory_part_names());

            return refuse(arg, why);
        }
    } else if (g_str_equal(key, "flash")) {
        uint64_t start, end;

        if (!cycles_parse_range(value, &start, &end)) {
            return refuse(arg, "give START-END, START below END");
        }
        memory_set_flash(start, end);
    } else if (g_str_equal(key, "wait-states")) {
        char *end;
        uint64_t n = g_ascii_strtoull(value, &end, 10);

        if (*end || end == value || n > 100) {
            return refuse(arg, "give 0 to 100");
        }
        memory_set_wait_states(n);
    } else if (g_str_equal(key, "stop")) {
        const char *why;

        if (!stop_parse(value, &why)) {
            return refuse(arg, why);
        }
    } else if (g_str_equal(key, "start")) {
        if (!stop_parse_start(value)) {
            return refuse(arg, "give an address");
        }
    } else if (g_str_equal(key, "tasks")) {
        if (!contexts_parse_tasks(value)) {
            return refuse(arg, "give CURRENT:NAME:LEN:STACK (addresses and "
                          "offsets; STACK may be -)");
        }
    } else {
        return refuse(arg, "known keys are profile, out, stacks, events, "
                      "isa, cycles, window, memory, flash, wait-states, "
                      "stop, start and tasks");
    }
    return true;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    ProfileConfig config = { .isa = ISA_THUMB, .period = 0, .stacks = true };
    int i;

    if (g_str_has_prefix(info->target_name, "riscv")) {
        config.isa = ISA_RISCV;
    } else if (g_str_equal(info->target_name, "aarch64")) {
        config.isa = ISA_A64;
    } else if (!g_str_equal(info->target_name, "arm")) {
        fputs("perfctr: this plugin knows arm, aarch64 and riscv only\n",
              stderr);
        return -1;
    }
    for (i = 0; i < argc; i++) {
        if (!parse(argv[i], &config)) {
            return -1;
        }
    }
    if (profiling && !out_path) {
        fputs("perfctr: profile= needs out=FILE\n", stderr);
        return -1;
    }
    if (!stop_init()) {
        return -1;
    }
    if (profiling) {
        config.threads = info->system_emulation &&
                         info->system.smp_vcpus > 1;
        config.counts_blocks = perfctr_hook_set_plugin != NULL;
        profile_init(&config);
        hook_ops.block_left = profile_block_left;
    }
    if (cycles_model && !cycles_init(cycles_model, config.isa)) {
        return -1;
    }
    if (out_path) {
        qemu_plugin_register_atexit_cb(id, finished, NULL);
    }
    /* The device reads cycles through the events' reader */
    if (counting_events || cycles_model) {
        events_init(config.isa, cycles_model != 0, &hook_ops);
    }
    /* Tasks and handlers have call stacks: they follow the flow */
    following_contexts = profiling && config.stacks;
    if (following_contexts) {
        contexts_init(config.isa, cycles_model != 0);
        hook_ops.exception_entered = profile_exception_entered;
        hook_ops.exception_returned = profile_exception_returned;
    }
    if (perfctr_hook_set_plugin) {
        perfctr_hook_set_plugin(&hook_ops);
    } else {
        fputs("perfctr: this QEMU has no perf-counter hook: no events "
              "for the device, no tasks or handlers\n", stderr);
    }
    qemu_plugin_register_vcpu_init_cb(id, vcpu_created);
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    return 0;
}
