/*
 * Extensions of this project to the performance counter HAL API.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef PERFCTR_H
#define PERFCTR_H

#include <stdio.h>
#include "alt_types.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The extension block at offset 0x800 of a core (see the register map):
 * identification, retired instructions, consistent reads of running
 * counters.  Counter 0 is the global counter, 1.. the sections.
 */
#define PERFCTR_MAGIC 0x544e4350    /* "PCNT" */

/* Word offsets (for IORD/IOWR) of the extension registers */
#define PERFCTR_REG_MAGIC 0x200
#define PERFCTR_REG_VERSION 0x201
#define PERFCTR_REG_NUM_SECTIONS 0x202
#define PERFCTR_REG_FREQ_HZ 0x203
#define PERFCTR_REG_STATUS 0x204
#define PERFCTR_STATUS_ENABLED 0x1
#define PERFCTR_STATUS_ICOUNT 0x2
#define PERFCTR_REG_RUNNING_LO 0x205
#define PERFCTR_REG_RUNNING_HI 0x206
#define PERFCTR_REG_SNAPSHOT 0x207
#define PERFCTR_REG_SNAP(counter) (0x280 + 4 * (counter))
#define PERFCTR_REG_INSNS(counter) (0x380 + 2 * (counter))

/* Latch every counter's time and instructions at this instant: one store */
#define PERFCTR_SNAPSHOT(p) IOWR((p), PERFCTR_REG_SNAPSHOT, 0)

struct perfctr_info {
    alt_u32 version;
    alt_u32 num_sections;
    alt_u32 clock_hz;           /* counts per second of virtual time */
    int counts_instructions;    /* QEMU runs with -icount */
};

/* Fill info from the core's extension block; -1 if it has none */
int perfctr_probe(void *p, struct perfctr_info *info);

/*
 * Return if a core answers at p (its MAGIC register reads PERFCTR_MAGIC;
 * a read that faults counts as no); otherwise print why to stderr and
 * exit(1).  Checks each base once while it stays the last one checked.
 * The HAL getters and the report call it, so a wrong base gives a clear
 * message rather than a table of zeros.
 */
void perfctr_require_core(void *p);

/* Counter n's time / retired instructions at the last PERFCTR_SNAPSHOT */
alt_u64 perfctr_snapshot_time(void *p, int n);
alt_u64 perfctr_snapshot_instructions(void *p, int n);

/*
 * Counter n's time / retired instructions now, read consistently while
 * it runs: a snapshot, then the latched value.  Unlike
 * perf_get_section_time(), nothing is stopped.
 */
alt_u64 perfctr_time(void *p, int n);
alt_u64 perfctr_instructions(void *p, int n);

/*
 * Version 2: selectable events, thresholds and interrupts
 * (docs/register-map.md#events-thresholds-and-interrupts-version-2).
 * Word offsets, for IORD/IOWR.
 */
#define PERFCTR_REG_EVSEL(counter) (0x100 + 4 * (counter))
#define PERFCTR_REG_CTRL(counter) (0x101 + 4 * (counter))
#define PERFCTR_CTRL_THRESH_EN 0x1
#define PERFCTR_CTRL_OVF_EN 0x2
#define PERFCTR_CTRL_THRESH_ON_TIME 0x4
#define PERFCTR_REG_THRESH(counter) (0x102 + 4 * (counter))
#define PERFCTR_REG_PENDING_LO 0x208
#define PERFCTR_REG_PENDING_HI 0x209
#define PERFCTR_REG_EVENTS_AVAILABLE 0x20a
#define PERFCTR_STATUS_IRQ 0x4
#define PERFCTR_REG_FLAGS(counter) (0x240 + (counter))
#define PERFCTR_FLAG_THRESH 0x1
#define PERFCTR_FLAG_OVF 0x2
/* The event count, presettable (retired instructions unless selected) */
#define PERFCTR_REG_EVCNT(counter) PERFCTR_REG_INSNS(counter)

