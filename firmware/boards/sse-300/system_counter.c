/*
 * SSE-300 board support: the system counter (the Armv8-M system
 * timestamp generator, 64 bits, on the processor clock) as the board
 * clock, which the board timer counts (firmware/boards/clock/).  It
 * stops at reset; the first read starts it.  Its control frame is Secure
 * only, where this firmware runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define CNTCR 0         /* word offsets */
#define CNTCV_LO 2
#define CNTCV_HI 3
#define CNTCR_EN 1

alt_u64 board_clock_read(void)
{
    alt_u32 hi, lo;

    if (!(IORD(BOARD_SYSTEM_COUNTER_BASE, CNTCR) & CNTCR_EN)) {
        IOWR(BOARD_SYSTEM_COUNTER_BASE, CNTCR, CNTCR_EN);
    }
    /* Read the high word again if the low word wrapped in between */
    do {
        hi = IORD(BOARD_SYSTEM_COUNTER_BASE, CNTCV_HI);
        lo = IORD(BOARD_SYSTEM_COUNTER_BASE, CNTCV_LO);
    } while (hi != IORD(BOARD_SYSTEM_COUNTER_BASE, CNTCV_HI));
    return (alt_u64)hi << 32 | lo;
}
