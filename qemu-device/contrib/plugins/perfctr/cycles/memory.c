/*
 * perfctr plugin: the memory system of the timing models: code and
 * read-only data in flash that a part reads a line at a time, with wait
 * states, a prefetch buffer and (STM32F4's ART) a cache of lines.
 *
 * A block's schedule (the core's model) is stretched where the flash
 * cannot deliver its instructions in time: each line is read in 1 + W
 * cycles; with a prefetch buffer, the next line is read while this one
 * runs; without one, a line is read when the first instruction in it
 * is reached.  A block is taken to start with its
 * first line read: a taken branch pays the read in its refill
 * (m3.c).  With a cache, the lines of a block are looked up in
 * it each time the block runs (a callback): the stall the schedule
 * charged a line that hits is given back, and the refill's wait states
 * are charged there instead, when the first line misses and is not the
 * one after the last line read (which the prefetch buffer holds).  Loads
 * from flash take W more cycles (none that hit the data cache), found
 * by their address as they run (a callback per load, only with wait
 * states).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "cycles/memory.h"
#include "cycles/slots.h"

#define STM32F4_SRAM2 { 0x2001c000, 0x20020000 }

/* Published by the parts' reference manuals (docs/cycles.md) */
static const FlashPart parts[] = {
    /* RM0008 3.3.3: 64-bit reads, two 64-bit prefetch buffers */
    { "stm32f103-24mhz", "STM32F103 at 24 MHz", 0, 8, true, 0, 0, 0 },
    { "stm32f103-72mhz", "STM32F103 at 72 MHz", 2, 8, true, 0, 0, 0 },
    /*
     * RM0090 3.4-3.5: 128-bit reads, a prefetch buffer, the ART's
     * instruction cache of 64 lines and data cache of 8 (3.3 V: 0 wait
     * states to 30 MHz, 5 at 168 MHz), all three off after reset; 2.3:
     * SRAM2, 16 KB at 0x2001c000, is on a bus matrix port of its own
     */
    { "stm32f407-16mhz", "STM32F407 at 16 MHz, ART off (as after reset)",
      0, 16, false, 0, 0, 0, STM32F4_SRAM2 },
    { "stm32f407-24mhz", "STM32F407 at 24 MHz, ART on", 0, 16, true, 64, 8,
      0, STM32F4_SRAM2 },
    { "stm32f407-168mhz", "STM32F407 at 168 MHz, ART on", 5, 16, true, 64,
      8, 0, STM32F4_SRAM2 },
    /*
     * SAM3X datasheet, 18.4.2: 128-bit reads (64-bit with FAM set) and
     * sequential prefetch; FWS 4 at 84 MHz.  Its SRAM: a load that does
     * not follow a load waits a cycle (fitted: the same code is slower
     * on an Arduino Due than on an STM32F407 by as many cycles as it
     * has such loads, docs/cycles.md)
     */
    { "sam3x8e-12mhz", "SAM3X8E at 12 MHz, FAM set (64-bit reads)", 0, 8,
      true, 0, 0, 1 },
    { "sam3x8e-84mhz", "SAM3X8E at 84 MHz", 4, 16, true, 0, 0, 1 },
};

/*
 * Without a part: code and data in SRAM, or the wait-states= a user
 * gives, added to each refill only (no line is modelled)
 */
static const FlashPart no_flash = { "sram", "no flash modelled", 0, 0, false,
                                    0, 0, 0 };

/* The part modelled (memory= or no_flash; wait-states= overrides its) */
static FlashPart part;
static const AddressRange *flash;       /* where its flash is (flash=) */

/* A vCPU's caches: the lines held, most recently used first */
typedef struct LineCache {
    uint64_t *lines;
    unsigned n, size;
    uint64_t last_read;     /* the instruction line read last */
} LineCache;

static GPtrArray *icaches, *dcaches;
/* Each vCPU's memory block of its last load (block_of), 0: none yet */
static GByteArray *last_blocks;

const FlashPart *memory_part_named(const char *name)
{
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(parts); i++) {
        if (g_str_equal(name, parts[i].name)) {
            return &parts[i];
        }
    }
    return NULL;
}

