/*
 * perfctr plugin: Arm-state instructions (ARM11, Cortex-A in Arm state):
 * their flow of control, memory accesses and timing classes
 *
 * Reference: the ARM Architecture Reference Manual (Armv6 and Armv7-A
 * Arm-state encodings).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/internal.h"

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
    out->predicated = out->conditional;
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

bool isa_a32_classify(const uint8_t *bytes, size_t len, uint64_t pc,
                      InsnClass *out)
{
    if (len != 4) {
        return false;
    }
    a32(le32(bytes), pc, out);
    a32_memory(le32(bytes), out);
    return true;
}

/* Multiplies (bits 7-4 1001): MUL, MLA, MLS, UMAAL and the long ones */
static void a32_multiply_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = (w >> 16) & 0xf, rlo = (w >> 12) & 0xf;
    unsigned rs = (w >> 8) & 0xf, rm = w & 0xf, op = (w >> 21) & 7;

    switch (op) {
    case 0:                                         /* MUL */
        arith(t, TC_MUL, rd, rm, rs, true);
        return;
    case 1:                                         /* MLA */
    case 3:                                         /* MLS */
        arith(t, TC_MAC, rd, rm, rs, true);
        t->reads |= REG(rlo);
        return;
    case 4:                                         /* UMULL */
    case 6:                                         /* SMULL */
        arith(t, TC_MULL, rd, rm, rs, op == 6);
        t->writes |= REG(rlo);
        return;
    default:                                        /* UMAAL, U/SMLAL */
        arith(t, TC_MLAL, rd, rm, rs, op == 7);
        t->writes |= REG(rlo);
        t->reads |= REG(rd) | REG(rlo);
        return;
    }
}

/*
 * The extra loads and stores (bits 7-4 1op21, op2 not 0): halfwords,
 * signed bytes, LDRD and STRD; SWP and the exclusives
 */
static void a32_extra_load_store_timing(uint32_t w, InsnTiming *t)
{
    unsigned rn = (w >> 16) & 0xf, rt = (w >> 12) & 0xf, rm = w & 0xf;
    unsigned op2 = (w >> 5) & 3;
    bool l = w & (1 << 20), imm = w & (1 << 22);
    bool writeback = !(w & (1 << 24)) || (w & (1 << 21));
    uint32_t address = REG(rn) | (imm ? 0 : REG(rm));

    if ((w & 0x0fb00ff0) == 0x01000090) {           /* SWP, SWPB */
        access(t, true, w & (1 << 22) ? 1 : 4, rt, REG(rn));
        t->reads |= REG(rm);
        return;
    }
    if ((w & 0x0f8000f0) == 0x01800090) {           /* LDREX, STREX... */
        access(t, l, 4, l ? rt : rm, REG(rn));
        if (!l) {
            t->writes = REG(rt);                    /* the status */
        }
        return;
    }
    if (!l && op2 >= 2) {                           /* LDRD, STRD */
        t->cls = op2 == 2 ? TC_LOAD_DOUBLE : TC_STORE_DOUBLE;
        t->size = 8;
        t->address = address;
        t->reads = address | (op2 == 3 ? REG(rt) | REG(rt + 1) : 0);
        t->writes = op2 == 2 ? REG(rt) | REG(rt + 1) : 0;
    } else {
        access(t, l, op2 == 2 ? 1 : 2, rt, address);
    }
    t->reg_offset = !imm;
    t->writeback = writeback;
    if (writeback) {
        t->writes |= REG(rn);
    }
}

