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
 * one retired guest instruction.
 *
 * Above the original map, at 0x800, an extension block (version 1)
 * identifies the core and its configuration, counts retired
 * instructions per counter when QEMU runs with -icount (so idle time,
 * which advances the clock but retires nothing, can be told apart), and
 * latches every counter at one instant on a single SNAPSHOT write, so
 * that running 64-bit counters can be read without tearing and without
 * stopping them.  See docs/register-map.md in the perf-counter project.
 *
 * For the host, the read-only QOM property "report" gives every
 * counter's clocks, instructions and occurrences (qom-get), "timeline"
 * the commands recorded with their virtual time (the first
 * "timeline-size" of them), and "report-file" names a file where both
 * are written as JSON when QEMU exits (an exit notifier: it also runs
 * when the guest exits through semihosting, which calls exit()).
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
#include "qapi/visitor.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qobject/qlist.h"
#include "qobject/qnum.h"
#include "hw/misc/perf-counter.h"
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

/* Extension block */
#define PERF_COUNTER_EXT_BASE 0x800
REG32(MAGIC, 0x800)
REG32(VERSION, 0x804)
REG32(NUM_SECTIONS, 0x808)
REG32(FREQ_HZ, 0x80c)
REG32(STATUS, 0x810)
    FIELD(STATUS, ENABLED, 0, 1)
    FIELD(STATUS, ICOUNT, 1, 1)
REG32(RUNNING_LO, 0x814)
REG32(RUNNING_HI, 0x818)
REG32(SNAPSHOT, 0x81c)
#define PERF_COUNTER_EXT_END 0x820

/* Latched by SNAPSHOT: counter i at PERF_COUNTER_SNAP_BASE + 0x10 * i */
#define PERF_COUNTER_SNAP_BASE 0xa00
REG32(SNAP_TIME_LO, 0x0)
REG32(SNAP_TIME_HI, 0x4)
REG32(SNAP_INSNS_LO, 0x8)
REG32(SNAP_INSNS_HI, 0xc)

/* Live retired instructions: counter i at PERF_COUNTER_INSNS_BASE + 8 * i */
#define PERF_COUNTER_INSNS_BASE 0xe00
#define PERF_COUNTER_INSNS_STRIDE 0x8

#define PERF_COUNTER_MAGIC 0x544e4350   /* "PCNT" */
#define PERF_COUNTER_VERSION 1
#define PERF_COUNTER_MAX_FREQ_HZ 1000000000u

/* The emulated clocks, read once per access */
typedef struct PerfCounterNow {
    int64_t ns;         /* QEMU_CLOCK_VIRTUAL */
    int64_t insns;      /* retired instructions; 0 without -icount */
} PerfCounterNow;

static PerfCounterNow perf_counter_now(void)
{
    PerfCounterNow now = {
        .ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
        .insns = icount_enabled() ? icount_get_raw() : 0,
    };

    return now;
}

static bool perf_counter_counting(PerfCounterState *s, unsigned counter)
{
    return s->enabled &&
           (counter == 0 || (s->section_running & BIT_ULL(counter)));
}

/* Bring every running counter up to @now; call before any state change */
static void perf_counter_sync(PerfCounterState *s, PerfCounterNow now)
{
    unsigned i;

    for (i = 0; i <= s->num_sections; i++) {
        if (perf_counter_counting(s, i)) {
            s->counted_ns[i] += now.ns - s->sync_ns;
            s->counted_insns[i] += now.insns - s->sync_insns;
        }
    }
    s->sync_ns = now.ns;
    s->sync_insns = now.insns;
}

static uint64_t perf_counter_ticks(PerfCounterState *s, unsigned counter,
                                   PerfCounterNow now)
{
    uint64_t ns = s->counted_ns[counter];

    if (perf_counter_counting(s, counter)) {
        ns += now.ns - s->sync_ns;
    }
    return muldiv64(ns, s->freq_hz, NANOSECONDS_PER_SECOND);
}

static uint64_t perf_counter_insns(PerfCounterState *s, unsigned counter,
                                   PerfCounterNow now)
{
    uint64_t insns = s->counted_insns[counter];

    if (perf_counter_counting(s, counter)) {
        insns += now.insns - s->sync_insns;
    }
    return insns;
}

