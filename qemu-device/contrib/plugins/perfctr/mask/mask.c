/*
 * perfctr plugin: stretches with interrupts masked
 *
 * The instructions that mask or unmask interrupts are decoded as they
 * are translated: Cortex-M's CPSID/CPSIE and MSR to PRIMASK, BASEPRI,
 * BASEPRI_MAX and FAULTMASK; Arm state's CPSID/CPSIE and MSR CPSR_c;
 * AArch64's MSR DAIFSet, DAIFClr and DAIF; RISC-V's CSR instructions on
 * mstatus's MIE bit.  Each calls back as it runs, with the value it
 * writes (a register's, read then), and the vCPU's masked state follows:
 * from the instruction that masks interrupts to the one that unmasks
 * them is a stretch, in instructions and virtual time, with where it
 * began.  The longest is what an interrupt raised at its start waits
 * (interrupt latency's worst case from the firmware's side).  What the
 * hardware masks by itself (a RISC-V trap clearing MIE, an Arm IRQ
 * setting I) is not a stretch: only what the code asks.  So, but on
 * Cortex-M (whose exceptions leave PRIMASK and BASEPRI as they are),
 * what a handler writes is not followed: its exception return restores
 * the mask behind the plugin's back (MRET, ERET, SUBS pc, lr).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/registers.h"
#include "perfctr-hook.h"
#include "mask/mask.h"

#pragma weak perfctr_hook_virtual_ns

/* What an instruction does to the mask */
typedef enum MaskOp {
    MASK_NONE,
    MASK_SET,               /* masks (CPSID i, CSRCI mstatus, 8...) */
    MASK_CLEAR,             /* unmasks */
    MASK_PRIMASK_REG,       /* MSR PRIMASK, Rn: Rn's bit 0 */
    MASK_FAULTMASK_SET,     /* CPSID f */
    MASK_FAULTMASK_CLEAR,
    MASK_FAULTMASK_REG,     /* MSR FAULTMASK, Rn */
    MASK_BASEPRI_REG,       /* MSR BASEPRI, Rn: masked if not 0 */
    MASK_BASEPRI_MAX_REG,   /* MSR BASEPRI_MAX, Rn: raises it only */
    MASK_BIT_REG,           /* written from a register: its bit "bit" */
    MASK_BIT_SET_REG,       /* bits set from a register (CSRRS) */
    MASK_BIT_CLEAR_REG,     /* bits cleared from a register (CSRRC) */
} MaskOp;

typedef struct MaskInsn {
    MaskOp op;
    unsigned reg;           /* the register operand */
    unsigned bit;           /* its bit that is the mask (or unmask) */
    uint64_t pc;
} MaskInsn;

typedef struct MaskVcpu {
    GByteArray *buf;
    bool primask, faultmask;
    uint64_t basepri;
    bool masked;
    uint64_t since;         /* instructions when the stretch began */
    int64_t since_ns;
    uint64_t since_pc;
} MaskVcpu;

static const PerfctrConfig *config;
static const MaskOps *ops;
static GPtrArray *vcpus;
static GMutex lock;
static struct qemu_plugin_register *regs[32];
static uint64_t stretches, total, longest, longest_ns, longest_pc;

static MaskVcpu *mask_vcpu(unsigned index)
{
    return g_ptr_array_index(vcpus, index);
}

/*
 * The little-endian word at b: the caller's 4 bytes, zeroed past the
 * instruction (the decoders check its length after)
 */
