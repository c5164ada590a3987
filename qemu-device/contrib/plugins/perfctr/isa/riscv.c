/*
 * perfctr plugin: RV32 instructions with the C extension: their flow of
 * control, memory accesses and timing classes
 *
 * Reference: the RISC-V unprivileged ISA (JAL/JALR link-register hints,
 * RVC, Zcmp) and the privileged one (MRET, SRET).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/internal.h"

const char *const isa_riscv_register_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1",
    "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4",
    "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/*
 * Zcmp's push and pop (the code-size reduction extension, in the
 * encoding C.FSDSP has on cores with D; ours have none): quadrant 2,
 * funct3 5, bits 12:8 saying which.  cm.popret and cm.popretz return.
 */
#define ZCMP_PUSH 0x18
#define ZCMP_POP 0x1a
#define ZCMP_POPRETZ 0x1c
#define ZCMP_POPRET 0x1e

static unsigned zcmp_op(uint16_t hw)
{
    return (hw & 3) == 2 && hw >> 13 == 5 ? (hw >> 8) & 0x1f : 0;
}

static bool zcmp_returns(uint16_t hw)
{
    return zcmp_op(hw) == ZCMP_POPRET || zcmp_op(hw) == ZCMP_POPRETZ;
}

/* A push's or pop's registers: ra, then s0 to s11 (x8, x9, x18-x27) */
static uint32_t zcmp_regs(uint16_t hw)
{
    unsigned rlist = (hw >> 4) & 0xf;
    unsigned saved = rlist == 15 ? 12 : rlist - 4, i;
    uint32_t regs = REG(1);

    for (i = 0; rlist >= 4 && i < saved; i++) {
        regs |= REG(i < 2 ? 8 + i : 16 + i);
    }
    return regs;
}

static bool rv_link(unsigned reg)
{
    return reg == 1 || reg == 5;
}

static void rv_jalr(unsigned rd, unsigned rs1, InsnClass *out)
{
    if (rv_link(rd)) {
        set(out, INSN_CALL);
    } else if (rv_link(rs1)) {
        set(out, INSN_RETURN);
    } else {
        set(out, INSN_BRANCH);
    }
}

static void rv32(uint32_t w, uint64_t pc, InsnClass *out)
{
    unsigned rd = (w >> 7) & 0x1f, rs1 = (w >> 15) & 0x1f;

    switch (w & 0x7f) {
    case 0x6f: {                                    /* JAL */
        int64_t imm = sign_extend(((w >> 31) & 1) << 20 |
                                  ((w >> 21) & 0x3ff) << 1 |
                                  ((w >> 20) & 1) << 11 |
                                  ((w >> 12) & 0xff) << 12, 21);

        set_direct(out, rv_link(rd) ? INSN_CALL : INSN_BRANCH, pc + imm);
        return;
    }
    case 0x67:                                      /* JALR */
        rv_jalr(rd, rs1, out);
        return;
    case 0x63:                                      /* BEQ ... BGEU */
        set_conditional(out, pc + sign_extend(
                            ((w >> 31) & 1) << 12 | ((w >> 25) & 0x3f) << 5 |
                            ((w >> 8) & 0xf) << 1 | ((w >> 7) & 1) << 11, 13));
        return;
    case 0x73:
        if (w == 0x00000073 || w == 0x00100073) {   /* ECALL, EBREAK */
            set(out, INSN_TRAP);
        } else if (w == 0x30200073 || w == 0x10200073) {
            set(out, INSN_EXCEPTION_RETURN);        /* MRET, SRET */
        } else {
            set(out, INSN_OTHER);
        }
        return;
    }
    set(out, INSN_OTHER);
}

