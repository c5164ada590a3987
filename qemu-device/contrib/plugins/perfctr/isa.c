/*
 * perfctr plugin: what each guest instruction does to the flow of control
 *
 * The one place that knows each architecture's calls, returns, branches
 * and traps, decoded from the instruction's bytes at translation time.
 * References: Armv7-M ARM (Thumb encodings), Armv6 ARM (Arm state), and
 * the RISC-V unprivileged ISA (JAL/JALR link-register hints, RVC).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa.h"

#define ARM_SP 13
#define ARM_LR 14
#define ARM_PC 15

static int64_t sign_extend(uint64_t value, unsigned bits)
{
    uint64_t sign = 1ull << (bits - 1);

    return (int64_t)((value ^ sign) - sign);
}

static void set(InsnClass *out, InsnKind kind)
{
    out->kind = kind;
    out->direct = false;
    out->conditional = false;
    out->target = 0;
}

static void set_direct(InsnClass *out, InsnKind kind, uint64_t target)
{
    out->kind = kind;
    out->direct = true;
    out->conditional = false;
    out->target = target;
}

/* A conditional branch: it falls through when its condition fails */
static void set_conditional(InsnClass *out, uint64_t target)
{
    set_direct(out, INSN_BRANCH, target);
    out->conditional = true;
}

/* A load of pc from the stack pops a return address; any other is a jump */
static InsnKind load_pc_kind(unsigned rn)
{
    return rn == ARM_SP ? INSN_RETURN : INSN_BRANCH;
}

static void thumb16(uint16_t hw, uint64_t pc, InsnClass *out)
{
    unsigned rm = (hw >> 3) & 0xf;

    if ((hw & 0xff87) == 0x4700) {                  /* BX Rm */
        set(out, rm == ARM_LR ? INSN_RETURN : INSN_BRANCH);
    } else if ((hw & 0xff87) == 0x4780) {           /* BLX Rm */
        set(out, INSN_CALL);
    } else if ((hw & 0xff87) == 0x4687) {           /* MOV pc, Rm */
        set(out, rm == ARM_LR ? INSN_RETURN : INSN_BRANCH);
    } else if ((hw & 0xff87) == 0x4487) {           /* ADD pc, Rm */
        set(out, INSN_BRANCH);
    } else if ((hw & 0xff00) == 0xbd00) {           /* POP {..., pc} */
        set(out, INSN_RETURN);
    } else if ((hw & 0xff00) == 0xbe00 || (hw & 0xff00) == 0xdf00) {
        set(out, INSN_TRAP);                        /* BKPT, SVC */
    } else if ((hw & 0xf000) == 0xd000 && (hw & 0x0e00) != 0x0e00) {
        set_conditional(out,                        /* B<c> */
                        pc + 4 + sign_extend((hw & 0xff) << 1, 9));
    } else if ((hw & 0xf800) == 0xe000) {           /* B */
        set_direct(out, INSN_BRANCH,
                   pc + 4 + sign_extend((hw & 0x7ff) << 1, 12));
    } else if ((hw & 0xf500) == 0xb100) {           /* CBZ, CBNZ */
        set_conditional(out,
                        pc + 4 + (((hw >> 9) & 1) << 6) +
                        (((hw >> 3) & 0x1f) << 1));
    } else {
        set(out, INSN_OTHER);
    }
}

/* The 25-bit offset of BL, BLX and B.W (encoding T4) */
static int64_t thumb_branch_offset(uint16_t hw1, uint16_t hw2)
{
    unsigned s = (hw1 >> 10) & 1;
    unsigned i1 = !(((hw2 >> 13) & 1) ^ s);
    unsigned i2 = !(((hw2 >> 11) & 1) ^ s);

    return sign_extend(s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 |
                       (hw2 & 0x7ff) << 1, 25);
}

