/*
 * perfctr plugin: estimated cycles (a timing model per core)
 *
 * Each translated block is scheduled once, at translation, by the
 * model of the core (docs/cycles.md says what each models and not):
 *
 *   m3, m4   Cortex-M3 and Cortex-M4 TRM tables (3-1): loads and stores
 *            2 cycles, a load or store pipelined after a load 1, an
 *            immediate-offset store 1 unless a load follows, the
 *            address-dependency stall, LDM/STM/PUSH/POP 1+N, IT folded
 *            after a 16-bit instruction, taken branches 1+P with P 1
 *            (2 to a 32-bit instruction on an odd halfword) plus the
 *            flash wait states; M3 long multiplies and both cores'
 *            divisions by operand values.
 *   m7       Cortex-M7 measured rules: in-order dual issue of
 *            independent pairs, result latencies (loads 2, byte and
 *            halfword loads 3, multiplies 2), LDM/STM ceil(N/2), a
 *            mispredicted branch 8.
 *   e31      SiFive E31: single issue, result latencies (LW 2, LB/LH
 *            3, MUL 5, CSR 3), a mispredicted branch 3.
 *
 * Costs known at translation are added inline, with no callback: each
 * instruction's cost is added before it runs, at the latest together
 * with the next instruction that may access memory or the block's
 * last (a window's share with them), so that a read during an access
 * counts every instruction up to and including the accessing one, as
 * -icount does.  The rest is dynamic:
 *
 * - A conditional branch ends its block.  Its cost is added as if it
 *   went the way a static predictor guesses (backward taken, forward
 *   not), and its last instruction stores the other destination; the
 *   block entered there (a conditional callback on its pc, so only
 *   guesses that miss cost a call) adds the difference.
 * - Multiplies and divisions whose time depends on their operands call
 *   back with the registers before they run.
 * - While a device arms a target on the cycle count (a threshold, an
 *   overflow), each instruction adds its own cost before it runs and
 *   the target is checked before the next one, as events.c does for
 *   the other events: the device is called back after the instruction
 *   whose cost reached it.
 *
 * The schedule does not cross block boundaries: each block starts with
 * an idle pipeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "cycles.h"
#include "events.h"
#include "stop.h"

#define NO_PC UINT64_MAX
#define MAX_WINDOWS 256

/* Per-vCPU scoreboard slots, in uint64_t */
enum {
    SLOT_CYCLES,
    SLOT_INSNS,
    SLOT_MISS,          /* the destination the last guess did not take */
    SLOT_DELTA,         /* what taking it costs more: int32 | window << 32 */
    SLOT_WINDOWS,       /* then cycles and instructions of each window */
};

typedef struct Window {
    uint64_t start, end;
} Window;

/* An instruction of the block being scheduled */
typedef struct Insn {
    uint64_t pc;
    unsigned len;
    InsnTiming t;
    InsnClass c;
    bool in_it;         /* inside a Thumb IT block: may not execute */
} Insn;

/* An instruction whose cost depends on its operands */
typedef struct Operands {
    InsnTiming t;
    int window;         /* or -1 */
} Operands;

static CyclesModel model;
static Isa isa;
static unsigned wait_states;
static Window windows[MAX_WINDOWS];
static unsigned n_windows;
/* The slots' sums when the profile started (start=), or NULL */
static uint64_t *start_sums;
static struct qemu_plugin_scoreboard *board;
static struct qemu_plugin_register *regs[32];
static bool have_regs;

static qemu_plugin_u64 slot(unsigned index)
{
    return (qemu_plugin_u64) { board, index * sizeof(uint64_t) };
}

bool cycles_parse_model(const char *name, CyclesModel *out)
{
    static const char *const names[] = {
        [CYCLES_M3] = "m3", [CYCLES_M4] = "m4", [CYCLES_M7] = "m7",
        [CYCLES_E31] = "e31",
    };
    unsigned i;

    for (i = CYCLES_M3; i < G_N_ELEMENTS(names); i++) {
        if (g_str_equal(name, names[i])) {
            *out = i;
            return true;
        }
    }
    return false;
}