static void perf_counter_clear(PerfCounterState *s)
{
    s->enabled = false;
    s->section_running = 0;
    memset(s->counted_ns, 0, sizeof(s->counted_ns));
    memset(s->counted_insns, 0, sizeof(s->counted_insns));
    memset(s->events, 0, sizeof(s->events));
    memset(s->snap_ticks, 0, sizeof(s->snap_ticks));
    memset(s->snap_insns, 0, sizeof(s->snap_insns));
}

/* Add a command to the timeline, or count it as dropped when full */
static void perf_counter_record(PerfCounterState *s, PerfCounterEventKind kind,
                                unsigned section, PerfCounterNow now)
{
    PerfCounterEvent ev = {
        .ns = now.ns, .insns = now.insns, .kind = kind, .section = section,
    };

    if (!s->timeline) {
        return;
    }
    if (s->timeline->len < s->timeline_size) {
        g_array_append_val(s->timeline, ev);
    } else {
        s->timeline_dropped++;
    }
}

static void perf_counter_snapshot(PerfCounterState *s)
{
    PerfCounterNow now = perf_counter_now();
    unsigned i;

    for (i = 0; i <= s->num_sections; i++) {
        s->snap_ticks[i] = perf_counter_ticks(s, i, now);
        s->snap_insns[i] = perf_counter_insns(s, i, now);
    }
    trace_perf_counter_snapshot(now.ns);
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
    switch (reg) {
    case A_TIME_LO:
        return extract64(perf_counter_ticks(s, counter, perf_counter_now()),
                         0, 32);
    case A_TIME_HI:
        return extract64(perf_counter_ticks(s, counter, perf_counter_now()),
                         32, 32);
    case A_EVENTS:
        return s->events[counter];
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: read of reserved word at offset 0x%"
                      HWADDR_PRIx "\n", offset);
        return 0;
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
        return FIELD_DP32(FIELD_DP32(0, STATUS, ENABLED, s->enabled),
                          STATUS, ICOUNT, !!icount_enabled());
    case A_RUNNING_LO:
        return extract64(s->section_running, 0, 32);
    case A_RUNNING_HI:
        return extract64(s->section_running, 32, 32);
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
    case A_SNAP_INSNS_LO:
        return extract64(s->snap_insns[counter], 0, 32);
    default:
        return extract64(s->snap_insns[counter], 32, 32);
    }
}

static uint64_t perf_counter_read(void *opaque, hwaddr offset, unsigned size)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    unsigned counters = s->num_sections + 1;
    uint64_t value = 0;

    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: bad read of size %u at offset 0x%"
                      HWADDR_PRIx " (only aligned 32-bit accesses)\n",
                      size, offset);
        return 0;
    }

    if (offset < counters * PERF_COUNTER_STRIDE) {
        value = perf_counter_read_counter(s, offset / PERF_COUNTER_STRIDE,
                                          offset % PERF_COUNTER_STRIDE,
                                          offset);
    } else if (offset >= PERF_COUNTER_EXT_BASE &&
               offset < PERF_COUNTER_EXT_END) {
        value = perf_counter_read_ext(s, offset);
    } else if (offset >= PERF_COUNTER_SNAP_BASE &&
               offset < PERF_COUNTER_SNAP_BASE +
                        counters * PERF_COUNTER_STRIDE) {
        offset -= PERF_COUNTER_SNAP_BASE;
        value = perf_counter_read_snapshot(s, offset / PERF_COUNTER_STRIDE,
                                           offset % PERF_COUNTER_STRIDE);
    } else if (offset >= PERF_COUNTER_INSNS_BASE &&
               offset < PERF_COUNTER_INSNS_BASE +
                        counters * PERF_COUNTER_INSNS_STRIDE) {
        hwaddr rel = offset - PERF_COUNTER_INSNS_BASE;
        uint64_t insns = perf_counter_insns(s,
                                            rel / PERF_COUNTER_INSNS_STRIDE,
                                            perf_counter_now());

        value = extract64(insns, rel % PERF_COUNTER_INSNS_STRIDE ? 32 : 0,
                          32);
    } else {
        perf_counter_log_unused("read", offset);
    }
    trace_perf_counter_read(offset, value);
    return value;
}

static void perf_counter_reset_cmd(PerfCounterState *s, PerfCounterNow now)
{
    trace_perf_counter_reset_cmd();
    perf_counter_clear(s);
    perf_counter_record(s, PERF_COUNTER_EV_RESET, 0, now);
}

static void perf_counter_start(PerfCounterState *s, PerfCounterNow now)
{
    perf_counter_sync(s, now);
    s->enabled = true;
    s->events[0]++;
    perf_counter_record(s, PERF_COUNTER_EV_START, 0, now);
    trace_perf_counter_start(now.ns);
}

