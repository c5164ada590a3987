/*
 * Performance counter core: its placement in a board's free window
 * (perf_counter_map, called by the boards' code and the platform bus)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/misc/perf-counter.h"

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
