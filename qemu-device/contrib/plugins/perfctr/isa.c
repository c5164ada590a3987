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
    out->target = 0;
}

static void set_direct(InsnClass *out, InsnKind kind, uint64_t target)
{
    out->kind = kind;
    out->direct = true;
    out->target = target;
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
        set_direct(out, INSN_BRANCH,                /* B<c> */
                   pc + 4 + sign_extend((hw & 0xff) << 1, 9));
    } else if ((hw & 0xf800) == 0xe000) {           /* B */
        set_direct(out, INSN_BRANCH,
                   pc + 4 + sign_extend((hw & 0x7ff) << 1, 12));
    } else if ((hw & 0xf500) == 0xb100) {           /* CBZ, CBNZ */
        set_direct(out, INSN_BRANCH,
                   pc + 4 + (((hw >> 9) & 1) << 6) + (((hw >> 3) & 0x1f) << 1));
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

            set_direct(out, INSN_BRANCH, pc + 4 + sign_extend(
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
        set_direct(out, INSN_BRANCH, pc + sign_extend(
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
        set_direct(out, INSN_BRANCH, pc + sign_extend(
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