/* Bits 27-26 00, but multiplies and extra loads and stores */
static void a32_data_timing(uint32_t w, InsnTiming *t)
{
    unsigned rn = (w >> 16) & 0xf, rd = (w >> 12) & 0xf, rm = w & 0xf;
    unsigned opcode = (w >> 21) & 0xf;
    bool imm = w & (1 << 25), s = w & (1 << 20);
    uint32_t reads;

    if ((w & 0x0f900000) == 0x01000000 && !imm) {   /* miscellaneous */
        if ((w & 0x0ff000d0) == 0x01200010) {       /* BX, BLX Rm */
            branch(t, false, w & (1 << 5) ? REG(ARM_LR) : 0, REG(rm));
        } else if ((w & 0x0ff000f0) == 0x01600010) {
            alu(t, REG(rd), REG(rm));               /* CLZ */
        } else if ((w & 0x0f900090) == 0x01000080) {
            arith(t, TC_MUL, rn, rm, (w >> 8) & 0xf, true); /* SMULxy... */
        } else if ((w & 0x0f0000f0) == 0x01000050) {
            alu(t, REG(rd), REG(rn) | REG(rm));     /* QADD... */
        } else {                                    /* MRS, MSR, BKPT */
            alu(t, (w & 0x0fb000f0) == 0x01000000 ? REG(rd) : 0, REG(rm));
            t->cls = TC_SYSTEM;
            if ((w & 0x0ff1fff0) == 0x0121f000) {
                t->writes = REG(ARM_SP);            /* MSR CPSR_c: a mode */
            }
        }
        return;
    }
    if ((w & 0x0fb00000) == 0x03000000) {           /* MOVW, MOVT */
        alu(t, REG(rd), w & (1 << 22) ? REG(rd) : 0);
        return;
    }
    if ((w & 0x0fb00000) == 0x03200000) {           /* MSR #imm, hints */
        t->cls = (w & 0x000f00ff) == 0 ? TC_ALU : TC_SYSTEM;   /* NOP */
        if ((w & 0x0ff10000) == 0x03210000) {
            t->writes = REG(ARM_SP);                /* MSR CPSR_c: a mode */
        }
        return;
    }
    reads = imm ? 0 : REG(rm) | ((w & 0x90) == 0x10 ? REG((w >> 8) & 0xf)
                                                    : 0);
    if (opcode != 13 && opcode != 15) {             /* but MOV, MVN */
        reads |= REG(rn);
    }
    if (opcode >= 8 && opcode <= 11 && s) {         /* TST... CMN */
        alu(t, 0, reads);
    } else if (rd == ARM_PC) {                      /* a jump */
        branch(t, false, 0, reads);
    } else {
        alu(t, REG(rd), reads);
    }
}

/* Bits 27-25 011 with bit 4 set: the Armv6 media instructions */
static void a32_media_timing(uint32_t w, InsnTiming *t)
{
    unsigned rd = (w >> 12) & 0xf, rn = w & 0xf;

    if ((w & 0x0f800010) == 0x07000010) {           /* SMUAD, SMLAD... */
        arith(t, TC_MUL, (w >> 16) & 0xf, rn, (w >> 8) & 0xf, true);
        if (rd != ARM_PC) {
            t->reads |= REG(rd);
        }
    } else {                                        /* SXTB, REV, UBFX... */
        alu(t, REG(rd), REG(rn) | REG((w >> 16) & 0xf));
    }
}

/* Bits 27-26 01: LDR, STR, LDRB, STRB */
static void a32_load_store_timing(uint32_t w, InsnTiming *t)
{
    unsigned rn = (w >> 16) & 0xf, rt = (w >> 12) & 0xf;
    bool reg = w & (1 << 25);
    bool writeback = !(w & (1 << 24)) || (w & (1 << 21));

    access(t, w & (1 << 20), w & (1 << 22) ? 1 : 4, rt,
           REG(rn) | (reg ? REG(w & 0xf) : 0));
    t->reg_offset = reg;
    t->writeback = writeback;
    if (writeback) {
        t->writes |= REG(rn);
    }
}

