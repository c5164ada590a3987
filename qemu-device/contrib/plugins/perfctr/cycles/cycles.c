/*
 * perfctr plugin: estimated cycles (a timing model per core)
 *
 * Each translated block is scheduled once, at translation, by the
 * model of the core, one file each (docs/cycles.md says what each
 * models and not): m3.c (m3, m4: the Cortex-M3 and Cortex-M4 TRM
 * tables), m7.c (the Cortex-M7's measured dual issue), e31.c (the
 * SiFive E31).
 *
 * Costs known at translation are added inline, with no callback: each
 * instruction's cost is added before it runs, at the latest together
 * with the next instruction that may access a device (memory not
 * addressed from the stack pointer or the pc) or the block's last, so
 * that a read during an access counts every instruction up to and
 * including the accessing one, as -icount does; the instructions and a
 * window's share, read only at the end, are counted there by runs.c.
 * The rest is dynamic:
 *
 * - A conditional branch ends its block.  Its cost is added as if it
 *   went the way a static predictor guesses (backward taken, forward
 *   not: isa/branch-guess.h), and its last instruction stores the other
 *   destination; the block entered there (a conditional callback on
 *   its pc, so only guesses that miss cost a call) adds the
 *   difference.  Only the blocks at some branch's other way check;
 *   one translated before that branch was found is translated again.
 *   A core with a dynamic predictor (the M7) corrects that guess in
 *   predictor.c.
 * - Multiplies and divisions whose time depends on their operands call
 *   back with the registers before they run.
 * - While a device arms a target on the cycle count (a threshold, an
 *   overflow, QEMU's next timer deadline), the device is called back
 *   after the instruction whose cost reached it: a block whose costs
 *   are all known at translation checks at its entry (targets.c);
 *   other blocks add each instruction's cost before it runs and check
 *   the target before the next one, as events.c does for the other
 *   events.
 *
 * A block starts with an idle pipeline, as after a taken branch.  A
 * block that ends without one (QEMU ends blocks at a page, 1 KiB on
 * the M profile, and at 512 instructions) falls through: its tail is
 * kept, and the block it falls into, when translated after it, is
 * scheduled both ways; what continuing the schedule changes is added
 * when it is entered that way (a conditional callback on its pc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "cycles/cycles.h"
#include "cycles/memory.h"
#include "cycles/model.h"
#include "cycles/predictor.h"
#include "cycles/runs.h"
#include "cycles/slots.h"
#include "cycles/targets.h"
#include "events/events.h"
#include "isa/branch-guess.h"

#define TAIL 4              /* instructions of a block a fall-through keeps */

/* Code translated again when a guess's other way was found late */
#define MAX_RETRANSLATIONS 32

/* QEMU exports them; weak so that the plugin still loads in another QEMU */
#pragma weak perfctr_hook_retranslate
#pragma weak perfctr_hook_retranslate_at
#pragma weak perfctr_hook_io_insn_known

/* The last instructions of a block that falls through to a pc */
typedef struct Tail {
    size_t n;
    CyclesInsn insns[TAIL];
} Tail;

/*
 * The block being translated, decoded and scheduled once for the
 * passes of cycles_instrument_entry(), _first() and cycles_instrument()
 */
typedef struct Planned {
    size_t n;
    CyclesInsn *insns;
    unsigned *cost;
    /*
     * A target on the cycles is checked at the block's entry, before
     * its first instruction and after its last, not at each one
     */
    bool checked_at_entry;
    /* The first instructions of a block whose target they reach */
    bool head;
    /* Instructions before which a callback reads the cycles */
    bool *read_before;
    /*
     * It ends at an access to I/O, and insns[n] is the instruction after
     * it, which the block was scheduled with on its first run
     */
    bool after_io;
} Planned;

/* An instruction whose cost depends on its operands */
typedef struct Operands {
    InsnTiming t;
    int window;         /* or -1 */
} Operands;