bool cycles_add_window(const char *range)
{
    g_auto(GStrv) ends = g_strsplit(range, "-", 2);
    char *end_a, *end_b;
    Window w;

    if (!ends[0] || !ends[1] || n_windows == MAX_WINDOWS) {
        return false;
    }
    w.start = g_ascii_strtoull(ends[0], &end_a, 0);
    w.end = g_ascii_strtoull(ends[1], &end_b, 0);
    if (*end_a || *end_b || end_a == ends[0] || w.end <= w.start) {
        return false;
    }
    windows[n_windows++] = w;
    return true;
}

void cycles_set_wait_states(unsigned n)
{
    wait_states = n;
}

static int window_of(uint64_t pc)
{
    unsigned i;

    for (i = 0; i < n_windows; i++) {
        if (pc >= windows[i].start && pc < windows[i].end) {
            return i;
        }
    }
    return -1;
}

/* The slots of a vCPU, from a callback: one lookup, then plain adds */
static uint64_t *slots_of(unsigned vcpu)
{
    return qemu_plugin_scoreboard_find(board, vcpu);
}

/* Add cycles to the total and to a window, from a callback */
static void add(unsigned vcpu, uint64_t *slots, int64_t cycles, int window)
{
    slots[SLOT_CYCLES] += cycles;
    if (window >= 0) {
        slots[SLOT_WINDOWS + 2 * window] += cycles;
    }
    if (events_targeted(PERFCTR_EVENT_CYCLES)) {
        qemu_plugin_u64_add(events_countdown(PERFCTR_EVENT_CYCLES), vcpu,
                            -cycles);
    }
}

/* Classes */

static bool data_processing(const InsnTiming *t)
{
    return t->cls <= TC_DIV || t->cls == TC_SYSTEM;
}

static bool reads_memory(const InsnTiming *t)
{
    return t->cls == TC_LOAD || t->cls == TC_LOAD_DOUBLE ||
           t->cls == TC_LOAD_MULTIPLE || t->cls == TC_TABLE_BRANCH;
}

static bool accesses_memory(const InsnTiming *t)
{
    return (t->cls >= TC_LOAD && t->cls <= TC_STORE_MULTIPLE) ||
           t->cls == TC_TABLE_BRANCH;
}

static bool has_operand_cost(const InsnTiming *t)
{
    switch (model) {
    case CYCLES_M3:
        return t->cls == TC_DIV || t->cls == TC_MULL || t->cls == TC_MLAL;
    case CYCLES_M4:
    case CYCLES_M7:
    case CYCLES_E31:
        return t->cls == TC_DIV;
    default:
        return false;
    }
}

/* Cortex-M3 and Cortex-M4: the TRM tables with the pipelining rules */

/* Whether cur's address phase overlaps prev's data phase */
static bool pipelined(const InsnTiming *prev, const InsnTiming *cur)
{
    if (!prev || prev->cls != TC_LOAD || prev->sets_pc ||
        (cur->cls != TC_LOAD && cur->cls != TC_STORE) ||
        (prev->writes & cur->address)) {
        return false;
    }
    /* M3: only the first load of a chain may be pre- or post-indexed */
    return !(model == CYCLES_M3 && cur->cls == TC_LOAD && cur->writeback);
}

static unsigned m3_cost(const InsnTiming *prev, const InsnTiming *cur,
                        const InsnTiming *next)
{
    bool m4 = model == CYCLES_M4;
    /*
     * An address computed or loaded by the previous instruction is a
     * cycle late (a base register's write-back is not: it is early)
     */
    uint32_t late = !prev ? 0 : data_processing(prev) ? prev->writes :
                    reads_memory(prev) ? prev->writes & ~(
                        prev->writeback || prev->nregs ? prev->address : 0) :
                    0;
    unsigned stall = late & cur->address ? 1 : 0;
    unsigned cost;

    switch (cur->cls) {
    case TC_MAC:
        return m4 ? 1 : 2;
    case TC_MULL:
        return m4 ? 1 : 3;              /* M3: + early termination */
    case TC_MLAL:
        return m4 ? 1 : 4;
    case TC_DIV:
        return 2;                       /* + by operands */
    case TC_LOAD:
        return pipelined(prev, cur) ? 1 : 2 + stall;
    case TC_STORE:
        if (pipelined(prev, cur)) {
            cost = 1;
        } else {
            cost = (cur->reg_offset ? 2 : 1) + stall;
        }
        /* The store's data phase holds up a load that follows */
        if (cost == 1 && next && reads_memory(next)) {
            cost = 2;
        }
        return cost;
    case TC_LOAD_DOUBLE:
    case TC_STORE_DOUBLE:
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return 1 + cur->nregs + stall;
    case TC_TABLE_BRANCH:
        return 2 + stall;
    case TC_IT:
        return prev && !prev->wide ? 0 : 1;     /* folded */
    case TC_BARRIER:
        return 1;
    default:                            /* ALU, MUL, branches, system */
        return 1;
    }
}

