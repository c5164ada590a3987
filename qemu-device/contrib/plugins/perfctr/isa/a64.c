/*
 * perfctr plugin: A64 instructions (AArch64 state: Cortex-A53...): their
 * flow of control, memory accesses and timing classes
 *
 * Reference: the Arm Architecture Reference Manual for A-profile
 * architecture, A64 instruction set encodings (Armv8.0, with the later
 * LSE atomics, RCpc loads and stores, pointer authentication's branches
 * and loads, and the memory copy and set instructions; not SVE, SME or
 * MTE's tag loads and stores).
 *
 * A64 executes every instruction but B.cond unconditionally (CSEL and
 * the like select, they are not predicated).  B.cond has a condition
 * code: one that fails it does not retire, as Arm state's B<c>; CBZ,
 * CBNZ, TBZ and TBNZ test a register, as Thumb's CBZ.  A return is RET
 * (RETAA, RETAB), to whatever register it names, or a BR to the link
 * register x30, as BX lr is in Thumb and Arm state.
 *
 * Register masks (InsnTiming): bit n for xn (wn), bit 31 for sp.  The
 * register number 31 is sp as an address's base, in ADD and SUB
 * (immediate, extended register) and as the destination of AND, ORR
 * and EOR (immediate); elsewhere it is xzr, which is in no mask.  SIMD
 * and floating-point registers are in none either.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/internal.h"

#define A64_LR 30
#define A64_SP 31

/* Register n where 31 is xzr: in no mask (nor is CASP's 31 + 1) */
static uint32_t xr(unsigned n)
{
    return n >= 31 ? 0 : REG(n);
}

/* Register n where 31 is sp */
static uint32_t xsp(unsigned n)
{
    return REG(n);
}

static unsigned field(uint32_t w, unsigned lsb, unsigned bits)
{
    return (w >> lsb) & ((1u << bits) - 1);
}

/* A load or store (or both: atomics), as its timing wants it */
typedef struct A64Access {
    bool load, store;
    TimingClass cls;
    uint8_t size;               /* bytes of each register it moves */
    uint8_t nregs;
    uint32_t base;              /* the base register, written back */
    uint32_t address;           /* the registers of the address */
    uint32_t reads, writes;     /* data, status, post-index registers */
    bool writeback, reg_offset;
} A64Access;

static void moves(A64Access *m, bool load, bool store, unsigned size,
                  unsigned nregs)
{
    m->load = load;
    m->store = store;
    m->size = size;
    m->nregs = nregs;
    if (nregs == 2) {
        m->cls = load ? TC_LOAD_DOUBLE : TC_STORE_DOUBLE;
    } else if (nregs > 2) {
        m->cls = load ? TC_LOAD_MULTIPLE : TC_STORE_MULTIPLE;
    } else {
        m->cls = load ? TC_LOAD : TC_STORE;
    }
}

/* Data registers: loaded (written), or stored (read) */
static void data(A64Access *m, uint32_t regs)
{
    if (m->load) {
        m->writes |= regs;
    } else {
        m->reads |= regs;
    }
}

/* LD1-LD4, ST1-ST4 and LD1R-LD4R: SIMD registers, none in the masks */
static bool a64_structures(uint32_t w, A64Access *m)
{
    static const uint8_t multiple[16] = {
        [0] = 4, [2] = 4, [4] = 3, [6] = 3, [7] = 1, [8] = 2, [10] = 2,
    };
    unsigned opcode = field(w, 13, 3), size = field(w, 10, 2);
    unsigned nregs, esize;

    if (!(w & (1 << 24))) {                         /* multiple */
        nregs = multiple[field(w, 12, 4)];
        esize = w & (1 << 30) ? 16 : 8;
    } else {                                        /* single */
        nregs = ((opcode & 1) << 1 | field(w, 21, 1)) + 1;
        esize = opcode >= 6 ? 1u << size :          /* replicate */
                opcode >= 4 ? 4u << (size & 1) : 1u << (opcode >> 1);
    }
    if (!nregs) {
        return false;
    }
    moves(m, w & (1 << 22), !(w & (1 << 22)), esize, nregs);
    if (nregs == 2) {
        m->cls = m->load ? TC_LOAD_MULTIPLE : TC_STORE_MULTIPLE;
    }
    m->writeback = w & (1 << 23);
    if (m->writeback) {
        m->reads |= xr(field(w, 16, 5));            /* 31: by the size */
    }
    return true;
}