static void thumb32(uint16_t hw1, uint16_t hw2, uint64_t pc, InsnClass *out)
{
    unsigned rn = hw1 & 0xf;

    if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0x8000)) {
        /* Branches and miscellaneous control */
        switch (hw2 & 0x5000) {
        case 0x5000:                                /* BL */
            set_direct(out, INSN_CALL, pc + 4 +
                       thumb_branch_offset(hw1, hw2));
            return;
        case 0x4000:                                /* BLX to Arm state */
            set_direct(out, INSN_CALL, ((pc + 4) & ~3ull) +
                       thumb_branch_offset(hw1, hw2));
            return;
        case 0x1000:                                /* B.W */
            set_direct(out, INSN_BRANCH, pc + 4 +
                       thumb_branch_offset(hw1, hw2));
            return;
        }
        if ((hw1 & 0x0380) != 0x0380) {             /* B<c>.W */
            unsigned s = (hw1 >> 10) & 1;
            unsigned j1 = (hw2 >> 13) & 1, j2 = (hw2 >> 11) & 1;

            set_conditional(out, pc + 4 + sign_extend(
                                s << 20 | j2 << 19 | j1 << 18 |
                                (hw1 & 0x3f) << 12 | (hw2 & 0x7ff) << 1, 21));
        } else if (hw1 == 0xf3de && (hw2 & 0xff00) == 0x8f00) {
            set(out, INSN_EXCEPTION_RETURN);        /* SUBS pc, lr, #imm */
        } else {
            set(out, INSN_OTHER);
        }
    } else if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000) {
        set(out, INSN_BRANCH);                      /* TBB, TBH */
    } else if (((hw1 & 0xffd0) == 0xe890 || (hw1 & 0xffd0) == 0xe910) &&
               (hw2 & 0x8000)) {
        set(out, load_pc_kind(rn));                 /* LDM/LDMDB {.., pc} */
    } else if (((hw1 & 0xffd0) == 0xe810 || (hw1 & 0xffd0) == 0xe990) &&
               hw2 == 0xc000) {
        set(out, INSN_EXCEPTION_RETURN);            /* RFE */
    } else if ((hw1 & 0xff70) == 0xf850 && (hw2 >> 12) == ARM_PC) {
        set(out, load_pc_kind(rn));                 /* LDR pc, ... */
    } else {
        set(out, INSN_OTHER);
    }
}

static void a32(uint32_t w, uint64_t pc, InsnClass *out)
{
    unsigned cond = w >> 28;
    unsigned rn = (w >> 16) & 0xf;
    int64_t offset = sign_extend((w & 0xffffff) << 2, 26);

    if (cond == 0xf) {
        if ((w & 0xfe000000) == 0xfa000000) {       /* BLX to Thumb */
            set_direct(out, INSN_CALL, pc + 8 + offset + ((w >> 23) & 2));
        } else if ((w & 0xfe50ffff) == 0xf8100a00) {
            set(out, INSN_EXCEPTION_RETURN);        /* RFE */
        } else {
            set(out, INSN_OTHER);
        }
    } else if ((w & 0x0f000000) == 0x0b000000) {    /* BL */
        set_direct(out, INSN_CALL, pc + 8 + offset);
    } else if ((w & 0x0f000000) == 0x0a000000) {    /* B */
        set_direct(out, INSN_BRANCH, pc + 8 + offset);
    } else if ((w & 0x0ffffff0) == 0x012fff10) {    /* BX Rm */
        set(out, (w & 0xf) == ARM_LR ? INSN_RETURN : INSN_BRANCH);
    } else if ((w & 0x0ffffff0) == 0x012fff20) {    /* BXJ Rm: BX, no Jazelle */
        set(out, INSN_BRANCH);
    } else if ((w & 0x0ffffff0) == 0x012fff30) {    /* BLX Rm */
        set(out, INSN_CALL);
    } else if ((w & 0x0f000000) == 0x0f000000 ||
               (w & 0x0ff000f0) == 0x01200070) {    /* SVC, BKPT */
        set(out, INSN_TRAP);
    } else if ((w & 0x0fffffff) == 0x0160006e) {    /* ERET */
        set(out, INSN_EXCEPTION_RETURN);
    } else if ((w & 0x0e108000) == 0x08108000) {    /* LDM {.., pc} */
        set(out, (w & (1 << 22)) ? INSN_EXCEPTION_RETURN : load_pc_kind(rn));
    } else if ((w & 0x0c50f000) == 0x0410f000) {    /* LDR pc, ... */
        set(out, load_pc_kind(rn));
    } else if ((w & 0x0c00f000) == 0x0000f000 &&
               (w & 0x01900000) != 0x01000000) {    /* data processing */
        if (w & (1 << 20)) {                        /* SUBS pc, lr... */
            set(out, INSN_EXCEPTION_RETURN);
        } else if ((w & 0x0fffffff) == 0x01a0f00e) {
            set(out, INSN_RETURN);                  /* MOV pc, lr */
        } else {
            set(out, INSN_BRANCH);
        }
    } else {
        set(out, INSN_OTHER);
    }
    /* Any Arm instruction but the unconditional ones may not execute */
    out->conditional = cond < 0xe && out->kind != INSN_OTHER;
}