static void rvc(uint16_t hw, uint64_t pc, InsnClass *out)
{
    unsigned funct3 = hw >> 13;
    unsigned rs1 = (hw >> 7) & 0x1f, rs2 = (hw >> 2) & 0x1f;
    int64_t cj = sign_extend(((hw >> 12) & 1) << 11 | ((hw >> 11) & 1) << 4 |
                             ((hw >> 9) & 3) << 8 | ((hw >> 8) & 1) << 10 |
                             ((hw >> 7) & 1) << 6 | ((hw >> 6) & 1) << 7 |
                             ((hw >> 3) & 7) << 1 | ((hw >> 2) & 1) << 5, 12);

    switch ((hw & 3) << 3 | funct3) {
    case 1 << 3 | 1:                                /* C.JAL (RV32) */
        set_direct(out, INSN_CALL, pc + cj);
        return;
    case 1 << 3 | 5:                                /* C.J */
        set_direct(out, INSN_BRANCH, pc + cj);
        return;
    case 1 << 3 | 6:                                /* C.BEQZ */
    case 1 << 3 | 7:                                /* C.BNEZ */
        set_conditional(out, pc + sign_extend(
                            ((hw >> 12) & 1) << 8 | ((hw >> 10) & 3) << 3 |
                            ((hw >> 5) & 3) << 6 | ((hw >> 3) & 3) << 1 |
                            ((hw >> 2) & 1) << 5, 9));
        return;
    case 2 << 3 | 4:
        if (rs2 != 0 || rs1 == 0) {
            break;                                  /* C.MV, C.ADD... */
        }
        if (hw & 0x1000) {                          /* C.JALR */
            rv_jalr(1, rs1, out);
        } else {                                    /* C.JR */
            rv_jalr(0, rs1, out);
        }
        return;
    }
    if (hw == 0x9002) {                             /* C.EBREAK */
        set(out, INSN_TRAP);
        return;
    }
    set(out, zcmp_returns(hw) ? INSN_RETURN : INSN_OTHER);
}

static void rv32_memory(uint32_t w, InsnClass *out)
{
    switch (w & 0x7f) {
    case 0x03:                                      /* LOAD */
    case 0x07:                                      /* LOAD-FP */
        set_memory(out, true, false);
        break;
    case 0x23:                                      /* STORE */
    case 0x27:                                      /* STORE-FP */
        set_memory(out, false, true);
        break;
    case 0x2f:                                      /* LR, SC, AMOs */
        switch (w >> 27) {
        case 0x02:
            set_memory(out, true, false);
            break;
        case 0x03:
            set_memory(out, false, true);
            break;
        default:
            set_memory(out, true, true);
        }
        break;
    }
}

static void rvc_memory(uint16_t hw, InsnClass *out)
{
    unsigned funct3 = hw >> 13;

    if ((hw & 3) != 0 && (hw & 3) != 2) {
        return;
    }
    switch (zcmp_op(hw)) {
    case ZCMP_PUSH:
        set_memory(out, false, true);
        return;
    case ZCMP_POP:
    case ZCMP_POPRETZ:
    case ZCMP_POPRET:
        set_memory(out, true, false);
        return;
    }
    if (funct3 >= 1 && funct3 <= 3) {              /* C.LW, C.LWSP... */
        set_memory(out, true, false);
    } else if (funct3 >= 5) {                       /* C.SW, C.SWSP... */
        set_memory(out, false, true);
    }
}

static void rv32_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = (w >> 7) & 0x1f, rs1 = (w >> 15) & 0x1f;
    unsigned rs2 = (w >> 20) & 0x1f, f3 = (w >> 12) & 7;

    t->wide = true;
    switch (w & 0x7f) {
    case 0x03:                                      /* LOAD */
        access(t, true, 1u << (f3 & 3), rd, REG(rs1));
        t->sets_pc = false;
        break;
    case 0x23:                                      /* STORE */
        access(t, false, 1u << (f3 & 3), rs2, REG(rs1));
        break;
    case 0x2f:                                      /* LR, SC, AMOs */
        access(t, true, 4, rd, REG(rs1));
        t->sets_pc = false;
        t->reads |= REG(rs2);
        break;
    case 0x63:                                      /* BEQ ... BGEU */
        branch(t, true, 0, REG(rs1) | REG(rs2));
        break;
    case 0x6f:                                      /* JAL */
        branch(t, false, REG(rd), 0);
        break;
    case 0x67:                                      /* JALR */
        branch(t, false, REG(rd), REG(rs1));
        break;
    case 0x33:                                      /* OP */
        if ((w >> 25) == 1) {
            static const TimingClass m[8] = {
                TC_MUL, TC_MULL, TC_MULL, TC_MULL,
                TC_DIV, TC_DIV, TC_DIV, TC_DIV,
            };

            arith(t, m[f3], rd, rs1, rs2, f3 == 4 || f3 == 6);
        } else {
            alu(t, REG(rd), REG(rs1) | REG(rs2));
        }
        break;
    case 0x13:                                      /* OP-IMM */
        alu(t, REG(rd), REG(rs1));
        break;
    case 0x37:                                      /* LUI */
    case 0x17:                                      /* AUIPC */
        alu(t, REG(rd), 0);
        break;
    case 0x73:                                      /* SYSTEM, CSRs */
        alu(t, REG(rd), f3 & 4 ? 0 : REG(rs1));
        t->cls = TC_SYSTEM;
        break;
    case 0x0f:                                      /* FENCE */
        t->cls = TC_BARRIER;
        break;
    }
    t->writes &= ~1u;                               /* x0 */
}