/* LDXR, STXR, LDAXP..., LDAR, STLR, CAS, CASP */
static bool a64_exclusive(uint32_t w, A64Access *m)
{
    unsigned size = w >> 30, rs = field(w, 16, 5), rt = w & 0x1f;
    bool o2 = w & (1 << 23), l = w & (1 << 22), o1 = w & (1 << 21);

    if (o1 && o2) {                                 /* CAS */
        moves(m, true, true, 1u << size, 1);
        m->reads |= xr(rs) | xr(rt);
        m->writes |= xr(rs);
    } else if (o1 && !(size & 2)) {                 /* CASP */
        uint32_t pairs = xr(rs) | xr(rs + 1) | xr(rt) | xr(rt + 1);

        moves(m, true, true, 4u << size, 2);
        m->reads |= pairs;
        m->writes |= xr(rs) | xr(rs + 1);
    } else if (o1) {                                /* LDXP, STXP... */
        moves(m, l, !l, 4u << (size & 1), 2);
        data(m, xr(rt) | xr(field(w, 10, 5)));
    } else {                                        /* LDXR, LDAR... */
        moves(m, l, !l, 1u << size, 1);
        data(m, xr(rt));
    }
    if (!o2 && !l && !(o1 && !(size & 2))) {
        m->writes |= xr(rs);                        /* STXR's status */
    }
    return true;
}

/* Bits 29-28 01: literal loads, RCpc LDAPUR and STLUR, CPY and SET */
static bool a64_literal_and_more(uint32_t w, A64Access *m)
{
    unsigned opc = w >> 30, rt = w & 0x1f, rs = field(w, 16, 5);
    bool v = w & (1 << 26);

    if (!(w & (1 << 24))) {                         /* LDR (literal) */
        m->address = m->base = 0;                   /* pc-relative */
        if (opc == 3) {
            return false;                           /* PRFM */
        }
        moves(m, true, false, v ? 4u << opc : opc == 1 ? 8 : 4, 1);
        data(m, v ? 0 : xr(rt));
        return true;
    }
    if (w & (1 << 21)) {
        return false;                               /* MTE's tags */
    }
    switch (field(w, 10, 2)) {
    case 0:                                         /* LDAPUR, STLUR */
        moves(m, field(w, 22, 2) != 0, field(w, 22, 2) == 0, 1u << opc, 1);
        data(m, v ? 0 : xr(rt));
        return true;
    case 1: {                                       /* CPY*, SET* */
        /* Xd the destination, Xn the count, Xs the source or the data */
        bool set = field(w, 22, 2) == 3;
        uint32_t moved = xr(rt) | xr(field(w, 5, 5)) | (set ? 0 : xr(rs));

        moves(m, !set, true, 1, 1);
        m->address = xr(rt) | (set ? 0 : xr(rs));
        m->base = 0;
        m->reads |= moved | xr(rs);
        m->writes |= moved;
        return true;
    }
    }
    return false;
}

/* Bits 29-28 10: LDP, STP, LDNP, STNP, LDPSW, STGP */
static bool a64_pair(uint32_t w, A64Access *m)
{
    unsigned opc = w >> 30, mode = field(w, 23, 2);
    bool v = w & (1 << 26), l = w & (1 << 22);

    if (opc == 3) {
        return false;
    }
    moves(m, l, !l, v ? 4u << opc : opc == 2 || (opc == 1 && !l) ? 8 : 4,
          2);
    data(m, v ? 0 : xr(w & 0x1f) | xr(field(w, 10, 5)));
    m->writeback = mode == 1 || mode == 3;
    return true;
}