static void m3_schedule(const Insn *insns, size_t n, unsigned *cost)
{
    size_t i;

    for (i = 0; i < n; i++) {
        cost[i] = m3_cost(i ? &insns[i - 1].t : NULL, &insns[i].t,
                          i + 1 < n ? &insns[i + 1].t : NULL);
    }
}

/* Cortex-M7 and E31: issue in order as operands and units allow */

typedef struct Sched {
    uint64_t end;           /* when the previous instruction has issued */
    uint64_t issue;         /* when it began to */
    bool slot_free;         /* it issued alone and might take a partner */
    const InsnTiming *prev;
    uint64_t ready[32];     /* when each register's value is available */
    uint64_t mul_free;      /* E31: when the multiplier is free */
} Sched;

static uint64_t operands_ready(const Sched *s, const InsnTiming *t)
{
    uint64_t ready = 0;
    unsigned r;

    for (r = 0; r < 32; r++) {
        if ((t->reads & (1u << r)) && s->ready[r] > ready) {
            ready = s->ready[r];
        }
    }
    return ready;
}

static bool is_multiply(const InsnTiming *t)
{
    return t->cls >= TC_MUL && t->cls <= TC_MLAL;
}

static bool m7_single(const InsnTiming *t)
{
    return t->cls == TC_LOAD_MULTIPLE || t->cls == TC_STORE_MULTIPLE ||
           t->cls == TC_LOAD_DOUBLE || t->cls == TC_STORE_DOUBLE ||
           t->cls == TC_DIV || t->cls == TC_TABLE_BRANCH ||
           t->cls == TC_BARRIER || t->cls == TC_SYSTEM;
}

/* Whether cur may issue in the same cycle as prev (prev first) */
static bool m7_pair(const InsnTiming *prev, const InsnTiming *cur)
{
    bool prev_load = prev->cls == TC_LOAD, cur_load = cur->cls == TC_LOAD;
    bool prev_store = prev->cls == TC_STORE, cur_store = cur->cls == TC_STORE;
    bool prev_mac = prev->cls == TC_MAC || prev->cls == TC_MLAL;
    bool cur_mac = cur->cls == TC_MAC || cur->cls == TC_MLAL;

    if (m7_single(prev) || m7_single(cur) || prev->sets_pc ||
        (prev->writes & cur->reads)) {
        return false;
    }
    if ((prev_load && cur_load) || (prev_store && cur_store) ||
        (is_multiply(prev) && is_multiply(cur)) ||
        (prev_mac && cur_store) || (prev_store && cur_mac)) {
        return false;
    }
    return true;
}

static unsigned m7_latency(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_LOAD:
        return t->size < 4 ? 3 : 2;
    case TC_LOAD_DOUBLE:
    case TC_LOAD_MULTIPLE:
    case TC_MUL:
    case TC_MAC:
    case TC_MULL:
    case TC_MLAL:
        return 2;
    default:
        return 1;
    }
}

static unsigned m7_occupancy(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return MAX(1, (t->nregs + 1) / 2);
    case TC_DIV:
        return 2;                       /* + by operands */
    default:
        return 1;
    }
}

static unsigned e31_latency(const InsnTiming *t)
{
    switch (t->cls) {
    case TC_LOAD:
        return t->size < 4 ? 3 : 2;
    case TC_MUL:
    case TC_MULL:
        return 5;
    case TC_DIV:
        return 2;                       /* + by operands */
    case TC_SYSTEM:
        return 3;                       /* CSR reads */
    default:
        return 1;
    }
}

