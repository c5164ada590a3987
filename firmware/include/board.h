/*
 * What every board provides besides the performance counter: a guest
 * timer of its own, to compare with the counter and to wait on.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef BOARD_H
#define BOARD_H

#include "alt_types.h"

/* Start the board's free-running timer (BOARD_TIMER_HZ in system.h) */
void board_timer_start(void);
/* Ticks since board_timer_start(), wrapping at 2^32 */
alt_u32 board_timer_read(void);

#endif