/* LDADD... LDUMIN, their ST* aliases, SWP, LDAPR */
static bool a64_atomic(uint32_t w, A64Access *m)
{
    unsigned op = field(w, 12, 3), rt = w & 0x1f;
    bool o3 = w & (1 << 15);

    if (w & (1 << 26)) {
        return false;
    }
    if (!o3 || op == 0) {                           /* read-modify-write */
        moves(m, true, true, 1u << (w >> 30), 1);
        m->reads |= xr(field(w, 16, 5));
        m->writes |= xr(rt);
        return true;
    }
    if (op == 4) {                                  /* LDAPR */
        moves(m, true, false, 1u << (w >> 30), 1);
        m->writes |= xr(rt);
        return true;
    }
    return false;                                   /* LD64B, ST64B... */
}

/* Bits 29-28 11: LDR, STR (all sizes and modes), LDUR, LDTR, LDRAA... */
static bool a64_register(uint32_t w, A64Access *m)
{
    unsigned size = w >> 30, opc = field(w, 22, 2), rt = w & 0x1f;
    unsigned mode = field(w, 10, 2);
    bool v = w & (1 << 26), load;

    if (!(w & (1 << 24)) && (w & (1 << 21))) {
        if (mode == 0) {
            return a64_atomic(w, m);
        }
        if (mode & 1) {                             /* LDRAA, LDRAB */
            if (v || size != 3) {
                return false;
            }
            moves(m, true, false, 8, 1);
            m->writes |= xr(rt);
            m->writeback = w & (1 << 11);
            return true;
        }
        m->address |= xr(field(w, 16, 5));          /* register offset */
        m->reg_offset = true;
    } else if (!(w & (1 << 24))) {
        m->writeback = mode == 1 || mode == 3;      /* post-, pre-index */
    }
    if (v) {
        load = opc & 1;
        if (opc & 2) {
            size = 4;                               /* a q register */
        }
    } else if (opc == 0) {
        load = false;
    } else if (opc == 1 || (opc == 2 && size < 3) || (opc == 3 && size < 2)) {
        load = true;
    } else {
        m->writeback = false;
        return false;                               /* PRFM, PRFUM */
    }
    moves(m, load, !load, 1u << size, 1);
    data(m, v ? 0 : xr(rt));
    return true;
}

/*
 * Decode a load or store: false if w is none (PRFM is none: its address
 * registers are still in m).  DC ZVA writes a block of zeros: a store.
 */
static bool a64_memory(uint32_t w, A64Access *m)
{
    *m = (A64Access) { .base = xsp(field(w, 5, 5)) };
    m->address = m->base;
    if ((w & 0xffffffe0) == 0xd50b7420) {           /* DC ZVA, Xt */
        moves(m, false, true, 64, 1);
        m->address = m->base = xr(w & 0x1f);
        return true;
    }
    if ((w & 0x0a000000) != 0x08000000) {           /* bits 27, 25: 1, 0 */
        m->address = m->base = 0;
        return false;
    }
    switch (field(w, 28, 2)) {
    case 0:
        if (w & (1 << 26)) {
            return !(w & (1u << 31)) && a64_structures(w, m);
        }
        return !(w & (1 << 24)) && a64_exclusive(w, m);
    case 1:
        return a64_literal_and_more(w, m);
    case 2:
        return a64_pair(w, m);
    default:
        return a64_register(w, m);
    }
}

/* BR, BLR, RET, ERET and their pointer-authenticating forms */
static void a64_branch_register(uint32_t w, InsnClass *out)
{
    unsigned op3 = field(w, 10, 6);

    if (op3 != 0 && op3 != 2 && op3 != 3) {
        set(out, INSN_OTHER);
        return;
    }
    switch (field(w, 21, 4)) {
    case 0:                                         /* BR, BRAAZ... */
    case 8:                                         /* BRAA, BRAB */
        set(out, field(w, 5, 5) == A64_LR ? INSN_RETURN : INSN_BRANCH);
        break;
    case 1:                                         /* BLR, BLRAAZ... */
    case 9:                                         /* BLRAA, BLRAB */
        set(out, INSN_CALL);
        break;
    case 2:                                         /* RET, RETAA... */
        set(out, INSN_RETURN);
        break;
    case 4:                                         /* ERET, ERETAA... */
        set(out, INSN_EXCEPTION_RETURN);
        break;
    default:                                        /* DRPS */
        set(out, INSN_OTHER);
    }
}