static void perf_counter_stop(PerfCounterState *s, PerfCounterNow now)
{
    perf_counter_sync(s, now);
    s->enabled = false;
    perf_counter_record(s, PERF_COUNTER_EV_STOP, 0, now);
    trace_perf_counter_stop(now.ns);
}

static void perf_counter_begin(PerfCounterState *s, unsigned section,
                               PerfCounterNow now)
{
    perf_counter_sync(s, now);
    s->section_running |= BIT_ULL(section);
    /* A BEGIN while the global counter is stopped is not an occurrence */
    if (s->enabled) {
        s->events[section]++;
    }
    perf_counter_record(s, PERF_COUNTER_EV_BEGIN, section, now);
    trace_perf_counter_begin(section, now.ns);
}

static void perf_counter_end(PerfCounterState *s, unsigned section,
                             PerfCounterNow now)
{
    perf_counter_sync(s, now);
    s->section_running &= ~BIT_ULL(section);
    perf_counter_record(s, PERF_COUNTER_EV_END, section, now);
    trace_perf_counter_end(section, now.ns);
}

/* Original map: a command written to counter @counter's word at @reg */
static void perf_counter_write_counter(PerfCounterState *s, unsigned counter,
                                       hwaddr reg, uint64_t value,
                                       hwaddr offset)
{
    switch (reg) {
    case A_TIME_LO:
        if (counter != 0) {
            perf_counter_end(s, counter, perf_counter_now());
        } else if (FIELD_EX32(value, TIME_LO, RESET)) {
            perf_counter_reset_cmd(s, perf_counter_now());
        } else {
            perf_counter_stop(s, perf_counter_now());
        }
        break;
    case A_TIME_HI:
        if (counter != 0) {
            perf_counter_begin(s, counter, perf_counter_now());
        } else {
            perf_counter_start(s, perf_counter_now());
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: write to read-only or reserved word at "
                      "offset 0x%" HWADDR_PRIx "\n", offset);
        break;
    }
}

static void perf_counter_write(void *opaque, hwaddr offset, uint64_t value,
                               unsigned size)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    unsigned counters = s->num_sections + 1;

    trace_perf_counter_write(offset, value);
    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: bad write of size %u at offset 0x%"
                      HWADDR_PRIx " (only aligned 32-bit accesses)\n",
                      size, offset);
        return;
    }

    if (offset < counters * PERF_COUNTER_STRIDE) {
        perf_counter_write_counter(s, offset / PERF_COUNTER_STRIDE,
                                   offset % PERF_COUNTER_STRIDE, value,
                                   offset);
    } else if (offset == A_SNAPSHOT) {
        perf_counter_snapshot(s);
    } else if (offset >= PERF_COUNTER_EXT_BASE &&
               offset < PERF_COUNTER_EXT_END) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "perf-counter: write to read-only word at offset 0x%"
                      HWADDR_PRIx "\n", offset);
    } else {
        perf_counter_log_unused("write", offset);
    }
}

static const MemoryRegionOps perf_counter_ops = {
    .read = perf_counter_read,
    .write = perf_counter_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /*
     * Accept any size so that a bad access is logged and ignored rather
     * than faulting; an 8-byte access (LDRD, LD) is split into two
     * 32-bit ones at the same instant.
     */
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .valid.unaligned = true,
    .impl.min_access_size = 1,
    .impl.max_access_size = 4,
    .impl.unaligned = true,
};

/*
 * The device mapped in @container at priority >= 0 that overlaps
 * [@addr, @addr + @size), or NULL.  Boards put "unimplemented" regions
 * at negative priority under their free windows; those do not count.
 */
static MemoryRegion *perf_counter_find_overlap(MemoryRegion *container,
                                               hwaddr container_addr,
                                               hwaddr addr, hwaddr size)
{
    MemoryRegion *other;

    QTAILQ_FOREACH(other, &container->subregions, subregions_link) {
        hwaddr other_addr = container_addr + other->addr;
        hwaddr other_end = other_addr + memory_region_size(other);

        if (other->priority >= 0 && other_addr < addr + size &&
            addr < other_end) {
            return other;
        }
    }
    return NULL;
}

