/*
 * The hook between the perfctr TCG plugin, QEMU's execution loop and
 * the devices that count guest events (see include/accel/tcg/perfctr-hook.h).
 *
 * Clients (devices) are added and called back with the BQL held; the
 * plugin's counts are per vCPU, read and armed from that vCPU's thread
 * or with the vCPUs stopped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/main-loop.h"
#include "exec/cpu-common.h"
#include "exec/memory.h"
#include "exec/tb-flush.h"
#include "exec/translation-block.h"
#include "hw/core/cpu.h"
#include "accel/tcg/perfctr-hook.h"
#include "internal-common.h"
#include "perfctr-tb-maint.h"

/* Events QEMU counts itself, without the plugin */
#define PERFCTR_HOOK_OWN_EVENTS (BIT(PERFCTR_EVENT_EXCEPTIONS) | \
                                 BIT(PERFCTR_EVENT_EXCEPTION_RETURNS))
#define OWN_EXCEPTIONS 0
#define OWN_RETURNS 1
#define OWN_COUNT 2

static const PerfctrPluginOps *plugin;
static PerfctrHookClient *clients;
/* Events some client wants the plugin to count, and to arm targets on */
static uint32_t wanted, targeted;

/* Per vCPU: exceptions taken and returned from, and their targets */
typedef struct PerfctrHookVcpu {
    uint64_t own[OWN_COUNT];
    uint64_t own_target[OWN_COUNT];
    bool reached;
    bool restoring_before;      /* the instruction restored to not begun */
} PerfctrHookVcpu;

static const PerfctrEvent own_events[OWN_COUNT] = {
    [OWN_EXCEPTIONS] = PERFCTR_EVENT_EXCEPTIONS,
    [OWN_RETURNS] = PERFCTR_EVENT_EXCEPTION_RETURNS,
};

static GArray *vcpus;
/*
 * The instructions that accessed I/O in the middle of a block: each such
 * access left the block and ran the instruction alone, every time the
 * block ran (0.85 M times in 125 M instructions of FreeRTOS's full
 * Cortex-M demo: 0.12 s of its 0.81 s).  icount runs one vCPU thread:
 * the set needs no lock.
 */
static GHashTable *io_insns;

static PerfctrHookVcpu *perfctr_hook_vcpu(unsigned vcpu_index)
{
    static const PerfctrHookVcpu fresh = {
        .own_target = { PERFCTR_NEVER, PERFCTR_NEVER },
    };

    if (!vcpus) {
        vcpus = g_array_new(false, false, sizeof(PerfctrHookVcpu));
    }
    while (vcpus->len <= vcpu_index) {
        g_array_append_val(vcpus, fresh);
    }
    return &g_array_index(vcpus, PerfctrHookVcpu, vcpu_index);
}

void perfctr_hook_set_plugin(const PerfctrPluginOps *ops)
{
    qatomic_set(&plugin, ops);
}

uint32_t perfctr_hook_call_sp[PERFCTR_HOOK_CALL_SLOTS];

uint64_t perfctr_hook_call_stack_pointer(unsigned vcpu_index)
{
    return perfctr_hook_call_sp[vcpu_index % PERFCTR_HOOK_CALL_SLOTS];
}

bool perfctr_hook_sp_extremes_kept;
uint32_t perfctr_hook_sp_low[PERFCTR_HOOK_CALL_SLOTS];
uint32_t perfctr_hook_sp_high[PERFCTR_HOOK_CALL_SLOTS];

void perfctr_hook_keep_sp_extremes(void)
{
    unsigned i;

    for (i = 0; i < PERFCTR_HOOK_CALL_SLOTS; i++) {
        perfctr_hook_sp_low[i] = UINT32_MAX;
        perfctr_hook_sp_high[i] = 0;
    }
    perfctr_hook_sp_extremes_kept = true;
}

bool perfctr_hook_take_sp_extremes(unsigned vcpu_index, uint64_t *low,
                                   uint64_t *high)
{
    unsigned slot = vcpu_index % PERFCTR_HOOK_CALL_SLOTS;

    if (perfctr_hook_sp_low[slot] > perfctr_hook_sp_high[slot]) {
        return false;
    }
    *low = perfctr_hook_sp_low[slot];
    *high = perfctr_hook_sp_high[slot];
    perfctr_hook_sp_low[slot] = UINT32_MAX;
    perfctr_hook_sp_high[slot] = 0;
    return true;
}

