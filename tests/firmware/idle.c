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

void test_idle_wait(alt_u32 seconds)
{
    while (seconds--) {
        alt_u32 start = board_timer_read();
        alt_u32 elapsed;

        /* board_sleep() sleeps a second at most */
        while ((elapsed = board_timer_read() - start) < BOARD_TIMER_HZ) {
            board_sleep(BOARD_TIMER_HZ - elapsed);
        }
    }
}
