/*
 * perfctr plugin: event counts for the devices (perf-counter, ARM11 PMU)
 *
 * The plugin hands QEMU its operations through the hook QEMU exports
 * (include/accel/tcg/perfctr-hook.h).  Nothing is instrumented until a
 * device wants an event; QEMU then retranslates, and each executed
 * instruction adds to its vCPU's count of the wanted events it is (a
 * load, a store, a branch...), inline in the translated code and
 * before the instruction runs, as -icount counts instructions: when a
 * device reads a count during an access, the accessing instruction is
 * counted, as for the clock.
 *
 * An instruction counts whether or not its condition passed (Thumb IT
 * blocks, Arm conditional execution), as the architectures' "executed"
 * events do, but for loads and stores, which count when they access
 * memory: one that may not execute (isa_may_not_execute) is counted
 * before it runs, marked pending, unmarked by its first access, and
 * uncounted by a callback before the next instruction if still
 * pending (or when QEMU leaves the code to resume after it), so only
 * those that fail their condition cost a call.
 *
 * Taken branches: a branch ends its block, and is counted as a static
 * predictor guesses (a conditional forward one not taken, any other
 * taken: isa/branch-guess.h); it stores the pc of the way not guessed,
 * and if the next block starts there (or QEMU says execution resumes there,
 * after an exception or between two blocks) a callback corrects the
 * count, so only guesses that miss cost a call.  A branch to the next
 * instruction counts as not taken.
 *
 * Targets: each count a device may set targets on (QEMU says which:
 * the others cost one inline add) has a countdown beside it, which it arms
 * and each counted event decrements inline (estimated cycles, cycles.c,
 * by the instruction's cost).  Armed, it holds the events left before
 * the target minus one, so the target is reached when it goes below 0:
 * as unsigned, above INT64_MAX.  The check runs before the next
 * instruction in the same block, which can then
 * be abandoned (QEMU restores the guest state to it), or, for the last
 * instruction of a block, after its own decrement: the device is
 * called back before the next block.  Either way the device's
 * interrupt is taken right after the instruction that reached it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <stddef.h>
#include <string.h>

#include "events/events.h"
#include "isa/branch-guess.h"

/* QEMU exports them; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_hook_reached

#define BIT_EVENT(e) (1u << (e))
#define PLUGIN_EVENTS (BIT_EVENT(PERFCTR_EVENT_LOADS) | \
                       BIT_EVENT(PERFCTR_EVENT_STORES) | \
                       BIT_EVENT(PERFCTR_EVENT_BRANCHES) | \
                       BIT_EVENT(PERFCTR_EVENT_CALLS) | \
                       BIT_EVENT(PERFCTR_EVENT_RETURNS) | \
                       BIT_EVENT(PERFCTR_EVENT_TAKEN_BRANCHES) | \
                       BIT_EVENT(PERFCTR_EVENT_RETIRED_BRANCHES) | \
                       BIT_EVENT(PERFCTR_EVENT_CONDITIONAL_BRANCHES) | \
                       BIT_EVENT(PERFCTR_EVENT_DIRECT_JUMPS) | \
                       BIT_EVENT(PERFCTR_EVENT_INDIRECT_JUMPS) | \
                       ARITH_EVENTS)
/* Counted where the branch goes: corrected when the guess missed */
#define WHERE_IT_GOES (BIT_EVENT(PERFCTR_EVENT_TAKEN_BRANCHES) | \
                       BIT_EVENT(PERFCTR_EVENT_RETIRED_BRANCHES))
/* Events of the timing class (isa_timing), not of the flow of control */
#define ARITH_EVENTS (BIT_EVENT(PERFCTR_EVENT_MULTIPLIES) | \
                      BIT_EVENT(PERFCTR_EVENT_DIVIDES))
/* A countdown that no run decrements below 0 */
#define COUNTDOWN_NEVER (UINT64_C(1) << 62)
#define COUNTDOWN_REACHED INT64_MAX     /* above it: reached */