/* x1 (ra) and x5 (t0) are the link registers (the ISA's RAS hints) */
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
    set(out, INSN_OTHER);
}

static void set_memory(InsnClass *out, bool load, bool store)
{
    out->load = load;
    out->store = store;
}

static void thumb16_memory(uint16_t hw, InsnClass *out)
{
    bool l = hw & 0x0800;

    if ((hw & 0xf800) == 0x4800) {                  /* LDR literal */
        set_memory(out, true, false);
    } else if ((hw & 0xf000) == 0x5000) {           /* register offset */
        bool store = ((hw >> 9) & 7) < 3;

        set_memory(out, !store, store);
    } else if ((hw & 0xe000) == 0x6000 ||           /* STR(B)/LDR(B) imm */
               (hw & 0xf000) == 0x8000 ||           /* STRH/LDRH imm */
               (hw & 0xf000) == 0x9000 ||           /* STR/LDR sp */
               (hw & 0xf000) == 0xc000) {           /* STM/LDM */
        set_memory(out, l, !l);
    } else if ((hw & 0xf600) == 0xb400) {           /* PUSH, POP */
        set_memory(out, l, !l);
    }
}

static void thumb32_memory(uint16_t hw1, uint16_t hw2, InsnClass *out)
{
    bool l = hw1 & 0x0010;
    unsigned rt = hw2 >> 12;

    if ((hw1 & 0xfe40) == 0xe800 && (hw1 & 0x0180) != 0x0000 &&
        (hw1 & 0x0180) != 0x0180) {                 /* LDM/STM */
        set_memory(out, l, !l);
    } else if ((hw1 & 0xfe40) == 0xe840) {          /* LDRD, LDREX, TBB */
        set_memory(out, l, !l);
    } else if ((hw1 & 0xfe00) == 0xf800) {          /* single loads/stores */
        bool hint = l && rt == 15 && (hw1 & 0x0040) == 0;  /* PLD, PLI */

        set_memory(out, l && !hint, !l);
    } else if ((hw1 & 0xee00) == 0xec00 && (hw1 & 0x01a0)) {
        set_memory(out, l, !l);                     /* LDC/STC, VLDR... */
    }
}

static void a32_memory(uint32_t w, InsnClass *out)
{
    bool l = w & (1 << 20);
    unsigned op2 = (w >> 5) & 3;

    if (w >> 28 == 0xf) {
        return;                                     /* PLD, hints */
    }
    if ((w & 0x0c000000) == 0x04000000 &&
        !((w & (1 << 25)) && (w & (1 << 4)))) {     /* LDR/STR(B) */
        set_memory(out, l, !l);
    } else if ((w & 0x0fb00ff0) == 0x01000090) {    /* SWP, SWPB */
        set_memory(out, true, true);
    } else if ((w & 0x0f8000f0) == 0x01800090) {    /* LDREX, STREX */
        set_memory(out, l, !l);
    } else if ((w & 0x0e000090) == 0x00000090 && op2) {
        /* Extra loads and stores: LDRD is op2 2 without L, STRD 3 */
        bool load = l || op2 == 2;

        set_memory(out, load, !load);
    } else if ((w & 0x0e000000) == 0x08000000) {    /* LDM/STM */
        set_memory(out, l, !l);
    } else if ((w & 0x0e000000) == 0x0c000000 &&
               (w & 0x0fe00000) != 0x0c400000) {    /* LDC/STC */
        set_memory(out, l, !l);
    }
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
    if (funct3 >= 1 && funct3 <= 3) {              /* C.LW, C.LWSP... */
        set_memory(out, true, false);
    } else if (funct3 >= 5) {                       /* C.SW, C.SWSP... */
        set_memory(out, false, true);
    }
}

static uint32_t le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
    return le16(p) | (uint32_t)le16(p + 2) << 16;
}

