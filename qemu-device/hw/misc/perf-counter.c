/*
 * Performance counter core
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * This is a model of the Altera/Intel "performance counter core" for
 * Nios II systems (Embedded Peripherals IP User Guide, chapter
 * "Performance Counter Core"), with its behaviour taken from the
 * vendor's generated RTL and HAL driver where the manual is vague.
 *
 * Counter 0 is the global counter, counters 1..num-sections are the
 * sections.  Each has a 64-bit time counter and a 32-bit event counter,
 * at word offsets 4i+0 (time lo), 4i+1 (time hi) and 4i+2 (events).
 * Writes are commands: to word 0, RESET (data bit 0 set) or STOP;
 * word 1, START; word 4i+1, BEGIN section i; word 4i, END section i.
 * A section counts while it is begun and the global counter runs.
 *
 * Time is counted from QEMU_CLOCK_VIRTUAL at the "clock-frequency"
 * rate.  Each counter keeps the virtual nanoseconds it has counted and
 * converts to ticks on read, so no rounding error accumulates.  Under
 * -icount shift=N with a clock period of 2^N ns, one tick is exactly
 * one retired guest instruction.  With clock=cycles a tick is one
 * estimated cycle of the perfctr plugin's timing model instead, read
 * through the hook (the guest's other timers stay in virtual time).
 *
 * Above the original map, an extension block (version 2) identifies
 * the core and its configuration, latches every counter at one instant
 * on a single SNAPSHOT write (running 64-bit counters read without
 * tearing or stopping them), and gives each counter an event count:
 * retired instructions under -icount by default, or an event the
 * perfctr plugin or QEMU counts through the hook (accel/tcg/perfctr-hook.h),
 * with a threshold and an overflow flag that raise the interrupt line
 * between the instruction that reached them and the next one.  See
 * docs/register-map.md in the perf-counter project.
 *
 * The host readout (QOM properties "report" and "timeline", and
 * "report-file") is in perf-counter-readout.c; the placement on a
 * board's bus (perf_counter_map) in perf-counter-map.c.
 *
 * Not modelled: the RTL gives sections that are already begun one
 * extra cycle on the clock edge where START is written.  That is an
 * artefact of the clocked design; here every counter starts and stops
 * at the instant of the access.  The original part allows 1 to 7
 * sections; this model allows up to PERF_COUNTER_MAX_SECTIONS.
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qemu/host-utils.h"
#include "qapi/error.h"
#include "hw/core/cpu.h"
#include "hw/irq.h"
#include "hw/misc/perf-counter.h"
#include "perf-counter-internal.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "hw/resettable.h"
#include "migration/vmstate.h"
#include "system/cpu-timers.h"
#include "system/system.h"
#include "trace.h"

/* Registers of counter i are at PERF_COUNTER_STRIDE * i + offset */
#define PERF_COUNTER_STRIDE 0x10
REG32(TIME_LO, 0x0)
    /* Counter 0 only: write 1 to RESET, 0 to STOP */
    FIELD(TIME_LO, RESET, 0, 1)
REG32(TIME_HI, 0x4)
REG32(EVENTS, 0x8)
REG32(RESERVED, 0xc)

/* Event select and threshold of counter i: PERF_COUNTER_SELECT_BASE + 16i */
#define PERF_COUNTER_SELECT_BASE 0x400
REG32(EVSEL, 0x0)
REG32(CTRL, 0x4)        /* fields: perf-counter-internal.h */
REG32(THRESH_LO, 0x8)
REG32(THRESH_HI, 0xc)
#define PERF_COUNTER_CTRL_MASK 0x7

/* Extension block */
#define PERF_COUNTER_EXT_BASE 0x800
REG32(MAGIC, 0x800)
REG32(VERSION, 0x804)
REG32(NUM_SECTIONS, 0x808)
REG32(FREQ_HZ, 0x80c)
REG32(STATUS, 0x810)
    FIELD(STATUS, ENABLED, 0, 1)
    FIELD(STATUS, ICOUNT, 1, 1)
    FIELD(STATUS, IRQ, 2, 1)
REG32(RUNNING_LO, 0x814)
REG32(RUNNING_HI, 0x818)
REG32(SNAPSHOT, 0x81c)
REG32(PENDING_LO, 0x820)
REG32(PENDING_HI, 0x824)
REG32(EVENTS_AVAILABLE, 0x828)
#define PERF_COUNTER_EXT_END 0x82c