static const CyclesCore *const cores[] = {
    [CYCLES_M0] = &cycles_m0, [CYCLES_M0_SMALL_MUL] = &cycles_m0_small_mul,
    [CYCLES_M3] = &cycles_m3, [CYCLES_M4] = &cycles_m4,
    [CYCLES_M7] = &cycles_m7, [CYCLES_M33] = &cycles_m33,
    [CYCLES_M55] = &cycles_m55, [CYCLES_E31] = &cycles_e31,
};

static const PerfctrConfig *config;
static const CyclesCore *core;
/* The slots' sums when the profile started (start=), or NULL */
static uint64_t *start_sums;
static struct qemu_plugin_register *regs[32];
static bool have_regs;
static GHashTable *tails;       /* pc: the Tail of the block before it */
static GMutex tails_lock;
/*
 * The pcs a branch's guess does not go to (the blocks there check
 * whether the guess missed), and the blocks translated without the
 * check, with their host code; after MAX_RETRANSLATIONS of all code,
 * every block checks
 */
static GHashTable *other_ways, *unchecked;
static unsigned retranslations;
static bool check_everywhere;
static GMutex ways_lock;
/* Translations run on the vCPU's thread, one at a time */
static __thread Planned planned;

bool cycles_model_named(const char *name, CyclesModel *out)
{
    unsigned i;

    for (i = CYCLES_M0; i < G_N_ELEMENTS(cores); i++) {
        if (g_str_equal(name, cores[i]->name)) {
            *out = i;
            return true;
        }
    }
    return false;
}

static int window_of(uint64_t pc)
{
    const AddressRange *windows = config->windows;
    unsigned i;

    if (config->windows_sorted) {
        /* A window on each function: a thousand of them, say */
        i = address_range_find(windows, config->n_windows, pc);
        return i < config->n_windows ? (int)i : -1;
    }
    for (i = 0; i < config->n_windows; i++) {
        if (pc >= windows[i].start && pc < windows[i].end) {
            return i;
        }
    }
    return -1;
}

/* Operand-dependent costs, from the registers before the instruction */

static uint32_t reg_value(unsigned r)
{
    g_autoptr(GByteArray) buf = g_byte_array_new();

    if (!have_regs || !regs[r] || qemu_plugin_read_register(regs[r], buf) < 4) {
        return 0;
    }
    return buf->data[0] | buf->data[1] << 8 | buf->data[2] << 16 |
           (uint32_t)buf->data[3] << 24;
}

static void operands_cb(unsigned vcpu, void *udata)
{
    Operands *o = udata;
    uint32_t a = reg_value(o->t.op_a), b = reg_value(o->t.op_b);

    cycles_add(vcpu, cycles_slots_of(vcpu), core->operand_cycles(&o->t, a, b),
               o->window);
}

/* Entered from the block that falls through to it: udata the change */
static void continued_cb(unsigned vcpu, void *udata)
{
    uint64_t *slots = cycles_slots_of(vcpu);
    int64_t *change = udata;

    slots[SLOT_FELL] = NO_PC;
    cycles_add(vcpu, slots, change[0], change[1]);
}

static void mispredicted_cb(unsigned vcpu, void *udata)
{
    uint64_t *slots = cycles_slots_of(vcpu);
    uint64_t packed = slots[SLOT_DELTA];

    slots[SLOT_MISS] = NO_PC;
    if (core->dynamic_predictor) {
        predictor_other_way(vcpu, slots);
    } else {
        cycles_add(vcpu, slots, (int32_t)(uint32_t)packed,
                   (int32_t)(packed >> 32));
    }
}

void cycles_left_code(unsigned vcpu, uint64_t pc)
{
    if (vcpu >= qemu_plugin_num_vcpus()) {
        return;
    }
    if (qemu_plugin_u64_get(cycles_slot(SLOT_MISS), vcpu) == pc) {
        mispredicted_cb(vcpu, NULL);
    }
    if (core->dynamic_predictor) {
        predictor_left_code(vcpu, pc);
    }
}

