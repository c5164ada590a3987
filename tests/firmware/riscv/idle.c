/*
 * Idle waiting on RISC-V: WFI, woken by the machine timer.  Under
 * -icount with sleep=off QEMU jumps virtual time to the next timer event
 * while the hart sleeps, so a long wait costs no host time.  Interrupts
 * stay globally disabled (mstatus.MIE = 0): WFI wakes on a pending
 * enabled interrupt all the same, and no handler is needed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"
#include "test_support.h"

#define MTIMECMP_LO 0x02004000
#define MTIMECMP_HI 0x02004004
#define MTIME_LO 0x0200bff8
#define MIE_MTIE (1u << 7)

void test_idle_wait(alt_u32 timer_ticks)
{
    alt_u32 start = board_timer_read();

    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE));
    while (board_timer_read() - start < timer_ticks) {
        /* Wake about once a second; no overflow of the low word below */
        alt_u32 next = IORD_32DIRECT(MTIME_LO, 0) + BOARD_TIMER_HZ;

        IOWR_32DIRECT(MTIMECMP_HI, 0, 0xffffffff);
        IOWR_32DIRECT(MTIMECMP_LO, 0, next);
        IOWR_32DIRECT(MTIMECMP_HI, 0, 0);
        __asm__ volatile("wfi");
    }
    __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE));
}
