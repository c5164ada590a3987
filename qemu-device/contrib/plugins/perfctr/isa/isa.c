/*
 * perfctr plugin: what each guest instruction does
 *
 * The one place that knows each architecture's calls, returns, branches,
 * traps, memory accesses and timing classes, decoded from the
 * instruction's bytes at translation time: thumb.c, a32.c, a64.c and
 * riscv.c, one instruction set each.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/internal.h"

bool isa_classify(Isa isa, const uint8_t *bytes, size_t len, uint64_t pc,
                  InsnClass *out)
{
    set(out, INSN_OTHER);
    set_memory(out, false, false);
    switch (isa) {
    case ISA_THUMB:
        return isa_thumb_classify(bytes, len, pc, out);
    case ISA_A32:
        return isa_a32_classify(bytes, len, pc, out);
    case ISA_RISCV:
        return isa_riscv_classify(bytes, len, pc, out);
    case ISA_A64:
        return isa_a64_classify(bytes, len, pc, out);
    }
    return false;
}

bool isa_timing(Isa isa, const uint8_t *bytes, size_t len, InsnTiming *out)
{
    *out = (InsnTiming) { .cls = TC_ALU, .op_a = -1, .op_b = -1 };
    switch (isa) {
    case ISA_THUMB:
        return isa_thumb_timing(bytes, len, out);
    case ISA_A32:
        return isa_a32_timing(bytes, len, out);
    case ISA_RISCV:
        return isa_riscv_timing(bytes, len, out);
    case ISA_A64:
        return isa_a64_timing(bytes, len, out);
    }
    return false;
}

size_t isa_insn_size(Isa isa, const uint8_t *bytes, size_t got)
{
    if (got < 2) {
        return 0;
    }
    switch (isa) {
    case ISA_THUMB:
        /* A first halfword of 0b11101, 0b11110 or 0b11111 begins a 32-bit */
        return (bytes[1] >> 3) >= 0x1d ? 4 : 2;
    case ISA_RISCV:
        return (bytes[0] & 3) == 3 ? 4 : 2;
    default:
        return 4;
    }
}

uint32_t isa_sp_mask(Isa isa)
{
    switch (isa) {
    case ISA_RISCV:
        return REG(2);
    case ISA_A64:
        return REG(31);
    default:
        return REG(ARM_SP);
    }
}

uint32_t isa_local_address_mask(Isa isa)
{
    bool arm = isa == ISA_THUMB || isa == ISA_A32;

    return isa_sp_mask(isa) | (arm ? REG(ARM_PC) : 0);
}

SpWrite isa_sp_write(Isa isa, const uint8_t *bytes, size_t len)
{
    uint32_t sp_bit = isa_sp_mask(isa);
    InsnTiming t;

    if (!isa_timing(isa, bytes, len, &t) || !(t.writes & sp_bit)) {
        return SP_KEPT;
    }
    if (t.cls == TC_LOAD || t.cls == TC_LOAD_MULTIPLE ||
        t.cls == TC_LOAD_DOUBLE) {
        /* A pop, a post-indexed load from sp, or sp loaded from memory */
        return t.address & sp_bit ? SP_KEPT : SP_SWITCHED;
    }
    return t.reads & sp_bit ? SP_MOVED : SP_SWITCHED;
}

bool isa_links_next(Isa isa, const uint8_t *bytes, size_t len)
{
    return isa == ISA_A32 && len == 4 &&
           (le32(bytes) & 0x0fffffff) == 0x01a0e00f;    /* MOV lr, pc */
}

unsigned isa_it_count(Isa isa, const uint8_t *bytes, size_t len)
{
    uint16_t hw = isa == ISA_THUMB && len == 2 ? le16(bytes) : 0;
    unsigned mask = hw & 0xf;

    if ((hw & 0xff00) != 0xbf00 || !mask) {
        return 0;                                   /* NOP, WFI... */
    }
    return 4 - __builtin_ctz(mask);
}

bool isa_predicates(Isa isa)
{
    return isa == ISA_A32 || isa == ISA_THUMB;
}

bool isa_may_not_execute(Isa isa, const uint8_t *bytes, size_t len,
                         IsaPredication *it)
{
    unsigned index = it->index++;
    unsigned covered;

    switch (isa) {
    case ISA_A32:
        return len == 4 && bytes[3] >> 4 < 0xe;     /* cond below AL */
    case ISA_THUMB:
        covered = isa_it_count(isa, bytes, len);
        if (covered) {
            it->it_left = covered;
            it->it_seen = true;
            return false;
        }
        if (it->it_left) {
            it->it_left--;
            return true;
        }
        return !it->it_seen && index < 4;
    default:
        return false;
    }
}

void isa_linked(InsnClass *branch)
{
    if (branch->kind == INSN_BRANCH && !branch->direct) {
        branch->kind = INSN_CALL;
    }
}