const char *memory_part_names(void)
{
    static GString *names;
    unsigned i;

    if (!names) {
        names = g_string_new("");
        for (i = 0; i < G_N_ELEMENTS(parts); i++) {
            g_string_append_printf(names, "%s%s", i ? ", " : "",
                                   parts[i].name);
        }
    }
    return names->str;
}

const FlashPart *memory_part(void)
{
    return &part;
}

unsigned memory_refill_wait_states(void)
{
    return part.icache_lines ? 0 : part.wait_states;   /* see above */
}

static bool in_flash(uint64_t addr)
{
    return part.line && part.wait_states && addr >= flash->start &&
           addr < flash->end;
}

/* The Armv7-M SRAM region */
static bool in_sram(uint64_t addr)
{
    return addr >= 0x20000000 && addr < 0x40000000;
}

/* Lines of a block and the stall the schedule charged each */
typedef struct BlockLines {
    unsigned n;
    int window;
    uint64_t line[];    /* then n stalls */
} BlockLines;

static uint64_t *stalls_of(BlockLines *b)
{
    return &b->line[b->n];
}

/* A vCPU's cache, made when it was created (memory_vcpu_init) */
static LineCache *cache_of(GPtrArray *caches, unsigned vcpu)
{
    return g_ptr_array_index(caches, vcpu);
}

static void add_caches(GPtrArray *caches, unsigned vcpu, unsigned size)
{
    while (caches->len <= vcpu) {
        LineCache *c = g_new0(LineCache, 1);

        c->size = size;
        c->lines = g_new0(uint64_t, size);
        g_ptr_array_add(caches, c);
    }
}

void memory_vcpu_init(unsigned vcpu)
{
    static GMutex lock;

    g_mutex_lock(&lock);
    add_caches(icaches, vcpu, part.icache_lines);
    add_caches(dcaches, vcpu, part.dcache_lines);
    if (last_blocks->len <= vcpu) {
        g_byte_array_set_size(last_blocks, vcpu + 1);
    }
    g_mutex_unlock(&lock);
}

/*
 * The memory blocks accesses pipeline within (jnk0le: "load pipelining
 * happens only when targeting the same memory block by all loads"):
 * the flash, SRAM, the part's second SRAM, and the rest
 */
static uint8_t block_of(uint64_t addr)
{
    return addr >= flash->start && addr < flash->end ? 1 :
           addr >= part.sram2.start && addr < part.sram2.end ? 4 :
           in_sram(addr) ? 2 : 3;
}

/* Look line up, and make it the most recently used: true on a hit */
static bool cache_touch(LineCache *c, uint64_t line)
{
    unsigned i;
    bool hit = false;

    for (i = 0; i < c->n; i++) {
        if (c->lines[i] == line) {
            hit = true;
            break;
        }
    }
    if (!hit) {
        i = c->n < c->size ? c->n++ : c->size - 1;     /* the oldest goes */
    }
    memmove(&c->lines[1], &c->lines[0], i * sizeof(uint64_t));
    c->lines[0] = line;
    return hit;
}

static void block_lines_cb(unsigned vcpu, void *udata)
{
    BlockLines *b = udata;
    LineCache *c = cache_of(icaches, vcpu);
    int64_t back = 0;
    unsigned i;

    for (i = 0; i < b->n; i++) {
        bool hit = cache_touch(c, b->line[i]);

        if (i == 0 && !hit && b->line[0] != c->last_read &&
            b->line[0] != c->last_read + part.line) {
            back -= part.wait_states;           /* a refill */
        } else if (hit) {
            back += stalls_of(b)[i];
        }
    }
    c->last_read = b->line[b->n - 1];
    if (back) {
        cycles_add(vcpu, cycles_slots_of(vcpu), -back, b->window);
    }
}

/*
 * udata: the window (or -1) times 8, plus 1 for a first load, 2 for an
 * access pipelined behind a load, 4 for a load one is pipelined behind
 */
