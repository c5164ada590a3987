/*
 * arm-virt board support: the Arm generic timer's virtual count as the
 * board timer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"

static alt_u64 timer_start;

static alt_u64 read_cntvct(void)
{
    alt_u32 lo, hi;

    __asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14"
                     : "=r"(lo), "=r"(hi));
    return (alt_u64)hi << 32 | lo;
}

void board_timer_start(void)
{
    timer_start = read_cntvct();
}

alt_u32 board_timer_read(void)
{
    return (alt_u32)(read_cntvct() - timer_start);
}
