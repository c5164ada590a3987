/*
 * perfctr plugin: its configuration.  perfctr.c parses every argument
 * into it once, at install, and gives it read-only to each module's
 * init; nothing changes it afterwards.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CONFIG_H
#define PERFCTR_CONFIG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa/isa.h"
#include "perfctr-stop.h"

#define CONFIG_MAX_TASK_NAME 64     /* bytes of a task's name, with its end */

typedef enum CyclesModel {
    CYCLES_OFF,
    CYCLES_M0,          /* Cortex-M0, fast multiplier (microbit) */
    CYCLES_M0_SMALL_MUL, /* Cortex-M0, 32-cycle multiplier */
    CYCLES_M3,          /* Cortex-M3 (mps2-an385) */
    CYCLES_M4,          /* Cortex-M4 (mps2-an386) */
    CYCLES_M7,          /* Cortex-M7 (mps2-an500) */
    CYCLES_M33,         /* Cortex-M33 (mps2-an505) */
    CYCLES_M55,         /* Cortex-M55 (mps3-an547) */
    CYCLES_E31,         /* SiFive E31, for rv32 (riscv32 virt) */
} CyclesModel;

/* A flash part of the timing models (cycles/memory.h) */
typedef struct FlashPart FlashPart;

/* The addresses from start (included) to end (excluded) */
typedef struct AddressRange {
    uint64_t start, end;
} AddressRange;

/*
 * The range of ranges (n, in order and apart) that holds addr; n if
 * none does
 */
static inline unsigned address_range_find(const AddressRange *ranges,
                                          unsigned n, uint64_t addr)
{
    unsigned lo = 0, hi = n;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;

        if (addr < ranges[mid].start) {
            hi = mid;
        } else if (addr >= ranges[mid].end) {
            lo = mid + 1;
        } else {
            return mid;
        }
    }
    return n;
}

/* stop=instructions:N, cycles:N or time:NS, which QEMU stops at */
typedef struct StopAfter {
    PerfctrStopKind kind;
    uint64_t count;
    char *arg;                  /* the argument, for a message */
} StopAfter;

/* stop=pc:ADDR[:K], which the plugin stops at */
typedef struct StopAtPc {
    uint64_t pc;
    uint64_t nth;               /* the K-th arrival, counted from 1 */
} StopAtPc;

/*
 * tasks=CURRENT:NAME:LEN:STACK, where the RTOS keeps the running task:
 * the address of the pointer (64-bit in A64) to its control block, the
 * offsets in the block of its name (LEN chars) and of its stack's
 * lowest address
 */
typedef struct RtosLayout {
    uint64_t current;           /* 0: no RTOS knowledge */
    uint64_t name_offset, name_len;
    int64_t stack_offset;       /* -1: not known */
} RtosLayout;

typedef struct PerfctrConfig {
    Isa isa;                    /* isa=, or the one of QEMU's target */
    char *out_path;             /* out=, or NULL */
    char *stream_path;          /* stream=, or NULL */
    uint64_t stream_chunk;      /* stream-chunk=, or 0: the default */
    bool profiling;             /* profile= */
    uint64_t period;            /* sample every period instructions; 0: exact */
    bool stacks;                /* stacks=: follow calls and returns */
    bool flat;                  /* stacks=flat: count calls, no stacks */
    bool events;                /* events=: count what the devices want */
    CyclesModel cycles_model;   /* cycles= */
    AddressRange *windows;      /* window=, then windows=functions' */
    unsigned n_windows;
    bool windows_sorted;        /* in order and apart: a binary search */
    AddressRange *functions;    /* functions=FILE, in order */
    unsigned n_functions;
    const FlashPart *flash_part;    /* memory=, or NULL: code in SRAM */
    AddressRange flash;         /* flash= */
    int wait_states;            /* wait-states=, or -1 */
    StopAfter *stops_after;     /* stop= of a count, in their order */
    unsigned n_stops_after;
    StopAtPc *pc_stops;         /* stop=pc: */
    unsigned n_pc_stops;
    uint64_t start_pc;          /* start=, or NO_PC */
    RtosLayout rtos;            /* tasks= */
    AddressRange *probes;       /* probe=, in order and apart */
    unsigned n_probes;
    AddressRange *watch_code;   /* watch=, in order and apart */
    unsigned n_watch_code;
    AddressRange *watch_values; /* watch-value=, in order and apart */
    unsigned n_watch_values;
    /* Not arguments but what QEMU offers: */
    bool threads;               /* vCPUs may run at once: lock shared tables */
    bool counts_blocks;         /* QEMU reports blocks left early (the hook) */
} PerfctrConfig;

/* A module's shared tables, locked only when vCPUs may run at once */
static inline void config_lock(const PerfctrConfig *cfg, GMutex *lock)
{
    if (cfg->threads) {
        g_mutex_lock(lock);
    }
}

static inline void config_unlock(const PerfctrConfig *cfg, GMutex *lock)
{
    if (cfg->threads) {
        g_mutex_unlock(lock);
    }
}

/* Whether a stop or the start is at pc: counts must be settled before */
static inline bool config_stop_point(const PerfctrConfig *config, uint64_t pc)
{
    unsigned i;

    for (i = 0; i < config->n_pc_stops; i++) {
        if (config->pc_stops[i].pc == pc) {
            return true;
        }
    }
    return pc == config->start_pc;
}

#endif
