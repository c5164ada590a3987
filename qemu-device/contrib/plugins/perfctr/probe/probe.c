/*
 * perfctr plugin: probes on functions (probe=START-END)
 *
 * At a probed function's first instruction the plugin records its first
 * two arguments, and where it returns to (the link register); when a
 * block begins there (an inline comparison with the return address
 * awaited, at the entry of each block whose previous instruction calls:
 * only those are returned to), the value it returns (the argument
 * registers of the ABI: r0, r1 on Arm, x0, x1 on AArch64, a0, a1 on
 * RISC-V), with the instructions executed so far, the virtual time and
 * the task or handler that runs: the host pairs them into calls (an
 * allocator's requests and the blocks it gave, for the heap analysis).
 * A function that leaves by a tail call returns when its callee does,
 * with its value.  Calls are awaited per task and handler (the contexts
 * say when another runs): a task that blocks in a probed function (a
 * queue receive) returns from it after others have made calls of their
 * own.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/registers.h"
#include "perfctr-hook.h"
#include "probe/probe.h"
#include "records/records.h"
#include "records/stream.h"

/* Records kept; those after are counted as dropped */
#define MAX_PROBE_RECORDS (1u << 20)

typedef struct ProbeRecord {
    uint64_t instructions;
    int64_t ns;
    uint64_t value[2];          /* the arguments, or the returned value */
    uint32_t probe;             /* its index in config->probes */
    uint32_t context;
    bool is_return;
} ProbeRecord;

/* A probed call not returned from yet */
typedef struct Pending {
    uint32_t probe;
    uint64_t return_pc;
} Pending;

/* Per vCPU */
typedef struct ProbeVcpu {
    GByteArray *buf;            /* a register's bytes */
    GArray *pending;            /* its context's Pending, innermost last */
} ProbeVcpu;

static const PerfctrConfig *config;
static const ProbeOps *ops;
static Records records;
static uint64_t dropped;
static GMutex lock;
/* The ABI's first two argument registers and the link */
enum { ARG0, ARG1, LINK, N_REGS };
static struct qemu_plugin_register *regs[N_REGS];
static int reg_number[N_REGS];      /* as general registers */
static GPtrArray *vcpus;
static GHashTable *by_context;  /* context id -> its pending calls */
/* Per vCPU, in the translated code: the return address awaited */
static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 awaited;

#pragma weak perfctr_hook_virtual_ns

static ProbeVcpu *probe_vcpu(unsigned index)
{
    return g_ptr_array_index(vcpus, index);
}

static uint64_t read_reg(unsigned vcpu_index, unsigned which)
{
    return registers_read(regs[which], reg_number[which],
                          probe_vcpu(vcpu_index)->buf);
}

static void record(unsigned vcpu_index, uint32_t probe, bool is_return)
{
    ProbeRecord r = {
        .probe = probe,
        .is_return = is_return,
        .instructions = ops->executed(vcpu_index),
        .context = ops->context(vcpu_index),
        .value = { read_reg(vcpu_index, ARG0),
                   is_return ? 0 : read_reg(vcpu_index, ARG1) },
    };
    bool kept;

    r.ns = perfctr_hook_virtual_ns ?
           perfctr_hook_virtual_ns(r.instructions) : -1;
    config_lock(config, &lock);
    kept = records_made(&records) < MAX_PROBE_RECORDS;
    if (kept) {
        g_array_append_val(records.kept, r);
    } else {
        dropped++;
    }
    config_unlock(config, &lock);
    if (kept) {
        stream_recorded(r.instructions);
    }
}

static void await_next(unsigned vcpu_index)
{
    GArray *pending = probe_vcpu(vcpu_index)->pending;

    qemu_plugin_u64_set(awaited, vcpu_index, pending->len ?
                        g_array_index(pending, Pending,
                                      pending->len - 1).return_pc : NO_PC);
}

static void entered(unsigned vcpu_index, void *udata)
{
    /* A Thumb return address has the state in its bit 0 */
    Pending p = {
        .probe = (uintptr_t)udata,
        .return_pc = read_reg(vcpu_index, LINK) & ~(uint64_t)1,
    };

    record(vcpu_index, p.probe, false);
    g_array_append_val(probe_vcpu(vcpu_index)->pending, p);
    await_next(vcpu_index);
}

/*
 * A block began where the innermost probed call returns to: it and the
 * calls that tail-called into it (calloc's b malloc), which return to
 * the same address with the same value, innermost first
 */
static void returned(unsigned vcpu_index, void *udata)
{
    GArray *pending = probe_vcpu(vcpu_index)->pending;
    uint64_t pc = g_array_index(pending, Pending,
                                pending->len - 1).return_pc;

    while (pending->len &&
           g_array_index(pending, Pending, pending->len - 1).return_pc ==
           pc) {
        record(vcpu_index, g_array_index(pending, Pending,
                                         pending->len - 1).probe, true);
        g_array_set_size(pending, pending->len - 1);
    }
    await_next(vcpu_index);
}