/* Interrupt flags of counter i: PERF_COUNTER_FLAGS_BASE + 4i, W1C */
#define PERF_COUNTER_FLAGS_BASE 0x900
REG32(FLAGS, 0x0)       /* fields: perf-counter-internal.h */
#define PERF_COUNTER_FLAGS_MASK 0x3

/* Latched by SNAPSHOT: counter i at PERF_COUNTER_SNAP_BASE + 0x10 * i */
#define PERF_COUNTER_SNAP_BASE 0xa00
REG32(SNAP_TIME_LO, 0x0)
REG32(SNAP_TIME_HI, 0x4)
REG32(SNAP_EVENTS_LO, 0x8)
REG32(SNAP_EVENTS_HI, 0xc)

/* Live event counts, presettable: counter i at PERF_COUNTER_EVCNT_BASE + 8i */
#define PERF_COUNTER_EVCNT_BASE 0xe00
#define PERF_COUNTER_EVCNT_STRIDE 0x8

#define PERF_COUNTER_MAGIC 0x544e4350   /* "PCNT" */
#define PERF_COUNTER_MAX_FREQ_HZ 1000000000u

/* Event selects, thresholds and flags as after reset */
static void perf_counter_clear_selects(PerfCounterState *s)
{
    unsigned i;

    memset(s->ctrl, 0, sizeof(s->ctrl));
    memset(s->thresh, 0, sizeof(s->thresh));
    memset(s->flags, 0, sizeof(s->flags));
    memset(s->wraps, 0, sizeof(s->wraps));
    for (i = 0; i < PERF_COUNTER_MAX_COUNTERS; i++) {
        s->evsel[i] = PERFCTR_EVENT_INSTRUCTIONS;
    }
    perf_counter_events_counted_update(s);
}

static void perf_counter_clear(PerfCounterState *s)
{
    s->enabled = false;
    s->section_running = 0;
    memset(s->counted_time, 0, sizeof(s->counted_time));
    memset(s->counted_events, 0, sizeof(s->counted_events));
    memset(s->events, 0, sizeof(s->events));
    memset(s->snap_ticks, 0, sizeof(s->snap_ticks));
    memset(s->snap_events, 0, sizeof(s->snap_events));
    perf_counter_clear_selects(s);
}

/* At @now, to which the counters were just synced */
static void perf_counter_snapshot(PerfCounterState *s,
                                  const PerfCounterNow *now)
{
    unsigned i;

    for (i = 0; i <= s->num_sections; i++) {
        s->snap_ticks[i] = perf_counter_ticks(s, i, now);
        s->snap_events[i] = perf_counter_event_count(s, i, now);
    }
    trace_perf_counter_snapshot(now->ns);
}

static void perf_counter_log_unused(const char *access, hwaddr offset)
{
    qemu_log_mask(LOG_GUEST_ERROR,
                  "perf-counter: %s of unused offset 0x%" HWADDR_PRIx "\n",
                  access, offset);
}

/* Original map: counter @counter's word at @reg */
static uint64_t perf_counter_read_counter(PerfCounterState *s,
                                          unsigned counter, hwaddr reg,
                                          hwaddr offset)
{
    PerfCounterNow now;

    switch (reg) {
    case A_TIME_LO:
    case A_TIME_HI:
        now = perf_counter_now(s);
        return extract64(perf_counter_ticks(s, counter, &now),
                         reg == A_TIME_HI ? 32 : 0, 32);
    case A_EVENTS:
        return s->events[counter];
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: read of reserved word at offset 0x%"
                      HWADDR_PRIx "\n", offset);
        return 0;
    }
}

static uint64_t perf_counter_read_select(PerfCounterState *s,
                                         unsigned counter, hwaddr reg)
{
    switch (reg) {
    case A_EVSEL:
        return s->evsel[counter];
    case A_CTRL:
        return s->ctrl[counter];
    case A_THRESH_LO:
        return extract64(s->thresh[counter], 0, 32);
    default:
        return extract64(s->thresh[counter], 32, 32);
    }
}

