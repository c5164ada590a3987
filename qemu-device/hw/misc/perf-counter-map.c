/*
 * Performance counter core: its placement in a board's free window
 * (perf_counter_map, called by the boards' code and the platform bus;
 * perf_counter_plug_with_line, by the boards' device-plug handlers)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "exec/address-spaces.h"
#include "hw/core/cpu.h"
#include "hw/hotplug.h"
#include "hw/misc/perf-counter.h"
#include "hw/misc/unimp.h"

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

typedef struct PerfCounterFreeCheck {
    hwaddr addr;
    hwaddr size;
    const MemoryRegion *found;
    hwaddr found_addr;
} PerfCounterFreeCheck;

static bool perf_counter_check_range(Int128 start, Int128 len,
                                     const MemoryRegion *mr,
                                     hwaddr offset_in_region, void *opaque)
{
    PerfCounterFreeCheck *check = opaque;
    hwaddr range_addr = int128_get64(start);
    Int128 range_end = int128_add(start, len);

    if (int128_ge(int128_make64(check->addr), range_end) ||
        range_addr >= check->addr + check->size ||
        object_dynamic_cast(mr->owner, TYPE_UNIMPLEMENTED_DEVICE)) {
        return false;
    }
    check->found = mr;
    check->found_addr = range_addr;
    return true;
}

/*
 * The region the CPUs see in [@addr, @addr + @size), other than
 * "unimplemented" devices (which only log what reaches them), or NULL.
 * The CPUs' view, not the system memory's: a Cortex-M's own container
 * (the NVIC, the DWT...) hides the system memory beneath it.
 */
static const MemoryRegion *perf_counter_find_mapped(hwaddr addr, hwaddr size,
                                                    hwaddr *found_addr)
{
    AddressSpace *as = first_cpu ? first_cpu->as : &address_space_memory;
    PerfCounterFreeCheck check = { .addr = addr, .size = size };

    RCU_READ_LOCK_GUARD();
    flatview_for_each_range(address_space_to_flatview(as),
                            perf_counter_check_range, &check);
    *found_addr = check.found_addr;
    return check.found;
}

/*
 * Outside the board's window, the device may go anywhere the CPUs see
 * nothing (firmware ported from elsewhere hard-codes its base); it is
 * then mapped in the system memory itself.
 */
static bool perf_counter_map_outside_window(PerfCounterState *s,
                                            hwaddr window_addr,
                                            hwaddr window_end, Error **errp)
{
    const MemoryRegion *other;
    hwaddr other_addr;

    other = perf_counter_find_mapped(s->base, PERF_COUNTER_MMIO_SIZE,
                                     &other_addr);
    if (other) {
        error_setg(errp, "perf-counter: property 'base' (0x%" HWADDR_PRIx
                   ") overlaps '%s' at 0x%" HWADDR_PRIx "; this board has "
                   "room for it at 0x%" HWADDR_PRIx "-0x%" HWADDR_PRIx
                   " or wherever nothing is mapped",
                   s->base, memory_region_name(other), other_addr,
                   window_addr, window_end - 1);
        return false;
    }
    memory_region_add_subregion(get_system_memory(), s->base, &s->iomem);
    return true;
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
        return perf_counter_map_outside_window(s, window_addr, window_end,
                                               errp);
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

HotplugHandler *perf_counter_hotplug_handler(MachineState *machine,
                                             DeviceState *dev)
{
    if (object_dynamic_cast(OBJECT(dev), TYPE_PERF_COUNTER)) {
        return HOTPLUG_HANDLER(machine);
    }
    return NULL;
}

int perf_counter_plug_with_line(DeviceState *dev, hwaddr window_addr,
                                hwaddr window_size, int first_line,
                                unsigned num_lines, unsigned *plugged,
                                Error **errp)
{
    if (*plugged == num_lines) {
        error_setg(errp, "perf-counter: no interrupt line left; this board "
                   "has %u, lines %d-%d", num_lines, first_line,
                   first_line + (int)num_lines - 1);
        return -1;
    }
    if (!perf_counter_map(dev, get_system_memory(), 0, window_addr,
                          window_size, errp)) {
        return -1;
    }
    return first_line + (*plugged)++;
}