typedef struct VcpuEvents {
    uint64_t count[PERFCTR_EVENT_COUNT];
    uint64_t countdown[PERFCTR_EVENT_COUNT];
    /*
     * The way the branch that ended the last block was not guessed to
     * go (0: none), and what going there adds to the taken count and
     * to the retired one
     */
    uint64_t miss;
    uint64_t miss_delta;
    uint64_t miss_retired_delta;
    /*
     * A load, a store that may not execute has not accessed memory yet:
     * the pc after it (0: none)
     */
    uint64_t pending[2];
} VcpuEvents;

/* The events counted when the instruction accesses memory */
static const struct {
    PerfctrEvent event;
    enum qemu_plugin_mem_rw access;
} pendable[2] = {
    { PERFCTR_EVENT_LOADS, QEMU_PLUGIN_MEM_R },
    { PERFCTR_EVENT_STORES, QEMU_PLUGIN_MEM_W },
};
#define PENDABLE_EVENTS (BIT_EVENT(PERFCTR_EVENT_LOADS) | \
                         BIT_EVENT(PERFCTR_EVENT_STORES))

static const PerfctrConfig *config;
static const EventsCyclesReader *model;     /* or NULL */
static struct qemu_plugin_scoreboard *board;
static uint32_t wanted, targeted;
static uint32_t offered;         /* the events the plugin counts */

static qemu_plugin_u64 entry(size_t offset)
{
    return (qemu_plugin_u64) { board, offset };
}

#define COUNT(e) entry(offsetof(VcpuEvents, count) + (e) * sizeof(uint64_t))
#define COUNTDOWN(e) entry(offsetof(VcpuEvents, countdown) + \
                           (e) * sizeof(uint64_t))
#define MISS entry(offsetof(VcpuEvents, miss))
#define MISS_DELTA entry(offsetof(VcpuEvents, miss_delta))
#define MISS_RETIRED_DELTA entry(offsetof(VcpuEvents, miss_retired_delta))
#define PENDING(k) entry(offsetof(VcpuEvents, pending) + \
                         (k) * sizeof(uint64_t))

/* Counts of a vCPU; before it starts (devices reset earlier), none */
static VcpuEvents *vcpu_events(unsigned vcpu_index)
{
    static VcpuEvents none;

    if (vcpu_index >= qemu_plugin_num_vcpus()) {
        memset(&none, 0, sizeof(none));
        return &none;
    }
    return qemu_plugin_scoreboard_find(board, vcpu_index);
}

static uint64_t read_event(unsigned vcpu_index, PerfctrEvent event)
{
    if (event == PERFCTR_EVENT_CYCLES) {
        return model ? model->cycles(vcpu_index) : 0;
    }
    if (event == PERFCTR_EVENT_MEMORY_STALLS) {
        return model ? model->memory_stalls(vcpu_index) : 0;
    }
    return vcpu_events(vcpu_index)->count[event];
}

static void want(uint32_t events, uint32_t targets)
{
    __atomic_store_n(&wanted, events & offered, __ATOMIC_RELAXED);
    __atomic_store_n(&targeted, targets & offered, __ATOMIC_RELAXED);
}

static void arm(unsigned vcpu_index, PerfctrEvent event, uint64_t target)
{
    VcpuEvents *v = vcpu_events(vcpu_index);
    uint64_t count = read_event(vcpu_index, event);

    v->countdown[event] = target > count && target - count < COUNTDOWN_NEVER ?
                          target - count - 1 : COUNTDOWN_NEVER;
}

/* The branch that ended the last block went the way not guessed */
static void missed(VcpuEvents *v)
{
    v->count[PERFCTR_EVENT_TAKEN_BRANCHES] += v->miss_delta;
    v->countdown[PERFCTR_EVENT_TAKEN_BRANCHES] -= v->miss_delta;
    v->count[PERFCTR_EVENT_RETIRED_BRANCHES] += v->miss_retired_delta;
    v->countdown[PERFCTR_EVENT_RETIRED_BRANCHES] -= v->miss_retired_delta;
}