static void a64_flow(uint32_t w, uint64_t pc, InsnClass *out)
{
    unsigned opc = field(w, 21, 3), ll = w & 3;

    if ((w & 0x7c000000) == 0x14000000) {           /* B, BL */
        set_direct(out, w >> 31 ? INSN_CALL : INSN_BRANCH,
                   pc + sign_extend((w & 0x3ffffff) << 2, 28));
    } else if ((w & 0xff000000) == 0x54000000) {    /* B.cond, BC.cond */
        uint64_t target = pc + sign_extend(field(w, 5, 19) << 2, 21);

        if ((w & 0xe) == 0xe) {
            set_direct(out, INSN_BRANCH, target);   /* AL, NV: always */
        } else {
            set_predicated(out, target);
        }
    } else if ((w & 0x7e000000) == 0x34000000) {    /* CBZ, CBNZ */
        set_conditional(out, pc + sign_extend(field(w, 5, 19) << 2, 21));
    } else if ((w & 0x7e000000) == 0x36000000) {    /* TBZ, TBNZ */
        set_conditional(out, pc + sign_extend(field(w, 5, 14) << 2, 16));
    } else if ((w & 0xfe1f0000) == 0xd61f0000) {
        a64_branch_register(w, out);
    } else if ((w & 0xff00001c) == 0xd4000000 &&
               ((opc == 0 && ll) || ((opc == 1 || opc == 2) && !ll))) {
        set(out, INSN_TRAP);                        /* SVC... BRK, HLT */
    } else {
        set(out, INSN_OTHER);
    }
}

bool isa_a64_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                      InsnClass *out)
{
    A64Access m;

    if (len != 4) {
        return false;
    }
    a64_flow(le32(bytes), pc, out);
    if (a64_memory(le32(bytes), &m)) {
        set_memory(out, m.load, m.store);
    }
    return true;
}

static void a64_arith(InsnTiming *t, TimingClass cls, unsigned rd,
                      unsigned rn, unsigned rm, bool is_signed)
{
    alu(t, xr(rd), xr(rn) | xr(rm));
    t->cls = cls;
    t->op_a = rn;
    t->op_b = rm;
    t->is_signed = is_signed;
}

/* Hints, barriers, MSR (immediate), SYS, SYSL, MRS, MSR (register) */
static void a64_system_timing(uint32_t w, InsnTiming *t)
{
    unsigned rt = w & 0x1f, op0 = field(w, 19, 2), op1 = field(w, 16, 3);
    unsigned crn = field(w, 12, 4), crm = field(w, 8, 4);
    unsigned op2 = field(w, 5, 3);
    bool l = w & (1 << 21);

    if (op0 == 0 && !l && crn == 2 && rt == 31) {   /* hints */
        if (crm == 1) {                             /* PACIA1716... */
            alu(t, REG(17), REG(17) | REG(16));
        } else if (crm == 3 || (crm == 0 && op2 == 7)) {
            /* PACIASP, PACIAZ..., XPACLRI */
            alu(t, REG(A64_LR), REG(A64_LR) |
                (crm == 3 && (op2 & 1) ? REG(A64_SP) : 0));
        } else if (crm == 0 && (op2 == 2 || op2 == 3)) {
            t->cls = TC_SYSTEM;                     /* WFE, WFI */
        }
        t->nop = crm == 0 && op2 == 0;
    } else if (op0 == 0 && !l && crn == 3 && rt == 31) {
        /* DSB, DMB, ISB, SB; CLREX (op2 2): a TC_ALU */
        t->cls = op2 == 2 ? TC_ALU : TC_BARRIER;
    } else if (op0 == 0) {                          /* MSR (immediate) */
        t->cls = TC_SYSTEM;
        if (!l && crn == 4 && op1 == 0 && op2 == 5) {
            t->writes = REG(A64_SP);                /* SPSel: another sp */
        }
    } else {
        /* SYS reads Xt, SYSL and MRS write it, MSR reads it */
        alu(t, l ? xr(rt) : 0, l ? 0 : xr(rt));
        t->cls = TC_SYSTEM;
        if ((w & 0xffffffe0) == 0xd5184200) {       /* MSR SPSel, Xt */
            t->writes = REG(A64_SP);
        }
    }
}

