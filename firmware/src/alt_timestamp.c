/*
 * Nios II HAL timestamp on the board clock.  The clock itself is never
 * reset (usleep() and others count on it); a start only moves the
 * origin.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "sys/alt_timestamp.h"

static alt_u64 origin;
static int started;

int alt_timestamp_start(void)
{
    origin = board_clock_read();
    started = 1;
    return 0;
}

alt_timestamp_type alt_timestamp(void)
{
    if (!started) {
        return 0;
    }
    /* Modulo the clock's width: right across a wrap of a 32-bit clock */
    return (alt_timestamp_type)(board_clock_read() - origin);
}

alt_u32 alt_timestamp_freq(void)
{
    return BOARD_TIMER_HZ;
}
