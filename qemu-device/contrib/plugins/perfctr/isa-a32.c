/*
 * perfctr plugin: Arm-state instructions (ARM11, Cortex-A in Arm state):
 * their flow of control, memory accesses and timing classes
 *
 * Reference: the ARM Architecture Reference Manual (Armv6 and Armv7-A
 * Arm-state encodings).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa-internal.h"

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

bool isa_a32_timing(const uint8_t *bytes, size_t len, InsnTiming *out)
{
    return len == 4;
}
