/*
 * perfctr plugin: the Cortex-M3 and Cortex-M4 timing models, from the
 * TRMs' tables (3-1): loads and stores 2 cycles, a load or store
 * pipelined after a load 1, an immediate-offset store 1 unless a load
 * follows, the address-dependency stall, LDM/STM/PUSH/POP 1+N, TBB/TBH
 * 3+P, taken branches 1+P with P by when the target is known (1 in
 * decode, 2 in execute, 3 after a load; a cycle more to a 32-bit
 * instruction on an odd halfword, a call's return included) plus the
 * flash wait states; M3 long
 * multiplies (short only when both operands are below 65536) and both
 * cores' divisions by operand values; the M4's FPU (table 7-1); and
 * measured rules: no pipelining across memory blocks, a cycle for an
 * unaligned 32-bit run after a multi-cycle instruction, IT folded only
 * after a 16-bit instruction that neither accesses memory, branches
 * nor moves sp.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <qemu-plugin.h>

#include "cycles/memory.h"
#include "cycles/model.h"

#define LITERAL (1u << 15)      /* the address registers of a literal: pc */
#define LR (1u << 14)
#define SP (1u << 13)

/* Whether cur's address phase overlaps prev's data phase */
static bool pipelined(const InsnTiming *prev, const InsnTiming *cur, bool m4)
{
    if (!prev || prev->cls != TC_LOAD || prev->sets_pc ||
        (cur->cls != TC_LOAD && cur->cls != TC_STORE) ||
        (prev->writes & cur->address)) {
        return false;
    }
    /*
     * Measured (jnk0le): only accesses to one memory block pipeline; a
     * literal is in the code's memory, other data (taken to be) not
     */
    if ((prev->address == LITERAL) != (cur->address == LITERAL)) {
        return false;
    }
    /* M3: only the first load of a chain may be pre- or post-indexed */
    return !(!m4 && cur->cls == TC_LOAD && cur->writeback);
}

static bool m3_pipelined(const InsnTiming *prev, const InsnTiming *cur)
{
    return pipelined(prev, cur, false);
}

static bool m4_pipelined(const InsnTiming *prev, const InsnTiming *cur)
{
    return pipelined(prev, cur, true);
}

static unsigned m3_cost(const InsnTiming *prev, const InsnTiming *cur,
                        const InsnTiming *next, bool m4)
{
    /*
     * An address computed or loaded by the previous instruction is a
     * cycle late (a base register's write-back is not: it is early)
     */
    uint32_t late = !prev ? 0 : cycles_data_processing(prev) ? prev->writes :
                    cycles_reads_memory(prev) ? prev->writes & ~(
                        prev->writeback || prev->nregs ? prev->address : 0) :
                    0;
    unsigned stall = late & cur->address ? 1 : 0;
    unsigned cost;

    if (m4 && cur->fp_cycles) {
        return cur->fp_cycles;          /* FP data processing, moves */
    }
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
        return pipelined(prev, cur, m4) ? 1 : 2 + stall;
    case TC_STORE:
        if (pipelined(prev, cur, m4)) {
            /*
             * Measured (jnk0le; silicon Keccak): an immediate-offset
             * store takes the slot of the load's data phase, for free
             * (not on the M3 when pre- or post-indexed)
             */
            cost = cur->reg_offset || (!m4 && cur->writeback) ? 1 : 0;
        } else {
            cost = (cur->reg_offset ? 2 : 1) + stall;
        }
        /* The store's data phase holds up a load that follows */
        if (cost <= 1 && next && cycles_reads_memory(next)) {
            cost++;
        }
        return cost;
    case TC_LOAD_DOUBLE:
    case TC_STORE_DOUBLE:
    case TC_LOAD_MULTIPLE:
    case TC_STORE_MULTIPLE:
        return 1 + cur->nregs + stall;
    case TC_TABLE_BRANCH:
        return 3 + stall;               /* the load, then the add */
    case TC_IT:
        /*
         * Folded onto a 16-bit instruction before it, unless that one
         * accesses memory, branches or moves sp (cmemu, CC2650 silicon)
         */
        return prev && !prev->wide && !cycles_accesses_memory(prev) &&
               !prev->sets_pc && !(prev->writes & SP) ? 0 : 1;
    case TC_BARRIER:
        return 1;
    default:                            /* ALU, MUL, branches, system */
        return 1;
    }
}

