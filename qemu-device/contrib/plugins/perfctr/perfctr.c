/*
 * perfctr: the perf-counter project's instrumentation plugin
 *
 * One plugin observes executed guest code for every host-side feature:
 * it decodes each translated instruction (isa/) and instruments it for
 * the profiler and its tasks and handlers (profile/), for the devices'
 * event counters (events/), for a timing model's estimated cycles
 * (cycles/), for stops (stop/), for the functions (probe/) and
 * stores (watch/) that the host's RTOS analyses follow, and for the
 * stretches with interrupts masked (mask/, with the tasks).
 *
 * This file is their only hub: it parses every argument into one
 * configuration (config.h), which each module's init takes, and wires
 * the calls from one module to another that would otherwise call back
 * into it, through pointers it hands them at init: QEMU's hook
 * (PerfctrPluginOps), the contexts' view of the profile (ContextsOps),
 * the cycles that the events offer the devices (EventsCyclesReader)
 * and what reaching start= does (StopStarted).  Arguments:
 *
 *   profile=exact    count every executed instruction by pc
 *   profile=N        sample the pc every N executed instructions
 *   out=FILE         where to write the profile and cycles at exit
 *   stream=FILE      write the switches, probes' and stores' records to
 *                    FILE as they are made, not keeping them
 *                    (records/stream.h), with profile=, one vCPU
 *   stream-chunk=N   records between two flushes of stream= (default
 *                    4096; each is a write, and the host walks what it
 *                    has been given)
 *   stacks=on|off|flat
 *                    follow calls and returns (default on); flat: count
 *                    each call (the arcs) and follow tasks and handlers,
 *                    without call stacks, which costs far less when
 *                    sampling on a Cortex-M (profile/lazy.c; elsewhere
 *                    it is on)
 *   events=on|off    count the events the devices want (default on;
 *                    nothing is instrumented until a device wants one)
 *   isa=thumb|a32|a64
 *                    the Arm instruction set the guest runs (default
 *                    thumb; a64 for qemu-system-aarch64)
 *   cycles=MODEL     estimate cycles with a core's timing model: m0,
 *                    m0-small-mul, m3, m4, m7, m33, m55 (Thumb) or e31
 *                    (rv32), none for a32 or a64; the device reads them as
 *                    PERFCTR_EVENT_CYCLES, out=FILE gets the totals
 *   functions=FILE   the image's functions, "START END" a line: a branch
 *                    with link into its own function is a jump, not a
 *                    call (Armv6-M's far branches); a return no frame
 *                    expects unwinds to the function it lands in
 *                    (switch helpers, longjmp)
 *   windows=functions
 *                    a window on each function of functions= but those
 *                    the window= arguments before it overlap
 *   window=START-END also count the cycles and instructions executed at
 *                    pcs START (included) to END (excluded); repeatable
 *   memory=PART      code and read-only data in PART's flash, read a
 *                    line at a time with its wait states, prefetch
 *                    buffer and cache (cycles/memory.c; M3/M4 models)
 *   flash=START-END  where that flash is (default 0-0x20000000)
 *   wait-states=N    flash wait states: the part's instead, or without
 *                    a part those each pipeline refill adds (default 0)
 *   stop=WHAT        end the run at an exact point: instructions:N,
 *                    cycles:N, time:NS or pc:ADDR[:K] (stop/stop.c);
 *                    repeatable, the first reached ends it
 *   start=ADDR       profile and count cycles from the first time the
 *                    pc reaches ADDR
 *   probe=START-END  record the function at START's first two arguments
 *                    and what it returns (probe/probe.c), with its task;
 *                    repeatable, with profile=
 *   watch=START-END  record the stores that code at START to END makes
 *                    of a value in a watch-value= range (watch/watch.c),
 *                    with its task; repeatable, with profile=
 *   watch-value=START-END
 *                    the values watch= records; repeatable
 *   tasks=CURRENT:NAME:LEN:STACK
 *                    where the RTOS keeps the running task's control
 *                    block, and its name and stack in it (config.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "config.h"
#include "cycles/cycles.h"
#include "cycles/memory.h"
#include "events/events.h"
#include "mask/mask.h"
#include "perfctr-hook.h"
#include "profile/contexts.h"
#include "profile/profile.h"
#include "probe/probe.h"
#include "records/stream.h"
#include "stop/stop.h"
#include "watch/watch.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#pragma weak perfctr_hook_set_plugin

static PerfctrConfig config = {
    .stacks = true,
    .events = true,
    .flash = { 0, 0x20000000 },     /* the Armv7-M Code region */
    .wait_states = -1,
    .start_pc = NO_PC,
};
/* Tasks and handlers have call stacks: they follow the flow */
static bool following_contexts;
static PerfctrPluginOps hook_ops;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    /*
     * The check of a block's entry on the cycles' target first (it may
     * run the block's head instead), then stops, then the targets on
     * the cycles, then events: each may abandon an instruction before
     * it runs, which must then not have been counted by anything else.
     */
    if (config.cycles_model) {
        cycles_instrument_entry(tb);
    }
    stop_instrument(tb);
    if (config.cycles_model) {
        cycles_instrument_first(tb);
    }
    if (config.events) {
        events_instrument(tb);
    }
    if (config.profiling) {
        profile_instrument(tb);
    }
    if (config.n_probes) {
        probe_instrument(tb);
    }
    if (config.n_watch_code) {
        watch_instrument(tb);
    }
    if (following_contexts) {
        mask_instrument(tb);
    }
    if (config.cycles_model) {
        cycles_instrument(tb);
    }
}