/* What a counter's event count counts (the EVSEL values) */
enum perfctr_event {
    PERFCTR_EVENT_NONE = 0,
    PERFCTR_EVENT_INSTRUCTIONS = 1,     /* retired (-icount); the default */
    PERFCTR_EVENT_LOADS = 2,
    PERFCTR_EVENT_STORES = 3,
    PERFCTR_EVENT_BRANCHES = 4,         /* executed, taken or not */
    PERFCTR_EVENT_CALLS = 5,
    PERFCTR_EVENT_RETURNS = 6,
    PERFCTR_EVENT_TAKEN_BRANCHES = 7,
    PERFCTR_EVENT_EXCEPTIONS = 8,       /* exceptions and interrupts taken */
    PERFCTR_EVENT_CYCLES = 9,           /* estimated (scripts/profile --cycles) */
    PERFCTR_EVENT_CONDITIONAL_BRANCHES = 10,    /* B<c>, CBZ, BEQ... */
    PERFCTR_EVENT_DIRECT_JUMPS = 11,    /* B, BL, JAL: no condition */
    PERFCTR_EVENT_INDIRECT_JUMPS = 12,  /* to a register: BX, JALR... */
    PERFCTR_EVENT_MULTIPLIES = 13,
    PERFCTR_EVENT_DIVIDES = 14,
    PERFCTR_EVENT_EXCEPTION_RETURNS = 15,
    PERFCTR_EVENT_RETIRED_BRANCHES = 16, /* passing their condition code */
    PERFCTR_EVENT_MEMORY_STALLS = 17,   /* model cycles of loads, stores */
    PERFCTR_NUM_EVENTS
};

/* "loads", "taken-branches"...; "?" for a value that is no event */
const char *perfctr_event_name(enum perfctr_event event);
/* Whether this QEMU counts event now */
int perfctr_event_available(void *p, enum perfctr_event event);
/*
 * Count event on counter n (0 global, 1.. sections) from 0.  -1 (and
 * nothing selected) if it is not available now.
 */
int perfctr_event_select(void *p, int n, enum perfctr_event event);
/* Counter n's event count, at one instant (a SNAPSHOT) */
alt_u64 perfctr_event_count(void *p, int n);
/* Set counter n's event count (best with the counter stopped) */
void perfctr_event_preset(void *p, int n, alt_u64 value);

/*
 * Set FLAGS.THRESH, and raise the core's interrupt, once counter n's
 * event count (on_time: its time, in clocks) is at or above value.  A
 * comparison: move it up or disarm it before acknowledging.
 */
void perfctr_threshold_arm(void *p, int n, alt_u64 value, int on_time);
void perfctr_threshold_disarm(void *p, int n);
/* Set FLAGS.OVF, and interrupt, each time EVCNT's low 32 bits wrap */
void perfctr_overflow_enable(void *p, int n, int enable);
/* Counter n's flags (PERFCTR_FLAG_*); acknowledge some of them */
alt_u32 perfctr_flags(void *p, int n);
void perfctr_flags_ack(void *p, int n, alt_u32 flags);

/* One row of a performance counter report */
struct perfctr_row {
    const char *name;
    alt_u64 clocks;
    alt_u32 occurrences;
};

/*
 * Write the report that perf_print_formatted_report() prints, for given
 * values, to out.  The format is the HAL's, field for field; columns
 * widen where a name or value would not fit, and a zero total gives 0%.
 * Returns 0, or -1 if writing failed.
 */
int perfctr_report_write(FILE *out, alt_u32 clock_hz, alt_u64 total_clocks,
                         int num_rows, const struct perfctr_row *rows);

/*
 * Interrupts (perfctr_irq.c): a handler per core, called from the
 * board's interrupt vector while the core's interrupt line is high (an
 * armed threshold or overflow flag set), with the core's base and the
 * pc the program resumes at.  The handler must acknowledge what it
 * handles (write 1 to the flag), or it is called again at once.  It
 * runs with interrupts masked, one at a time.
 */
typedef void (*perfctr_irq_handler_fn)(alt_u32 base, alt_u32 pc,
                                       void *context);
/*
 * Call handler(base, pc, context) whenever the core at base interrupts,
 * and enable its line (board_perfctr_irq_enable).  0, or -1 if the board
 * has no line for base or the table (4 cores) is full.
 */
int perfctr_irq_attach(alt_u32 base, perfctr_irq_handler_fn handler,
                       void *context);
/* Disable the core's line and forget its handler */
void perfctr_irq_detach(alt_u32 base);
/*
 * The interrupt line (system.h's PERFORMANCE_COUNTER[_N]_IRQ) of the core
 * at base, -1 if none; the core whose line it is, 0 if none.  For the
 * boards' interrupt code.
 */
int perfctr_irq_line(alt_u32 base);
alt_u32 perfctr_irq_core(alt_u32 line);
/*
 * Called by the board's vector; nothing happens if the core's PENDING
 * reads 0 (the line is low by now).  An interrupt from a core with no
 * handler disables its line (no interrupt storm) and says so, once, on
 * stdout.
 */
void perfctr_irq_dispatch(alt_u32 base, alt_u32 pc);

#ifdef __cplusplus
}
#endif

#endif