uint32_t perfctr_hook_events(void)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);

    return PERFCTR_HOOK_OWN_EVENTS | (ops ? ops->events : 0);
}

void perfctr_hook_irq_pended(unsigned vcpu_index, uint64_t number)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);

    if (ops && ops->irq_pended) {
        ops->irq_pended(vcpu_index, number);
    }
}

void perfctr_hook_irq_cleared(unsigned vcpu_index, uint64_t number)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);

    if (ops && ops->irq_cleared) {
        ops->irq_cleared(vcpu_index, number);
    }
}

bool perfctr_hook_write_results(const char *path)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);

    return ops && ops->write_results && ops->write_results(path);
}

bool perfctr_hook_read_event(unsigned vcpu_index, PerfctrEvent event,
                             uint64_t *count)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);
    uint64_t pc;
    int i;

    for (i = 0; i < OWN_COUNT; i++) {
        if (event == own_events[i]) {
            *count = perfctr_hook_vcpu(vcpu_index)->own[i];
            return true;
        }
    }
    if (!ops || !ops->read || !(ops->events & BIT(event))) {
        *count = 0;
        return false;
    }
    /*
     * Between two blocks (a timer, a callback), where the vCPU goes
     * next may still change a count (a branch taken or not); inside a
     * block (an MMIO access) nothing is unsettled.
     */
    if (ops->left_code && perfctr_hook_resume_pc(vcpu_index, &pc)) {
        ops->left_code(vcpu_index, pc);
    }
    *count = ops->read(vcpu_index, event);
    return true;
}

bool perfctr_hook_resume_pc(unsigned vcpu_index, uint64_t *pc)
{
    CPUState *cpu = qemu_get_cpu(vcpu_index);

    if (!cpu || !cpu->neg.can_do_io) {
        return false;
    }
    *pc = cpu->cc->get_pc(cpu);
    return true;
}

void perfctr_hook_add_client(PerfctrHookClient *client)
{
    client->next = clients;
    clients = client;
}

PerfctrHookClient *perfctr_hook_client_of(unsigned vcpu_index, size_t size,
                                          void (*reached)(PerfctrHookClient *))
{
    PerfctrHookClient *c;

    for (c = clients; c; c = c->next) {
        if (c->vcpu_index == vcpu_index && c->reached == reached) {
            return c;
        }
    }
    assert(size >= sizeof(*c));
    c = g_malloc0(size);
    c->vcpu_index = vcpu_index;
    c->reached = reached;
    memset(c->target, 0xff, sizeof(c->target));
    perfctr_hook_add_client(c);
    return c;
}

void perfctr_hook_remove_client(PerfctrHookClient *client)
{
    PerfctrHookClient **p;

    for (p = &clients; *p; p = &(*p)->next) {
        if (*p == client) {
            *p = client->next;
            break;
        }
    }
    memset(client->target, 0xff, sizeof(client->target));
    client->want = 0;
    client->targeted = 0;
    perfctr_hook_arm(client);
}

static void perfctr_hook_mark_reached(CPUState *cpu);

/*
 * Arm the vCPU's targets: each event's lowest over its clients.  With
 * settle, a target the count has already passed (while the code that
 * ran did not check it yet) calls the clients back at once.
 */
static void perfctr_hook_push_targets(unsigned vcpu_index, bool settle)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);
    uint64_t target[PERFCTR_EVENT_COUNT];
    PerfctrHookClient *c;
    CPUState *cpu;
    unsigned e;

    memset(target, 0xff, sizeof(target));
    for (c = clients; c; c = c->next) {
        if (c->vcpu_index != vcpu_index) {
            continue;
        }
        for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
            target[e] = MIN(target[e], c->target[e]);
        }
    }
    for (e = 0; e < OWN_COUNT; e++) {
        perfctr_hook_vcpu(vcpu_index)->own_target[e] = target[own_events[e]];
    }
    if (!ops || !ops->arm) {
        return;
    }
    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        if (!(ops->events & targeted & BIT(e))) {
            continue;
        }
        ops->arm(vcpu_index, e, target[e]);
        cpu = qemu_get_cpu(vcpu_index);
        if (settle && target[e] != PERFCTR_NEVER && ops->read && cpu &&
            ops->read(vcpu_index, e) >= target[e]) {
            perfctr_hook_mark_reached(cpu);
        }
    }
}