static void vcpu_created(qemu_plugin_id_t id, unsigned vcpu)
{
    if (config.profiling) {
        profile_vcpu_init(vcpu);
    }
    if (config.cycles_model) {
        cycles_vcpu_init(vcpu);
    }
    /* (the contexts tell the probes which one runs, from the first) */
    if (config.n_probes) {
        probe_vcpu_init(vcpu);
    }
    if (following_contexts) {
        contexts_vcpu_init(vcpu);
        mask_vcpu_init(vcpu);
    }
}

/* Everything counted so far, to path: at exit, and a controller's snapshots */
static bool write_results(const char *path)
{
    FILE *out = fopen(path, "w");
    const char *stream = stream_path();

    if (!out) {
        g_autofree char *msg = g_strdup_printf(
            "perfctr: cannot write %s: %s\n", path, strerror(errno));
        fputs(msg, stderr);
        return false;
    }
    if (config.profiling) {
        profile_write(out);
    } else {
        fprintf(out, "perfctr-profile 2\nmode none\n");
    }
    if (config.cycles_model) {
        cycles_write(out);
    }
    if (config.n_probes) {
        probe_write(out);
    }
    if (config.n_watch_code) {
        watch_write(out);
    }
    if (following_contexts) {
        mask_write(out);
    }
    if (stream) {
        fprintf(out, "stream %s\n", stream);
    }
    stop_write(out);
    return fclose(out) == 0;
}

static void finished(qemu_plugin_id_t id, void *udata)
{
    stream_end();
    write_results(config.out_path);
}

/* From QEMU's hook: the vCPU left translated code and resumes at pc */
static void left_code(unsigned vcpu_index, uint64_t pc)
{
    if (config.cycles_model) {
        cycles_left_code(vcpu_index, pc);
    }
    events_left_code(vcpu_index, pc);
}

/* stream=: the contexts first (a record names them), then each record */
static bool start_stream(void)
{
    if (!stream_init(config.stream_path, config.stream_chunk)) {
        return false;
    }
    if (following_contexts) {
        stream_add(&contexts_stream);
    }
    if (config.n_probes) {
        stream_add(&probe_stream);
    }
    if (config.n_watch_code) {
        stream_add(&watch_stream);
    }
    return true;
}

/* From stop.c: the pc reached start= */
static void started(unsigned vcpu_index, uint64_t not_begun)
{
    stream_restart();
    if (config.profiling) {
        profile_restart(vcpu_index, not_begun);
    }
    if (config.cycles_model) {
        cycles_restart();
    }
}

