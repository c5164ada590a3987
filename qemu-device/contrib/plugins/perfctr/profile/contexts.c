/*
 * perfctr plugin: execution contexts (tasks and exception handlers)
 *
 * QEMU's execution loop tells the plugin, through the hook, of every
 * exception the guest takes: its number, where it interrupted and the
 * stack pointer there.  Returns are the instructions that return from
 * an exception (MRET, ERET, SUBS pc, lr...), seen at the next block's
 * entry, or, on Cortex-M, QEMU's own exception return, which the hook
 * reports with the IPSR after it (a tail-chained exception is entered
 * there).  So each vCPU runs one context at a time: the innermost
 * active handler, or else its current task.
 *
 * A return to the task level with a stack pointer other than the one
 * the task was interrupted with is a context switch: an RTOS swapped
 * the stacks.  Without RTOS knowledge a task is known by its stack
 * pointer when it was switched out (the same comes back when it is
 * switched in again: exception entry and return are symmetric); with
 * tasks= the plugin reads the RTOS's pointer to the running task's
 * control block instead, and the task's name and stack from it.
 *
 * Each context has a call stack of its own (calltree.h), which it
 * hands profile.c when it runs (ContextsOps), and counts its
 * instructions (and cycles), switches, and for a handler each run's
 * own instructions (not those of handlers that preempted it).  Each
 * context's deepest and highest stack pointer: in Arm code QEMU's
 * translator keeps the extremes of every write of sp (perfctr-hook.h),
 * taken at each change of context, and around an instruction that
 * switches stacks (whose own write is another stack's); elsewhere the
 * stack pointer is read after every instruction that may lower it.
 * Every change of context is kept, with its virtual time, for the
 * timeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "isa/registers.h"
#include "perfctr-hook.h"
#include "profile/contexts.h"
#include "records/records.h"
#include "records/stream.h"

/* QEMU exports them; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_hook_virtual_ns
#pragma weak perfctr_hook_stack_pointer
#pragma weak perfctr_hook_keep_sp_extremes
#pragma weak perfctr_hook_take_sp_extremes

#define MAX_NESTING 64
#define MAX_SWITCHES (1u << 20)

typedef struct Context {
    unsigned id;
    bool handler;
    uint64_t number;            /* a handler's exception number */
    uint64_t first_pc;          /* where it first ran; 0 if not known */
    uint64_t key;               /* a task's control block, or its sp */
    uint64_t stack_base;        /* a task's stack, lowest address; or 0 */
    char name[CONFIG_MAX_TASK_NAME];    /* a task's name in the RTOS */
    CallStack *calls;
    uint64_t instructions;
    uint64_t cycles;
    uint64_t switches_in;       /* times a task was switched in */
    uint64_t runs;              /* times a handler was entered */
    uint64_t run_instructions;  /* of the current run, so far */
    uint64_t run_cycles;
    uint64_t run_min, run_max, run_total;
    uint64_t run_cycles_min, run_cycles_max;
    uint64_t sp_low, sp_high;   /* its stack pointer's range */
    uint64_t run_sp;            /* a handler's sp when this run began */
    uint64_t used;              /* a handler's most stack in one run */
    uint64_t saved_sp;          /* a task's sp when last interrupted */
    /* A handler's latency: from its exception pended to its entry */
    uint64_t latencies, latency_min, latency_max, latency_total;
    uint64_t latency_ns_min, latency_ns_max, latency_ns_total;
} Context;

/* When an exception was pended, while it is (by number) */
typedef struct Pended {
    uint64_t instructions;
    int64_t ns;
} Pended;

typedef struct VcpuContexts {
    Context *task;              /* the task that runs, or was interrupted */
    Context *handlers[MAX_NESTING];   /* active handlers, innermost last */
    unsigned nesting;
    unsigned nesting_lost;      /* handlers nested deeper than kept */
    Context *running;
    uint64_t since;             /* instructions when running began */
    uint64_t since_cycles;
    GByteArray *buf;
    GHashTable *pended;         /* number -> Pended */
} VcpuContexts;

typedef struct Switch {
    int64_t ns;
    uint64_t instructions;
    uint64_t cycles;            /* the timing model's, or 0 */
    uint32_t vcpu;
    uint32_t id;                /* the context that runs from then on */
} Switch;