bool perf_counter_map(DeviceState *dev, MemoryRegion *container,
                      hwaddr container_addr, hwaddr window_addr,
                      hwaddr window_size, Error **errp)
{
    PerfCounterState *s = PERF_COUNTER(dev);
    const hwaddr size = PERF_COUNTER_MMIO_SIZE;
    const hwaddr window_end = window_addr + window_size;
    hwaddr addr = s->base;
    MemoryRegion *other;

    if (addr == PERF_COUNTER_BASE_AUTO) {
        for (addr = ROUND_UP(window_addr, size); addr + size <= window_end;
             addr += size) {
            if (!perf_counter_find_overlap(container, container_addr,
                                           addr, size)) {
                break;
            }
        }
        if (addr + size > window_end) {
            error_setg(errp, "perf-counter: no free 0x%" HWADDR_PRIx
                       "-byte slot left in 0x%" HWADDR_PRIx "-0x%"
                       HWADDR_PRIx "; set property 'base'",
                       size, window_addr, window_end - 1);
            return false;
        }
    } else if (addr & (size - 1)) {
        error_setg(errp, "perf-counter: property 'base' (0x%" HWADDR_PRIx
                   ") must be a multiple of 0x%" HWADDR_PRIx, addr, size);
        return false;
    } else if (addr < window_addr || addr > window_end - size) {
        error_setg(errp, "perf-counter: property 'base' (0x%" HWADDR_PRIx
                   ") is outside 0x%" HWADDR_PRIx "-0x%" HWADDR_PRIx
                   ", where this board has room for it",
                   addr, window_addr, window_end - 1);
        return false;
    } else {
        other = perf_counter_find_overlap(container, container_addr,
                                          addr, size);
        if (other) {
            error_setg(errp, "perf-counter: property 'base' (0x%"
                       HWADDR_PRIx ") overlaps '%s' at 0x%" HWADDR_PRIx,
                       addr, memory_region_name(other),
                       container_addr + other->addr);
            return false;
        }
    }

    s->base = addr;
    memory_region_add_subregion(container, addr - container_addr,
                                &s->iomem);
    return true;
}

/* Host readout: one counter's numbers, read now */
static QDict *perf_counter_counter_dict(PerfCounterState *s, unsigned counter,
                                        PerfCounterNow now)
{
    QDict *d = qdict_new();

    qdict_put(d, "clocks", qnum_from_uint(perf_counter_ticks(s, counter,
                                                             now)));
    if (icount_enabled()) {
        qdict_put(d, "instructions",
                  qnum_from_uint(perf_counter_insns(s, counter, now)));
    }
    qdict_put(d, "occurrences", qnum_from_uint(s->events[counter]));
    return d;
}

/* Host readout: the "report" property (see docs/register-map.md) */
static QDict *perf_counter_report(PerfCounterState *s)
{
    PerfCounterNow now = perf_counter_now();
    unsigned sections = MIN(s->num_sections, PERF_COUNTER_MAX_SECTIONS);
    g_autofree char *path = object_get_canonical_path(OBJECT(s));
    QDict *report = qdict_new();
    QList *list = qlist_new();
    unsigned i;

    qdict_put_int(report, "version", PERF_COUNTER_VERSION);
    qdict_put_str(report, "qom-path", path ? path : "");
    if (s->base != PERF_COUNTER_BASE_AUTO) {
        qdict_put(report, "base", qnum_from_uint(s->base));
    }
    qdict_put(report, "clock-frequency", qnum_from_uint(s->freq_hz));
    qdict_put(report, "num-sections", qnum_from_uint(s->num_sections));
    qdict_put_bool(report, "icount", icount_enabled());
    qdict_put_int(report, "virtual-ns", now.ns);
    qdict_put_bool(report, "enabled", s->enabled);
    qdict_put(report, "global", perf_counter_counter_dict(s, 0, now));
    for (i = 1; i <= sections; i++) {
        QDict *d = perf_counter_counter_dict(s, i, now);

        qdict_put_int(d, "section", i);
        qdict_put_bool(d, "running", !!(s->section_running & BIT_ULL(i)));
        qlist_append(list, d);
    }
    qdict_put(report, "sections", list);
    return report;
}

static const char *const perf_counter_event_names[] = {
    [PERF_COUNTER_EV_RESET] = "reset",
    [PERF_COUNTER_EV_START] = "start",
    [PERF_COUNTER_EV_STOP] = "stop",
    [PERF_COUNTER_EV_BEGIN] = "begin",
    [PERF_COUNTER_EV_END] = "end",
};