/* The pending load or store (pendable[k]) did not execute */
static void uncount(VcpuEvents *v, unsigned k)
{
    v->pending[k] = 0;
    v->count[pendable[k].event]--;
    v->countdown[pendable[k].event]++;
}

static void not_executed(unsigned vcpu_index, void *udata)
{
    uncount(vcpu_events(vcpu_index), (uintptr_t)udata);
}

void events_left_code(unsigned vcpu_index, uint64_t pc)
{
    VcpuEvents *v = vcpu_events(vcpu_index);
    unsigned k;

    /*
     * Resuming after it, it did not execute; a device reading counts
     * during the access of the last instruction of a block (QEMU's pc
     * is not after it then) must see it counted
     */
    for (k = 0; k < G_N_ELEMENTS(pendable); k++) {
        if (v->pending[k] && v->pending[k] == pc) {
            uncount(v, k);
        }
    }

    if (v->miss && v->miss == pc) {
        missed(v);
    }
    v->miss = 0;
}

void events_init(const PerfctrConfig *cfg, const EventsCyclesReader *cycles,
                 PerfctrPluginOps *ops)
{
    config = cfg;
    model = cycles;
    ops->events = PLUGIN_EVENTS;
    ops->read = read_event;
    ops->want = want;
    ops->arm = arm;
    if (model) {
        /* Counted by cycles.c, which asks events_targeted() and checks */
        ops->events |= BIT_EVENT(PERFCTR_EVENT_CYCLES) |
                       BIT_EVENT(PERFCTR_EVENT_MEMORY_STALLS);
    }
    offered = ops->events;
    board = qemu_plugin_scoreboard_new(sizeof(VcpuEvents));
}

static void block_entered_at_miss(unsigned vcpu_index, void *udata)
{
    missed(vcpu_events(vcpu_index));
}

/* Before an instruction: the one before it reached a target */
static void __attribute__((noinline)) reached_before(unsigned vcpu_index,
                                                     void *udata)
{
    uintptr_t host_pc = (uintptr_t)__builtin_return_address(0);

    vcpu_events(vcpu_index)->countdown[(uintptr_t)udata] = COUNTDOWN_NEVER;
    perfctr_hook_reached(vcpu_index, host_pc);
}

/* The last instruction of a block is reaching a target */
static void reached_at_end(unsigned vcpu_index, void *udata)
{
    vcpu_events(vcpu_index)->countdown[(uintptr_t)udata] = COUNTDOWN_NEVER;
    perfctr_hook_reached(vcpu_index, 0);
}

static void check(struct qemu_plugin_insn *insn, PerfctrEvent event,
                  qemu_plugin_vcpu_udata_cb_t reached)
{
    /* Reads the registers: QEMU may restore the state and leave */
    qemu_plugin_register_vcpu_insn_exec_cond_cb(
        insn, reached, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_COND_GT,
        COUNTDOWN(event), COUNTDOWN_REACHED, (void *)(uintptr_t)event);
}

bool events_targeted(PerfctrEvent event)
{
    return __atomic_load_n(&targeted, __ATOMIC_RELAXED) & BIT_EVENT(event);
}

qemu_plugin_u64 events_countdown(PerfctrEvent event)
{
    return COUNTDOWN(event);
}

void events_check(struct qemu_plugin_insn *insn, PerfctrEvent event,
                  bool by_insn)
{
    check(insn, event, by_insn ? reached_at_end : reached_before);
}

static void add(struct qemu_plugin_insn *insn, qemu_plugin_u64 entry,
                int64_t value)
{
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_ADD_U64, entry, value);
}

static uint32_t arith_events_of(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_MUL:
    case TC_MAC:
    case TC_MULL:
    case TC_MLAL:
        return BIT_EVENT(PERFCTR_EVENT_MULTIPLIES);
    case TC_DIV:
        return BIT_EVENT(PERFCTR_EVENT_DIVIDES);
    default:
        return 0;
    }
}