static void access_cb(unsigned vcpu, qemu_plugin_meminfo_t info,
                      uint64_t vaddr, void *udata)
{
    intptr_t packed = (intptr_t)udata;
    int window = packed >> 3;

    if (packed & 6) {
        uint8_t block = block_of(vaddr), *last = &last_blocks->data[vcpu];

        if ((packed & 2) && *last != block) {
            /* Not pipelined after all: a cycle more */
            cycles_add(vcpu, cycles_slots_of(vcpu), 1, window);
        }
        if (qemu_plugin_mem_is_store(info)) {
            return;
        }
        *last = block;
    }
    if (in_sram(vaddr) && (packed & 1)) {
        cycles_add(vcpu, cycles_slots_of(vcpu), part.sram_first_load,
                   window);
        return;
    }
    if (!in_flash(vaddr)) {
        return;
    }
    if (part.dcache_lines &&
        cache_touch(cache_of(dcaches, vcpu),
                    vaddr & ~(uint64_t)(part.line - 1))) {
        return;
    }
    cycles_add(vcpu, cycles_slots_of(vcpu), part.wait_states, window);
}

void memory_schedule(struct qemu_plugin_tb *tb, const CyclesInsn *insns,
                     size_t n, unsigned *cost, int window)
{
    uint64_t mask = ~(uint64_t)(part.line - 1), read = 1 + part.wait_states;
    /* When the core reaches an instruction, and when lines are there */
    uint64_t now = 0, ready = 0, reached = 0;
    uint64_t line = insns[0].pc & mask;
    g_autoptr(GArray) lines = g_array_new(false, false, sizeof(uint64_t));
    g_autoptr(GArray) stalls = g_array_new(false, false, sizeof(uint64_t));
    uint64_t zero = 0;
    size_t i;

    if (!part.wait_states || !in_flash(insns[0].pc)) {
        return;
    }
    g_array_append_val(lines, line);
    g_array_append_val(stalls, zero);
    for (i = 0; i < n; i++) {
        uint64_t last = (insns[i].pc + insns[i].len - 1) & mask;
        unsigned own = cost[i];

        while (line != last) {
            /*
             * With a prefetch buffer, a line is read once the one before
             * is read and reached (its buffer then holds it; the other
             * is free)
             */
            uint64_t start = part.prefetch ? MAX(ready, reached) : now;
            uint64_t stall;

            line += part.line;
            ready = start + read;
            stall = ready > now ? ready - now : 0;
            cost[i] += stall;
            now += stall;
            reached = now;
            g_array_append_val(lines, line);
            g_array_append_val(stalls, stall);
        }
        now += own;
    }
    if (part.icache_lines) {
        BlockLines *b = g_malloc(sizeof(BlockLines) +
                                 2 * lines->len * sizeof(uint64_t));

        b->n = lines->len;
        b->window = window;
        memcpy(b->line, lines->data, lines->len * sizeof(uint64_t));
        memcpy(stalls_of(b), stalls->data, lines->len * sizeof(uint64_t));
        qemu_plugin_register_vcpu_tb_exec_cb(tb, block_lines_cb,
                                             QEMU_PLUGIN_CB_NO_REGS, b);
    }
}

void memory_instrument_access(struct qemu_plugin_insn *insn, int window,
                              bool first, bool behind, bool ahead)
{
    /* (a load of several words calls back for each: W each) */
    if ((part.line && (part.wait_states || behind || ahead)) ||
        (part.sram_first_load && first)) {
        qemu_plugin_register_vcpu_mem_cb(insn, access_cb,
                                         QEMU_PLUGIN_CB_NO_REGS,
                                         QEMU_PLUGIN_MEM_RW,
                                         (void *)(intptr_t)(window * 8 +
                                                            first +
                                                            2 * behind +
                                                            4 * ahead));
    }
}

bool memory_adds_while_running(void)
{
    return part.line || part.wait_states || part.sram_first_load;
}

void memory_init(const PerfctrConfig *config)
{
    part = config->flash_part ? *config->flash_part : no_flash;
    if (config->wait_states >= 0) {
        part.wait_states = config->wait_states;
    }
    flash = &config->flash;
    icaches = g_ptr_array_new();
    dcaches = g_ptr_array_new();
    last_blocks = g_byte_array_new();
}