/* Host readout: the "timeline" property */
static QDict *perf_counter_timeline(PerfCounterState *s)
{
    QDict *timeline = qdict_new();
    QList *events = qlist_new();
    unsigned i;

    qdict_put(timeline, "capacity", qnum_from_uint(s->timeline_size));
    qdict_put(timeline, "dropped", qnum_from_uint(s->timeline_dropped));
    for (i = 0; s->timeline && i < s->timeline->len; i++) {
        PerfCounterEvent *ev = &g_array_index(s->timeline, PerfCounterEvent,
                                              i);
        QDict *d = qdict_new();

        qdict_put_str(d, "event", perf_counter_event_names[ev->kind]);
        if (ev->kind == PERF_COUNTER_EV_BEGIN ||
            ev->kind == PERF_COUNTER_EV_END) {
            qdict_put_int(d, "section", ev->section);
        }
        qdict_put_int(d, "ns", ev->ns);
        if (icount_enabled()) {
            qdict_put_int(d, "instructions", ev->insns);
        }
        qlist_append(events, d);
    }
    qdict_put(timeline, "events", events);
    return timeline;
}

static void perf_counter_get_report(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    QObject *report = QOBJECT(perf_counter_report(PERF_COUNTER(obj)));

    visit_type_any(v, name, &report, errp);
    qobject_unref(report);
}

static void perf_counter_get_timeline(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    QObject *timeline = QOBJECT(perf_counter_timeline(PERF_COUNTER(obj)));

    visit_type_any(v, name, &timeline, errp);
    qobject_unref(timeline);
}

/* When QEMU exits: the report, and the timeline if kept, to report-file */
static void perf_counter_exit_notify(Notifier *notifier, void *data)
{
    PerfCounterState *s = container_of(notifier, PerfCounterState,
                                       exit_notifier);
    g_autoptr(QDict) report = perf_counter_report(s);
    g_autoptr(GString) json = NULL;
    g_autoptr(GError) err = NULL;

    if (s->timeline) {
        qdict_put(report, "timeline", perf_counter_timeline(s));
    }
    json = qobject_to_json_pretty(QOBJECT(report), true);
    g_string_append_c(json, '\n');
    if (!g_file_set_contents(s->report_file, json->str, json->len, &err)) {
        error_report("perf-counter: cannot write property 'report-file' "
                     "(%s): %s", s->report_file, err->message);
    }
}

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
    if (s->report_file) {
        g_autoptr(GError) err = NULL;

        /* Fail now, not at exit: create the file, empty until then */
        if (!*s->report_file ||
            !g_file_set_contents(s->report_file, "", 0, &err)) {
            error_setg(errp, "perf-counter: property 'report-file' ('%s'): "
                       "cannot create it: %s", s->report_file,
                       err ? err->message : "no file name");
            return;
        }
        s->exit_notifier.notify = perf_counter_exit_notify;
        qemu_add_exit_notifier(&s->exit_notifier);
    }
    if (s->timeline_size) {
        s->timeline = g_array_sized_new(false, false,
                                        sizeof(PerfCounterEvent),
                                        MIN(s->timeline_size, 1024));
    }
}

static void perf_counter_unrealize(DeviceState *dev)
{
    PerfCounterState *s = PERF_COUNTER(dev);

    if (s->exit_notifier.notify) {
        qemu_remove_exit_notifier(&s->exit_notifier);
        s->exit_notifier.notify = NULL;
    }
    if (s->timeline) {
        g_array_free(s->timeline, true);
        s->timeline = NULL;
    }
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
    perf_counter_clear(PERF_COUNTER(obj));
}

static const VMStateDescription perf_counter_vmstate = {
    .name = TYPE_PERF_COUNTER,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(enabled, PerfCounterState),
        VMSTATE_UINT64(section_running, PerfCounterState),
        VMSTATE_UINT64_ARRAY(counted_ns, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_UINT32_ARRAY(events, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_INT64(sync_ns, PerfCounterState),
        VMSTATE_UINT64_ARRAY(counted_insns, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_INT64(sync_insns, PerfCounterState),
        VMSTATE_UINT64_ARRAY(snap_ticks, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
        VMSTATE_UINT64_ARRAY(snap_insns, PerfCounterState,
                             PERF_COUNTER_MAX_COUNTERS),
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
    object_class_property_add(oc, "report", "any", perf_counter_get_report,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "report",
        "every counter's clocks, instructions and occurrences, read now");
    object_class_property_add(oc, "timeline", "any",
                              perf_counter_get_timeline, NULL, NULL, NULL);
    object_class_property_set_description(oc, "timeline",
        "the first timeline-size commands with their virtual time");
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