bool isa_classify(Isa isa, const uint8_t *bytes, size_t len, uint64_t pc,
                  InsnClass *out)
{
    set(out, INSN_OTHER);
    set_memory(out, false, false);
    switch (isa) {
    case ISA_THUMB:
        if (len == 2) {
            thumb16(le16(bytes), pc, out);
            thumb16_memory(le16(bytes), out);
        } else if (len == 4) {
            thumb32(le16(bytes), le16(bytes + 2), pc, out);
            thumb32_memory(le16(bytes), le16(bytes + 2), out);
        } else {
            return false;
        }
        return true;
    case ISA_A32:
        if (len != 4) {
            return false;
        }
        a32(le32(bytes), pc, out);
        a32_memory(le32(bytes), out);
        return true;
    case ISA_RISCV:
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
    return false;
}

/*
 * Timing classes and register use (for cycles.c).  Register masks have
 * bit n for r<n> (Arm: 13 sp, 14 lr, 15 pc) or x<n> (RISC-V).
 */

#define REG(n) (1u << (n))

static void alu(InsnTiming *t, uint32_t writes, uint32_t reads)
{
    t->cls = TC_ALU;
    t->writes = writes;
    t->reads = reads;
}

static void branch(InsnTiming *t, bool conditional, uint32_t writes,
                   uint32_t reads)
{
    alu(t, writes, reads);
    t->cls = TC_BRANCH;
    t->conditional = conditional;
    t->sets_pc = true;
}

static void access(InsnTiming *t, bool load, unsigned size, unsigned rt,
                   uint32_t address)
{
    t->cls = load ? TC_LOAD : TC_STORE;
    t->size = size;
    t->address = address;
    t->reads = address | (load ? 0 : REG(rt));
    t->writes = load ? REG(rt) : 0;
    t->sets_pc = load && rt == ARM_PC;
}

static void multiple(InsnTiming *t, bool load, unsigned rn, uint32_t list,
                     bool writeback)
{
    t->cls = load ? TC_LOAD_MULTIPLE : TC_STORE_MULTIPLE;
    t->nregs = __builtin_popcount(list);
    t->address = REG(rn);
    t->reads = REG(rn) | (load ? 0 : list);
    t->writes = (load ? list : 0) | (writeback ? REG(rn) : 0);
    t->sets_pc = load && (list & REG(ARM_PC));
}

static void arith(InsnTiming *t, TimingClass cls, unsigned rd, unsigned rn,
                  unsigned rm, bool is_signed)
{
    alu(t, REG(rd), REG(rn) | REG(rm));
    t->cls = cls;
    t->op_a = rn;
    t->op_b = rm;
    t->is_signed = is_signed;
}

static void thumb16_misc_timing(uint16_t hw, InsnTiming *t)
{
    unsigned r0 = hw & 7, r3 = (hw >> 3) & 7;
    uint32_t list = hw & 0xff;

    if ((hw & 0xff00) == 0xb000) {                  /* ADD/SUB sp, #imm */
        alu(t, REG(ARM_SP), REG(ARM_SP));
    } else if ((hw & 0xf500) == 0xb100) {           /* CBZ, CBNZ */
        branch(t, true, 0, REG(r0));
    } else if ((hw & 0xff00) == 0xb200 ||           /* SXTH... UXTB */
               (hw & 0xff00) == 0xba00) {           /* REV... */
        alu(t, REG(r0), REG(r3));
    } else if ((hw & 0xfe00) == 0xb400) {           /* PUSH */
        multiple(t, false, ARM_SP, list | (hw & 0x100 ? REG(ARM_LR) : 0),
                 true);
    } else if ((hw & 0xfe00) == 0xbc00) {           /* POP */
        multiple(t, true, ARM_SP, list | (hw & 0x100 ? REG(ARM_PC) : 0),
                 true);
    } else if ((hw & 0xff00) == 0xbf00 && (hw & 0xf)) {
        t->cls = TC_IT;
    } else if ((hw & 0xff00) == 0xbf00) {           /* NOP, WFI... */
        t->cls = (hw & 0xf0) >= 0x20 && (hw & 0xf0) <= 0x30 ?
                 TC_SYSTEM : TC_ALU;
    } else {                                        /* CPS, BKPT */
        t->cls = TC_SYSTEM;
    }
}

static void thumb16_timing(uint16_t hw, InsnTiming *t)
{
    unsigned r0 = hw & 7, r3 = (hw >> 3) & 7, r6 = (hw >> 6) & 7;
    unsigned r8 = (hw >> 8) & 7;
    bool l = hw & 0x0800;
    static const uint8_t reg_size[8] = { 4, 2, 1, 1, 4, 2, 1, 2 };

    switch (hw >> 11) {
    case 0x00: case 0x01: case 0x02:                /* shift by imm */
        alu(t, REG(r0), REG(r3));
        break;
    case 0x03:                                      /* ADD/SUB 3 operands */
        alu(t, REG(r0), REG(r3) | (hw & 0x400 ? 0 : REG(r6)));
        break;
    case 0x04:                                      /* MOV imm */
        alu(t, REG(r8), 0);
        break;
    case 0x05:                                      /* CMP imm */
        alu(t, 0, REG(r8));
        break;
    case 0x06: case 0x07:                           /* ADD/SUB imm8 */
        alu(t, REG(r8), REG(r8));
        break;
    case 0x08:
        if (!(hw & 0x400)) {                        /* data processing */
            unsigned op = (hw >> 6) & 0xf;

            if (op == 13) {
                arith(t, TC_MUL, r0, r3, r0, false);
            } else if (op == 8 || op == 10 || op == 11) {
                alu(t, 0, REG(r0) | REG(r3));       /* TST, CMP, CMN */
            } else {
                alu(t, REG(r0), REG(r0) | REG(r3));
            }
        } else {                                    /* hi registers, BX */
            unsigned rdn = ((hw >> 4) & 8) | r0, rm = (hw >> 3) & 0xf;

            switch ((hw >> 8) & 3) {
            case 0:                                 /* ADD */
                alu(t, REG(rdn), REG(rdn) | REG(rm));
                break;
            case 1:                                 /* CMP */
                alu(t, 0, REG(rdn) | REG(rm));
                break;
            case 2:                                 /* MOV */
                alu(t, REG(rdn), REG(rm));
                break;
            default:                                /* BX, BLX */
                branch(t, false, hw & 0x80 ? REG(ARM_LR) : 0, REG(rm));
                return;
            }
            if (rdn == ARM_PC) {
                branch(t, false, 0, t->reads);
            }
        }
        break;
    case 0x09:                                      /* LDR literal */
        access(t, true, 4, r8, REG(ARM_PC));
        break;
    case 0x0a: case 0x0b: {                         /* register offset */
        unsigned op = (hw >> 9) & 7;

        access(t, op >= 3, reg_size[op], r0, REG(r3) | REG(r6));
        t->reg_offset = true;
        break;
    }
    case 0x0c: case 0x0d:                           /* STR/LDR imm */
        access(t, l, 4, r0, REG(r3));
        break;
    case 0x0e: case 0x0f:                           /* STRB/LDRB imm */
        access(t, l, 1, r0, REG(r3));
        break;
    case 0x10: case 0x11:                           /* STRH/LDRH imm */
        access(t, l, 2, r0, REG(r3));
        break;
    case 0x12: case 0x13:                           /* STR/LDR sp */
        access(t, l, 4, r8, REG(ARM_SP));
        break;
    case 0x14:                                      /* ADR */
        alu(t, REG(r8), REG(ARM_PC));
        break;
    case 0x15:                                      /* ADD rd, sp, #imm */
        alu(t, REG(r8), REG(ARM_SP));
        break;
    case 0x16: case 0x17:
        thumb16_misc_timing(hw, t);
        break;
    case 0x18: case 0x19:                           /* STM, LDM */
        multiple(t, l, r8, hw & 0xff, !l || !(hw & REG(r8)));
        break;
    case 0x1a: case 0x1b:                           /* B<c>, UDF, SVC */
        if (r8 >= 6 && (hw & 0x0e00) == 0x0e00) {
            t->cls = TC_SYSTEM;
        } else {
            branch(t, true, 0, 0);
        }
        break;
    case 0x1c:                                      /* B */
        branch(t, false, 0, 0);
        break;
    }
}

/* LDM/STM, LDRD/STRD, LDREX/STREX, TBB/TBH */
static void thumb32_multiple_timing(uint16_t hw1, uint16_t hw2,
                                    InsnTiming *t)
{
    unsigned rn = hw1 & 0xf, rt = hw2 >> 12, rt2 = (hw2 >> 8) & 0xf;
    bool l = hw1 & 0x10, w = hw1 & 0x20;

    if (!(hw1 & 0x40)) {
        unsigned op = (hw1 >> 7) & 3;

        if (op == 1 || op == 2) {
            multiple(t, l, rn, hw2, w);
        } else {
            t->cls = TC_SYSTEM;                     /* SRS, RFE */
            t->sets_pc = l;
        }
    } else if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000) {
        alu(t, 0, REG(rn) | REG(hw2 & 0xf));        /* TBB, TBH */
        t->cls = TC_TABLE_BRANCH;
        t->address = t->reads;
        t->sets_pc = true;
    } else if (!(hw1 & 0x0120)) {                   /* LDREX, STREX... */
        access(t, l, 4, rt, REG(rn));
        if (!l) {
            t->writes = REG((hw1 & 0x80) ? hw2 & 0xf : rt2);
        }
    } else {                                        /* LDRD, STRD */
        access(t, l, 4, rt, REG(rn));
        t->cls = l ? TC_LOAD_DOUBLE : TC_STORE_DOUBLE;
        t->nregs = 2;
        if (l) {
            t->writes |= REG(rt2);
        } else {
            t->reads |= REG(rt2);
        }
        if (w) {
            t->writes |= REG(rn);
            t->writeback = true;
        }
    }
}

