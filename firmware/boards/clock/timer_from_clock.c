/*
 * Board support where the board timer is the board clock
 * (board_clock_read(), the board's own file) counted from a start: its
 * low 32 bits, right across a wrap of a 32-bit clock.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"

static alt_u64 timer_start;

void board_timer_start(void)
{
    timer_start = board_clock_read();
}

alt_u32 board_timer_read(void)
{
    return (alt_u32)(board_clock_read() - timer_start);
}