static const PerfctrConfig *config;
static const RtosLayout *rtos;  /* where the RTOS keeps its running task */
static const ContextsOps *ops;
static GPtrArray *contexts;     /* by id */
static GPtrArray *vcpus;
static GHashTable *handlers;    /* number -> Context */
static GHashTable *tasks;       /* key -> Context (RTOS) */
static GHashTable *suspended;   /* sp when switched out -> Context */
static Records switches;
static guint contexts_streamed;  /* of contexts, those in the stream */
static uint64_t switches_dropped;
static struct qemu_plugin_register *reg_sp, *reg_pc, *reg_lr, *reg_msp,
    *reg_psp;
static bool sp_extremes;        /* QEMU keeps the stack pointer's */

static Context *new_context(bool handler)
{
    Context *c = g_new0(Context, 1);

    c->id = contexts->len;
    c->handler = handler;
    c->calls = calltree_new_stack();
    c->run_min = c->run_cycles_min = UINT64_MAX;
    c->latency_min = c->latency_ns_min = UINT64_MAX;
    c->sp_low = UINT64_MAX;
    g_ptr_array_add(contexts, c);
    return c;
}

void contexts_init(const PerfctrConfig *cfg, const ContextsOps *wired)
{
    config = cfg;
    rtos = &cfg->rtos;
    ops = wired;
    contexts = g_ptr_array_new();
    vcpus = g_ptr_array_new();
    handlers = g_hash_table_new(g_int64_hash, g_int64_equal);
    tasks = g_hash_table_new(g_int64_hash, g_int64_equal);
    suspended = g_hash_table_new(g_int64_hash, g_int64_equal);
    records_init(&switches, sizeof(Switch));
    sp_extremes = perfctr_hook_keep_sp_extremes &&
                  (cfg->isa == ISA_THUMB || cfg->isa == ISA_A32);
    if (sp_extremes) {
        perfctr_hook_keep_sp_extremes();
    }
}

bool contexts_sp_moves_kept(void)
{
    return sp_extremes;
}

static VcpuContexts *vcpu_contexts(unsigned index)
{
    return g_ptr_array_index(vcpus, index);
}

static uint64_t read_reg(VcpuContexts *vc, struct qemu_plugin_register *reg)
{
    /* Cortex-M's lr is r14; sp, pc, msp and psp are GDB's */
    return registers_read(reg, reg == reg_lr ? 14 : -1, vc->buf);
}

/* The stack pointer (reg_sp): QEMU's hook reads it without copying */
static uint64_t read_sp(VcpuContexts *vc)
{
    return perfctr_hook_stack_pointer ? perfctr_hook_stack_pointer() :
           read_reg(vc, reg_sp);
}

/* A pointer in guest memory (64-bit in A64); 0 if it cannot be read */
static uint64_t read_pointer(VcpuContexts *vc, uint64_t addr)
{
    unsigned size = config->isa == ISA_A64 ? 8 : 4;
    uint64_t value = 0;

    if (!qemu_plugin_read_memory_vaddr(addr, vc->buf, size)) {
        return 0;
    }
    while (size-- > 0) {
        value = value << 8 | vc->buf->data[size];   /* little-endian */
    }
    return value;
}

static void note_sp(Context *c, uint64_t sp)
{
    c->sp_low = MIN(c->sp_low, sp);
    c->sp_high = MAX(c->sp_high, sp);
    if (c->handler && sp < c->run_sp) {
        /* it may run on whatever stack it interrupted: count per run */
        c->used = MAX(c->used, c->run_sp - sp);
    }
}

/* The stack pointer's extremes QEMU kept since last taken, into c */
static void note_sp_extremes(unsigned index, Context *c)
{
    uint64_t low, high;

    if (sp_extremes && perfctr_hook_take_sp_extremes(index, &low, &high)) {
        note_sp(c, low);
        note_sp(c, high);
    }
}