/* Retranslate for newly wanted events, then arm their targets afresh */
static void perfctr_hook_flush_code(CPUState *cpu, run_on_cpu_data data)
{
    PerfctrHookClient *c;

    tb_flush(cpu);
    for (c = clients; c; c = c->next) {
        perfctr_hook_push_targets(c->vcpu_index, true);
    }
}

void perfctr_hook_arm(PerfctrHookClient *client)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);
    uint32_t want = 0, targets = 0;
    PerfctrHookClient *c;

    for (c = clients; c; c = c->next) {
        want |= c->want | c->targeted;
        targets |= c->targeted;
    }
    if (ops && ((want & ops->events & ~wanted) ||
                (targets & ops->events & ~targeted))) {
        CPUState *cpu = first_cpu;

        /*
         * Code translated so far counts only the events wanted then:
         * retranslate it, once the block running now has finished.
         */
        wanted |= want & ops->events;
        targeted |= targets & ops->events;
        if (ops->want) {
            ops->want(wanted, targeted);
        }
        if (cpu) {
            async_safe_run_on_cpu(cpu, perfctr_hook_flush_code,
                                  RUN_ON_CPU_NULL);
        }
    }
    perfctr_hook_push_targets(client->vcpu_index, false);
}

/* Whether the client has a target armed: only then can it be reached */
static bool perfctr_hook_client_armed(const PerfctrHookClient *client)
{
    unsigned e;

    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        if (client->target[e] != PERFCTR_NEVER) {
            return true;
        }
    }
    return false;
}

/*
 * Call back the clients of a vCPU whose target was reached; not those
 * with none armed: the perf-counters FreeRTOS's full demo does not use
 * were called back at each timer deadline of the model's time (77,724
 * times in 125 M instructions with --cycles), to read the clock and
 * the counts for nothing
 */
void perfctr_hook_cpu_exec_boundary(CPUState *cpu)
{
    PerfctrHookVcpu *v;
    PerfctrHookClient *c;
    bool locked;

    if (!vcpus || cpu->cpu_index >= vcpus->len) {
        return;
    }
    v = perfctr_hook_vcpu(cpu->cpu_index);
    if (!qatomic_read(&v->reached)) {
        return;
    }
    qatomic_set(&v->reached, false);
    locked = bql_locked();
    if (!locked) {
        bql_lock();
    }
    for (c = clients; c; c = c->next) {
        if (c->vcpu_index == cpu->cpu_index && perfctr_hook_client_armed(c)) {
            c->reached(c);
        }
    }
    if (!locked) {
        bql_unlock();
    }
}

static void perfctr_hook_mark_reached(CPUState *cpu)
{
    qatomic_set(&perfctr_hook_vcpu(cpu->cpu_index)->reached, true);
    /* Leave translated code before the next block starts */
    qatomic_set(&cpu->neg.icount_decr.u16.high, -1);
}

void perfctr_hook_reached(unsigned vcpu_index, uintptr_t host_pc)
{
    CPUState *cpu = current_cpu;

    if (!cpu || cpu->cpu_index != vcpu_index) {
        cpu = qemu_get_cpu(vcpu_index);
    }
    if (!cpu) {
        return;
    }
    perfctr_hook_mark_reached(cpu);
    if (host_pc && cpu == current_cpu) {
        /* Back to the instruction that has not run, then the clients */
        perfctr_hook_cpu_restore_before(cpu, host_pc);
        cpu_loop_exit(cpu);
    }
}

static void perfctr_hook_do_retranslate(CPUState *cpu, run_on_cpu_data data)
{
    tb_flush(cpu);
}

void perfctr_hook_retranslate(void)
{
    if (first_cpu) {
        /* Not while a block is translated: once the vCPUs have stopped */
        async_safe_run_on_cpu(first_cpu, perfctr_hook_do_retranslate,
                              RUN_ON_CPU_NULL);
    }
}