void cycles_vcpu_init(unsigned vcpu)
{
    g_autoptr(GArray) all = qemu_plugin_get_registers();
    bool riscv = config->isa == ISA_RISCV;
    guint i;
    unsigned r;

    memory_vcpu_init(vcpu);
    if (have_regs) {
        return;                 /* the handles are the same on every vCPU */
    }
    for (i = 0; i < all->len; i++) {
        qemu_plugin_reg_descriptor *d =
            &g_array_index(all, qemu_plugin_reg_descriptor, i);

        for (r = 0; r < (riscv ? 32 : 13); r++) {
            g_autofree char *arm = g_strdup_printf("r%u", r);

            if (!regs[r] &&
                g_str_equal(d->name,
                            riscv ? isa_riscv_register_names[r] : arm)) {
                regs[r] = d->handle;
            }
        }
    }
    have_regs = true;
}

bool cycles_init(const PerfctrConfig *cfg)
{
    unsigned n_slots;

    config = cfg;
    core = cores[config->cycles_model];
    if (core->riscv != (config->isa == ISA_RISCV) ||
        config->isa == ISA_A32 || config->isa == ISA_A64) {
        fputs("perfctr: cycles=e31 is for rv32 guests, the m* models "
              "for Thumb ones; none is for a32 or a64 code\n", stderr);
        return false;
    }
    memory_init(config);
    if (memory_part()->line && !core->flash) {
        fputs("perfctr: memory= is for the Cortex-M3 and M4 models "
              "(cycles=m3, m4)\n", stderr);
        return false;
    }
    n_slots = SLOT_WINDOWS + 2 * config->n_windows;
    if (core->dynamic_predictor) {
        n_slots += predictor_slots(n_slots);
    }
    cycles_slots_init(n_slots, config->threads);
    runs_init(config);
    return true;
}

static uint64_t read_slot(unsigned index, unsigned vcpu_index)
{
    /* Before the vCPU starts (a device's reset), none */
    return vcpu_index < qemu_plugin_num_vcpus() ?
           qemu_plugin_u64_get(cycles_slot(index), vcpu_index) : 0;
}

uint64_t cycles_read(unsigned vcpu_index)
{
    return read_slot(SLOT_CYCLES, vcpu_index);
}

uint64_t cycles_read_memory_stalls(unsigned vcpu_index)
{
    return read_slot(SLOT_MEMORY_STALLS, vcpu_index);
}

/* Decode the block; mark the instructions an IT block predicates */
static void decode(struct qemu_plugin_tb *tb, CyclesInsn *insns, size_t n)
{
    unsigned it_left = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint8_t bytes[4];
        size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
        CyclesInsn *in = &insns[i];

        in->pc = qemu_plugin_insn_vaddr(insn);
        in->len = qemu_plugin_insn_size(insn);
        isa_timing(config->isa, bytes, got, &in->t);
        isa_classify(config->isa, bytes, got, in->pc, &in->c);
        in->in_it = it_left > 0;
        if (it_left) {
            it_left--;
        }
        if (isa_it_count(config->isa, bytes, got)) {
            it_left = isa_it_count(config->isa, bytes, got);
        }
    }
}

static void store(struct qemu_plugin_insn *insn, unsigned index,
                  uint64_t value)
{
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_STORE_U64, cycles_slot(index), value);
}

static void add_inline(struct qemu_plugin_insn *insn, unsigned index,
                       uint64_t value)
{
    if (value) {
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            insn, QEMU_PLUGIN_INLINE_ADD_U64, cycles_slot(index), value);
    }
}

/* What the first n of insns cost, scheduled with the after ones after */
static int64_t schedule_sum(const CyclesInsn *insns, size_t n, size_t after)
{
    g_autofree unsigned *cost = g_new0(unsigned, n + after);
    int64_t sum = 0;
    size_t i;

    core->schedule(insns, n + after, cost);
    for (i = 0; i < n; i++) {
        sum += cost[i];
    }
    return sum;
}