static uint64_t perf_counter_read_ext(PerfCounterState *s, hwaddr offset)
{
    switch (offset) {
    case A_MAGIC:
        return PERF_COUNTER_MAGIC;
    case A_VERSION:
        return PERF_COUNTER_VERSION;
    case A_NUM_SECTIONS:
        return s->num_sections;
    case A_FREQ_HZ:
        return s->freq_hz;
    case A_STATUS:
        return (s->enabled ? R_STATUS_ENABLED_MASK : 0) |
               (icount_enabled() ? R_STATUS_ICOUNT_MASK : 0) |
               (perf_counter_pending(s) ? R_STATUS_IRQ_MASK : 0);
    case A_RUNNING_LO:
        return extract64(s->section_running, 0, 32);
    case A_RUNNING_HI:
        return extract64(s->section_running, 32, 32);
    case A_PENDING_LO:
        return extract64(perf_counter_pending(s), 0, 32);
    case A_PENDING_HI:
        return extract64(perf_counter_pending(s), 32, 32);
    case A_EVENTS_AVAILABLE:
        return perfctr_hook_events() |
               (icount_enabled() ? BIT(PERFCTR_EVENT_INSTRUCTIONS) : 0);
    default:    /* SNAPSHOT is write-only */
        perf_counter_log_unused("read", offset);
        return 0;
    }
}

static uint64_t perf_counter_read_snapshot(PerfCounterState *s,
                                           unsigned counter, hwaddr reg)
{
    switch (reg) {
    case A_SNAP_TIME_LO:
        return extract64(s->snap_ticks[counter], 0, 32);
    case A_SNAP_TIME_HI:
        return extract64(s->snap_ticks[counter], 32, 32);
    case A_SNAP_EVENTS_LO:
        return extract64(s->snap_events[counter], 0, 32);
    default:
        return extract64(s->snap_events[counter], 32, 32);
    }
}

/* The register blocks with a group of words per counter */
typedef enum PerfCounterBlock {
    PERF_COUNTER_BLOCK_NONE,
    PERF_COUNTER_BLOCK_COUNTER,     /* the original map */
    PERF_COUNTER_BLOCK_SELECT,      /* event selects and thresholds */
    PERF_COUNTER_BLOCK_FLAGS,
    PERF_COUNTER_BLOCK_SNAP,
    PERF_COUNTER_BLOCK_EVCNT,
} PerfCounterBlock;

typedef struct PerfCounterBlockInfo {
    PerfCounterBlock block;
    hwaddr base;
    unsigned stride_shift;  /* words per counter: a shift, not a divide */
} PerfCounterBlockInfo;

/*
 * The block of each 256-byte page of the map (each block starts on a
 * page): one lookup per access, as the map is decoded at every one
 */
#define PERF_COUNTER_PAGE(offset) ((offset) >> 8)
/* The pages of [base, end) are block's */
#define PERF_COUNTER_PAGES(block, base, end, stride_shift) \
    [PERF_COUNTER_PAGE(base) ... PERF_COUNTER_PAGE(end) - 1] = \
        { block, base, stride_shift }

static const PerfCounterBlockInfo perf_counter_pages[] = {
    PERF_COUNTER_PAGES(PERF_COUNTER_BLOCK_COUNTER, 0,
                       PERF_COUNTER_SELECT_BASE, 4),
    PERF_COUNTER_PAGES(PERF_COUNTER_BLOCK_SELECT, PERF_COUNTER_SELECT_BASE,
                       PERF_COUNTER_EXT_BASE, 4),
    PERF_COUNTER_PAGES(PERF_COUNTER_BLOCK_FLAGS, PERF_COUNTER_FLAGS_BASE,
                       PERF_COUNTER_SNAP_BASE, 2),
    PERF_COUNTER_PAGES(PERF_COUNTER_BLOCK_SNAP, PERF_COUNTER_SNAP_BASE,
                       PERF_COUNTER_EVCNT_BASE, 4),
    PERF_COUNTER_PAGES(PERF_COUNTER_BLOCK_EVCNT, PERF_COUNTER_EVCNT_BASE,
                       PERF_COUNTER_MMIO_SIZE, 3),
};
QEMU_BUILD_BUG_ON(PERF_COUNTER_STRIDE != 1 << 4);
QEMU_BUILD_BUG_ON(PERF_COUNTER_EVCNT_STRIDE != 1 << 3);
/* The extension block has its page to itself (no block's) */
QEMU_BUILD_BUG_ON(PERF_COUNTER_PAGE(PERF_COUNTER_EXT_END - 1) !=
                  PERF_COUNTER_PAGE(PERF_COUNTER_EXT_BASE) ||
                  PERF_COUNTER_PAGE(PERF_COUNTER_FLAGS_BASE) !=
                  PERF_COUNTER_PAGE(PERF_COUNTER_EXT_BASE) + 1);

