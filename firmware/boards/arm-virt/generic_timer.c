/*
 * arm-virt board support: the Arm generic timer's virtual count
 * (CNTVCT, 64 bits, counting virtual time from reset) as the board
 * timer, the board clock and the source of the system tick.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "system.h"

static alt_u64 timer_start;

alt_u64 board_clock_read(void)
{
    alt_u32 lo, hi;

    __asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14"
                     : "=r"(lo), "=r"(hi));
    return (alt_u64)hi << 32 | lo;
}

void board_timer_start(void)
{
    timer_start = board_clock_read();
}

alt_u32 board_timer_read(void)
{
    return (alt_u32)(board_clock_read() - timer_start);
}

alt_u32 board_nticks(void)
{
    return (alt_u32)(board_clock_read() /
                     (BOARD_TIMER_HZ / BOARD_TICKS_PER_SECOND));
}