static void add_switch(unsigned index, uint64_t now, uint64_t cycles,
                       Context *to)
{
    Switch s = {
        .ns = perfctr_hook_virtual_ns ? perfctr_hook_virtual_ns(now) : -1,
        .instructions = now,
        .cycles = cycles,
        .vcpu = index,
        .id = to->id,
    };

    if (records_made(&switches) >= MAX_SWITCHES) {
        switches_dropped++;
        return;
    }
    g_array_append_val(switches.kept, s);
    stream_recorded(now);
}

/* Charge what ran since the last change to the context that ran it */
static void account(VcpuContexts *vc, unsigned index)
{
    Context *c = vc->running;
    uint64_t now = ops->executed(index);
    uint64_t cycles = ops->cycles ? ops->cycles(index) : 0;

    note_sp_extremes(index, c);
    c->instructions += now - vc->since;
    c->cycles += cycles - vc->since_cycles;
    if (c->handler) {
        c->run_instructions += now - vc->since;
        c->run_cycles += cycles - vc->since_cycles;
    }
    vc->since = now;
    vc->since_cycles = cycles;
}

/* From now on the vCPU runs c (what ran before is accounted) */
static void run(VcpuContexts *vc, unsigned index, Context *c)
{
    vc->running = c;
    ops->run_stack(index, c->calls);
    add_switch(index, vc->since, vc->since_cycles, c);
}

unsigned contexts_running(unsigned index)
{
    return vcpu_contexts(index)->running->id;
}

bool contexts_m_profile(void)
{
    return reg_psp != NULL;
}

bool contexts_in_handler(unsigned index)
{
    return vcpu_contexts(index)->nesting > 0;
}

void contexts_vcpu_init(unsigned index)
{
    VcpuContexts *vc;

    if (!reg_sp) {
        g_autoptr(GArray) all = qemu_plugin_get_registers();
        guint i;

        /*
         * GDB's names: every guest has sp and pc (AArch64's sp is the
         * one in use, SP_EL0 or SP_ELx); lr, msp and psp are
         * Cortex-M's, for its EXC_RETURN (AArch64 has no lr by name)
         */
        for (i = 0; i < all->len; i++) {
            qemu_plugin_reg_descriptor *d =
                &g_array_index(all, qemu_plugin_reg_descriptor, i);
            struct qemu_plugin_register **slot =
                g_str_equal(d->name, "sp") ? &reg_sp :
                g_str_equal(d->name, "pc") ? &reg_pc :
                g_str_equal(d->name, "lr") ? &reg_lr :
                g_str_equal(d->name, "msp") ? &reg_msp :
                g_str_equal(d->name, "psp") ? &reg_psp : NULL;

            if (slot && !*slot) {
                *slot = d->handle;
            }
        }
    }
    while (vcpus->len <= index) {
        vc = g_new0(VcpuContexts, 1);
        vc->buf = g_byte_array_new();
        vc->pended = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                           g_free, g_free);
        g_ptr_array_add(vcpus, vc);
    }
    vc = vcpu_contexts(index);
    vc->task = new_context(false);
    vc->running = vc->task;
    vc->since = ops->executed(index);
    vc->since_cycles = ops->cycles ? ops->cycles(index) : 0;
    ops->run_stack(index, vc->task->calls);
    add_switch(index, vc->since, vc->since_cycles, vc->task);
}

static void end_run(Context *h)
{
    h->run_min = MIN(h->run_min, h->run_instructions);
    h->run_max = MAX(h->run_max, h->run_instructions);
    h->run_total += h->run_instructions;
    h->run_cycles_min = MIN(h->run_cycles_min, h->run_cycles);
    h->run_cycles_max = MAX(h->run_cycles_max, h->run_cycles);
}

static int64_t virtual_ns(uint64_t instructions)
{
    return perfctr_hook_virtual_ns ? perfctr_hook_virtual_ns(instructions)
                                   : -1;
}

void contexts_irq_pended(unsigned index, uint64_t number)
{
    VcpuContexts *vc;
    Pended *p;
    uint64_t *key;

    if (index >= vcpus->len) {
        return;                 /* pended before the vCPU ran */
    }
    vc = vcpu_contexts(index);
    if (g_hash_table_contains(vc->pended, &number)) {
        return;
    }
    key = g_new(uint64_t, 1);
    *key = number;
    p = g_new(Pended, 1);
    p->instructions = ops->executed(index);
    p->ns = virtual_ns(p->instructions);
    g_hash_table_insert(vc->pended, key, p);
}

