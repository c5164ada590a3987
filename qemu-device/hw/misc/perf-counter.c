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
 * Not modelled: the RTL gives sections that are already begun one
 * extra cycle on the clock edge where START is written.  That is an
 * artefact of the clocked design; here every counter starts and stops
 * at the instant of the access.  The original part allows 1 to 7
 * sections; this model allows up to PERF_COUNTER_MAX_SECTIONS.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qemu/host-utils.h"
#include "qapi/error.h"
#include "hw/misc/perf-counter.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "hw/resettable.h"
#include "migration/vmstate.h"
#include "trace.h"

/* Registers of counter i are at PERF_COUNTER_STRIDE * i + offset */
#define PERF_COUNTER_STRIDE 0x10
REG32(TIME_LO, 0x0)
    /* Counter 0 only: write 1 to RESET, 0 to STOP */
    FIELD(TIME_LO, RESET, 0, 1)
REG32(TIME_HI, 0x4)
REG32(EVENTS, 0x8)
REG32(RESERVED, 0xc)

#define PERF_COUNTER_MAX_FREQ_HZ 1000000000u

static bool perf_counter_counting(PerfCounterState *s, unsigned counter)
{
    return s->enabled &&
           (counter == 0 || (s->section_running & BIT_ULL(counter)));
}

/* Bring every running counter up to @now; call before any state change */
static void perf_counter_sync(PerfCounterState *s, int64_t now)
{
    unsigned i;

    for (i = 0; i <= s->num_sections; i++) {
        if (perf_counter_counting(s, i)) {
            s->counted_ns[i] += now - s->sync_ns;
        }
    }
    s->sync_ns = now;
}

static uint64_t perf_counter_ticks(PerfCounterState *s, unsigned counter,
                                   int64_t now)
{
    uint64_t ns = s->counted_ns[counter];

    if (perf_counter_counting(s, counter)) {
        ns += now - s->sync_ns;
    }
    return muldiv64(ns, s->freq_hz, NANOSECONDS_PER_SECOND);
}

static void perf_counter_clear(PerfCounterState *s)
{
    s->enabled = false;
    s->section_running = 0;
    memset(s->counted_ns, 0, sizeof(s->counted_ns));
    memset(s->events, 0, sizeof(s->events));
}

static uint64_t perf_counter_read(void *opaque, hwaddr offset, unsigned size)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    unsigned counter = offset / PERF_COUNTER_STRIDE;
    uint64_t value = 0;

    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: bad read of size %u at offset 0x%" HWADDR_PRIx
                      " (only aligned 32-bit accesses)\n",
                      __func__, size, offset);
        return 0;
    }
    if (counter > s->num_sections) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: read at offset 0x%" HWADDR_PRIx
                      " beyond counter %u\n",
                      __func__, offset, s->num_sections);
        return 0;
    }

    switch (offset % PERF_COUNTER_STRIDE) {
    case A_TIME_LO:
        value = extract64(perf_counter_ticks(s, counter,
                              qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)), 0, 32);
        break;
    case A_TIME_HI:
        value = extract64(perf_counter_ticks(s, counter,
                              qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL)), 32, 32);
        break;
    case A_EVENTS:
        value = s->events[counter];
        break;
    case A_RESERVED:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: read of reserved word at offset 0x%" HWADDR_PRIx
                      "\n", __func__, offset);
        break;
    }
    trace_perf_counter_read(offset, value);
    return value;
}

static void perf_counter_reset_cmd(PerfCounterState *s)
{
    trace_perf_counter_reset_cmd();
    perf_counter_clear(s);
}

static void perf_counter_start(PerfCounterState *s, int64_t now)
{
    perf_counter_sync(s, now);
    s->enabled = true;
    s->events[0]++;
    trace_perf_counter_start(now);
}

static void perf_counter_stop(PerfCounterState *s, int64_t now)
{
    perf_counter_sync(s, now);
    s->enabled = false;
    trace_perf_counter_stop(now);
}

static void perf_counter_begin(PerfCounterState *s, unsigned section,
                               int64_t now)
{
    perf_counter_sync(s, now);
    s->section_running |= BIT_ULL(section);
    /* A BEGIN while the global counter is stopped is not an occurrence */
    if (s->enabled) {
        s->events[section]++;
    }
    trace_perf_counter_begin(section, now);
}

static void perf_counter_end(PerfCounterState *s, unsigned section,
                             int64_t now)
{
    perf_counter_sync(s, now);
    s->section_running &= ~BIT_ULL(section);
    trace_perf_counter_end(section, now);
}

static void perf_counter_write(void *opaque, hwaddr offset, uint64_t value,
                               unsigned size)
{
    PerfCounterState *s = PERF_COUNTER(opaque);
    unsigned counter = offset / PERF_COUNTER_STRIDE;
    int64_t now;

    trace_perf_counter_write(offset, value);
    if (size != 4 || (offset & 3)) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: bad write of size %u at offset 0x%" HWADDR_PRIx
                      " (only aligned 32-bit accesses)\n",
                      __func__, size, offset);
        return;
    }
    if (counter > s->num_sections) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: write at offset 0x%" HWADDR_PRIx
                      " beyond counter %u\n",
                      __func__, offset, s->num_sections);
        return;
    }

    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    switch (offset % PERF_COUNTER_STRIDE) {
    case A_TIME_LO:
        if (counter != 0) {
            perf_counter_end(s, counter, now);
        } else if (FIELD_EX32(value, TIME_LO, RESET)) {
            perf_counter_reset_cmd(s);
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
                      "%s: write to read-only or reserved word at offset 0x%"
                      HWADDR_PRIx "\n", __func__, offset);
        break;
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
}

static void perf_counter_init(Object *obj)
{
    PerfCounterState *s = PERF_COUNTER(obj);

    memory_region_init_io(&s->iomem, obj, &perf_counter_ops, s,
                          TYPE_PERF_COUNTER, PERF_COUNTER_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
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
        VMSTATE_END_OF_LIST()
    }
};

static const Property perf_counter_properties[] = {
    DEFINE_PROP_UINT32("num-sections", PerfCounterState, num_sections, 3),
    DEFINE_PROP_UINT32("clock-frequency", PerfCounterState, freq_hz,
                       PERF_COUNTER_MAX_FREQ_HZ),
    DEFINE_PROP_UINT64("base", PerfCounterState, base,
                       PERF_COUNTER_BASE_AUTO),
};

static void perf_counter_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "Performance counter core (Nios II register map)";
    dc->realize = perf_counter_realize;
    dc->vmsd = &perf_counter_vmstate;
    rc->phases.hold = perf_counter_reset_hold;
    device_class_set_props(dc, perf_counter_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
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
