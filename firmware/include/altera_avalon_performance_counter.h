/*
 * Performance counter core: the Nios II HAL driver's API.
 *
 * Programs written for the Altera/Intel HAL compile unchanged: the same
 * macros (each one store to the core), functions and side effects.
 * Extensions of this project are in perfctr.h, not here.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef ALTERA_AVALON_PERFORMANCE_COUNTER_H
#define ALTERA_AVALON_PERFORMANCE_COUNTER_H

#include "alt_types.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The macros take the base as an integer (system.h's
 * PERFORMANCE_COUNTER_BASE) or a pointer: IOWR casts it.
 */
/* Stop and zero every counter, event count and section flag */
#define PERF_RESET(p) IOWR((p), 0, 1)
/* Start the global counter (counts one global event) */
#define PERF_START_MEASURING(p) IOWR((p), 1, 0)
/* Stop the global counter; begun sections pause with it */
#define PERF_STOP_MEASURING(p) IOWR((p), 0, 0)
/* Begin section n (1..); counts an occurrence if the core is started */
#define PERF_BEGIN(p, n) IOWR((p), (n) * 4 + 1, 0)
/* End section n */
#define PERF_END(p, n) IOWR((p), (n) * 4, 0)

/* What a BSP's generated alt_sys_init.c expands for each core */
#define ALTERA_AVALON_PERFORMANCE_COUNTER_INSTANCE(name, dev) \
    extern int alt_no_storage
#define ALTERA_AVALON_PERFORMANCE_COUNTER_INIT(name, dev) \
    PERF_RESET(name##_BASE)

/*
 * The functions' base parameter.  The vendor declares it void *, and
 * programs pass system.h's integer PERFORMANCE_COUNTER_BASE as often as
 * a pointer.  A transparent union (a GCC extension, the one glibc used
 * for wait()) takes either without a diagnostic and is passed exactly
 * as its first member, the void *.  GCC also accepts a redeclaration
 * with the vendor's plain void * as compatible: a program that repeats
 * the vendor's prototypes still compiles (after it, that program's calls
 * check against void * as the vendor's would).  See
 * docs/porting-from-nios2.md.
 */
#ifdef __cplusplus
typedef void *perfctr_base_t;
#else
typedef union {
    void *pointer;
    int i;
    unsigned int u;
    long l;
    unsigned long ul;
} __attribute__((transparent_union)) perfctr_base_t;
#endif

/*
 * The getters and the report check once per base that a core answers
 * there (its MAGIC register): if none does, they print why to stderr
 * and exit(1) instead of returning zeros.
 */
/* Stops the global counter, then reads section n's 64-bit time */
alt_u64 perf_get_section_time(perfctr_base_t hw_base_address,
                              int which_section);
/* Stops the global counter, then reads its 64-bit time */
alt_u64 perf_get_total_time(perfctr_base_t hw_base_address);
/* Occurrences of section n (n = 0: global starts); stops nothing */
alt_u32 perf_get_num_starts(perfctr_base_t hw_base_address,
                            int which_section);
/* CPU clock in Hz: ALT_CPU_FREQ from the board's system.h */
alt_u32 alt_get_cpu_freq(void);
/* The first core: PERFORMANCE_COUNTER_0_BASE from system.h */
void *alt_get_performance_counter_base(void);

/*
 * Stop the global counter and print the report table to stdout, one
 * row per section, named by the num_sections strings that follow.
 * Returns 0.  Not for ISRs.
 */
int perf_print_formatted_report(perfctr_base_t perf_base,
                                alt_u32 clock_freq_hertz,
                                int num_sections, ...);

#ifdef __cplusplus
}
#endif

#endif