/* From contexts.c: the vCPU runs another context, whose call stack is to */
static void switched(unsigned vcpu_index, CallStack *to)
{
    profile_switch(vcpu_index, to);
    if (config.n_probes) {
        probe_context_switched(vcpu_index, contexts_running(vcpu_index));
    }
}

static const ContextsOps contexts_with_cycles = {
    .executed = profile_executed,
    .run_stack = switched,
    .cycles = cycles_read,
};
static const ContextsOps contexts_without_cycles = {
    .executed = profile_executed,
    .run_stack = switched,
};
/* The probes' task: the one the contexts follow, or 0 */
static unsigned running_context(unsigned vcpu_index)
{
    return following_contexts ? profile_running_context(vcpu_index) : 0;
}

static const ProbeOps probe_ops = {
    .executed = profile_executed,
    .context = running_context,
};
static const WatchOps watch_ops = {
    .executed = profile_executed,
    .context = running_context,
};
static const WatchOps watch_ops_with_cycles = {
    .executed = profile_executed,
    .context = running_context,
    .cycles = cycles_read,
};
static const MaskOps mask_ops = {
    .executed = profile_executed,
    .in_handler = contexts_in_handler,
};
static const MaskOps mask_ops_with_cycles = {
    .executed = profile_executed,
    .in_handler = contexts_in_handler,
    .reads_time_before = cycles_read_before,
};
static const EventsCyclesReader model_cycles = {
    .cycles = cycles_read,
    .memory_stalls = cycles_read_memory_stalls,
};

static bool refuse(const char *arg, const char *why)
{
    g_autofree char *msg = g_strdup_printf("perfctr: bad argument '%s': %s\n",
                                           arg, why);
    fputs(msg, stderr);
    return false;
}

/* A number, hex or decimal */
static bool parse_count(const char *text, uint64_t *value)
{
    char *end;

    *value = g_ascii_strtoull(text, &end, 0);
    return end != text && !*end;
}

/* "START-END" (hex or decimal; END excluded) */
static bool parse_range(const char *text, AddressRange *range)
{
    g_auto(GStrv) ends = g_strsplit(text, "-", 2);
    char *end_a, *end_b;

    if (!ends[0] || !ends[1]) {
        return false;
    }
    range->start = g_ascii_strtoull(ends[0], &end_a, 0);
    range->end = g_ascii_strtoull(ends[1], &end_b, 0);
    return !*end_a && !*end_b && end_a != ends[0] && range->end > range->start;
}

static bool in_order_and_apart(const AddressRange *r, unsigned n)
{
    unsigned i;

    for (i = 1; i < n; i++) {
        if (r[i].start < r[i - 1].end) {
            return false;
        }
    }
    return true;
}

static int by_start(const void *a, const void *b)
{
    const AddressRange *x = a, *y = b;

    return x->start < y->start ? -1 : x->start > y->start;
}

/* probe=, watch=, watch-value=: one more range, all in order and apart */
static bool add_range(const char *arg, const char *value,
                      AddressRange **ranges, unsigned *n)
{
    AddressRange r;

    if (!parse_range(value, &r)) {
        return refuse(arg, "give START-END, START below END");
    }
    *ranges = g_renew(AddressRange, *ranges, *n + 1);
    (*ranges)[(*n)++] = r;
    qsort(*ranges, *n, sizeof(AddressRange), by_start);
    if (!in_order_and_apart(*ranges, *n)) {
        return refuse(arg, "two ranges overlap");
    }
    return true;
}

/* window=: one more window after the ones there are */
static void add_window(PerfctrConfig *config, const AddressRange *add)
{
    config->windows = g_renew(AddressRange, config->windows,
                              config->n_windows + 1);
    config->windows[config->n_windows++] = *add;
    config->windows_sorted = in_order_and_apart(config->windows,
                                                config->n_windows);
}

static bool overlaps_a_window(const PerfctrConfig *config,
                              const AddressRange *r, unsigned given)
{
    unsigned i;

    for (i = 0; i < given; i++) {
        if (r->start < config->windows[i].end &&
            config->windows[i].start < r->end) {
            return true;
        }
    }
    return false;
}