void contexts_irq_cleared(unsigned index, uint64_t number)
{
    if (index < vcpus->len) {
        g_hash_table_remove(vcpu_contexts(index)->pended, &number);
    }
}

/* Handler h entered: its latency, if its exception was seen pended */
static void note_latency(VcpuContexts *vc, unsigned index, Context *h)
{
    Pended *p = g_hash_table_lookup(vc->pended, &h->number);
    uint64_t now = ops->executed(index), n;
    int64_t ns;

    if (!p) {
        return;
    }
    n = now - p->instructions;
    h->latencies++;
    h->latency_min = MIN(h->latency_min, n);
    h->latency_max = MAX(h->latency_max, n);
    h->latency_total += n;
    ns = virtual_ns(now);
    if (ns >= 0 && p->ns >= 0) {
        h->latency_ns_min = MIN(h->latency_ns_min, (uint64_t)(ns - p->ns));
        h->latency_ns_max = MAX(h->latency_ns_max, (uint64_t)(ns - p->ns));
        h->latency_ns_total += ns - p->ns;
    }
    g_hash_table_remove(vc->pended, &h->number);
}

static void enter_handler(VcpuContexts *vc, unsigned index, uint64_t number,
                          uint64_t pc)
{
    Context *h = g_hash_table_lookup(handlers, &number);

    if (!h) {
        h = new_context(true);
        h->number = number;
        h->first_pc = pc;
        g_hash_table_insert(handlers, &h->number, h);
    }
    if (vc->nesting == MAX_NESTING) {
        vc->nesting_lost++;
        return;                 /* charged to the one it preempted */
    }
    note_latency(vc, index, h);
    vc->handlers[vc->nesting++] = h;
    h->runs++;
    h->run_instructions = 0;
    h->run_cycles = 0;
    calltree_stack_clear(h->calls);
    if (reg_sp) {
        h->run_sp = read_sp(vc);
        note_sp(h, h->run_sp);
    }
    run(vc, index, h);
}

void contexts_entered(unsigned index, uint64_t number, uint64_t sp)
{
    VcpuContexts *vc = vcpu_contexts(index);

    account(vc, index);
    note_sp(vc->running, sp);
    if (reg_psp && reg_lr) {
        /* Cortex-M stacked a frame where EXC_RETURN says */
        uint64_t lr = read_reg(vc, reg_lr);

        note_sp(vc->running, read_reg(vc, lr & 4 ? reg_psp : reg_msp));
    }
    if (!vc->nesting) {
        vc->task->saved_sp = sp;
    }
    enter_handler(vc, index, number, reg_pc ? read_reg(vc, reg_pc) : 0);
}

/* The RTOS's task with control block key, seen first at pc */
static Context *rtos_task(VcpuContexts *vc, uint64_t key, uint64_t pc)
{
    Context *t = g_hash_table_lookup(tasks, &key);
    uint64_t i;

    if (t) {
        return t;
    }
    t = new_context(false);
    t->key = key;
    t->first_pc = pc;
    if (qemu_plugin_read_memory_vaddr(key + rtos->name_offset, vc->buf,
                                      rtos->name_len)) {
        for (i = 0; i < rtos->name_len && vc->buf->data[i]; i++) {
            t->name[i] = g_ascii_isprint(vc->buf->data[i]) ?
                         vc->buf->data[i] : '?';
        }
    }
    if (rtos->stack_offset >= 0) {
        t->stack_base = read_pointer(vc, key + rtos->stack_offset);
    }
    g_hash_table_insert(tasks, &t->key, t);
    return t;
}

/* The task that resumes at pc with sp, as the RTOS or its stack says */
static Context *resumed_task(VcpuContexts *vc, uint64_t pc, uint64_t sp)
{
    Context *t = vc->task;

    if (rtos->current) {
        uint64_t key = read_pointer(vc, rtos->current);

        return !key || key == t->key ? t : rtos_task(vc, key, pc);
    }
    if (sp == t->saved_sp) {
        return t;
    }
    g_hash_table_insert(suspended, &t->saved_sp, t);
    t = g_hash_table_lookup(suspended, &sp);
    if (t) {
        g_hash_table_remove(suspended, &sp);
        return t;
    }
    t = new_context(false);
    t->key = sp;
    t->first_pc = pc;
    return t;
}

