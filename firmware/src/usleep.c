/*
 * usleep() (unistd.h) as the Nios II HAL offers it: waits that long in
 * virtual time, measured on the board clock, sleeping in WFI between
 * timer wake-ups so that QEMU skips the time instead of running a busy
 * loop.  Interrupts are masked while the CPU sleeps (see board.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <unistd.h>
#include "board.h"
#include "system.h"

int usleep(useconds_t us)
{
    /*
     * Round up, and one tick more: the clock may be part-way through
     * its first tick, so that counting whole ticks alone could return
     * early by up to a tick (a microsecond on raspi's 1 MHz clock)
     */
    alt_u64 left = ((alt_u64)us * BOARD_TIMER_HZ + 999999) / 1000000 + 1;
    alt_u64 last = board_clock_read();

    while (left > 0) {
        alt_u64 now;
        alt_u32 passed;

        board_sleep(left > BOARD_TIMER_HZ ? BOARD_TIMER_HZ : (alt_u32)left);
        now = board_clock_read();
        /* At most a second or so since last: right on a 32-bit clock */
        passed = (alt_u32)(now - last);
        last = now;
        left = passed >= left ? 0 : left - passed;
    }
    return 0;
}
