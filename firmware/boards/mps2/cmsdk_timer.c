/*
 * MPS2 board support: CMSDK APB timer 0 as the board timer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"

#define TIMER0_BASE 0x40000000
#define TIMER_CTRL 0    /* word offsets */
#define TIMER_VALUE 1
#define TIMER_RELOAD 2
#define TIMER_CTRL_ENABLE 1

void board_timer_start(void)
{
    IOWR(TIMER0_BASE, TIMER_CTRL, 0);
    IOWR(TIMER0_BASE, TIMER_RELOAD, 0xffffffff);
    IOWR(TIMER0_BASE, TIMER_VALUE, 0xffffffff);
    IOWR(TIMER0_BASE, TIMER_CTRL, TIMER_CTRL_ENABLE);
}

alt_u32 board_timer_read(void)
{
    /* The timer counts down from 0xffffffff */
    return ~IORD(TIMER0_BASE, TIMER_VALUE);
}