static unsigned sched_one(Sched *s, const InsnTiming *t)
{
    uint64_t ready = operands_ready(s, t), issue, end;
    unsigned latency, occupancy, r;

    if (model == CYCLES_M7) {
        latency = m7_latency(t);
        occupancy = m7_occupancy(t);
        if (s->slot_free && s->prev && m7_pair(s->prev, t) &&
            ready <= s->issue) {
            issue = s->issue;
            s->slot_free = false;
        } else {
            issue = MAX(s->end, ready);
            s->slot_free = occupancy == 1 && !m7_single(t);
        }
    } else {
        latency = e31_latency(t);
        occupancy = t->cls == TC_DIV ? 2 : 1;
        issue = MAX(s->end, ready);
        if (is_multiply(t) || t->cls == TC_DIV) {
            issue = MAX(issue, s->mul_free);
            s->mul_free = issue + latency;
        }
    }
    for (r = 0; r < 32; r++) {
        if (t->writes & (1u << r)) {
            s->ready[r] = issue + latency;
        }
    }
    end = MAX(s->end, issue + occupancy);
    r = end - s->end;
    s->end = end;
    s->issue = issue;
    s->prev = t;
    return r;
}

static void issue_schedule(const Insn *insns, size_t n, unsigned *cost)
{
    Sched s = { 0 };
    size_t i;

    for (i = 0; i < n; i++) {
        cost[i] = sched_one(&s, &insns[i].t);
    }
}

/* Branches: what taking one and falling through cost beyond its issue */

/* Cortex-M3/M4 refill: 1, or 2 to a 32-bit instruction on an odd halfword */
static unsigned refill(uint64_t target, bool known)
{
    unsigned p = 1 + wait_states;
    g_autoptr(GByteArray) bytes = g_byte_array_new();

    if (known && (target & 2) &&
        qemu_plugin_read_memory_vaddr(target, bytes, 2)) {
        uint16_t hw = bytes->data[0] | bytes->data[1] << 8;

        if (hw >= 0xe800) {             /* the first half of a 32-bit one */
            p++;
        }
    }
    return p;
}