static void thumb32_load_store_timing(uint16_t hw1, uint16_t hw2,
                                      InsnTiming *t)
{
    unsigned rn = hw1 & 0xf, rt = hw2 >> 12, rm = hw2 & 0xf;
    bool l = hw1 & 0x10;
    unsigned size = 1u << ((hw1 >> 5) & 3);
    uint32_t address = REG(rn);
    bool reg_offset = false, writeback = false;

    if (size > 4) {
        size = 4;
    }
    if (l && rt == ARM_PC && size < 4) {            /* PLD, PLI */
        alu(t, 0, REG(rn));
        return;
    }
    if (rn != ARM_PC && !(hw1 & 0x80)) {
        if ((hw2 & 0x0fc0) == 0) {                  /* register offset */
            address |= REG(rm);
            reg_offset = true;
        } else if ((hw2 & 0x0900) == 0x0900) {      /* pre/post-indexed */
            writeback = true;
        }
    }
    access(t, l, size, rt, address);
    t->reg_offset = reg_offset;
    t->writeback = writeback;
    if (writeback) {
        t->writes |= REG(rn);
    }
}

static void thumb32_multiply_timing(uint16_t hw1, uint16_t hw2,
                                    InsnTiming *t)
{
    unsigned rn = hw1 & 0xf, rt = hw2 >> 12, rd = (hw2 >> 8) & 0xf;
    unsigned rm = hw2 & 0xf, op1 = (hw1 >> 4) & 7, op2 = (hw2 >> 4) & 0xf;

    if (!(hw1 & 0x80)) {                            /* 32-bit results */
        TimingClass cls = TC_MUL;

        if (op1 == 0 && (op2 == 1 || rt != ARM_PC)) {
            cls = TC_MAC;                           /* MLA, MLS */
        }
        arith(t, cls, rd, rn, rm, true);
        if (rt != ARM_PC) {
            t->reads |= REG(rt);
        }
        return;
    }
    switch (op1) {
    case 1:                                         /* SDIV */
    case 3:                                         /* UDIV */
        arith(t, TC_DIV, rd, rn, rm, op1 == 1);
        return;
    case 0:                                         /* SMULL */
    case 2:                                         /* UMULL */
        arith(t, TC_MULL, rd, rn, rm, op1 == 0);
        t->writes |= REG(rt);
        return;
    default:                                        /* SMLAL, UMLAL... */
        arith(t, TC_MLAL, rd, rn, rm, op1 != 6);
        t->writes |= REG(rt);
        t->reads |= REG(rt) | REG(rd);
        return;
    }
}