/*
 * windows=functions: a window on each function but those that windows
 * given before overlap (a function split into its instructions' windows
 * for --annotate), all of them in order for a binary search if apart
 */
static void add_function_windows(PerfctrConfig *config)
{
    unsigned given = config->n_windows, i;

    config->windows = g_renew(AddressRange, config->windows,
                              given + config->n_functions);
    for (i = 0; i < config->n_functions; i++) {
        if (!overlaps_a_window(config, &config->functions[i], given)) {
            config->windows[config->n_windows++] = config->functions[i];
        }
    }
    if (given) {
        qsort(config->windows, config->n_windows, sizeof(AddressRange),
              by_start);
    }
    config->windows_sorted = in_order_and_apart(config->windows,
                                                config->n_windows);
}

/*
 * functions=FILE: the image's functions, a line "START END" each (the
 * symbol table's, as scripts/profile writes them): what a call is (a
 * branch-with-link into its own function is a jump), and windows=.
 * NULL, or why the file is not that.
 */
static const char *read_functions(const char *path, PerfctrConfig *config)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    GArray *found = g_array_new(false, false, sizeof(AddressRange));
    char **line;

    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        g_array_free(found, true);
        return "cannot read the file";
    }
    lines = g_strsplit(text, "\n", -1);
    for (line = lines; *line; line++) {
        AddressRange f;
        char *end;

        if (!**line) {
            continue;
        }
        f.start = g_ascii_strtoull(*line, &end, 0);
        f.end = g_ascii_strtoull(end, &end, 0);
        if (*end || f.end <= f.start) {
            g_array_free(found, true);
            return "each line must be START END, START below END";
        }
        g_array_append_val(found, f);
    }
    g_array_sort(found, by_start);
    if (!in_order_and_apart((AddressRange *)found->data, found->len)) {
        g_array_free(found, true);
        return "two functions overlap";
    }
    config->n_functions = found->len;
    config->functions = (AddressRange *)g_array_free(found, false);
    return NULL;
}

/* stop=: instructions:N, cycles:N, time:NS or pc:ADDR[:K] */
static bool parse_stop(const char *arg, const char *value,
                       PerfctrConfig *config)
{
    g_auto(GStrv) part = g_strsplit(value, ":", 3);
    StopAfter stop;
    uint64_t count;

    if (!part[0] || !part[1] || !parse_count(part[1], &count)) {
        return refuse(arg, "give instructions:N, cycles:N, time:NS or "
                      "pc:ADDR[:K]");
    }
    if (g_str_equal(part[0], "pc")) {
        StopAtPc at = { .pc = count, .nth = 1 };

        if (part[2] && (!parse_count(part[2], &at.nth) || !at.nth)) {
            return refuse(arg, "K in pc:ADDR:K counts from 1");
        }
        config->pc_stops = g_renew(StopAtPc, config->pc_stops,
                                   config->n_pc_stops + 1);
        config->pc_stops[config->n_pc_stops++] = at;
        return true;
    }
    if (part[2]) {
        return refuse(arg, "only pc:ADDR:K has a third part");
    }
    if (g_str_equal(part[0], "instructions")) {
        stop.kind = PERFCTR_STOP_INSTRUCTIONS;
    } else if (g_str_equal(part[0], "cycles")) {
        stop.kind = PERFCTR_STOP_CYCLES;
    } else if (g_str_equal(part[0], "time")) {
        stop.kind = PERFCTR_STOP_TIME;
    } else {
        return refuse(arg, "give instructions:N, cycles:N, time:NS or "
                      "pc:ADDR[:K]");
    }
    stop.count = count;
    stop.arg = g_strdup(arg);
    config->stops_after = g_renew(StopAfter, config->stops_after,
                                  config->n_stops_after + 1);
    config->stops_after[config->n_stops_after++] = stop;
    return true;
}