/* Bits 28-26 101: branches, exception generation, system */
static void a64_branch_timing(uint32_t w, InsnTiming *t)
{
    unsigned rn = field(w, 5, 5), op3 = field(w, 10, 6), opc;

    if ((w & 0x7c000000) == 0x14000000) {           /* B, BL */
        branch(t, false, w >> 31 ? REG(A64_LR) : 0, 0);
    } else if ((w & 0xff000000) == 0x54000000) {    /* B.cond */
        branch(t, (w & 0xe) != 0xe, 0, 0);
    } else if ((w & 0x7c000000) == 0x34000000) {    /* CBZ... TBNZ */
        branch(t, true, 0, xr(w & 0x1f));
    } else if ((w & 0xfe1f0000) == 0xd61f0000) {    /* to a register */
        opc = field(w, 21, 4);
        if (opc == 2) {                             /* RET, RETAA... */
            branch(t, false, 0, op3 ? REG(A64_LR) | REG(A64_SP) : xr(rn));
        } else if (opc == 4) {                      /* ERET, ERETAA... */
            branch(t, false, 0, op3 ? REG(A64_SP) : 0);
        } else {                                    /* BR, BLR, BRAA... */
            branch(t, false, opc & 1 ? REG(A64_LR) : 0,
                   xr(rn) | (opc & 8 ? xsp(w & 0x1f) : 0));
        }
    } else if ((w & 0xffc00000) == 0xd5000000) {
        a64_system_timing(w, t);
    } else if ((w & 0xff000000) == 0xd4000000) {    /* SVC... HLT */
        t->cls = TC_SYSTEM;
    }
}

/* Bits 28-26 100: data processing with an immediate */
static void a64_immediate_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = w & 0x1f, rn = field(w, 5, 5), opc = field(w, 29, 2);
    bool s = w & (1 << 29);

    switch (field(w, 23, 3)) {
    case 0:
    case 1:                                         /* ADR, ADRP */
        alu(t, xr(rd), 0);
        break;
    case 2:                                         /* ADD, SUB, CMP... */
        alu(t, s ? xr(rd) : xsp(rd), xsp(rn));
        break;
    case 3:                                         /* ADDG, SUBG; SMAX... */
        alu(t, w & (1 << 22) ? xr(rd) : xsp(rd),
            w & (1 << 22) ? xr(rn) : xsp(rn));
        break;
    case 4:                                         /* AND, ORR, EOR, ANDS */
        alu(t, opc == 3 ? xr(rd) : xsp(rd), xr(rn));
        break;
    case 5:                                         /* MOVN, MOVZ, MOVK */
        alu(t, xr(rd), opc == 3 ? xr(rd) : 0);
        break;
    case 6:                                         /* SBFM, BFM, UBFM */
        alu(t, xr(rd), xr(rn) | (opc == 1 ? xr(rd) : 0));
        break;
    default:                                        /* EXTR */
        alu(t, xr(rd), xr(rn) | xr(field(w, 16, 5)));
    }
}

/* MADD, MSUB (MUL, MNEG), SMADDL... UMSUBL (SMULL...), SMULH, UMULH */
static void a64_multiply_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = w & 0x1f, rn = field(w, 5, 5), rm = field(w, 16, 5);
    unsigned ra = field(w, 10, 5), op31 = field(w, 21, 3);
    bool accumulates = ra != 31;

    switch (field(w, 29, 2) ? 8 : op31) {
    case 0:
        a64_arith(t, accumulates ? TC_MAC : TC_MUL, rd, rn, rm, true);
        break;
    case 1:
    case 5:
        a64_arith(t, accumulates ? TC_MLAL : TC_MULL, rd, rn, rm, op31 == 1);
        break;
    case 2:
    case 6:
        a64_arith(t, TC_MULL, rd, rn, rm, op31 == 2);
        break;
    default:
        alu(t, xr(rd), xr(rn) | xr(rm));
    }
    t->reads |= xr(ra);
}

