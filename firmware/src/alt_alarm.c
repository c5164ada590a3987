/*
 * Nios II HAL system clock: the board's free-running system tick.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "system.h"
#include "sys/alt_alarm.h"

alt_u32 alt_ticks_per_second(void)
{
    return BOARD_TICKS_PER_SECOND;
}

alt_u32 alt_nticks(void)
{
    return board_nticks();
}
