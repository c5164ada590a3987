/*
 * raspi board support: the BCM2835 system timer's free-running 64-bit
 * count (CHI:CLO, 1 MHz, counting virtual time from reset) as the board
 * clock, which the board timer and the system tick count
 * (firmware/boards/clock/).
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "raspi.h"
#include "system.h"

alt_u64 board_clock_read(void)
{
    alt_u32 hi, lo;

    /* CLO wraps into CHI between two reads at most once */
    do {
        hi = IORD_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CHI);
        lo = IORD_32DIRECT(BCM2835_SYSTIMER_BASE, BCM2835_SYSTIMER_CLO);
    } while (hi != IORD_32DIRECT(BCM2835_SYSTIMER_BASE,
                                 BCM2835_SYSTIMER_CHI));
    return (alt_u64)hi << 32 | lo;
}
