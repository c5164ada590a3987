/*
 * perfctr plugin: what the instruction decoders (the files of isa/) share
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_ISA_INTERNAL_H
#define PERFCTR_ISA_INTERNAL_H

#include "isa/isa.h"

#define ARM_SP 13
#define ARM_LR 14
#define ARM_PC 15

static inline int64_t sign_extend(uint64_t value, unsigned bits)
{
    uint64_t sign = 1ull << (bits - 1);

    return (int64_t)((value ^ sign) - sign);
}

static inline void set(InsnClass *out, InsnKind kind)
{
    out->kind = kind;
    out->direct = false;
    out->conditional = false;
    out->predicated = false;
    out->target = 0;
}

static inline void set_direct(InsnClass *out, InsnKind kind,
                              uint64_t target)
{
    out->kind = kind;
    out->direct = true;
    out->conditional = false;
    out->predicated = false;
    out->target = target;
}

/* A conditional branch: it falls through when its condition fails */
static inline void set_conditional(InsnClass *out, uint64_t target)
{
    set_direct(out, INSN_BRANCH, target);
    out->conditional = true;
}

/* Arm's B<c>: conditional by a condition code */
static inline void set_predicated(InsnClass *out, uint64_t target)
{
    set_conditional(out, target);
    out->predicated = true;
}

/* A load of pc from the stack pops a return address; any other is a jump */
static inline InsnKind load_pc_kind(unsigned rn)
{
    return rn == ARM_SP ? INSN_RETURN : INSN_BRANCH;
}

static inline void set_memory(InsnClass *out, bool load, bool store)
{
    out->load = load;
    out->store = store;
}

static inline uint32_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static inline uint32_t le32(const uint8_t *p)
{
    return le16(p) | (uint32_t)le16(p + 2) << 16;
}

/*
 * Timing classes and register use (for cycles.c).  Register masks have
 * bit n for r<n> (Arm: 13 sp, 14 lr, 15 pc) or x<n> (RISC-V; A64, where
 * bit 31 is sp and xzr has none).
 */

#define REG(n) (1u << (n))

static inline void alu(InsnTiming *t, uint32_t writes, uint32_t reads)
{
    t->cls = TC_ALU;
    t->writes = writes;
    t->reads = reads;
}

static inline void branch(InsnTiming *t, bool conditional,
                          uint32_t writes, uint32_t reads)
{
    alu(t, writes, reads);
    t->cls = TC_BRANCH;
    t->conditional = conditional;
    t->sets_pc = true;
}

static inline void access(InsnTiming *t, bool load, unsigned size,
                          unsigned rt, uint32_t address)
{
    t->cls = load ? TC_LOAD : TC_STORE;
    t->size = size;
    t->address = address;
    t->reads = address | (load ? 0 : REG(rt));
    t->writes = load ? REG(rt) : 0;
    t->sets_pc = load && rt == ARM_PC;
}

static inline void multiple(InsnTiming *t, bool load, unsigned rn,
                            uint32_t list, bool writeback)
{
    t->cls = load ? TC_LOAD_MULTIPLE : TC_STORE_MULTIPLE;
    t->nregs = __builtin_popcount(list);
    t->address = REG(rn);
    t->reads = REG(rn) | (load ? 0 : list);
    t->writes = (load ? list : 0) | (writeback ? REG(rn) : 0);
    t->sets_pc = load && (list & REG(ARM_PC));
}

static inline void arith(InsnTiming *t, TimingClass cls, unsigned rd,
                         unsigned rn, unsigned rm, bool is_signed)
{
    alu(t, REG(rd), REG(rn) | REG(rm));
    t->cls = cls;
    t->op_a = rn;
    t->op_b = rm;
    t->is_signed = is_signed;
}

/* Each instruction set's decoder: as isa_classify() and isa_timing() */
bool isa_thumb_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                        InsnClass *out);
bool isa_thumb_timing(const uint8_t *bytes, size_t len, InsnTiming *out);
bool isa_a32_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                      InsnClass *out);
bool isa_a32_timing(const uint8_t *bytes, size_t len, InsnTiming *out);
bool isa_riscv_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                        InsnClass *out);
bool isa_riscv_timing(const uint8_t *bytes, size_t len, InsnTiming *out);
bool isa_a64_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                      InsnClass *out);
bool isa_a64_timing(const uint8_t *bytes, size_t len, InsnTiming *out);

#endif