static void perfctr_hook_do_retranslate_at(CPUState *cpu,
                                           run_on_cpu_data data)
{
    ram_addr_t ram = qemu_ram_addr_from_host(data.host_ptr);

    if (ram == RAM_ADDR_INVALID) {
        tb_flush(cpu);
    } else {
        tb_invalidate_phys_range_fast(ram, 1, 0);
    }
}

void perfctr_hook_retranslate_at(void *host_code)
{
    if (!first_cpu) {
        return;
    }
    if (!host_code) {
        perfctr_hook_retranslate();
        return;
    }
    /* Once the vCPUs have stopped, as for all code */
    async_safe_run_on_cpu(first_cpu, perfctr_hook_do_retranslate_at,
                          RUN_ON_CPU_HOST_PTR(host_code));
}

void perfctr_hook_note_io_insn(uint64_t pc)
{
    if (!io_insns) {
        io_insns = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                         g_free, NULL);
    }
    if (!g_hash_table_contains(io_insns, &pc)) {
        g_hash_table_add(io_insns, g_memdup2(&pc, sizeof(pc)));
    }
}

bool perfctr_hook_io_insn_known(uint64_t pc)
{
    return io_insns && g_hash_table_contains(io_insns, &pc);
}

void perfctr_hook_run_first(unsigned vcpu_index, uintptr_t host_pc,
                            unsigned n_insns)
{
    CPUState *cpu = current_cpu;

    if (!cpu || cpu->cpu_index != vcpu_index || !host_pc || !n_insns ||
        n_insns > CF_COUNT_MASK) {
        return;
    }
    perfctr_hook_cpu_restore_before(cpu, host_pc);
    /* As icount does when a budget ends inside a block */
    cpu->cflags_next_tb = curr_cflags(cpu) | CF_NOIRQ | n_insns;
    cpu_loop_exit_noexc(cpu);
}

void perfctr_hook_cpu_restore_before(CPUState *cpu, uintptr_t host_pc)
{
    PerfctrHookVcpu *v = perfctr_hook_vcpu(cpu->cpu_index);

    v->restoring_before = true;
    cpu_restore_state(cpu, host_pc);
    v->restoring_before = false;
}

void perfctr_hook_cpu_block_left(CPUState *cpu, int insns_left)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);
    bool began = !perfctr_hook_vcpu(cpu->cpu_index)->restoring_before;
    int not_begun = insns_left - began;

    if (ops && ops->block_left && not_begun > 0) {
        ops->block_left(cpu->cpu_index, not_begun);
    }
}

void perfctr_hook_cpu_exception_entry(CPUState *cpu, uint64_t resume_pc,
                                      uint64_t sp, uint64_t number)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);

    if (ops && ops->left_code) {
        ops->left_code(cpu->cpu_index, resume_pc);
    }
    if (ops && ops->exception_entered) {
        ops->exception_entered(cpu->cpu_index, number, resume_pc, sp);
    }
}

void perfctr_hook_cpu_exception_return(CPUState *cpu, uint64_t pc,
                                       uint64_t sp, uint64_t number)
{
    const PerfctrPluginOps *ops = qatomic_read(&plugin);

    perfctr_hook_cpu_exception_returned(cpu);
    if (ops && ops->exception_returned) {
        ops->exception_returned(cpu->cpu_index, number, pc, sp);
    }
}

/* true if the count reached its target */
static bool perfctr_hook_count_own(CPUState *cpu, int own)
{
    PerfctrHookVcpu *v = perfctr_hook_vcpu(cpu->cpu_index);

    if (++v->own[own] < v->own_target[own]) {
        return false;
    }
    v->own_target[own] = PERFCTR_NEVER;
    perfctr_hook_mark_reached(cpu);
    return true;
}

void perfctr_hook_cpu_exception_taken(CPUState *cpu)
{
    if (perfctr_hook_count_own(cpu, OWN_EXCEPTIONS)) {
        /* Called back before the handler's first instruction */
        perfctr_hook_cpu_exec_boundary(cpu);
    }
}

/*
 * From the instruction's helper, inside translated code, which ends its
 * block: the clients are called back before the next instruction
 */
void perfctr_hook_cpu_exception_returned(CPUState *cpu)
{
    perfctr_hook_count_own(cpu, OWN_RETURNS);
}