/* Back at the task level: the task that resumes runs */
static void resume_task(VcpuContexts *vc, unsigned index, uint64_t pc,
                        uint64_t sp)
{
    Context *t = resumed_task(vc, pc, sp);

    if (t != vc->task) {
        t->switches_in++;
        vc->task = t;
    }
    note_sp(t, sp);
    run(vc, index, vc->task);
}

static void returned(unsigned index, bool tells_number, uint64_t number,
                     uint64_t pc, uint64_t sp)
{
    VcpuContexts *vc = vcpu_contexts(index);

    account(vc, index);
    if (vc->nesting_lost) {
        vc->nesting_lost--;
        return;
    }
    if (!vc->nesting) {
        /* Not from a handler seen: maybe how an RTOS starts its tasks */
        if (rtos->current) {
            resume_task(vc, index, pc, sp);
        }
        return;
    }
    end_run(vc->handlers[--vc->nesting]);
    if (tells_number && !number) {
        while (vc->nesting) {
            end_run(vc->handlers[--vc->nesting]);
        }
    }
    if (tells_number && number &&
        (!vc->nesting || vc->handlers[vc->nesting - 1]->number != number)) {
        /* Tail-chained: the next handler, on the same exception frame */
        enter_handler(vc, index, number, pc);
    } else if (vc->nesting) {
        note_sp(vc->handlers[vc->nesting - 1], sp);
        run(vc, index, vc->handlers[vc->nesting - 1]);
    } else {
        resume_task(vc, index, pc, sp);
    }
}

void contexts_returned_m(unsigned index, uint64_t number, uint64_t pc,
                         uint64_t sp)
{
    returned(index, true, number, pc, sp);
}

void contexts_returned_to(unsigned index, uint64_t pc, uint64_t sp)
{
    returned(index, false, 0, pc, sp);
}

void contexts_returned(unsigned index, uint64_t pc)
{
    VcpuContexts *vc = vcpu_contexts(index);

    if (reg_sp) {
        returned(index, false, 0, pc, read_sp(vc));
    }
}

void contexts_unmatched_return(unsigned index, uint64_t pc)
{
    VcpuContexts *vc = vcpu_contexts(index);
    uint64_t key;

    if (!rtos->current || vc->nesting) {
        return;
    }
    key = read_pointer(vc, rtos->current);
    if (key && key != vc->task->key) {
        /* An RTOS that switches tasks by a call (its first one, often) */
        account(vc, index);
        vc->task = rtos_task(vc, key, pc);
        vc->task->switches_in++;
        run(vc, index, vc->task);
    }
}

uint64_t contexts_stack_pointer(unsigned index)
{
    return reg_sp ? read_sp(vcpu_contexts(index)) : UINT64_MAX;
}

void contexts_sp_written(unsigned index, bool switched)
{
    VcpuContexts *vc = vcpu_contexts(index);
    Context *c = vc->running;

    if (!reg_sp) {
        return;
    }
    if (switched && sp_extremes) {
        /* Its own write was the other stack's */
        uint64_t low, high;

        perfctr_hook_take_sp_extremes(index, &low, &high);
    }
    if (!switched) {
        note_sp(c, read_sp(vc));
    } else if (c->handler) {
        /* Its run goes on on another stack: its use counts from there */
        c->run_sp = read_sp(vc);
    }
}

void contexts_sp_switching(unsigned index)
{
    VcpuContexts *vc = vcpu_contexts(index);

    note_sp_extremes(index, vc->running);
}