static void thumb32_control_timing(uint16_t hw1, uint16_t hw2,
                                   InsnTiming *t)
{
    if (hw2 & 0x5000) {                             /* B.W, BL, BLX */
        branch(t, false, hw2 & 0x4000 ? REG(ARM_LR) : 0, 0);
    } else if ((hw1 & 0x0380) != 0x0380) {          /* B<c>.W */
        branch(t, true, 0, 0);
    } else if (hw1 == 0xf3bf) {                     /* DSB, DMB, ISB */
        t->cls = TC_BARRIER;
    } else if (hw1 == 0xf3af && (hw2 & 0xff) < 2) { /* NOP.W, YIELD.W */
        t->cls = TC_ALU;
    } else if ((hw1 & 0xffe0) == 0xf3e0) {          /* MRS */
        alu(t, REG((hw2 >> 8) & 0xf), 0);
        t->cls = TC_SYSTEM;
    } else {
        t->cls = TC_SYSTEM;                         /* MSR, CPS, WFI... */
        t->reads = REG(hw1 & 0xf);
        t->sets_pc = hw1 == 0xf3de;                 /* SUBS pc, lr */
    }
}

/* Data processing: modified or plain immediate, or shifted register */
static void thumb32_data_timing(uint16_t hw1, uint16_t hw2, InsnTiming *t)
{
    unsigned rn = hw1 & 0xf, rd = (hw2 >> 8) & 0xf, rm = hw2 & 0xf;
    bool immediate = (hw1 & 0xf800) == 0xf000;
    bool plain = immediate && (hw1 & 0x0200);
    unsigned op = (hw1 >> 5) & 0xf;
    uint32_t reads = immediate ? 0 : REG(rm);

    if (plain) {
        unsigned pop = (hw1 >> 4) & 0x1f;

        if (pop == 0x04) {                          /* MOVW */
            alu(t, REG(rd), 0);
        } else if (pop == 0x0c) {                   /* MOVT */
            alu(t, REG(rd), REG(rd));
        } else {
            alu(t, REG(rd), REG(rn));
        }
        return;
    }
    if (!((op == 2 || op == 3) && rn == ARM_PC)) {  /* not MOV, MVN */
        reads |= REG(rn);
    }
    if (rd == ARM_PC && (hw1 & 0x10)) {             /* TST, CMP... */
        alu(t, 0, reads);
    } else {
        alu(t, REG(rd), reads);
    }
}

