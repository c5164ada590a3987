/*
 * Stellaris board support: the board timer and clock are the watchdog's
 * count, the one free-running counter of the part that QEMU lets a
 * program read (its general-purpose timers' values read 0).  Once its
 * interrupt is enabled, which also starts it, the watchdog counts down
 * from its load value at SYSCLK and reloads on reaching 0, every 2^32
 * clocks with a load of 0xffffffff; without RESEN it never resets the
 * part, and its interrupt (NVIC line 18) stays masked.  The system tick
 * is the clock's, 100 a second.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define WDT_BASE 0x40000000
#define WDT_LOAD 0x000
#define WDT_VALUE 0x004
#define WDT_CTRL 0x008
#define WDT_CTRL_INTEN 1u           /* starts the count; set once */

static alt_u32 timer_start;

alt_u64 board_clock_read(void)
{
    if (!(IORD_32DIRECT(WDT_BASE, WDT_CTRL) & WDT_CTRL_INTEN)) {
        IOWR_32DIRECT(WDT_BASE, WDT_LOAD, 0xffffffff);
        IOWR_32DIRECT(WDT_BASE, WDT_CTRL, WDT_CTRL_INTEN);
    }
    /* The count goes down from 0xffffffff */
    return ~IORD_32DIRECT(WDT_BASE, WDT_VALUE);
}

void board_timer_start(void)
{
    timer_start = board_clock_read();
}

alt_u32 board_timer_read(void)
{
    return board_clock_read() - timer_start;
}

alt_u32 board_nticks(void)
{
    return board_clock_read() / (BOARD_TIMER_HZ / BOARD_TICKS_PER_SECOND);
}