void contexts_restart(void)
{
    guint i;

    for (i = 0; i < contexts->len; i++) {
        Context *c = g_ptr_array_index(contexts, i);

        c->instructions = c->cycles = c->switches_in = c->runs = 0;
        c->run_total = c->run_max = c->run_cycles_max = 0;
        c->run_min = c->run_cycles_min = UINT64_MAX;
        c->sp_low = UINT64_MAX;
        c->sp_high = c->used = 0;
        c->latencies = c->latency_max = c->latency_total = 0;
        c->latency_ns_max = c->latency_ns_total = 0;
        c->latency_min = c->latency_ns_min = UINT64_MAX;
    }
    for (i = 0; i < vcpus->len; i++) {
        VcpuContexts *vc = vcpu_contexts(i);

        vc->since = ops->executed(i);
        vc->since_cycles = ops->cycles ? ops->cycles(i) : 0;
        if (sp_extremes) {
            uint64_t low, high;

            perfctr_hook_take_sp_extremes(i, &low, &high);  /* before it */
        }
    }
    records_reset(&switches);
    switches_dropped = 0;
    for (i = 0; i < vcpus->len; i++) {
        VcpuContexts *vc = vcpu_contexts(i);

        add_switch(i, vc->since, vc->since_cycles, vc->running);
    }
}

/* The switches kept, as a block of records */
static void write_switches(FILE *out)
{
    guint i;

    records_begin(out, "switch", switches.kept->len,
                  ops->cycles ? "qQQQQ" : "qQQQ");
    for (i = 0; i < switches.kept->len; i++) {
        Switch *s = &g_array_index(switches.kept, Switch, i);
        uint64_t fields[] = { s->ns, s->instructions, s->vcpu, s->id,
                              s->cycles };

        records_put(out, fields, ops->cycles ? 5 : 4);
    }
    records_end(out);
}

/* The contexts made since the last flush (id, kind, key), the switches */
static void stream_write(FILE *out)
{
    guint i;

    for (i = contexts_streamed; i < contexts->len; i++) {
        Context *c = g_ptr_array_index(contexts, i);

        fprintf(out, "context %u %s 0x%" PRIx64 "\n", c->id,
                c->handler ? "handler" : "task", c->key);
    }
    records_stream(out, NULL, &switches, write_switches);
}

static void stream_written(void)
{
    contexts_streamed = contexts->len;
    records_streamed(NULL, &switches);
}

const StreamWriter contexts_stream = { stream_write, stream_written };

void contexts_write(FILE *out)
{
    guint i;

    for (i = 0; i < vcpus->len; i++) {
        account(vcpu_contexts(i), i);
    }
    for (i = 0; i < contexts->len; i++) {
        Context *c = g_ptr_array_index(contexts, i);

        fprintf(out, "context %u %s %" PRIu64 " %" PRIu64 " 0x%" PRIx64
                " 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 " %" PRIu64
                " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                " %" PRIu64 " %" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64
                " %" PRIu64 " %s\n",
                c->id, c->handler ? "handler" : "task", c->number,
                c->calls->root, c->first_pc, c->key,
                c->stack_base, c->instructions, c->cycles, c->switches_in,
                c->runs, c->run_min == UINT64_MAX ? 0 : c->run_min,
                c->run_max, c->run_total,
                c->run_cycles_min == UINT64_MAX ? 0 : c->run_cycles_min,
                c->run_cycles_max,
                c->sp_low == UINT64_MAX ? 0 : c->sp_low, c->sp_high,
                c->handler ? c->used :
                c->sp_low == UINT64_MAX ? 0 : c->sp_high - c->sp_low,
                c->name);
    }
    records_write(out, "switch", &switches, write_switches);
    for (i = 0; i < contexts->len; i++) {
        Context *c = g_ptr_array_index(contexts, i);

        if (c->latencies) {
            fprintf(out, "latency %u %" PRIu64 " %" PRIu64 " %" PRIu64
                    " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                    c->id, c->latencies, c->latency_min, c->latency_max,
                    c->latency_total,
                    c->latency_ns_min == UINT64_MAX ? 0 : c->latency_ns_min,
                    c->latency_ns_max, c->latency_ns_total);
        }
    }
    fprintf(out, "switches-dropped %" PRIu64 "\n", switches_dropped);
    if (vcpus->len) {
        uint64_t now = ops->executed(0);

        fprintf(out, "contexts-end %" PRId64 " %" PRIu64 "\n",
                perfctr_hook_virtual_ns ? perfctr_hook_virtual_ns(now) : -1,
                now);
    }
}