/* The block of @offset, and in it the counter and the word's offset */
static PerfCounterBlock perf_counter_decode(PerfCounterState *s,
                                            hwaddr offset, unsigned *counter,
                                            hwaddr *reg)
{
    const PerfCounterBlockInfo *b;
    hwaddr rel;

    if (PERF_COUNTER_PAGE(offset) >= ARRAY_SIZE(perf_counter_pages)) {
        return PERF_COUNTER_BLOCK_NONE;
    }
    b = &perf_counter_pages[PERF_COUNTER_PAGE(offset)];
    rel = offset - b->base;
    if (b->block == PERF_COUNTER_BLOCK_NONE ||
        rel >> b->stride_shift > s->num_sections) {
        return PERF_COUNTER_BLOCK_NONE;
    }
    *counter = rel >> b->stride_shift;
    *reg = rel & ((1u << b->stride_shift) - 1);
    return b->block;
}

/*
 * Only aligned 32-bit accesses act; any other is logged and ignored, a
 * read giving 0 (docs/register-map.md, "Accesses").  The check is here
 * and not in perf_counter_ops.valid because a size .valid refuses makes
 * the guest fault (a BusFault, a RISC-V access fault) and is logged only
 * under -d invalid_mem.
 */
static bool perf_counter_access_acts(const char *access, hwaddr offset,
                                     unsigned size)
{
    if (size == 4 && !(offset & 3)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR,
                  "perf-counter: bad %s of size %u at offset 0x%" HWADDR_PRIx
                  " (only aligned 32-bit accesses)\n", access, size, offset);
    return false;
}

static uint64_t perf_counter_read(void *opaque, hwaddr offset, unsigned size)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    uint64_t value = 0;
    PerfCounterNow now;
    unsigned counter;
    hwaddr reg;

    if (!perf_counter_access_acts("read", offset, size)) {
        trace_perf_counter_read(offset, 0);     /* traced, as a bad write is */
        return 0;
    }

    switch (perf_counter_decode(s, offset, &counter, &reg)) {
    case PERF_COUNTER_BLOCK_COUNTER:
        value = perf_counter_read_counter(s, counter, reg, offset);
        break;
    case PERF_COUNTER_BLOCK_SELECT:
        value = perf_counter_read_select(s, counter, reg);
        break;
    case PERF_COUNTER_BLOCK_FLAGS:
        value = s->flags[counter];
        break;
    case PERF_COUNTER_BLOCK_SNAP:
        value = perf_counter_read_snapshot(s, counter, reg);
        break;
    case PERF_COUNTER_BLOCK_EVCNT:
        now = perf_counter_now(s);
        value = extract64(perf_counter_event_count(s, counter, &now),
                          reg ? 32 : 0, 32);
        break;
    default:
        if (offset >= PERF_COUNTER_EXT_BASE && offset < PERF_COUNTER_EXT_END) {
            value = perf_counter_read_ext(s, offset);
        } else {
            perf_counter_log_unused("read", offset);
        }
        break;
    }
    trace_perf_counter_read(offset, value);
    return value;
}

static void perf_counter_reset_cmd(PerfCounterState *s,
                                   const PerfCounterNow *now)
{
    trace_perf_counter_reset_cmd();
    perf_counter_clear(s);
    perf_counter_readout_record(s, PERF_COUNTER_EV_RESET, 0, now);
}

static void perf_counter_start(PerfCounterState *s, const PerfCounterNow *now)
{
    s->enabled = true;
    s->events[0]++;
    perf_counter_readout_record(s, PERF_COUNTER_EV_START, 0, now);
    trace_perf_counter_start(now->ns);
}

static void perf_counter_stop(PerfCounterState *s, const PerfCounterNow *now)
{
    s->enabled = false;
    perf_counter_readout_record(s, PERF_COUNTER_EV_STOP, 0, now);
    trace_perf_counter_stop(now->ns);
}

