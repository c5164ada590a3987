/*
 * perfctr plugin: the memory system of the timing models (flash parts
 * with wait states, prefetch buffers and caches), memory.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_CYCLES_MEMORY_H
#define PERFCTR_CYCLES_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <qemu-plugin.h>

#include "config.h"
#include "cycles/model.h"

struct FlashPart {
    const char *name;           /* as memory= names it */
    const char *describes;      /* the part and its clock */
    unsigned wait_states;
    unsigned line;              /* bytes a read gives; 0: not modelled */
    bool prefetch;              /* the next line is read while one runs */
    unsigned icache_lines;      /* lines an instruction cache holds */
    unsigned dcache_lines;      /* and a data cache */
    /* What a load from SRAM that does not follow a load waits */
    unsigned sram_first_load;
    /*
     * A second SRAM on a bus of its own (STM32F4: SRAM2), a memory
     * block apart from the first for pipelining; empty: none
     */
    AddressRange sram2;
};

/* The part memory= names; NULL if there is none */
const FlashPart *memory_part_named(const char *name);
/* The names memory= takes, for a message */
const char *memory_part_names(void);

/*
 * The part of config (memory=, wait-states=), its flash where config
 * says (flash=)
 */
void memory_init(const PerfctrConfig *config);
const FlashPart *memory_part(void);
/* The wait states a taken branch's refill pays when it is scheduled */
unsigned memory_refill_wait_states(void);
/* A vCPU was created: its caches */
void memory_vcpu_init(unsigned vcpu);
/* Whether an access may add cycles as it runs (a part is modelled) */
bool memory_adds_while_running(void);
/* Stretch a block's schedule where the flash is too slow for it */
void memory_schedule(struct qemu_plugin_tb *tb, const CyclesInsn *insns,
                     size_t n, unsigned *cost, int window);
/*
 * A load, or a store pipelined behind a load: a load W more cycles when
 * it reads flash, the part's SRAM wait when it reads SRAM and is not
 * pipelined behind a load (first); either a cycle more when the
 * schedule pipelined it behind a load (behind) of another memory block
 * (ahead: the next one is behind this one)
 */
void memory_instrument_access(struct qemu_plugin_insn *insn, int window,
                              bool first, bool behind, bool ahead);

#endif