/* The cost of being taken and of falling through, beyond the schedule */
static void branch_costs(const Insn *last, bool conditional, bool backward,
                         unsigned *taken, unsigned *fall)
{
    unsigned penalty;

    switch (model) {
    case CYCLES_M3:
    case CYCLES_M4:
        *taken = refill(last->c.target, last->c.direct);
        *fall = 0;
        return;
    default:
        /* Predicted: nothing more; mispredicted: the refill */
        penalty = model == CYCLES_M7 ? 8 : 3;
        if (!conditional) {
            *taken = *fall = 0;
        } else {
            *taken = backward ? 0 : penalty;
            *fall = backward ? penalty : 0;
        }
        return;
    }
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

static uint32_t magnitude(uint32_t v, bool is_signed)
{
    return is_signed && (int32_t)v < 0 ? -v : v;
}

/* Significant bits of v as an operand (a signed one without its sign run) */
static unsigned significant(uint32_t v, bool is_signed)
{
    if (is_signed && (int32_t)v < 0) {
        v = ~v;
    }
    return v ? 32 - __builtin_clz(v) + is_signed : 0;
}

/* Quotient bits a shift-and-subtract divider produces */
static unsigned quotient_bits(uint32_t n, uint32_t d, bool is_signed)
{
    n = magnitude(n, is_signed);
    d = magnitude(d, is_signed);
    if (!d || n < d) {
        return 0;
    }
    return __builtin_clz(d) - __builtin_clz(n) + 1;
}

static unsigned extra_cycles(const InsnTiming *t, uint32_t a, uint32_t b)
{
    unsigned q, bytes;

    switch (t->cls) {
    case TC_DIV:
        q = quotient_bits(a, b, t->is_signed);
        if (model == CYCLES_E31) {
            return MAX(2, 1 + q) - 2;               /* 1 bit a cycle */
        }
        return MIN(12, 2 + (q + 2) / 3) - 2;        /* 2 to 12 */
    case TC_MULL:
    case TC_MLAL:
        /* M3 early termination: a byte of Rm a cycle past the first */
        bytes = (significant(b, t->is_signed) + 7) / 8;
        bytes = bytes ? bytes - 1 : 0;
        return MIN(bytes, t->cls == TC_MULL ? 2u : 3u);
    default:
        return 0;
    }
}

static void operands_cb(unsigned vcpu, void *udata)
{
    Operands *o = udata;
    uint32_t a = reg_value(o->t.op_a), b = reg_value(o->t.op_b);

    add(vcpu, slots_of(vcpu), extra_cycles(&o->t, a, b), o->window);
}

static void mispredicted_cb(unsigned vcpu, void *udata)
{
    uint64_t *slots = slots_of(vcpu);
    uint64_t packed = slots[SLOT_DELTA];

    slots[SLOT_MISS] = NO_PC;
    add(vcpu, slots, (int32_t)(uint32_t)packed, (int32_t)(packed >> 32));
}

void cycles_left_code(unsigned vcpu, uint64_t pc)
{
    if (board && vcpu < qemu_plugin_num_vcpus() &&
        qemu_plugin_u64_get(slot(SLOT_MISS), vcpu) == pc) {
        mispredicted_cb(vcpu, NULL);
    }
}

void cycles_vcpu_init(unsigned vcpu)
{
    static const char *const rv[32] = {
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1",
        "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4",
        "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
    };
    g_autoptr(GArray) all = qemu_plugin_get_registers();
    guint i;
    unsigned r;

    if (have_regs) {
        return;                 /* the handles are the same on every vCPU */
    }
    for (i = 0; i < all->len; i++) {
        qemu_plugin_reg_descriptor *d =
            &g_array_index(all, qemu_plugin_reg_descriptor, i);

        for (r = 0; r < (isa == ISA_RISCV ? 32 : 13); r++) {
            g_autofree char *arm = g_strdup_printf("r%u", r);

            if (!regs[r] && g_str_equal(d->name,
                                        isa == ISA_RISCV ? rv[r] : arm)) {
                regs[r] = d->handle;
            }
        }
    }
    have_regs = true;
}

bool cycles_init(CyclesModel m, Isa guest_isa)
{
    bool riscv = m == CYCLES_E31;

    if (riscv != (guest_isa == ISA_RISCV) || guest_isa == ISA_A32) {
        qemu_plugin_outs("perfctr: cycles=e31 is for rv32 guests, m3, m4 "
                         "and m7 for Thumb ones\n");
        return false;
    }
    model = m;
    isa = guest_isa;
    board = qemu_plugin_scoreboard_new((SLOT_WINDOWS + 2 * n_windows) *
                                       sizeof(uint64_t));
    return true;
}

uint64_t cycles_read(unsigned vcpu_index)
{
    /* Before the vCPU starts (a device's reset), none */
    return board && vcpu_index < qemu_plugin_num_vcpus() ?
           qemu_plugin_u64_get(slot(SLOT_CYCLES), vcpu_index) : 0;
}

/* Decode the block; mark the instructions an IT block predicates */
static void decode(struct qemu_plugin_tb *tb, Insn *insns, size_t n)
{
    unsigned it_left = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint8_t bytes[4];
        size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
        Insn *in = &insns[i];

        in->pc = qemu_plugin_insn_vaddr(insn);
        in->len = qemu_plugin_insn_size(insn);
        isa_timing(isa, bytes, got, &in->t);
        isa_classify(isa, bytes, got, in->pc, &in->c);
        in->in_it = it_left > 0;
        if (it_left) {
            it_left--;
        }
        if (in->t.cls == TC_IT) {
            uint16_t hw = bytes[0] | bytes[1] << 8;

            it_left = 4 - __builtin_ctz(hw & 0xf);
        }
    }
}

static void store(struct qemu_plugin_insn *insn, unsigned index,
                  uint64_t value)
{
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_STORE_U64, slot(index), value);
}

static void add_inline(struct qemu_plugin_insn *insn, unsigned index,
                       uint64_t value)
{
    if (value) {
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            insn, QEMU_PLUGIN_INLINE_ADD_U64, slot(index), value);
    }
}

/* What the instructions since the last flush cost, and their window */
typedef struct Pending {
    uint64_t cycles, insns;
    int window;
} Pending;

/* Add what is pending to the totals and its window, before insn runs */
static void flush(struct qemu_plugin_insn *insn, Pending *p, bool targets)
{
    add_inline(insn, SLOT_CYCLES, p->cycles);
    add_inline(insn, SLOT_INSNS, p->insns);
    if (targets && p->cycles) {
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
            insn, QEMU_PLUGIN_INLINE_ADD_U64,
            events_countdown(PERFCTR_EVENT_CYCLES), -p->cycles);
    }
    if (p->window >= 0) {
        add_inline(insn, SLOT_WINDOWS + 2 * p->window, p->cycles);
        add_inline(insn, SLOT_WINDOWS + 2 * p->window + 1, p->insns);
    }
    p->cycles = p->insns = 0;
}