/*
 * Whether a block ending in last falls through to the next one: not at
 * a branch, nor at an access to I/O that QEMU ends blocks at (patch
 * 0037), whose first run left the block there and went on with its
 * rest as a block of its own, scheduled alone
 */
static bool falls_through(const CyclesInsn *last)
{
    return !last->t.sets_pc &&
           !(perfctr_hook_io_insn_known &&
             perfctr_hook_io_insn_known(last->pc));
}

/*
 * The block's tail, for the block it falls through to; and if the
 * block before this one fell through to it, a callback that adds what
 * continuing that one's schedule changes
 */
static void continue_schedule(struct qemu_plugin_tb *tb,
                              const CyclesInsn *insns, size_t n)
{
    const CyclesInsn *last = &insns[n - 1];
    Tail *before, *tail;
    int64_t *change;

    g_mutex_lock(&tails_lock);
    if (!tails) {
        tails = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                      g_free);
    }
    if (falls_through(last)) {
        uint64_t *key = g_new(uint64_t, 1);

        tail = g_new0(Tail, 1);
        tail->n = MIN(n, TAIL);
        memcpy(tail->insns, insns + n - tail->n,
               tail->n * sizeof(CyclesInsn));
        *key = last->pc + last->len;
        g_hash_table_replace(tails, key, tail);
    }
    before = g_hash_table_lookup(tails, &insns[0].pc);
    if (before) {
        size_t after = planned.after_io;
        g_autofree CyclesInsn *both = g_new(CyclesInsn,
                                            before->n + n + after);

        memcpy(both, before->insns, before->n * sizeof(CyclesInsn));
        memcpy(both + before->n, insns, (n + after) * sizeof(CyclesInsn));
        change = g_new(int64_t, 2);
        change[0] = schedule_sum(both, before->n + n, after) -
                    schedule_sum(before->insns, before->n, 0) -
                    schedule_sum(insns, n, after);
        change[1] = window_of(insns[0].pc);
        if (change[0]) {
            qemu_plugin_register_vcpu_tb_exec_cond_cb(
                tb, continued_cb, QEMU_PLUGIN_CB_NO_REGS,
                QEMU_PLUGIN_COND_EQ, cycles_slot(SLOT_FELL),
                qemu_plugin_tb_vaddr(tb), change);
        } else {
            g_free(change);
        }
    }
    g_mutex_unlock(&tails_lock);
}

/*
 * Whether the block at pc (host_code, its first instruction's) checks
 * whether the guess of the branch before it missed; miss: the way its
 * own branch's guess does not go, or NO_PC
 */
static bool checks_guess(uint64_t pc, void *host_code, uint64_t miss)
{
    void *late = NULL;
    bool found_late, here;

    if (core->dynamic_predictor || !perfctr_hook_retranslate) {
        return true;            /* (the predictor follows every block) */
    }
    g_mutex_lock(&ways_lock);
    if (!other_ways) {
        other_ways = g_hash_table_new(NULL, NULL);
        unchecked = g_hash_table_new(NULL, NULL);
    }
    found_late = miss != NO_PC && !check_everywhere &&
                 g_hash_table_add(other_ways, GSIZE_TO_POINTER(miss)) &&
                 g_hash_table_lookup_extended(unchecked,
                                              GSIZE_TO_POINTER(miss), NULL,
                                              &late);
    if (found_late && late && perfctr_hook_retranslate_at) {
        /*
         * Translated without the check: that block again (all code
         * again took 6% of FreeRTOS's full demo with --cycles)
         */
        g_hash_table_remove(unchecked, GSIZE_TO_POINTER(miss));
        perfctr_hook_retranslate_at(late);
    } else if (found_late) {
        /* All again, this block first */
        check_everywhere = ++retranslations > MAX_RETRANSLATIONS;
        g_hash_table_remove_all(unchecked);
        perfctr_hook_retranslate();
    }
    here = check_everywhere ||
           g_hash_table_contains(other_ways, GSIZE_TO_POINTER(pc));
    if (!here) {
        g_hash_table_insert(unchecked, GSIZE_TO_POINTER(pc), host_code);
    }
    g_mutex_unlock(&ways_lock);
    return here;
}