/* Bits 27-26 11: coprocessors (VFP's VLDM, VPUSH...) and SVC */
static void a32_coprocessor_timing(uint32_t w, InsnTiming *t)
{
    unsigned rn = (w >> 16) & 0xf;

    if ((w & 0x0e000000) == 0x0c000000 &&
        (w & 0x0fa00000) != 0x0c000000) {           /* LDC, STC, VLDM... */
        bool l = w & (1 << 20), writeback = w & (1 << 21);

        t->cls = l ? TC_LOAD_MULTIPLE : TC_STORE_MULTIPLE;
        t->nregs = w & 0xff;                        /* words */
        t->address = REG(rn);
        t->reads = REG(rn);
        t->writes = writeback ? REG(rn) : 0;
    } else if ((w & 0x0f100010) == 0x0e100010) {    /* MRC */
        alu(t, ((w >> 12) & 0xf) == ARM_PC ? 0 : REG((w >> 12) & 0xf), 0);
        t->cls = TC_SYSTEM;
    } else {                                        /* MCR, CDP, SVC */
        alu(t, 0, (w & 0x0f100010) == 0x0e000010 ? REG((w >> 12) & 0xf)
                                                  : 0);
        t->cls = TC_SYSTEM;
    }
}

/* cond 1111: BLX #imm, RFE, SRS, CPS, PLD, the barriers */
static void a32_unconditional_timing(uint32_t w, InsnTiming *t)
{
    unsigned rn = (w >> 16) & 0xf;

    if ((w & 0xfe000000) == 0xfa000000) {           /* BLX #imm */
        branch(t, false, REG(ARM_LR), 0);
    } else if ((w & 0xfe50ffff) == 0xf8100a00) {    /* RFE */
        multiple(t, true, rn, REG(ARM_PC), w & (1 << 21));
        t->nregs = 2;
    } else if ((w & 0xfe5fffe0) == 0xf84d0500) {    /* SRS: another sp */
        t->cls = TC_STORE_MULTIPLE;
        t->nregs = 2;
    } else if ((w & 0xfffffff0) == 0xf57ff040 ||    /* DSB, DMB, ISB */
               (w & 0xfffffff0) == 0xf57ff050 ||
               (w & 0xfffffff0) == 0xf57ff060) {
        t->cls = TC_BARRIER;
    } else if ((w & 0xfff10020) == 0xf1000000) {    /* CPS, SETEND */
        t->cls = TC_SYSTEM;
        t->writes = w & (1 << 17) ? REG(ARM_SP) : 0;    /* CPS #mode */
    }                                               /* else PLD: TC_ALU */
}

bool isa_a32_timing(const uint8_t *bytes, size_t len, InsnTiming *out)
{
    uint32_t w;

    if (len != 4) {
        return false;
    }
    w = le32(bytes);
    out->wide = true;
    if (w >> 28 == 0xf) {
        a32_unconditional_timing(w, out);
    } else if ((w & 0x0f0000f0) == 0x00000090) {
        a32_multiply_timing(w, out);
    } else if ((w & 0x0e000090) == 0x00000090 && (w & 0x60)) {
        a32_extra_load_store_timing(w, out);
    } else if ((w & 0x0fb00ff0) == 0x01000090 ||
               (w & 0x0f8000f0) == 0x01800090) {
        a32_extra_load_store_timing(w, out);        /* SWP, LDREX... */
    } else if ((w & 0x0c000000) == 0x00000000) {
        a32_data_timing(w, out);
    } else if ((w & 0x0e000010) == 0x06000010) {
        a32_media_timing(w, out);
    } else if ((w & 0x0c000000) == 0x04000000) {
        a32_load_store_timing(w, out);
    } else if ((w & 0x0e000000) == 0x08000000) {    /* LDM, STM */
        multiple(out, w & (1 << 20), (w >> 16) & 0xf, w & 0xffff,
                 w & (1 << 21));
    } else if ((w & 0x0e000000) == 0x0a000000) {    /* B, BL */
        branch(out, w >> 28 != 0xe, w & (1 << 24) ? REG(ARM_LR) : 0, 0);
    } else {
        a32_coprocessor_timing(w, out);
    }
    out->sets_pc = out->sets_pc || (out->writes & REG(ARM_PC));
    return true;
}
