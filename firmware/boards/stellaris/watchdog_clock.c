/*
 * Stellaris board support: the board timer and clock are the watchdog's
 * count, the one free-running counter of the part that QEMU lets a
 * program read (its general-purpose timers' values read 0).  Once its
 * interrupt is enabled, which also starts it, the watchdog counts down
 * from its load value at SYSCLK and reloads on reaching 0, every 2^32
 * clocks with a load of 0xffffffff; without RESEN it never resets the
 * part, and its interrupt (NVIC line 18) stays masked.  The board timer
 * and the system tick (100 a second) count this clock
 * (firmware/boards/clock/).
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

alt_u64 board_clock_read(void)
{
    if (!(IORD_32DIRECT(WDT_BASE, WDT_CTRL) & WDT_CTRL_INTEN)) {
        IOWR_32DIRECT(WDT_BASE, WDT_LOAD, 0xffffffff);
        IOWR_32DIRECT(WDT_BASE, WDT_CTRL, WDT_CTRL_INTEN);
    }
    /* The count goes down from 0xffffffff */
    return ~IORD_32DIRECT(WDT_BASE, WDT_VALUE);
}