static void perf_counter_begin(PerfCounterState *s, unsigned section,
                               const PerfCounterNow *now)
{
    s->section_running |= BIT_ULL(section);
    /* A BEGIN while the global counter is stopped is not an occurrence */
    if (s->enabled) {
        s->events[section]++;
    }
    perf_counter_readout_record(s, PERF_COUNTER_EV_BEGIN, section, now);
    trace_perf_counter_begin(section, now->ns);
}

static void perf_counter_end(PerfCounterState *s, unsigned section,
                             const PerfCounterNow *now)
{
    s->section_running &= ~BIT_ULL(section);
    perf_counter_readout_record(s, PERF_COUNTER_EV_END, section, now);
    trace_perf_counter_end(section, now->ns);
}

/* Original map: a command written to counter @counter's word at @reg */
static void perf_counter_write_counter(PerfCounterState *s, unsigned counter,
                                       hwaddr reg, uint64_t value,
                                       hwaddr offset, const PerfCounterNow *now)
{
    switch (reg) {
    case A_TIME_LO:
        if (counter != 0) {
            perf_counter_end(s, counter, now);
        } else if (FIELD_EX32(value, TIME_LO, RESET)) {
            perf_counter_reset_cmd(s, now);
        } else {
            perf_counter_stop(s, now);
        }
        break;
    case A_TIME_HI:
        if (counter != 0) {
            perf_counter_begin(s, counter, now);
        } else {
            perf_counter_start(s, now);
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: write to read-only or reserved word at "
                      "offset 0x%" HWADDR_PRIx "\n", offset);
        break;
    }
}

static void perf_counter_write_select(PerfCounterState *s, unsigned counter,
                                      hwaddr reg, uint64_t value,
                                      hwaddr offset)
{
    switch (reg) {
    case A_EVSEL:
        if (value >= PERFCTR_EVENT_COUNT) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "perf-counter: no event %" PRIu64 " (written at "
                          "offset 0x%" HWADDR_PRIx "); events are 0 to %d\n",
                          value, offset, PERFCTR_EVENT_COUNT - 1);
            return;
        }
        s->evsel[counter] = value;
        perf_counter_events_counted_update(s);
        s->counted_events[counter] = 0;
        s->wraps[counter] = 0;
        break;
    case A_CTRL:
        if (value & ~PERF_COUNTER_CTRL_MASK) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "perf-counter: reserved CTRL bits 0x%" PRIx64
                          " written at offset 0x%" HWADDR_PRIx "\n",
                          value & ~PERF_COUNTER_CTRL_MASK, offset);
        }
        s->ctrl[counter] = value & PERF_COUNTER_CTRL_MASK;
        break;
    case A_THRESH_LO:
        s->thresh[counter] = deposit64(s->thresh[counter], 0, 32, value);
        break;
    default:
        s->thresh[counter] = deposit64(s->thresh[counter], 32, 32, value);
        break;
    }
}

/* Preset counter @counter's event count, half at a time */
static void perf_counter_preset(PerfCounterState *s, unsigned counter,
                                bool high, uint64_t value)
{
    uint64_t count = deposit64(s->counted_events[counter], high ? 32 : 0, 32,
                               value);

    s->counted_events[counter] = count;
    /* A preset is not a wrap */
    s->wraps[counter] = count >> 32;
}

static void perf_counter_write(void *opaque, hwaddr offset, uint64_t value,
                               unsigned size)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    PerfCounterNow now;
    unsigned counter;
    hwaddr reg;

    trace_perf_counter_write(offset, value);
    if (!perf_counter_access_acts("write", offset, size)) {
        return;
    }

    /* Every write may change what is counted: count up to now first */
    now = perf_counter_now(s);
    perf_counter_sync(s, &now);
    switch (perf_counter_decode(s, offset, &counter, &reg)) {
    case PERF_COUNTER_BLOCK_COUNTER:
        perf_counter_write_counter(s, counter, reg, value, offset, &now);
        break;
    case PERF_COUNTER_BLOCK_SELECT:
        perf_counter_write_select(s, counter, reg, value, offset);
        break;
    case PERF_COUNTER_BLOCK_FLAGS:
        s->flags[counter] &= ~value;
        break;
    case PERF_COUNTER_BLOCK_EVCNT:
        perf_counter_preset(s, counter, reg != 0, value);
        break;
    case PERF_COUNTER_BLOCK_SNAP:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: write to read-only word at offset 0x%"
                      HWADDR_PRIx "\n", offset);
        break;
    default:
        if (offset == A_SNAPSHOT) {
            perf_counter_snapshot(s, &now);
        } else if (offset >= PERF_COUNTER_EXT_BASE &&
                   offset < PERF_COUNTER_EXT_END) {
            qemu_log_mask(LOG_GUEST_ERROR,
                          "perf-counter: write to read-only word at offset "
                          "0x%" HWADDR_PRIx "\n", offset);
        } else {
            perf_counter_log_unused("write", offset);
        }
        break;
    }
    perf_counter_baseline_new(s, &now);
    perf_counter_update(s, &now);
}

