/*
 * What the test firmware needs from each architecture and board.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include "alt_types.h"

/* Sleep (so that -icount skips the time) for at least this many seconds
 * by the board timer, which must be started (a second at a time: at
 * 32 MHz its 32 bits wrap in 134 s) */
void test_idle_wait(alt_u32 seconds);

/* Hand-written scenarios (ARCH/scenarios.S): counts in the comments */
void scenario_loop(void *base, alt_u32 n);
void scenario_begin_while_stopped(void *base, alt_u32 n);
void scenario_repeated_begin(void *base, alt_u32 n);
void scenario_two_counters(void *first, void *second, alt_u32 n);
/* 2n + 1 instructions (with the return), touching no counter */
void scenario_spin(alt_u32 n);

#endif