static uint32_t events_of(const InsnClass *c)
{
    bool jump = c->kind == INSN_BRANCH || c->kind == INSN_CALL ||
                c->kind == INSN_RETURN;
    uint32_t events = 0;

    if (c->load) {
        events |= BIT_EVENT(PERFCTR_EVENT_LOADS);
    }
    if (c->store) {
        events |= BIT_EVENT(PERFCTR_EVENT_STORES);
    }
    if (c->kind != INSN_OTHER && c->kind != INSN_TRAP) {
        events |= BIT_EVENT(PERFCTR_EVENT_BRANCHES) | WHERE_IT_GOES;
    }
    if (c->kind == INSN_CALL) {
        events |= BIT_EVENT(PERFCTR_EVENT_CALLS);
    }
    if (c->kind == INSN_RETURN || c->kind == INSN_EXCEPTION_RETURN) {
        events |= BIT_EVENT(PERFCTR_EVENT_RETURNS);
    }
    if (jump && c->direct) {
        events |= BIT_EVENT(c->conditional ?
                            PERFCTR_EVENT_CONDITIONAL_BRANCHES :
                            PERFCTR_EVENT_DIRECT_JUMPS);
    }
    if (jump && !c->direct) {
        events |= BIT_EVENT(PERFCTR_EVENT_INDIRECT_JUMPS);
    }
    return events;
}

/* Checks of the counts that events (of the instruction before) changed */
static void check_all(struct qemu_plugin_insn *insn, uint32_t events,
                      qemu_plugin_vcpu_udata_cb_t reached)
{
    unsigned e;

    /* Taken and retired branches are checked where the next block starts */
    events &= ~WHERE_IT_GOES;
    for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
        if (events & BIT_EVENT(e)) {
            check(insn, e, reached);
        }
    }
}

static void count_one(struct qemu_plugin_insn *insn, PerfctrEvent e,
                      uint32_t targets)
{
    add(insn, COUNT(e), 1);
    if (targets & BIT_EVENT(e)) {
        add(insn, COUNTDOWN(e), -1);
    }
}

/*
 * A branch (it ends its block): count it taken as guessed, and retired
 * (passing its condition) if it is not predicated or, predicated, is
 * guessed taken: a predicated branch is taken when its condition
 * passes.  Store the miss.
 */
static void count_where_it_goes(struct qemu_plugin_insn *insn,
                                const InsnClass *c, uint64_t pc,
                                bool predicated, uint32_t events,
                                uint32_t targets)
{
    uint64_t fall = pc + qemu_plugin_insn_size(insn);
    BranchGuess g = branch_guess(c, pc, fall, c->conditional);
    bool taken = events & BIT_EVENT(PERFCTR_EVENT_TAKEN_BRANCHES);
    bool retired = events & BIT_EVENT(PERFCTR_EVENT_RETIRED_BRANCHES);
    /* Not taken, it retired unless it failed its condition */
    int64_t retired_not_taken = !predicated;

    if (g.other_way == NO_PC) {
        /* Either way to the next one: not taken, retired either way */
        if (retired) {
            count_one(insn, PERFCTR_EVENT_RETIRED_BRANCHES, targets);
        }
        return;
    }
    if (taken && branch_guess_value(&g, 1, 0)) {
        count_one(insn, PERFCTR_EVENT_TAKEN_BRANCHES, targets);
    }
    if (retired && branch_guess_value(&g, 1, retired_not_taken)) {
        count_one(insn, PERFCTR_EVENT_RETIRED_BRANCHES, targets);
    }
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_STORE_U64, MISS, g.other_way);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_STORE_U64, MISS_DELTA,
        taken ? branch_guess_correction(&g, 1, 0) : 0);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_STORE_U64, MISS_RETIRED_DELTA,
        retired ? branch_guess_correction(&g, 1, retired_not_taken) : 0);
}

/* Before insn: uncount the loads and stores (bit k: pendable[k]) pending */
static void settle(struct qemu_plugin_insn *insn, uint32_t kinds)
{
    unsigned k;

    for (k = 0; k < G_N_ELEMENTS(pendable); k++) {
        if (kinds & BIT_EVENT(k)) {
            qemu_plugin_register_vcpu_insn_exec_cond_cb(
                insn, not_executed, QEMU_PLUGIN_CB_NO_REGS,
                QEMU_PLUGIN_COND_NE, PENDING(k), 0, (void *)(uintptr_t)k);
        }
    }
}

