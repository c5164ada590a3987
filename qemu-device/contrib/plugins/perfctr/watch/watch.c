/*
 * perfctr plugin: stores watched (watch=START-END, watch-value=START-END)
 *
 * The stores that code in the watch= ranges makes of a value in the
 * watch-value= ranges are recorded: where, what, with the instructions
 * executed so far, the virtual time and the task or handler that made
 * them.  An RTOS's kernel (its tasks.c and list.c) storing the address
 * of one of its state lists in a task's list item is how the host sees
 * a task made ready, delayed or suspended (results/instances.py): only
 * the kernel's stores are instrumented, and of them not those to the
 * stack (an address made of the stack pointer alone: a push, a spill),
 * so the rest of the firmware, and an idle loop in the kernel's code,
 * run as fast as without.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <inttypes.h>

#include "isa/isa.h"
#include "perfctr-hook.h"
#include "watch/watch.h"
#include "records/records.h"
#include "records/stream.h"

/* Records kept; those after are counted as dropped */
#define MAX_WATCH_RECORDS (1u << 20)

typedef struct WatchRecord {
    uint64_t instructions;
    uint64_t cycles;            /* the timing model's, or 0 */
    int64_t ns;
    uint64_t address;
    uint64_t value;
    uint32_t context;
} WatchRecord;

static const PerfctrConfig *config;
static const WatchOps *ops;
static Records records;
static uint64_t dropped;
static GMutex lock;

#pragma weak perfctr_hook_virtual_ns

static void stored(unsigned vcpu_index, qemu_plugin_meminfo_t info,
                   uint64_t vaddr, void *udata)
{
    qemu_plugin_mem_value v = qemu_plugin_mem_get_value(info);
    WatchRecord r = { .address = vaddr };
    bool kept;

    switch (v.type) {
    case QEMU_PLUGIN_MEM_VALUE_U32:
        r.value = v.data.u32;
        break;
    case QEMU_PLUGIN_MEM_VALUE_U64:
        r.value = v.data.u64;
        break;
    default:
        return;                 /* not a pointer's width */
    }
    if (address_range_find(config->watch_values, config->n_watch_values,
                           r.value) >= config->n_watch_values) {
        return;
    }
    r.instructions = ops->executed(vcpu_index);
    r.ns = perfctr_hook_virtual_ns ?
           perfctr_hook_virtual_ns(r.instructions) : -1;
    r.context = ops->context(vcpu_index);
    r.cycles = ops->cycles ? ops->cycles(vcpu_index) : 0;
    g_mutex_lock(&lock);
    kept = records_made(&records) < MAX_WATCH_RECORDS;
    if (kept) {
        g_array_append_val(records.kept, r);
    } else {
        dropped++;
    }
    g_mutex_unlock(&lock);
    if (kept) {
        stream_recorded(r.instructions);
    }
}

void watch_init(const PerfctrConfig *cfg, const WatchOps *watch_ops)
{
    config = cfg;
    ops = watch_ops;
    records_init(&records, sizeof(WatchRecord));
}

/* A store, but not to the stack: an address of the stack pointer alone */
static bool watched(const uint8_t *bytes, size_t len, uint64_t pc)
{
    InsnClass c;
    InsnTiming t;

    isa_classify(config->isa, bytes, len, pc, &c);
    if (!c.store) {
        return false;
    }
    isa_timing(config->isa, bytes, len, &t);
    return t.address != isa_sp_mask(config->isa);
}

void watch_instrument(struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb), i;

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        uint8_t bytes[4];
        size_t got;

        if (address_range_find(config->watch_code, config->n_watch_code,
                               pc) >= config->n_watch_code) {
            continue;
        }
        got = qemu_plugin_insn_data(insn, bytes, sizeof(bytes));
        if (watched(bytes, got, pc)) {
            qemu_plugin_register_vcpu_mem_cb(insn, stored,
                                             QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_W, NULL);
        }
    }
}

/* The records kept, as a block; the lock held */
static void write_records(FILE *out)
{
    guint i;

    records_begin(out, "store", records.kept->len,
                  ops->cycles ? "QqQQQQ" : "QqQQQ");
    for (i = 0; i < records.kept->len; i++) {
        WatchRecord *r = &g_array_index(records.kept, WatchRecord, i);
        uint64_t fields[] = { r->instructions, r->ns, r->context,
                              r->address, r->value, r->cycles };

        records_put(out, fields, ops->cycles ? 6 : 5);
    }
    records_end(out);
}

void watch_write(FILE *out)
{
    g_mutex_lock(&lock);
    records_write(out, "store", &records, write_records);
    fprintf(out, "stores-dropped %" PRIu64 "\n", dropped);
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

const StreamWriter watch_stream = { stream_write, stream_written };
