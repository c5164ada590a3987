/*
 * MPS2 board support: CMSDK APB timer 0 as the board timer, timer 1 as
 * the free-running board clock (32 bits).
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"

#define TIMER0_BASE 0x40000000
#define TIMER1_BASE 0x40001000
#define TIMER_CTRL 0    /* word offsets */
#define TIMER_VALUE 1
#define TIMER_RELOAD 2
#define TIMER_CTRL_ENABLE 1

static void start(alt_u32 base)
{
    IOWR(base, TIMER_CTRL, 0);
    IOWR(base, TIMER_RELOAD, 0xffffffff);
    IOWR(base, TIMER_VALUE, 0xffffffff);
    IOWR(base, TIMER_CTRL, TIMER_CTRL_ENABLE);
}

void board_timer_start(void)
{
    start(TIMER0_BASE);
}

alt_u32 board_timer_read(void)
{
    /* The timer counts down from 0xffffffff */
    return ~IORD(TIMER0_BASE, TIMER_VALUE);
}

alt_u64 board_clock_read(void)
{
    if (!(IORD(TIMER1_BASE, TIMER_CTRL) & TIMER_CTRL_ENABLE)) {
        start(TIMER1_BASE);
    }
    return ~IORD(TIMER1_BASE, TIMER_VALUE);
}
