/*
 * Board support where the system tick is the board clock's
 * (board_clock_read(), the board's own file): BOARD_TICKS_PER_SECOND
 * of BOARD_TIMER_HZ clocks each.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "system.h"

#if BOARD_TIMER_HZ % BOARD_TICKS_PER_SECOND
#error "a system tick would not be a whole number of board clocks"
#endif

alt_u32 board_nticks(void)
{
    return (alt_u32)(board_clock_read() /
                     (BOARD_TIMER_HZ / BOARD_TICKS_PER_SECOND));
}