/* Bits 27-25 101: data processing with registers only */
static void a64_register_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = w & 0x1f, rn = field(w, 5, 5), rm = field(w, 16, 5);
    bool s = w & (1 << 29);

    if (!(w & (1 << 28))) {
        if ((w & 0x01200000) == 0x01200000) {       /* extended register */
            alu(t, s ? xr(rd) : xsp(rd), xsp(rn) | xr(rm));
        } else {                                    /* shifted register */
            alu(t, xr(rd), xr(rn) | xr(rm));
        }
        return;
    }
    if (w & (1 << 24)) {
        a64_multiply_timing(w, t);
        return;
    }
    switch (field(w, 21, 3)) {
    case 0:                                         /* ADC...; RMIF, SETF */
        alu(t, field(w, 10, 6) ? 0 : xr(rd), xr(rn) | xr(rm));
        break;
    case 2:                                         /* CCMN, CCMP */
        alu(t, 0, xr(rn) | (w & (1 << 11) ? 0 : xr(rm)));
        break;
    case 6:
        if (w & (1 << 30)) {                        /* RBIT, REV, CLZ... */
            alu(t, xr(rd), xr(rn));
        } else if (field(w, 11, 5) == 1) {          /* UDIV, SDIV */
            a64_arith(t, TC_DIV, rd, rn, rm, w & (1 << 10));
        } else if (field(w, 10, 6) == 4) {          /* IRG */
            alu(t, xsp(rd), xsp(rn) | xr(rm));
        } else {                                    /* LSLV, CRC32... */
            alu(t, xr(rd), xr(rn) | xr(rm));
        }
        break;
    default:                                        /* CSEL, CSINC... */
        alu(t, xr(rd), xr(rn) | xr(rm));
    }
}

/* Bits 27-25 111: SIMD and floating point; only moves use x registers */
static void a64_simd_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = w & 0x1f, rn = field(w, 5, 5);

    if ((w & 0x5f20fc00) == 0x1e200000 || (w & 0x5f200000) == 0x1e000000) {
        /* FMOV, FCVTZS, SCVTF... between x and SIMD&FP registers */
        unsigned opcode = field(w, 16, 3);
        bool from_x = opcode == 2 || opcode == 3 || opcode == 7;

        alu(t, from_x ? 0 : xr(rd), from_x ? xr(rn) : 0);
    } else if ((w & 0xbfe08400) == 0x0e000400) {    /* DUP, INS, xMOV */
        unsigned imm4 = field(w, 11, 4);

        if (imm4 == 1 || imm4 == 3) {               /* DUP, INS (general) */
            alu(t, 0, xr(rn));
        } else if (imm4 == 5 || imm4 == 7) {        /* SMOV, UMOV */
            alu(t, xr(rd), 0);
        }
    }
}

bool isa_a64_timing(const uint8_t *bytes, size_t len, InsnTiming *out)
{
    uint32_t w;
    A64Access m;

    if (len != 4) {
        return false;
    }
    w = le32(bytes);
    out->wide = true;
    if (a64_memory(w, &m)) {
        out->cls = m.cls;
        out->size = m.size;
        out->nregs = m.nregs;
        out->address = m.address;
        out->reads = m.address | m.reads;
        out->writes = m.writes | (m.writeback ? m.base : 0);
        out->writeback = m.writeback;
        out->reg_offset = m.reg_offset;
    } else if ((w & 0x0a000000) == 0x08000000) {    /* PRFM */
        alu(out, 0, m.address);
    } else if ((w & 0x1c000000) == 0x10000000) {
        a64_immediate_timing(w, out);
    } else if ((w & 0x1c000000) == 0x14000000) {
        a64_branch_timing(w, out);
    } else if ((w & 0x0e000000) == 0x0a000000) {
        a64_register_timing(w, out);
    } else if ((w & 0x0e000000) == 0x0e000000) {
        a64_simd_timing(w, out);
    }
    return true;
}