/* What the instructions since the last flush cost, and their window */
typedef struct Pending {
    uint64_t cycles, insns, memory_stalls;
    int window;
} Pending;

/*
 * Whether an access may read a device, which may read the costs: those
 * before it must have been added by then (the stack and the literal
 * pools are no device: flushing at their accesses too took 16% of the
 * blinky's run)
 */
static bool may_reach_device(const InsnTiming *t)
{
    return cycles_accesses_memory(t) &&
           (t->address & ~isa_local_address_mask(config->isa));
}

/* Add what is pending to the totals and its window, before insn runs */
static void flush(struct qemu_plugin_insn *insn, Pending *p,
                  uint32_t targets)
{
    add_inline(insn, SLOT_CYCLES, p->cycles);
    runs_count(insn, p->window, p->cycles, p->insns);
    add_inline(insn, SLOT_MEMORY_STALLS, p->memory_stalls);
    if (targets & (1u << PERFCTR_EVENT_CYCLES)) {
        targets_count_down(insn, PERFCTR_EVENT_CYCLES, p->cycles);
    }
    if (targets & (1u << PERFCTR_EVENT_MEMORY_STALLS)) {
        targets_count_down(insn, PERFCTR_EVENT_MEMORY_STALLS,
                           p->memory_stalls);
    }
    p->cycles = p->insns = p->memory_stalls = 0;
}

/*
 * The instruction after a block that QEMU ended at an access to I/O
 * (patch 0037), into next: it was scheduled with the block's last one
 * on the block's first run, before QEMU ended the block there
 */
static bool decode_after_io(const CyclesInsn *last, CyclesInsn *next)
{
    uint64_t pc = last->pc + last->len;
    g_autoptr(GByteArray) bytes = NULL;

    if (falls_through(last) || last->t.sets_pc) {
        return false;
    }
    bytes = g_byte_array_sized_new(4);
    if (!qemu_plugin_read_memory_vaddr(pc, bytes, 4)) {
        return false;
    }
    next->pc = pc;
    next->len = isa_insn_size(config->isa, bytes->data, bytes->len);
    isa_timing(config->isa, bytes->data, next->len, &next->t);
    isa_classify(config->isa, bytes->data, next->len, pc, &next->c);
    return next->len > 0;
}

/* Decode and schedule tb (a head: with its costs in the whole block) */
static void plan(struct qemu_plugin_tb *tb, size_t n)
{
    planned.n = n;
    /* (room for the instruction after an access to I/O) */
    planned.insns = g_new0(CyclesInsn, n + 1);
    planned.cost = g_new0(unsigned, n + 1);
    planned.read_before = g_new0(bool, n);
    decode(tb, planned.insns, n);
    planned.after_io = decode_after_io(&planned.insns[n - 1],
                                       &planned.insns[n]);
    core->schedule(planned.insns, n + planned.after_io, planned.cost);
    planned.head = targets_head_costs(tb, planned.cost, n);
}

/* Whether all that the instructions before the last cost is static */
static bool static_before_last(void)
{
    size_t i;

    if (memory_adds_while_running()) {
        return false;
    }
    for (i = 0; i + 1 < planned.n; i++) {
        if (core->has_operand_cost(&planned.insns[i].t)) {
            return false;
        }
    }
    return true;
}

/*
 * Before anything else instruments tb: plan it, and with a target on
 * the cycles, check at its entry whether it reaches the target before
 * its last instruction (QEMU then runs the head that does)
 */