void probe_init(const PerfctrConfig *cfg, const ProbeOps *probe_ops)
{
    config = cfg;
    ops = probe_ops;
    records_init(&records, sizeof(ProbeRecord));
    vcpus = g_ptr_array_new();
    by_context = g_hash_table_new(NULL, NULL);
    board = qemu_plugin_scoreboard_new(sizeof(uint64_t));
    awaited = (qemu_plugin_u64) { board, 0 };
}

void probe_vcpu_init(unsigned index)
{
    /* By GDB's names, and their numbers as general registers */
    static const struct {
        const char *names[N_REGS];
        int numbers[N_REGS];
    } abis[] = {
        { { "r0", "r1", "lr" }, { 0, 1, 14 } },
        { { "x0", "x1", "x30" }, { 0, 1, 30 } },
        { { "a0", "a1", "ra" }, { 10, 11, 1 } },
        { { "x10", "x11", "x1" }, { 10, 11, 1 } },
    };
    ProbeVcpu *v;

    if (!regs[ARG0]) {
        g_autoptr(GArray) all = qemu_plugin_get_registers();
        unsigned k, i, r;

        for (k = 0; k < G_N_ELEMENTS(abis) && !regs[ARG0]; k++) {
            for (r = 0; r < N_REGS; r++) {
                reg_number[r] = abis[k].numbers[r];
                for (i = 0; i < all->len; i++) {
                    qemu_plugin_reg_descriptor *d =
                        &g_array_index(all, qemu_plugin_reg_descriptor, i);

                    if (g_str_equal(d->name, abis[k].names[r])) {
                        regs[r] = d->handle;
                    }
                }
            }
            if (!regs[ARG0] || !regs[LINK]) {
                regs[ARG0] = regs[ARG1] = regs[LINK] = NULL;
            }
        }
    }
    g_mutex_lock(&lock);
    while (vcpus->len <= index) {
        v = g_new0(ProbeVcpu, 1);
        v->buf = g_byte_array_new();
        v->pending = g_array_new(false, false, sizeof(Pending));
        g_ptr_array_add(vcpus, v);
    }
    g_mutex_unlock(&lock);
    qemu_plugin_u64_set(awaited, index, NO_PC);
}

void probe_context_switched(unsigned vcpu_index, unsigned context)
{
    ProbeVcpu *v = probe_vcpu(vcpu_index);
    GArray *pending;

    config_lock(config, &lock);
    pending = g_hash_table_lookup(by_context, GUINT_TO_POINTER(context));
    if (!pending) {
        pending = g_array_new(false, false, sizeof(Pending));
        g_hash_table_insert(by_context, GUINT_TO_POINTER(context), pending);
    }
    config_unlock(config, &lock);
    v->pending = pending;
    await_next(vcpu_index);
}

/*
 * Whether pc may be where a call returns: the instruction before it
 * calls, or jumps through a register (Arm state's MOV lr, pc; BX Rm).
 * Only such blocks compare their pc with the return address awaited.
 */
static bool after_call(uint64_t pc)
{
    static const size_t sizes[] = { 2, 4 };
    g_autoptr(GByteArray) bytes = g_byte_array_new();
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(sizes); i++) {
        size_t len = sizes[i];
        InsnClass c;

        g_byte_array_set_size(bytes, 0);
        if (pc >= len &&
            qemu_plugin_read_memory_vaddr(pc - len, bytes, len) &&
            isa_insn_size(config->isa, bytes->data, len) == len &&
            isa_classify(config->isa, bytes->data, len, pc - len, &c) &&
            (c.kind == INSN_CALL ||
             (c.kind == INSN_BRANCH && !c.direct))) {
            return true;
        }
    }
    return false;
}

void probe_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i;

    if (after_call(qemu_plugin_tb_vaddr(tb))) {
        /* Returned to, before the entry of a probe that may begin here */
        qemu_plugin_register_vcpu_tb_exec_cond_cb(
            tb, returned, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_COND_EQ,
            awaited, qemu_plugin_tb_vaddr(tb), NULL);
    }
    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        unsigned p = address_range_find(config->probes, config->n_probes,
                                        pc);

        if (p < config->n_probes && pc == config->probes[p].start) {
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, entered, QEMU_PLUGIN_CB_R_REGS, (void *)(uintptr_t)p);
        }
    }
}

/* The records kept, as a block; the lock held */
static void write_records(FILE *out)
{
    guint i;

    records_begin(out, "probe", records.kept->len, "QQQqQQQ");
    for (i = 0; i < records.kept->len; i++) {
        ProbeRecord *r = &g_array_index(records.kept, ProbeRecord, i);
        uint64_t fields[] = { r->is_return, config->probes[r->probe].start,
                              r->instructions, r->ns, r->context,
                              r->value[0], r->is_return ? 0 : r->value[1] };

        records_put(out, fields, G_N_ELEMENTS(fields));
    }
    records_end(out);
}

void probe_write(FILE *out)
{
    g_mutex_lock(&lock);
    records_write(out, "probe", &records, write_records);
    fprintf(out, "probes-dropped %" PRIu64 "\n", dropped);
    g_mutex_unlock(&lock);
}

static void stream_write(FILE *out)
{
    records_stream(out, &lock, &records, write_records);
}

static void stream_written(void)
{
    records_streamed(&lock, &records);
}

const StreamWriter probe_stream = { stream_write, stream_written };
