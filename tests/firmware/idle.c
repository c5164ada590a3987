/*
 * Idle waiting on every board: WFI through the library's board_sleep().
 * Under -icount with sleep=off QEMU jumps virtual time to the next
 * timer event while the CPU sleeps, so a long wait costs no host time.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "system.h"
#include "test_support.h"

void test_idle_wait(alt_u32 timer_ticks)
{
    alt_u32 start = board_timer_read();
    alt_u32 elapsed;

    while ((elapsed = board_timer_read() - start) < timer_ticks) {
        alt_u32 left = timer_ticks - elapsed;

        /* board_sleep() sleeps a second at most */
        board_sleep(left < BOARD_TIMER_HZ ? left : BOARD_TIMER_HZ);
    }
}