void cycles_instrument_entry(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);

    planned.n = 0;
    if (!n) {
        return;
    }
    plan(tb, n);
    planned.checked_at_entry = targets_checked_at_entry() &&
                               static_before_last();
    if (planned.checked_at_entry) {
        targets_check_at_entry(tb, planned.cost, n);
    }
}

/*
 * What comes before the events and the profile instrument tb: the
 * guesses the block's entry has settled (its conditional callbacks) are
 * cleared, and a target on the cycles reached by the instruction before
 * (or by a misprediction's delta) leaves the block before the next one
 * begins, before anything else counts that one
 */
void cycles_instrument_first(struct qemu_plugin_tb *tb)
{
    size_t n = planned.n, i;
    uint32_t targets = targets_armed();
    struct qemu_plugin_insn *first;

    if (!n) {
        return;
    }
    first = qemu_plugin_tb_get_insn(tb, 0);
    store(first, SLOT_MISS, NO_PC);
    store(first, SLOT_FELL, NO_PC);
    if (core->dynamic_predictor) {
        store(first, SLOT_HIT, NO_PC);
    }
    for (i = 0; targets && i < (planned.checked_at_entry ? 1 : n); i++) {
        targets_check(qemu_plugin_tb_get_insn(tb, i), targets, false);
    }
}

void cycles_read_before(struct qemu_plugin_tb *tb, size_t index)
{
    if (index < planned.n) {
        planned.read_before[index] = true;
    }
}

void cycles_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = planned.n, i;
    CyclesInsn *insns = planned.insns;
    unsigned *cost = planned.cost;
    g_autofree bool *first_load = g_new0(bool, n);
    g_autofree bool *behind_load = g_new0(bool, n);
    uint64_t miss = NO_PC, guessed = NO_PC;
    Pending pending = { .window = -1 };
    int64_t delta = 0;
    CyclesInsn *last;
    bool guarded;
    uint32_t targets = targets_armed();
    /* A target not checked at entry: each instruction adds its own */
    bool each = targets && !planned.checked_at_entry;

    if (!n) {
        return;
    }
    /*
     * The single loads not pipelined behind another (they take 2 or 3),
     * and the accesses pipelined behind a load (flash cores: --memory
     * checks their memory blocks)
     */
    for (i = 0; i < n; i++) {
        first_load[i] = insns[i].t.cls == TC_LOAD && cost[i] > 1;
        behind_load[i] = core->flash && i &&
                         core->pipelined(&insns[i - 1].t, &insns[i].t);
    }
    if (!planned.head) {
        continue_schedule(tb, insns, n);
    }
    if (core->flash) {
        memory_schedule(tb, insns, n, cost, window_of(insns[0].pc));
    }

    /* The branch that ends the block, if any */
    last = &insns[n - 1];
    guarded = last->t.conditional || last->in_it;
    if (last->t.sets_pc) {
        BranchGuess g = branch_guess(&last->c, last->pc,
                                     last->pc + last->len, guarded);
        unsigned taken, not_taken;

        core->branch_costs(insns, n, cost, guarded, g.backward, &taken,
                           &not_taken);
        cost[n - 1] += branch_guess_value(&g, taken, not_taken);
        if (guarded) {
            miss = g.other_way;
            guessed = g.guessed;
            delta = branch_guess_correction(&g, taken, not_taken);
        }
    }

    if (checks_guess(qemu_plugin_tb_vaddr(tb),
                     qemu_plugin_insn_haddr(qemu_plugin_tb_get_insn(tb, 0)),
                     miss)) {
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, mispredicted_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_EQ,
            cycles_slot(SLOT_MISS), qemu_plugin_tb_vaddr(tb), NULL);
    }
    if (core->dynamic_predictor) {
        predictor_instrument_entry(tb);
    }

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        int window = window_of(insns[i].pc);
        bool operands = core->has_operand_cost(&insns[i].t);

        if (window != pending.window && pending.insns) {
            /* Before the last instruction of the window left */
            flush(qemu_plugin_tb_get_insn(tb, i - 1), &pending, targets);
        }
        pending.window = window;
        pending.cycles += cost[i];
        pending.insns++;
        if (cycles_accesses_memory(&insns[i].t) && cost[i] > 1) {
            pending.memory_stalls += cost[i] - 1;
        }
        if (each || may_reach_device(&insns[i].t) || operands ||
            i == n - 1 || config_stop_point(config, insns[i + 1].pc) ||
            planned.read_before[i + 1]) {
            /*
             * (a stop or the start comes before the next one's adds; a
             * callback reading the time before the next one sees it
             * exact, as when each instruction added its own)
             */
            flush(insn, &pending, targets);
        }
        if (core->flash && (cycles_reads_memory(&insns[i].t) ||
                            behind_load[i])) {
            memory_instrument_access(insn, window, first_load[i],
                                     behind_load[i],
                                     i + 1 < n && behind_load[i + 1]);
        }
        if (operands) {
            Operands *o = g_new(Operands, 1);

            o->t = insns[i].t;
            o->window = window;
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, operands_cb, QEMU_PLUGIN_CB_R_REGS, o);
        }
        if (i == n - 1 && miss != NO_PC) {
            store(insn, SLOT_MISS, miss);
            store(insn, SLOT_DELTA, (uint32_t)(int32_t)delta |
                  (uint64_t)(uint32_t)window_of(last->pc) << 32);
            if (core->dynamic_predictor) {
                predictor_instrument_branch(insn, guessed);
            }
        }
        if (i == n - 1) {
            targets_check(insn, targets, true);
        }
        if (i == n - 1 && falls_through(last) && !planned.head) {
            store(insn, SLOT_FELL, last->pc + last->len);
        }
    }
    g_free(planned.insns);
    g_free(planned.cost);
    g_free(planned.read_before);
    planned.n = 0;
}

