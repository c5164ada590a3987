/*
 * arm-virt board support: the Arm generic timer's virtual count
 * (CNTVCT, 64 bits, counting virtual time from reset) as the board
 * clock, which the board timer and the system tick count
 * (firmware/boards/clock/).
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "system.h"

alt_u64 board_clock_read(void)
{
    alt_u32 lo, hi;

    __asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14"
                     : "=r"(lo), "=r"(hi));
    return (alt_u64)hi << 32 | lo;
}