static const MemoryRegionOps perf_counter_ops = {
    .read = perf_counter_read,
    .write = perf_counter_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /*
     * Every size and alignment is valid: one that does not act is logged
     * and ignored, not faulted (perf_counter_access_acts())
     */
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .valid.unaligned = true,
    /*
     * The handlers see each access as the guest made it, up to a word:
     * an 8-byte one (LDRD, LD) comes as two 32-bit ones at the same
     * instant, lo then hi
     */
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
    .impl.unaligned = true,
};

static void perf_counter_realize(DeviceState *dev, Error **errp)
{
    PerfCounterState *s = PERF_COUNTER(dev);

    if (s->num_sections < 1 || s->num_sections > PERF_COUNTER_MAX_SECTIONS) {
        error_setg(errp, "perf-counter: property 'num-sections' must be "
                   "between 1 and %d, not %" PRIu32,
                   PERF_COUNTER_MAX_SECTIONS, s->num_sections);
        return;
    }
    if (s->freq_hz < 1 || s->freq_hz > PERF_COUNTER_MAX_FREQ_HZ) {
        error_setg(errp, "perf-counter: property 'clock-frequency' must be "
                   "between 1 and %u Hz (one tick per virtual ns), not %"
                   PRIu32, PERF_COUNTER_MAX_FREQ_HZ, s->freq_hz);
        return;
    }
    if (s->timeline_size > PERF_COUNTER_MAX_TIMELINE) {
        error_setg(errp, "perf-counter: property 'timeline-size' must be "
                   "between 0 (no timeline) and %u events, not %" PRIu32,
                   PERF_COUNTER_MAX_TIMELINE, s->timeline_size);
        return;
    }
    if (!s->clock || g_str_equal(s->clock, "time")) {
        s->clock_event = PERFCTR_EVENT_NONE;
    } else if (g_str_equal(s->clock, "cycles")) {
        s->clock_event = PERFCTR_EVENT_CYCLES;
        if (!(perfctr_hook_events() & BIT(PERFCTR_EVENT_CYCLES))) {
            error_setg(errp, "perf-counter: property 'clock' is 'cycles' "
                       "but no timing model estimates them: load the "
                       "perfctr plugin with cycles=MODEL");
            return;
        }
    } else {
        error_setg(errp, "perf-counter: property 'clock' must be 'time' "
                   "or 'cycles', not '%s'", s->clock);
        return;
    }
    if (s->cpu && !qemu_get_cpu(s->cpu)) {
        error_setg(errp, "perf-counter: property 'cpu' (%" PRIu32 "): this "
                   "machine has no such CPU", s->cpu);
        return;
    }
    if (!perf_counter_readout_realize(s, errp)) {
        return;
    }
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, perf_counter_timer_expired, s);
    s->hook.vcpu_index = s->cpu;
    s->hook.reached = perf_counter_reached;
    memset(s->hook.target, 0xff, sizeof(s->hook.target));
    perf_counter_events_counted_update(s);
    perfctr_hook_add_client(&s->hook);
}

static void perf_counter_unrealize(DeviceState *dev)
{
    PerfCounterState *s = PERF_COUNTER(dev);

    perf_counter_readout_unrealize(s);
    perfctr_hook_remove_client(&s->hook);
    timer_free(s->timer);
    s->timer = NULL;
}