/* The pendable kinds of events, as bits k */
static uint32_t pendable_kinds(uint32_t events)
{
    uint32_t kinds = 0;
    unsigned k;

    for (k = 0; k < G_N_ELEMENTS(pendable); k++) {
        if (events & BIT_EVENT(pendable[k].event)) {
            kinds |= BIT_EVENT(k);
        }
    }
    return kinds;
}

/* A load or store that may not execute: pending until it accesses memory */
static void mark_pending(struct qemu_plugin_insn *insn, uint32_t kinds)
{
    uint64_t after = qemu_plugin_insn_vaddr(insn) +
                     qemu_plugin_insn_size(insn);
    unsigned k;

    for (k = 0; k < G_N_ELEMENTS(pendable); k++) {
        if (kinds & BIT_EVENT(k)) {
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_STORE_U64, PENDING(k), after);
            qemu_plugin_register_vcpu_mem_inline_per_vcpu(
                insn, pendable[k].access, QEMU_PLUGIN_INLINE_STORE_U64,
                PENDING(k), 0);
        }
    }
}

void events_instrument(struct qemu_plugin_tb *tb)
{
    uint32_t want = __atomic_load_n(&wanted, __ATOMIC_RELAXED) &
                    PLUGIN_EVENTS;
    uint32_t targets = __atomic_load_n(&targeted, __ATOMIC_RELAXED) & want;
    size_t i, n = qemu_plugin_tb_n_insns(tb);
    uint32_t before = 0;
    uint32_t pending = 0;          /* kinds the one before left pending */
    bool linked = false;           /* the one before links it: a call */
    IsaPredication it = { 0 };

    if (!want) {
        return;
    }
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        uint8_t bytes[4];
        size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
        InsnClass c;
        uint32_t events;
        bool may_skip;
        unsigned e;

        isa_classify(config->isa, bytes, got, pc, &c);
        if (linked) {
            isa_linked(&c);
        }
        linked = isa_links_next(config->isa, bytes, got);
        events = events_of(&c);
        if (want & ARITH_EVENTS) {
            InsnTiming t;

            isa_timing(config->isa, bytes, got, &t);
            events |= arith_events_of(&t);
        }
        events &= want;
        if (i == 0 && isa_predicates(config->isa)) {
            /* The last block's last one may have been left pending */
            settle(insn, pendable_kinds(want));
            check_all(insn, want & targets & PENDABLE_EVENTS, reached_before);
        } else {
            settle(insn, pending);
        }
        may_skip = isa_may_not_execute(config->isa, bytes, got, &it);
        pending = may_skip ? pendable_kinds(events) : 0;
        if (i == 0 && (want & WHERE_IT_GOES)) {
            qemu_plugin_register_vcpu_insn_exec_cond_cb(
                insn, block_entered_at_miss, QEMU_PLUGIN_CB_NO_REGS,
                QEMU_PLUGIN_COND_EQ, MISS, pc, NULL);
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_STORE_U64, MISS, 0);
            for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
                if (targets & WHERE_IT_GOES & BIT_EVENT(e)) {
                    check(insn, e, reached_before);
                }
            }
        }
        check_all(insn, before & targets, reached_before);
        for (e = 0; e < PERFCTR_EVENT_COUNT; e++) {
            if (events & ~WHERE_IT_GOES & BIT_EVENT(e)) {
                count_one(insn, e, targets);
            }
        }
        if (events & WHERE_IT_GOES) {
            /* CBZ is conditional without a condition code: not in IT */
            count_where_it_goes(insn, &c, pc,
                                c.predicated || (may_skip && !c.conditional),
                                events, targets);
        }
        mark_pending(insn, pending);
        if (i == n - 1) {
            /* A pending one is checked where the next block starts */
            check_all(insn, events & targets &
                      ~(pending ? PENDABLE_EVENTS : 0), reached_at_end);
        }
        before = events;
    }
}