/* tasks=CURRENT:NAME:LEN:STACK (addresses and offsets; STACK may be -) */
static bool parse_tasks(const char *value, RtosLayout *rtos)
{
    g_auto(GStrv) f = g_strsplit(value, ":", 4);
    char *end;

    if (g_strv_length(f) != 4) {
        return false;
    }
    rtos->current = g_ascii_strtoull(f[0], &end, 0);
    if (*end || !rtos->current) {
        return false;
    }
    rtos->name_offset = g_ascii_strtoull(f[1], &end, 0);
    if (*end) {
        return false;
    }
    rtos->name_len = g_ascii_strtoull(f[2], &end, 0);
    if (*end || rtos->name_len >= CONFIG_MAX_TASK_NAME) {
        return false;
    }
    if (g_str_equal(f[3], "-")) {
        rtos->stack_offset = -1;
        return true;
    }
    rtos->stack_offset = g_ascii_strtoll(f[3], &end, 0);
    return !*end && rtos->stack_offset >= 0;
}

static bool parse(const char *arg, PerfctrConfig *config)
{
    g_auto(GStrv) kv = g_strsplit(arg, "=", 2);
    const char *key = kv[0], *value = kv[1];

    if (!value) {
        return refuse(arg, "expected KEY=VALUE");
    }
    if (g_str_equal(key, "out")) {
        g_free(config->out_path);
        config->out_path = g_strdup(value);
    } else if (g_str_equal(key, "stream")) {
        g_free(config->stream_path);
        config->stream_path = g_strdup(value);
    } else if (g_str_equal(key, "stream-chunk")) {
        if (!parse_count(value, &config->stream_chunk) ||
            !config->stream_chunk || config->stream_chunk > G_MAXUINT) {
            return refuse(arg, "give a count of records, 1 or more");
        }
    } else if (g_str_equal(key, "profile")) {
        char *end;

        config->profiling = true;
        if (g_str_equal(value, "exact")) {
            config->period = 0;
            return true;
        }
        config->period = g_ascii_strtoull(value, &end, 10);
        if (*end || !config->period) {
            return refuse(arg, "give exact or a period of 1 or more");
        }
    } else if (g_str_equal(key, "stacks")) {
        config->flat = g_str_equal(value, "flat");
        if (config->flat) {
            config->stacks = true;
        } else if (!qemu_plugin_bool_parse(key, value, &config->stacks)) {
            return refuse(arg, "give on, off or flat");
        }
    } else if (g_str_equal(key, "events")) {
        if (!qemu_plugin_bool_parse(key, value, &config->events)) {
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
        if (!cycles_model_named(value, &config->cycles_model)) {
            return refuse(arg, "give m0, m0-small-mul, m3, m4, m7, m33, m55 "
                          "or e31");
        }
    } else if (g_str_equal(key, "window")) {
        AddressRange w;

        if (!parse_range(value, &w)) {
            return refuse(arg, "give START-END, START below END");
        }
        add_window(config, &w);
    } else if (g_str_equal(key, "probe")) {
        return add_range(arg, value, &config->probes, &config->n_probes);
    } else if (g_str_equal(key, "watch")) {
        return add_range(arg, value, &config->watch_code,
                         &config->n_watch_code);
    } else if (g_str_equal(key, "watch-value")) {
        return add_range(arg, value, &config->watch_values,
                         &config->n_watch_values);
    } else if (g_str_equal(key, "windows")) {
        if (!g_str_equal(value, "functions") || !config->n_functions) {
            return refuse(arg, "give functions, after functions=FILE");
        }
        add_function_windows(config);
    } else if (g_str_equal(key, "functions")) {
        const char *why = read_functions(value, config);

        if (why) {
            return refuse(arg, why);
        }
    } else if (g_str_equal(key, "memory")) {
        config->flash_part = memory_part_named(value);
        if (!config->flash_part) {
            g_autofree char *why = g_strdup_printf("known parts are %s",
                                                   memory_part_names());

            return refuse(arg, why);
        }
    } else if (g_str_equal(key, "flash")) {
        if (!parse_range(value, &config->flash)) {
            return refuse(arg, "give START-END, START below END");
        }
    } else if (g_str_equal(key, "wait-states")) {
        char *end;
        uint64_t n = g_ascii_strtoull(value, &end, 10);

        if (*end || end == value || n > 100) {
            return refuse(arg, "give 0 to 100");
        }
        config->wait_states = n;
    } else if (g_str_equal(key, "stop")) {
        return parse_stop(arg, value, config);
    } else if (g_str_equal(key, "start")) {
        if (!parse_count(value, &config->start_pc)) {
            return refuse(arg, "give an address");
        }
    } else if (g_str_equal(key, "tasks")) {
        if (!parse_tasks(value, &config->rtos)) {
            return refuse(arg, "give CURRENT:NAME:LEN:STACK (addresses and "
                          "offsets; STACK may be -)");
        }
    } else {
        return refuse(arg, "known keys are profile, out, stream, "
                      "stream-chunk, stacks, events, "
                      "isa, cycles, window, windows, functions, memory, "
                      "flash, wait-states, "
                      "stop, start, probe, watch, watch-value and tasks");
    }
    return true;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    int i;

    if (g_str_has_prefix(info->target_name, "riscv")) {
        config.isa = ISA_RISCV;
    } else if (g_str_equal(info->target_name, "aarch64")) {
        config.isa = ISA_A64;
    } else if (g_str_equal(info->target_name, "arm")) {
        config.isa = ISA_THUMB;
    } else {
        fputs("perfctr: this plugin knows arm, aarch64 and riscv only\n",
              stderr);
        return -1;
    }
    for (i = 0; i < argc; i++) {
        if (!parse(argv[i], &config)) {
            return -1;
        }
    }
    if (config.profiling && !config.out_path) {
        fputs("perfctr: profile= needs out=FILE\n", stderr);
        return -1;
    }
    if (config.n_probes && !config.profiling) {
        fputs("perfctr: probe= needs profile=\n", stderr);
        return -1;
    }
    if (config.n_watch_code && !config.profiling) {
        fputs("perfctr: watch= needs profile=\n", stderr);
        return -1;
    }
    if (config.n_watch_code && !config.n_watch_values) {
        fputs("perfctr: watch= needs watch-value=\n", stderr);
        return -1;
    }
    config.threads = info->system_emulation && info->system.smp_vcpus > 1;
    if (config.stream_path && (!config.profiling || config.threads)) {
        fputs("perfctr: stream= needs profile= and one vCPU\n", stderr);
        return -1;
    }
    config.counts_blocks = perfctr_hook_set_plugin != NULL;
    following_contexts = config.profiling && config.stacks;

    if (!stop_init(&config, started)) {
        return -1;
    }
    if (config.profiling) {
        profile_init(&config);
        hook_ops.block_left = profile_block_left;
    }
    if (config.n_probes) {
        probe_init(&config, &probe_ops);
    }
    if (config.n_watch_code) {
        watch_init(&config, config.cycles_model ? &watch_ops_with_cycles :
                   &watch_ops);
    }
    if (config.cycles_model && !cycles_init(&config)) {
        return -1;
    }
    if (config.out_path) {
        qemu_plugin_register_atexit_cb(id, finished, NULL);
        hook_ops.write_results = write_results;
    }
    /* The devices read cycles through the events' reader */
    if (config.events || config.cycles_model) {
        events_init(&config, config.cycles_model ? &model_cycles : NULL,
                    &hook_ops);
        hook_ops.left_code = left_code;
    }
    if (following_contexts) {
        contexts_init(&config, config.cycles_model ? &contexts_with_cycles :
                      &contexts_without_cycles);
        hook_ops.exception_entered = profile_exception_entered;
        hook_ops.exception_returned = profile_exception_returned;
        hook_ops.irq_pended = profile_irq_pended;
        hook_ops.irq_cleared = profile_irq_cleared;
        mask_init(&config, config.cycles_model ? &mask_ops_with_cycles :
                  &mask_ops);
    }
    if (config.stream_path && !start_stream()) {
        return -1;
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
