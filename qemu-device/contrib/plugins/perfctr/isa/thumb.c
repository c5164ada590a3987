/*
 * perfctr plugin: Thumb and Thumb-2 instructions (Cortex-M, Cortex-A in Thumb
 * state): their flow of control, memory accesses and timing classes
 *
 * Reference: the Armv7-M Architecture Reference Manual's Thumb
 * encodings (the Armv7-A ones are the same, but for RFE and SUBS pc).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/internal.h"

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
        set_predicated(out,                         /* B<c> */
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

/*
 * Armv8.1-M's low-overhead loops and branch future, in what BLX's
 * encoding leaves undefined (its H bit set): WLS and WLSTP skip the
 * loop (forward, when the count is 0); LE and LETP go back to its start
 * (while the count lasts); DLS, DLSTP, LCTP and the branch futures (a
 * hint, which QEMU does not take) do not branch
 */
static void low_overhead_branch(uint16_t hw1, uint16_t hw2, uint64_t pc,
                                InsnClass *out)
{
    uint64_t offset = ((hw2 >> 1) & 0x3ff) << 2 | ((hw2 >> 11) & 1) << 1;

    if ((hw2 & 0x2000) || (hw1 & 0x07c0) > 0x0040) {
        set(out, INSN_OTHER);           /* DLS, LCTP, BF... */
    } else if ((hw1 & 0xf) == 0xf) {
        set_conditional(out, pc + 4 - offset);      /* LE, LETP */
    } else {
        set_conditional(out, pc + 4 + offset);      /* WLS, WLSTP */
    }
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
        case 0x4000:
            if (hw2 & 1) {
                low_overhead_branch(hw1, hw2, pc, out);
            } else {                                /* BLX to Arm state */
                set_direct(out, INSN_CALL, ((pc + 4) & ~3ull) +
                           thumb_branch_offset(hw1, hw2));
            }
            return;
        case 0x1000:                                /* B.W */
            set_direct(out, INSN_BRANCH, pc + 4 +
                       thumb_branch_offset(hw1, hw2));
            return;
        }
        if ((hw1 & 0x0380) != 0x0380) {             /* B<c>.W */
            unsigned s = (hw1 >> 10) & 1;
            unsigned j1 = (hw2 >> 13) & 1, j2 = (hw2 >> 11) & 1;

            set_predicated(out, pc + 4 + sign_extend(
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
        t->dual16 = (hw & 0xff00) == 0xb200;
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
        t->nop = hw == 0xbf00;
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

    /* Shifts, moves, arithmetic, compares (not so in an IT block) */
    t->sets_flags = hw < 0x4400 || (hw >> 8) == 0x45;
    switch (hw >> 11) {
    case 0x00: case 0x01: case 0x02:                /* shift by imm */
        alu(t, REG(r0), REG(r3));
        break;
    case 0x03:                                      /* ADD/SUB 3 operands */
        alu(t, REG(r0), REG(r3) | (hw & 0x400 ? 0 : REG(r6)));
        t->dual16 = hw & 0x400;                     /* imm3 */
        break;
    case 0x04:                                      /* MOV imm */
        alu(t, REG(r8), 0);
        t->dual16 = true;
        break;
    case 0x05:                                      /* CMP imm */
        alu(t, 0, REG(r8));
        break;
    case 0x06: case 0x07:                           /* ADD/SUB imm8 */
        alu(t, REG(r8), REG(r8));
        t->dual16 = true;
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
                t->dual16 = rdn != ARM_PC;
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
        if (((hw1 & 0xfff0) == 0xf380 && (hw2 & 0x0100)) ||
            (hw1 == 0xf3af && (hw2 & 0xf900) == 0x8100)) {
            /* A-profile MSR CPSR_c, CPS #mode: another mode's sp */
            t->writes = REG(ARM_SP);
        }
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

    t->sets_flags = !plain && (hw1 & 0x10);
    if (immediate) {                                /* i:imm3 of 4 or more */
        t->rotated_imm = !plain && ((hw1 & 0x0400) || (hw2 & 0x4000));
    } else if (!(op == 2 && rn == ARM_PC)) {        /* not a plain shift */
        t->two_stage = (hw2 & 0x70c0) || (hw2 & 0x30) == 0x30;
        t->early = t->two_stage ? REG(rm) : 0;
    }
    t->two_stage |= t->rotated_imm;
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

/* s registers first to first + count - 1, as a mask (none past s31) */
static uint32_t fp_regs(unsigned first, unsigned count)
{
    uint64_t mask = count >= 64 ? ~0ull : (1ull << count) - 1;

    return first >= 32 ? 0 : (uint32_t)(mask << first);
}

/* A register field V with its extra bit X: Sv:x, or Dx:v (two s) */
static uint32_t fp_reg(unsigned v, unsigned x, bool dbl)
{
    return dbl ? fp_regs(2 * (x << 4 | v), 2) : fp_regs(v << 1 | x, 1);
}

/*
 * Floating point (cp10, cp11): loads and stores as the core's of as many
 * words; data processing and transfers as the Cortex-M4 TRM's table 7-1
 * gives them, but a move between one core register and one s register
 * 1 cycle, as measured (the table says 2 for "one float to/from one
 * core register")
 */
static void thumb32_fp_timing(uint16_t hw1, uint16_t hw2, InsnTiming *t)
{
    unsigned rn = hw1 & 0xf, rt = hw2 >> 12;
    unsigned vd = hw2 >> 12, vn = hw1 & 0xf, vm = hw2 & 0xf;
    unsigned bit_d = (hw1 >> 6) & 1, bit_n = (hw2 >> 7) & 1;
    unsigned bit_m = (hw2 >> 5) & 1;
    bool dbl = hw2 & 0x100, l = hw1 & 0x10;
    uint32_t d = fp_reg(vd, bit_d, dbl), m = fp_reg(vm, bit_m, dbl);

    t->fp = true;
    if ((hw1 & 0xffe0) == 0xec40) {         /* VMOV of two core registers */
        uint32_t pair = dbl ? m : fp_regs(vm << 1 | bit_m, 2);

        if (l) {
            alu(t, REG(rt) | REG(rn), 0);
            t->fp_reads = pair;
        } else {
            alu(t, 0, REG(rt) | REG(rn));
            t->fp_writes = pair;
        }
        t->fp_cycles = 2;
    } else if ((hw1 & 0xee00) == 0xec00) {  /* loads and stores */
        bool p = hw1 & 0x100, w = hw1 & 0x20;
        unsigned first = dbl ? 2 * (bit_d << 4 | vd) : (vd << 1 | bit_d);
        unsigned words = dbl ? 2 : 1;

        if (p && !w) {                      /* VLDR, VSTR: as LDR, LDRD */
            access(t, l, 4, rt, REG(rn));   /* (rt: an s or d register) */
            t->reads = REG(rn);
            t->writes = 0;
            t->sets_pc = false;
            if (dbl) {
                t->cls = l ? TC_LOAD_DOUBLE : TC_STORE_DOUBLE;
                t->nregs = 2;
            }
        } else {                            /* VLDM, VSTM, VPUSH, VPOP */
            multiple(t, l, rn, 0, w);
            words = hw2 & 0xff;             /* (a double counts two) */
            t->nregs = words;
        }
        if (l) {
            t->fp_writes = fp_regs(first, words);
        } else {
            t->fp_reads = fp_regs(first, words);
        }
    } else if (!(hw2 & 0x10)) {             /* data processing */
        unsigned opc1 = (hw1 >> 4) & 0xb, opc2 = hw1 & 0xf;
        unsigned opc3 = (hw2 >> 6) & 3;

        t->fp_cycles = 1;
        t->fp_late = true;
        t->fp_writes = d;
        t->fp_reads = fp_reg(vn, bit_n, dbl) | m;
        if (opc1 <= 1 || opc1 == 9 || opc1 == 10) {     /* VMLA, VFMA... */
            t->fp_cycles = 3;
            t->fp_addend = d;
            t->fp_reads |= d;
        } else if (opc1 == 8) {                         /* VDIV */
            t->fp_busy = 14;
        } else if (opc1 == 0xb) {                       /* one operand */
            t->fp_reads = (opc3 & 1) ? m : 0;           /* or VMOV #imm */
            /* VMOV, VABS, VNEG, VCMP are not arithmetic; VSQRT is */
            t->fp_late = (opc3 & 1) && opc2 > 1 && opc2 != 4 && opc2 != 5;
            if (opc2 == 1 && opc3 == 3) {
                t->fp_busy = 14;
                t->fp_late = true;
            } else if (opc2 == 4 || opc2 == 5) {       /* VCMP: FPSCR */
                t->fp_reads |= d;
                t->fp_writes = 0;
            }
        }
    } else {                                /* transfers */
        uint32_t s;

        if ((hw1 & 0xffef) == 0xeee1) {     /* VMRS, VMSR */
            s = 0;
        } else if ((hw1 & 0xffe0) == 0xee00 && !dbl) { /* VMOV, single */
            s = fp_regs(vn << 1 | bit_n, 1);
        } else {                            /* VMOV core, half a double */
            s = fp_regs(2 * (bit_n << 4 | vn) + ((hw1 >> 5) & 1), 1);
        }
        if (l) {
            alu(t, rt == ARM_PC ? 0 : REG(rt), 0);  /* (VMRS APSR_nzcv) */
            t->sets_flags = rt == ARM_PC;
            t->fp_reads = s;
        } else {
            alu(t, 0, REG(rt));
            t->fp_writes = s;
        }
        t->fp_cycles = 1;
    }
}

static void thumb32_timing(uint16_t hw1, uint16_t hw2, InsnTiming *t)
{
    t->wide = true;
    if ((hw1 & 0xfe00) == 0xe800) {
        thumb32_multiple_timing(hw1, hw2, t);
    } else if ((hw1 & 0xfe00) == 0xea00) {
        thumb32_data_timing(hw1, hw2, t);
    } else if ((hw1 & 0xfc00) == 0xec00 && ((hw2 >> 9) & 7) == 5) {
        thumb32_fp_timing(hw1, hw2, t);             /* cp10, cp11 */
    } else if ((hw1 & 0xec00) == 0xec00) {
        t->cls = TC_ALU;                            /* other coprocessors */
    } else if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0x8000)) {
        thumb32_control_timing(hw1, hw2, t);
    } else if ((hw1 & 0xf800) == 0xf000) {
        thumb32_data_timing(hw1, hw2, t);
    } else if ((hw1 & 0xfe00) == 0xf800) {
        thumb32_load_store_timing(hw1, hw2, t);
    } else if ((hw1 & 0xff00) == 0xfa00) {          /* data processing */
        alu(t, REG((hw2 >> 8) & 0xf), REG(hw1 & 0xf) | REG(hw2 & 0xf));
        /* Extend and add (not a plain extend), parallel arithmetic */
        t->two_stage = ((hw1 & 0xff80) == 0xfa00 && (hw2 & 0x80) &&
                        (hw1 & 0xf) != 0xf) ||
                       ((hw1 & 0xff80) == 0xfa80 && !(hw2 & 0x80)) ||
                       (hw1 & 0xfff0) == 0xfa80;    /* QADD, QSUB... */
        if ((hw1 & 0xff80) == 0xfa00 && (hw2 & 0x80) &&
            (hw1 & 0xf) != 0xf) {
            t->early = REG(hw2 & 0xf);  /* extend and add: the extended */
        }
    } else if ((hw1 & 0xff00) == 0xfb00) {
        thumb32_multiply_timing(hw1, hw2, t);
    }
}

bool isa_thumb_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                        InsnClass *out)
{
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
}

bool isa_thumb_timing(const uint8_t *bytes, size_t len, InsnTiming *out)
{
    if (len == 2) {
        thumb16_timing(le16(bytes), out);
    } else if (len == 4) {
        thumb32_timing(le16(bytes), le16(bytes + 2), out);
    } else {
        return false;
    }
    return true;
}