/*
 * The M4's FPU, before cur issues at cycle now of the block: an
 * arithmetic result is a cycle late to the next instruction (not as a
 * MAC's addend, which is read late), and VDIV and VSQRT keep the FPU
 * busy while integer instructions go on
 */
static unsigned fpu_stall(const InsnTiming *prev, const InsnTiming *cur,
                          unsigned now, unsigned *fpu_free)
{
    unsigned stall = 0;

    if (!cur->fp) {
        return 0;
    }
    if (prev && prev->fp_late &&
        (prev->fp_writes & cur->fp_reads & ~cur->fp_addend)) {
        stall = 1;
    }
    if (*fpu_free > now) {
        stall += *fpu_free - now;       /* then, if it is its result, late */
    }
    if (cur->fp_busy) {
        *fpu_free = now + stall + cur->fp_busy;
    }
    return stall;
}

/*
 * Measured: three or more 32-bit instructions on odd halfwords right
 * after a multi-cycle instruction cost a cycle more, of stores only from
 * four on (eprint 2025/523; the Cortex-M4 optimization compendium)
 */
static void unaligned_runs(const CyclesInsn *insns, size_t n,
                           unsigned *cost)
{
    size_t i = 1, start;

    while (i < n) {
        bool stores = true;

        for (start = i; i < n && insns[i].t.wide && (insns[i].pc & 2);
             i++) {
            stores &= insns[i].t.cls == TC_STORE;
        }
        if (i - start >= (stores ? 4 : 3) && cost[start - 1] >= 2) {
            cost[start + 2]++;
        }
        if (i == start) {
            i++;
        }
    }
}

static void schedule(const CyclesInsn *insns, size_t n, unsigned *cost,
                     bool m4)
{
    unsigned now = 0, fpu_free = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        const InsnTiming *prev = i ? &insns[i - 1].t : NULL;

        cost[i] = m3_cost(prev, &insns[i].t,
                          i + 1 < n ? &insns[i + 1].t : NULL, m4);
        if (m4) {
            cost[i] += fpu_stall(prev, &insns[i].t, now, &fpu_free);
        }
        now += cost[i];
    }
    /* A division still running at the block's end: its result is wanted */
    if (n && fpu_free > now) {
        cost[n - 1] += fpu_free - now;
    }
    unaligned_runs(insns, n, cost);
}

static void m3_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    schedule(insns, n, cost, false);
}

static void m4_schedule(const CyclesInsn *insns, size_t n, unsigned *cost)
{
    schedule(insns, n, cost, true);
}

/* Whether a 32-bit instruction starts on the odd halfword at pc */
static bool wide_on_odd_halfword(uint64_t pc)
{
    g_autoptr(GByteArray) bytes = g_byte_array_new();

    return (pc & 2) && qemu_plugin_read_memory_vaddr(pc, bytes, 2) &&
           (bytes->data[0] | bytes->data[1] << 8) >= 0xe800;
}

/*
 * The refill, by when the branch knows its target (cmemu's Cortex-M3,
 * checked against CC2650 silicon; the TRM's "whether the processor
 * manages to speculate the address early"): B, B<c>, BL and BX lr in
 * decode, 1; CBZ and CBNZ, and BX, BLX or MOV pc of another register
 * (or of lr just written) in execute, 2; a load to the pc (POP {pc},
 * LDR pc, TBB, TBH), which blocks, when the load's data arrives, 3 (TRM
 * 3.3.2: LDR pc "at least five cycles", TBB and TBH six).  A cycle more
 * to a 32-bit instruction on an odd halfword (where known: a direct
 * branch's target; a return's, charged with the call, branch_costs).
 */
