/*
 * What the events test programs share: the hand-written code of
 * ISA/events.S, and the recording of section 1's threshold interrupt
 * (events_threshold.c, also for cycles_clock.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef EVENTS_H
#define EVENTS_H

#include "alt_types.h"

/* events.S: counts in its comments */
void events_loop(void *base, int n, alt_u32 *buffer);
void events_run(void *base, alt_u32 *buffer);
void events_arith(void *base, int n);
/* Where loads and stores may fail their condition: Arm, but Armv6-M */
#if defined(__arm__) && !(defined(__thumb__) && __ARM_ARCH_ISA_THUMB < 2)
#define EVENTS_CONDITIONAL 1
void events_conditional(void *base, alt_u32 *buffer);
extern char events_conditional_after_load[];
#endif
/* Whether events_arith divides (the core has a divide instruction) */
#if defined(__ARM_FEATURE_IDIV) || defined(__riscv_div)
#define EVENTS_ARITH_DIVIDES 1
#else
#define EVENTS_ARITH_DIVIDES 0
#endif
extern char events_run_loads[];

/* Section 1's threshold interrupts taken, and the last one's pc */
extern volatile int events_taken;
extern volatile alt_u32 events_taken_pc;

/*
 * For an interrupt handler: if section 1's threshold flag is set,
 * disarm it, acknowledge it and record pc
 */
void events_take_threshold(void *p, alt_u32 pc);
/* An interrupt handler (perfctr_irq_attach) that does only that */
void events_threshold_handler(alt_u32 base, alt_u32 pc, void *context);

/* The last threshold's pc from label (events_run_loads...), in bytes */
long events_taken_offset(const char *label);

#endif