void cycles_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i;
    g_autofree Insn *insns = g_new0(Insn, n);
    g_autofree unsigned *cost = g_new0(unsigned, n);
    uint64_t miss = NO_PC;
    Pending pending = { .window = -1 };
    int64_t delta = 0;
    Insn *last;
    bool guarded;
    /* A device's target on cycles: each instruction adds its own */
    bool targets = events_targeted(PERFCTR_EVENT_CYCLES);

    if (!n) {
        return;
    }
    decode(tb, insns, n);
    if (model == CYCLES_M3 || model == CYCLES_M4) {
        m3_schedule(insns, n, cost);
    } else {
        issue_schedule(insns, n, cost);
    }

    /* The branch that ends the block, if any */
    last = &insns[n - 1];
    guarded = last->t.conditional || last->in_it;
    if (last->t.sets_pc) {
        uint64_t fall = last->pc + last->len;
        /* Indirect ones are guessed taken, as backward ones */
        bool backward = !last->c.direct || last->c.target <= last->pc;
        unsigned taken, not_taken;

        branch_costs(last, guarded, backward, &taken, &not_taken);
        if (!guarded) {
            cost[n - 1] += taken;
        } else if (backward) {
            cost[n - 1] += taken;       /* guess taken */
            miss = fall;
            delta = (int64_t)not_taken - taken;
        } else {
            cost[n - 1] += not_taken;   /* guess not taken */
            miss = last->c.target;
            delta = (int64_t)taken - not_taken;
        }
        if (miss == fall && last->c.direct && last->c.target == fall) {
            miss = NO_PC;               /* both ways are the same */
        }
    }

    qemu_plugin_register_vcpu_tb_exec_cond_cb(
        tb, mispredicted_cb, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_COND_EQ,
        slot(SLOT_MISS), qemu_plugin_tb_vaddr(tb), NULL);

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        int window = window_of(insns[i].pc);
        bool operands = has_operand_cost(&insns[i].t);

        if (i == 0) {
            store(insn, SLOT_MISS, NO_PC);
        }
        if (targets) {
            /* Reached by the one before (or by a misprediction's delta) */
            events_check(insn, PERFCTR_EVENT_CYCLES, false);
        }
        if (window != pending.window && pending.insns) {
            /* Before the last instruction of the window left */
            flush(qemu_plugin_tb_get_insn(tb, i - 1), &pending, targets);
        }
        pending.window = window;
        pending.cycles += cost[i];
        pending.insns++;
        if (targets || accesses_memory(&insns[i].t) || operands ||
            i == n - 1 || stop_point(insns[i + 1].pc)) {
            /* (a stop or the start comes before the next one's adds) */
            flush(insn, &pending, targets);
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
        }
        if (i == n - 1 && targets) {
            events_check(insn, PERFCTR_EVENT_CYCLES, true);
        }
    }
}

/* What a slot counted since the start (all vCPUs) */
static uint64_t since_start(unsigned index)
{
    uint64_t sum = qemu_plugin_u64_sum(slot(index));

    return start_sums ? sum - start_sums[index] : sum;
}

void cycles_restart(void)
{
    unsigned n = SLOT_WINDOWS + 2 * n_windows, i;

    if (!board) {
        return;
    }
    /* The counts go on (a device may read them): remember where */
    g_free(start_sums);
    start_sums = g_new(uint64_t, n);
    for (i = 0; i < n; i++) {
        start_sums[i] = qemu_plugin_u64_sum(slot(i));
    }
}

void cycles_write(FILE *out)
{
    static const char *const names[] = {
        [CYCLES_M3] = "m3", [CYCLES_M4] = "m4", [CYCLES_M7] = "m7",
        [CYCLES_E31] = "e31",
    };
    unsigned i;

    fprintf(out, "cycles-model %s\n", names[model]);
    fprintf(out, "cycles-wait-states %u\n", wait_states);
    fprintf(out, "cycles %" PRIu64 "\n", since_start(SLOT_CYCLES));
    fprintf(out, "cycles-instructions %" PRIu64 "\n",
            since_start(SLOT_INSNS));
    for (i = 0; i < n_windows; i++) {
        fprintf(out, "window 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64
                " %" PRIu64 "\n", windows[i].start, windows[i].end,
                since_start(SLOT_WINDOWS + 2 * i),
                since_start(SLOT_WINDOWS + 2 * i + 1));
    }
}