static void rvc_timing(uint16_t hw, InsnTiming *t)
{
    unsigned f3 = hw >> 13, rd = (hw >> 7) & 0x1f, rs2 = (hw >> 2) & 0x1f;
    unsigned rdp = 8 + ((hw >> 2) & 7), rs1p = 8 + ((hw >> 7) & 7);

    switch ((hw & 3) << 3 | f3) {
    case 0 << 3 | 0:                                /* C.ADDI4SPN */
        alu(t, REG(rdp), REG(2));
        break;
    case 0 << 3 | 2:                                /* C.LW */
        access(t, true, 4, rdp, REG(rs1p));
        break;
    case 0 << 3 | 6:                                /* C.SW */
        access(t, false, 4, rdp, REG(rs1p));
        break;
    case 1 << 3 | 0:                                /* C.ADDI */
    case 2 << 3 | 0:                                /* C.SLLI */
        alu(t, REG(rd), REG(rd));
        break;
    case 1 << 3 | 1:                                /* C.JAL */
        branch(t, false, REG(1), 0);
        break;
    case 1 << 3 | 2:                                /* C.LI */
        alu(t, REG(rd), 0);
        break;
    case 1 << 3 | 3:                                /* C.LUI, C.ADDI16SP */
        alu(t, REG(rd), rd == 2 ? REG(2) : 0);
        break;
    case 1 << 3 | 4:                                /* C.SRLI... C.AND */
        alu(t, REG(rs1p), REG(rs1p) |
            (((hw >> 10) & 3) == 3 ? REG(rdp) : 0));
        break;
    case 1 << 3 | 5:                                /* C.J */
        branch(t, false, 0, 0);
        break;
    case 1 << 3 | 6:                                /* C.BEQZ */
    case 1 << 3 | 7:                                /* C.BNEZ */
        branch(t, true, 0, REG(rs1p));
        break;
    case 2 << 3 | 2:                                /* C.LWSP */
        access(t, true, 4, rd, REG(2));
        break;
    case 2 << 3 | 4:
        if (rs2 == 0 && rd == 0) {                  /* C.EBREAK */
            t->cls = TC_SYSTEM;
        } else if (rs2 == 0) {                      /* C.JR, C.JALR */
            branch(t, false, hw & 0x1000 ? REG(1) : 0, REG(rd));
        } else {                                    /* C.MV, C.ADD */
            alu(t, REG(rd), REG(rs2) | (hw & 0x1000 ? REG(rd) : 0));
        }
        break;
    case 2 << 3 | 5:                                /* Zcmp */
        if (zcmp_op(hw) >= ZCMP_PUSH) {
            multiple(t, zcmp_op(hw) != ZCMP_PUSH, 2, zcmp_regs(hw), true);
        }
        break;
    case 2 << 3 | 6:                                /* C.SWSP */
        access(t, false, 4, rs2, REG(2));
        break;
    }
    t->sets_pc = t->cls == TC_BRANCH || zcmp_returns(hw);
    t->writes &= ~1u;
}

bool isa_riscv_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                        InsnClass *out)
{
    if (len == 2) {
        rvc(le16(bytes), pc, out);
        rvc_memory(le16(bytes), out);
    } else if (len == 4) {
        rv32(le32(bytes), pc, out);
        rv32_memory(le32(bytes), out);
    } else {
        return false;
    }
    return true;
}

bool isa_riscv_timing(const uint8_t *bytes, size_t len, InsnTiming *out)
{
    if (len == 2) {
        rvc_timing(le16(bytes), out);
    } else if (len == 4) {
        rv32_timing(le32(bytes), out);
    } else {
        return false;
    }
    return true;
}