/*
 * What the slots but the predictor's counted (all vCPUs), into sums:
 * the instructions and the windows' with their flush points' runs
 */
static void sum_slots(uint64_t *sums)
{
    unsigned i;

    for (i = 0; i < SLOT_WINDOWS + 2 * config->n_windows; i++) {
        sums[i] = qemu_plugin_u64_sum(cycles_slot(i));
    }
    runs_add_sums(&sums[SLOT_INSNS], &sums[SLOT_WINDOWS]);
}

void cycles_restart(void)
{
    /* The counts go on (a device may read them): remember where */
    g_free(start_sums);
    start_sums = g_new(uint64_t, SLOT_WINDOWS + 2 * config->n_windows);
    sum_slots(start_sums);
}

void cycles_write(FILE *out)
{
    unsigned n = SLOT_WINDOWS + 2 * config->n_windows, i;
    g_autofree uint64_t *since_start = g_new(uint64_t, n);

    /* What each slot counted since the start */
    sum_slots(since_start);
    for (i = 0; start_sums && i < n; i++) {
        since_start[i] -= start_sums[i];
    }

    fprintf(out, "cycles-model %s\n", core->name);
    fprintf(out, "cycles-memory %s\n", memory_part()->name);
    fprintf(out, "cycles-wait-states %u\n", memory_part()->wait_states);
    fprintf(out, "cycles %" PRIu64 "\n", since_start[SLOT_CYCLES]);
    fprintf(out, "cycles-instructions %" PRIu64 "\n",
            since_start[SLOT_INSNS]);
    for (i = 0; i < config->n_windows; i++) {
        const AddressRange *w = &config->windows[i];

        fprintf(out, "window 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64
                " %" PRIu64 "\n", w->start, w->end,
                since_start[SLOT_WINDOWS + 2 * i],
                since_start[SLOT_WINDOWS + 2 * i + 1]);
    }
}