static uint32_t le32(const uint8_t *b)
{
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Thumb (Cortex-M): CPS and MSR to the mask registers */
static MaskOp decode_thumb(const uint8_t *b, size_t len, MaskInsn *m)
{
    uint16_t hw1 = b[0] | b[1] << 8, hw2;

    if ((hw1 & 0xffec) == 0xb660) {
        /* CPSID/CPSIE: im is bit 4, I bit 1, F bit 0 */
        bool disable = hw1 & 0x10;

        if (hw1 & 2) {
            return disable ? MASK_SET : MASK_CLEAR;
        }
        if (hw1 & 1) {
            return disable ? MASK_FAULTMASK_SET : MASK_FAULTMASK_CLEAR;
        }
        return MASK_NONE;
    }
    if (len < 4 || (hw1 & 0xfff0) != 0xf380) {
        return MASK_NONE;
    }
    hw2 = b[2] | b[3] << 8;
    if ((hw2 & 0xff00) != 0x8800) {
        return MASK_NONE;
    }
    m->reg = hw1 & 0xf;
    switch (hw2 & 0xff) {
    case 0x10:
        return MASK_PRIMASK_REG;
    case 0x11:
        return MASK_BASEPRI_REG;
    case 0x12:
        return MASK_BASEPRI_MAX_REG;
    case 0x13:
        return MASK_FAULTMASK_REG;
    }
    return MASK_NONE;
}

/* Arm state: CPS, MSR CPSR_c (register or immediate), the I bit (7) */
static MaskOp decode_a32(const uint8_t *b, size_t len, MaskInsn *m)
{
    uint32_t w = le32(b);

    if (len < 4) {
        return MASK_NONE;
    }
    if ((w & 0xfff1fe20) == 0xf1000000 && (w & 0x80)) {
        unsigned imod = (w >> 18) & 3;

        return imod == 3 ? MASK_SET : imod == 2 ? MASK_CLEAR : MASK_NONE;
    }
    if ((w & 0x0ff0fff0) == 0x0120f000 && (w & 0x10000) &&
        (w >> 28) == 0xe) {
        m->reg = w & 0xf;
        m->bit = 7;
        return MASK_BIT_REG;
    }
    if ((w & 0x0ff0f000) == 0x0320f000 && (w & 0x10000) &&
        (w >> 28) == 0xe) {
        unsigned rot = ((w >> 8) & 0xf) * 2, imm = w & 0xff;
        uint32_t value = rot ? (imm >> rot) | (imm << (32 - rot)) : imm;

        return value & 0x80 ? MASK_SET : MASK_CLEAR;
    }
    return MASK_NONE;
}

/* AArch64: MSR DAIFSet/DAIFClr, #imm (I is imm's bit 1); MSR DAIF, Xt */
static MaskOp decode_a64(const uint8_t *b, size_t len, MaskInsn *m)
{
    uint32_t w = le32(b);

    if (len < 4) {
        return MASK_NONE;
    }
    if ((w & 0xfffff0ff) == 0xd50340df && (w & 0x200)) {
        return MASK_SET;
    }
    if ((w & 0xfffff0ff) == 0xd50340ff && (w & 0x200)) {
        return MASK_CLEAR;
    }
    if ((w & 0xffffffe0) == 0xd51b4220) {
        m->reg = w & 0x1f;
        m->bit = 7;
        return MASK_BIT_REG;
    }
    return MASK_NONE;
}

/* RISC-V: CSR instructions on mstatus (0x300), its MIE bit (3) */
static MaskOp decode_riscv(const uint8_t *b, size_t len, MaskInsn *m)
{
    uint32_t w = le32(b);
    unsigned f3 = (w >> 12) & 7, src = (w >> 15) & 0x1f;

    if (len < 4 || (w & 0x7f) != 0x73 || (w >> 20) != 0x300 || !f3 ||
        f3 == 4) {
        return MASK_NONE;
    }
    m->reg = src;
    m->bit = 3;
    switch (f3) {
    case 1:                                     /* CSRRW */
        return MASK_BIT_REG;
    case 2:                                     /* CSRRS */
        return src ? MASK_BIT_SET_REG : MASK_NONE;
    case 3:                                     /* CSRRC */
        return src ? MASK_BIT_CLEAR_REG : MASK_NONE;
    case 5:                                     /* CSRRWI */
        return src & 8 ? MASK_CLEAR : MASK_SET;
    case 6:                                     /* CSRRSI */
        return src & 8 ? MASK_CLEAR : MASK_NONE;
    default:                                    /* CSRRCI */
        return src & 8 ? MASK_SET : MASK_NONE;
    }
}

static uint64_t read_reg(MaskVcpu *v, unsigned reg)
{
    return reg < G_N_ELEMENTS(regs) ? registers_read(regs[reg], reg, v->buf)
                                    : 0;
}

static void now_masked(unsigned index, MaskVcpu *v, bool masked,
                       uint64_t pc)
{
    uint64_t at;

    if (masked == v->masked) {
        return;
    }
    at = ops->executed(index);
    v->masked = masked;
    if (masked) {
        v->since = at;
        v->since_ns = perfctr_hook_virtual_ns ?
                      perfctr_hook_virtual_ns(at) : -1;
        v->since_pc = pc;
        return;
    }
    g_mutex_lock(&lock);
    stretches++;
    total += at - v->since;
    if (at - v->since > longest) {
        longest = at - v->since;
        longest_ns = perfctr_hook_virtual_ns && v->since_ns >= 0 ?
                     perfctr_hook_virtual_ns(at) - v->since_ns : 0;
        longest_pc = v->since_pc;
    }
    g_mutex_unlock(&lock);
}

static void changed(unsigned index, void *udata)
{
    const MaskInsn *m = udata;
    MaskVcpu *v = mask_vcpu(index);
    uint64_t value;
    bool masked = v->masked;

    if (config->isa != ISA_THUMB && ops->in_handler(index)) {
        return;
    }
    switch (m->op) {
    case MASK_SET:
        v->primask = true;
        break;
    case MASK_CLEAR:
        v->primask = false;
        break;
    case MASK_PRIMASK_REG:
        v->primask = read_reg(v, m->reg) & 1;
        break;
    case MASK_FAULTMASK_SET:
        v->faultmask = true;
        break;
    case MASK_FAULTMASK_CLEAR:
        v->faultmask = false;
        break;
    case MASK_FAULTMASK_REG:
        v->faultmask = read_reg(v, m->reg) & 1;
        break;
    case MASK_BASEPRI_REG:
        v->basepri = read_reg(v, m->reg) & 0xff;
        break;
    case MASK_BASEPRI_MAX_REG:
        value = read_reg(v, m->reg) & 0xff;
        if (value && (!v->basepri || value < v->basepri)) {
            v->basepri = value;
        }
        break;
    case MASK_BIT_REG:
        v->primask = (config->isa == ISA_RISCV) !=
                     !!(read_reg(v, m->reg) >> m->bit & 1);
        break;
    case MASK_BIT_SET_REG:
        if (read_reg(v, m->reg) >> m->bit & 1) {
            v->primask = false;             /* MIE set: unmasked */
        }
        break;
    case MASK_BIT_CLEAR_REG:
        if (read_reg(v, m->reg) >> m->bit & 1) {
            v->primask = true;
        }
        break;
    case MASK_NONE:
        return;
    }
    masked = v->primask || v->faultmask || v->basepri;
    now_masked(index, v, masked, m->pc);
}

void mask_init(const PerfctrConfig *cfg, const MaskOps *mask_ops)
{
    config = cfg;
    ops = mask_ops;
    vcpus = g_ptr_array_new();
}

void mask_vcpu_init(unsigned index)
{
    g_autoptr(GArray) all = qemu_plugin_get_registers();
    unsigned i, r;

    for (i = 0; i < all->len; i++) {
        qemu_plugin_reg_descriptor *d =
            &g_array_index(all, qemu_plugin_reg_descriptor, i);

        for (r = 0; r < G_N_ELEMENTS(regs); r++) {
            g_autofree char *arm = g_strdup_printf(
                config->isa == ISA_A64 ? "x%u" : "r%u", r);
            g_autofree char *x = g_strdup_printf("x%u", r);

            if (config->isa == ISA_RISCV ?
                g_str_equal(d->name, isa_riscv_register_names[r]) ||
                g_str_equal(d->name, x) :
                g_str_equal(d->name, arm)) {
                regs[r] = d->handle;
            }
        }
    }
    g_mutex_lock(&lock);
    while (vcpus->len <= index) {
        MaskVcpu *v = g_new0(MaskVcpu, 1);

        v->buf = g_byte_array_new();
        g_ptr_array_add(vcpus, v);
    }
    g_mutex_unlock(&lock);
}

void mask_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i;

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint8_t bytes[4] = { 0 };
        size_t got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
        MaskInsn m = { .pc = qemu_plugin_insn_vaddr(insn) };

        switch (config->isa) {
        case ISA_THUMB:
            m.op = got >= 2 ? decode_thumb(bytes, got, &m) : MASK_NONE;
            break;
        case ISA_A32:
            m.op = decode_a32(bytes, got, &m);
            break;
        case ISA_A64:
            m.op = decode_a64(bytes, got, &m);
            break;
        case ISA_RISCV:
            m.op = decode_riscv(bytes, got, &m);
            break;
        }
        if (m.op != MASK_NONE) {
            if (ops->reads_time_before) {
                ops->reads_time_before(tb, i);
            }
            /* (kept for the callback: translations are rare) */
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, changed, QEMU_PLUGIN_CB_R_REGS,
                g_memdup2(&m, sizeof(m)));
        }
    }
}

void mask_write(FILE *out)
{
    g_mutex_lock(&lock);
    fprintf(out, "masked %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
            " 0x%" PRIx64 "\n", stretches, total, longest, longest_ns,
            longest_pc);
    g_mutex_unlock(&lock);
}
