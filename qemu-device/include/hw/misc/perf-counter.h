/*
 * Performance counter core (Altera/Intel Nios II "performance counter"
 * register map), counting from QEMU's virtual clock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_PERF_COUNTER_H
#define HW_MISC_PERF_COUNTER_H

#include "hw/sysbus.h"
#include "qemu/notify.h"
#include "accel/tcg/perfctr-hook.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_PERF_COUNTER "perf-counter"
OBJECT_DECLARE_SIMPLE_TYPE(PerfCounterState, PERF_COUNTER)

/* Counter 0 is the global counter; sections are 1..num-sections. */
#define PERF_COUNTER_MAX_SECTIONS 63
#define PERF_COUNTER_MAX_COUNTERS (PERF_COUNTER_MAX_SECTIONS + 1)

/* Size of the MMIO region, whatever the number of sections. */
#define PERF_COUNTER_MMIO_SIZE 0x1000

/* "base" property value meaning "let the board choose". */
#define PERF_COUNTER_BASE_AUTO UINT64_MAX

/* Most events the timeline may hold ("timeline-size") */
#define PERF_COUNTER_MAX_TIMELINE (1u << 22)

/* A command, as recorded in the timeline */
typedef enum PerfCounterEventKind {
    PERF_COUNTER_EV_RESET,
    PERF_COUNTER_EV_START,
    PERF_COUNTER_EV_STOP,
    PERF_COUNTER_EV_BEGIN,
    PERF_COUNTER_EV_END,
} PerfCounterEventKind;

typedef struct PerfCounterEvent {
    int64_t ns;         /* QEMU_CLOCK_VIRTUAL at the command */
    int64_t insns;      /* retired instructions; 0 without -icount */
    uint8_t kind;       /* PerfCounterEventKind */
    uint8_t section;    /* BEGIN and END: the section; otherwise 0 */
} PerfCounterEvent;

struct PerfCounterState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    /* Raised while a counter has a flag set (an armed threshold...) */
    qemu_irq irq;

    /* Properties */
    uint32_t num_sections;
    uint32_t freq_hz;
    uint64_t base;
    char *report_file;
    uint32_t timeline_size;
    uint32_t cpu;
    char *clock;        /* "time" (NULL) or "cycles" */
    /* What the counters' time counts: PERFCTR_EVENT_NONE, virtual time */
    PerfctrEvent clock_event;
    /*
     * The hook's events the counters count in: those selected, the
     * clock (derived from the selects, kept so that a read need not
     * look at every counter's)
     */
    uint32_t events_counted;

    /* Global enable (START/STOP) */
    bool enabled;
    /* Bit i set: section i has been begun and not ended */
    uint64_t section_running;
    /*
     * Time each counter has counted up to the sync: virtual-clock ns up
     * to sync_ns, or with clock=cycles estimated cycles up to
     * sync_events[PERFCTR_EVENT_CYCLES]
     */
    uint64_t counted_time[PERF_COUNTER_MAX_COUNTERS];
    int64_t sync_ns;
    /*
     * Selected events (EVSEL) each counter has counted up to the sync:
     * retired instructions (-icount) up to sync_insns, the others up to
     * sync_events[event] (the hook's counts, not migrated: a restored
     * VM starts them again from its own counts)
     */
    uint64_t counted_events[PERF_COUNTER_MAX_COUNTERS];
    int64_t sync_insns;
    uint64_t sync_events[PERFCTR_EVENT_COUNT];
    /* Occurrences: STARTs (counter 0), counted BEGINs (sections) */
    uint32_t events[PERF_COUNTER_MAX_COUNTERS];
    /* Latched by the SNAPSHOT command */
    uint64_t snap_ticks[PERF_COUNTER_MAX_COUNTERS];
    uint64_t snap_events[PERF_COUNTER_MAX_COUNTERS];

    /* Event selects, thresholds and interrupt flags (registers) */
    uint32_t evsel[PERF_COUNTER_MAX_COUNTERS];
    uint32_t ctrl[PERF_COUNTER_MAX_COUNTERS];
    uint64_t thresh[PERF_COUNTER_MAX_COUNTERS];
    uint32_t flags[PERF_COUNTER_MAX_COUNTERS];
    /* Bits 63..32 of each event count when last checked for a wrap */
    uint32_t wraps[PERF_COUNTER_MAX_COUNTERS];
    /* Fires when a time or instruction threshold is due */
    QEMUTimer *timer;
    /* How the device counts the hook's events and is called back */
    PerfctrHookClient hook;

    /*
     * Host-side readout, not migrated: the first timeline_size commands
     * (PerfCounterEvent), how many came after it was full, and the
     * notifier that writes report_file when QEMU exits.
     */
    GArray *timeline;
    uint64_t timeline_dropped;
    Notifier exit_notifier;
};

/**
 * perf_counter_map: map a perf-counter into a board's address space
 * @dev: the perf-counter device (realized)
 * @container: the region to map it into
 * @container_addr: guest physical address of @container
 * @window_addr: guest physical address of the window the board offers
 * @window_size: size of that window
 * @errp: error object
 *
 * Boards call this from their device-plug handler.  The device goes at
 * its "base" property, which must be naturally aligned and clear of any
 * other device: inside the window, in @container; outside it, where the
 * CPUs see nothing but "unimplemented" devices, in the system memory.
 * With "base" unset it goes in the first free naturally aligned slot of
 * the window, and "base" is set to the chosen address so that it can be
 * read back with qom-get.
 *
 * Returns: true on success.
 */
bool perf_counter_map(DeviceState *dev, MemoryRegion *container,
                      hwaddr container_addr, hwaddr window_addr,
                      hwaddr window_size, Error **errp);

/**
 * perf_counter_hotplug_handler: a board's get_hotplug_handler for
 * -device perf-counter
 * @machine: the board, which implements TYPE_HOTPLUG_HANDLER
 * @dev: the device being plugged
 *
 * Returns: @machine's handler for a perf-counter, NULL for anything else.
 */
HotplugHandler *perf_counter_hotplug_handler(MachineState *machine,
                                             DeviceState *dev);

/**
 * perf_counter_plug_with_line: map a perf-counter into a board's window
 * in the system memory (as perf_counter_map) and give it the next free
 * interrupt line of the board's
 * @dev: the perf-counter device (realized)
 * @window_addr: guest physical address of the window
 * @window_size: size of that window
 * @first_line: the first of the board's lines for perf-counters
 * @num_lines: how many there are
 * @plugged: how many devices took one so far (the board's state)
 * @errp: error object
 *
 * Returns: the line, numbered as @first_line is, for the board to
 * connect; -1 with @errp set when no line is left or the device does
 * not fit.
 */
int perf_counter_plug_with_line(DeviceState *dev, hwaddr window_addr,
                                hwaddr window_size, int first_line,
                                unsigned num_lines, unsigned *plugged,
                                Error **errp);

#endif