static unsigned refill(const CyclesInsn *prev, const CyclesInsn *last)
{
    bool cbz = last->t.cls == TC_BRANCH && last->c.conditional &&
               !last->c.predicated;
    bool register_target = last->t.cls == TC_BRANCH && !last->c.direct &&
                           ((last->t.reads & ~LR) ||
                            (prev && (prev->t.writes & LR)));
    unsigned p = cycles_reads_memory(&last->t) ? 3 :
                 cbz || register_target ? 2 : 1;

    if (last->c.direct && wide_on_odd_halfword(last->c.target)) {
        p++;
    }
    return p + memory_refill_wait_states();
}

/*
 * Whether the code at pc starts a run of 32-bit instructions on odd
 * halfwords long enough to cost a cycle when the fetch is a word behind
 * (unaligned_runs)
 */
static bool unaligned_run_at(uint64_t pc)
{
    g_autoptr(GByteArray) bytes = g_byte_array_new();
    unsigned run = 0, off = 0;
    bool stores = true;

    if (!(pc & 2) || !qemu_plugin_read_memory_vaddr(pc, bytes, 16)) {
        return false;
    }
    while (off + 4 <= bytes->len &&
           (bytes->data[off] | bytes->data[off + 1] << 8) >= 0xe800) {
        InsnTiming t;

        isa_timing(ISA_THUMB, &bytes->data[off], 4, &t);
        stores &= t.cls == TC_STORE;
        run++;
        off += 4;   /* a 32-bit one keeps the next on an odd halfword */
    }
    return run >= (stores ? 4 : 3);
}

static void branch_costs(const CyclesInsn *insns, size_t n,
                         const unsigned *cost, bool conditional,
                         bool backward, unsigned *taken, unsigned *fall)
{
    const CyclesInsn *last = &insns[n - 1];

    *taken = refill(n > 1 ? last - 1 : NULL, last);
    /*
     * The return's refill to a 32-bit instruction on an odd halfword
     * takes its cycle more too: known here, at the call
     */
    if (last->c.kind == INSN_CALL &&
        wide_on_odd_halfword(last->pc + last->len)) {
        (*taken)++;
    }
    /*
     * A B<c> fetches its target in decode in the place of the next
     * word (cmemu): not taken, the fetch is a word behind, as after a
     * multi-cycle instruction
     */
    *fall = last->c.predicated && last->t.cls == TC_BRANCH &&
            unaligned_run_at(last->pc + last->len) ? 1 : 0;
}

static bool m3_operand_cost(const InsnTiming *t)
{
    return t->cls == TC_DIV || t->cls == TC_MULL || t->cls == TC_MLAL;
}

static bool m4_operand_cost(const InsnTiming *t)
{
    return t->cls == TC_DIV;
}

/* Significant bits of v as an operand (a signed one without its sign run) */
static unsigned significant(uint32_t v, bool is_signed)
{
    if (is_signed && (int32_t)v < 0) {
        v = ~v;
    }
    return v ? 32 - __builtin_clz(v) + is_signed : 0;
}

static unsigned operand_cycles(const InsnTiming *t, uint32_t a, uint32_t b)
{
    switch (t->cls) {
    case TC_DIV:
        return cycles_armv7m_divide(t, a, b);
    case TC_MULL:
    case TC_MLAL:
        /*
         * M3 early termination: the short count only when both operands
         * are below 65536 (16 bits, and a sign for the signed forms)
         */
        if (significant(a, t->is_signed) <= 16 + t->is_signed &&
            significant(b, t->is_signed) <= 16 + t->is_signed) {
            return 0;
        }
        return t->cls == TC_MULL ? 2 : 3;
    default:
        return 0;
    }
}

const CyclesCore cycles_m3 = {
    .name = "m3",
    .schedule = m3_schedule,
    .branch_costs = branch_costs,
    .flash = true,
    .pipelined = m3_pipelined,
    .has_operand_cost = m3_operand_cost,
    .operand_cycles = operand_cycles,
};

const CyclesCore cycles_m4 = {
    .name = "m4",
    .schedule = m4_schedule,
    .branch_costs = branch_costs,
    .flash = true,
    .pipelined = m4_pipelined,
    .has_operand_cost = m4_operand_cost,
    .operand_cycles = operand_cycles,
};