static void thumb32_timing(uint16_t hw1, uint16_t hw2, InsnTiming *t)
{
    t->wide = true;
    if ((hw1 & 0xfe00) == 0xe800) {
        thumb32_multiple_timing(hw1, hw2, t);
    } else if ((hw1 & 0xfe00) == 0xea00) {
        thumb32_data_timing(hw1, hw2, t);
    } else if ((hw1 & 0xec00) == 0xec00) {
        t->cls = TC_ALU;                            /* coprocessor, FP */
    } else if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0x8000)) {
        thumb32_control_timing(hw1, hw2, t);
    } else if ((hw1 & 0xf800) == 0xf000) {
        thumb32_data_timing(hw1, hw2, t);
    } else if ((hw1 & 0xfe00) == 0xf800) {
        thumb32_load_store_timing(hw1, hw2, t);
    } else if ((hw1 & 0xff00) == 0xfa00) {          /* data processing */
        alu(t, REG((hw2 >> 8) & 0xf), REG(hw1 & 0xf) | REG(hw2 & 0xf));
    } else if ((hw1 & 0xff00) == 0xfb00) {
        thumb32_multiply_timing(hw1, hw2, t);
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
    case 2 << 3 | 6:                                /* C.SWSP */
        access(t, false, 4, rs2, REG(2));
        break;
    }
    t->sets_pc = t->cls == TC_BRANCH;
    t->writes &= ~1u;
}

bool isa_timing(Isa isa, const uint8_t *bytes, size_t len, InsnTiming *out)
{
    *out = (InsnTiming) { .cls = TC_ALU, .op_a = -1, .op_b = -1 };
    switch (isa) {
    case ISA_THUMB:
        if (len == 2) {
            thumb16_timing(le16(bytes), out);
        } else if (len == 4) {
            thumb32_timing(le16(bytes), le16(bytes + 2), out);
        } else {
            return false;
        }
        return true;
    case ISA_A32:
        return len == 4;
    case ISA_RISCV:
        if (len == 2) {
            rvc_timing(le16(bytes), out);
        } else if (len == 4) {
            rv32_timing(le32(bytes), out);
        } else {
            return false;
        }
        return true;
    }
    return false;
}