static void perf_counter_init(Object *obj)
{
    PerfCounterState *s = PERF_COUNTER(obj);

    memory_region_init_io(&s->iomem, obj, &perf_counter_ops, s,
                          TYPE_PERF_COUNTER, PERF_COUNTER_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

static void perf_counter_reset_hold(Object *obj, ResetType type)
{
    PerfCounterState *s = PERF_COUNTER(obj);

    perf_counter_clear(s);
    if (s->timer) {
        timer_del(s->timer);
        memset(s->hook.target, 0xff, sizeof(s->hook.target));
        perfctr_hook_arm(&s->hook);
    }
    qemu_set_irq(s->irq, 0);
}

/* Bring the counts up to the instant of the save */
static int perf_counter_pre_save(void *opaque)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    PerfCounterNow now = perf_counter_now(s);

    perf_counter_sync(s, &now);
    return 0;
}

/* The hook's counts are this QEMU's: count from them, re-arm its targets */
static int perf_counter_post_load(void *opaque, int version_id)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    PerfCounterNow now;

    if (version_id < 2) {
        perf_counter_clear_selects(s);
    }
    perf_counter_events_counted_update(s);
    now = perf_counter_now(s);
    memcpy(s->sync_events, now.events, sizeof(s->sync_events));
    perf_counter_update(s, &now);
    return 0;
}

static const VMStateDescription perf_counter_vmstate = {
    .name = TYPE_PERF_COUNTER,
    .version_id = 2,
    .minimum_version_id = 1,
    .pre_save = perf_counter_pre_save,
    .post_load = perf_counter_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(enabled, PerfCounterState),
        VMSTATE_UINT64(section_running, PerfCounterState),
        VMSTATE_UINT64_ARRAY(counted_time, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_UINT32_ARRAY(events, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_INT64(sync_ns, PerfCounterState),
        VMSTATE_UINT64_ARRAY(counted_events, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_INT64(sync_insns, PerfCounterState),
        VMSTATE_UINT64_ARRAY(snap_ticks, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_UINT64_ARRAY(snap_events, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_UINT32_ARRAY_V(evsel, PerfCounterState,
                               PERF_COUNTER_MAX_COUNTERS, 2),
        VMSTATE_UINT32_ARRAY_V(ctrl, PerfCounterState,
                               PERF_COUNTER_MAX_COUNTERS, 2),
        VMSTATE_UINT64_ARRAY_V(thresh, PerfCounterState,
                               PERF_COUNTER_MAX_COUNTERS, 2),
        VMSTATE_UINT32_ARRAY_V(flags, PerfCounterState,
                               PERF_COUNTER_MAX_COUNTERS, 2),
        VMSTATE_UINT32_ARRAY_V(wraps, PerfCounterState,
                               PERF_COUNTER_MAX_COUNTERS, 2),
        VMSTATE_END_OF_LIST()
    }
};

static const Property perf_counter_properties[] = {
    DEFINE_PROP_UINT32("num-sections", PerfCounterState, num_sections, 3),
    DEFINE_PROP_UINT32("clock-frequency", PerfCounterState, freq_hz,
                       PERF_COUNTER_MAX_FREQ_HZ),
    DEFINE_PROP_UINT64("base", PerfCounterState, base,
                       PERF_COUNTER_BASE_AUTO),
    DEFINE_PROP_STRING("report-file", PerfCounterState, report_file),
    DEFINE_PROP_UINT32("timeline-size", PerfCounterState, timeline_size, 0),
    DEFINE_PROP_UINT32("cpu", PerfCounterState, cpu, 0),
    DEFINE_PROP_STRING("clock", PerfCounterState, clock),
};

static void perf_counter_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "Performance counter core (Nios II register map)";
    dc->realize = perf_counter_realize;
    dc->unrealize = perf_counter_unrealize;
    dc->vmsd = &perf_counter_vmstate;
    rc->phases.hold = perf_counter_reset_hold;
    device_class_set_props(dc, perf_counter_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
    perf_counter_readout_class_init(oc);
}

static const TypeInfo perf_counter_types[] = {
    {
        .name = TYPE_PERF_COUNTER,
        .parent = TYPE_DYNAMIC_SYS_BUS_DEVICE,
        .instance_size = sizeof(PerfCounterState),
        .instance_init = perf_counter_init,
        .class_init = perf_counter_class_init,
    },
};

DEFINE_TYPES(perf_counter_types)
