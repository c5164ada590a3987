/*
 * Nios II HAL timestamp driver API: a free-running count of the board
 * clock (board.h), BOARD_TIMER_HZ, true to QEMU's virtual time.
 *
 * alt_timestamp_type is, as in the HAL, as wide as the timer: 32 bits on
 * MPS2 (wraps after 2^32 / 25 MHz = 171.8 s), 64 bits on the virt boards.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef __ALT_TIMESTAMP_H__
#define __ALT_TIMESTAMP_H__

#include "alt_types.h"
#include "system.h"

#if BOARD_CLOCK_BITS == 64
#define alt_timestamp_type alt_u64
#else
#define alt_timestamp_type alt_u32
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Zero the timestamp; returns 0 (there is always a timestamp timer) */
extern int alt_timestamp_start(void);
/* Board clock ticks since alt_timestamp_start(); 0 before it */
extern alt_timestamp_type alt_timestamp(void);
/* Ticks per second: BOARD_TIMER_HZ */
extern alt_u32 alt_timestamp_freq(void);

#ifdef __cplusplus
}
#endif

#endif
