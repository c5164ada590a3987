/*
 * nRF51 board support: TIMER0 as the board timer and clock, 32 bits at
 * 1 MHz (the part's 16 MHz through its prescaler), started by the first
 * read; a read captures the count into CC[0].  The board timer and the
 * system tick (100 a second) count this clock (firmware/boards/clock/).
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define TIMER0_BASE 0x40008000
#define TASKS_START 0x000
#define TASKS_CAPTURE0 0x040
#define MODE 0x504
#define MODE_TIMER 0
#define BITMODE 0x508
#define BITMODE_32 3
#define PRESCALER 0x510
#define CC0 0x540
#define TIMER_CLOCK_HZ 16000000
#define PRESCALE_BITS 4

#if TIMER_CLOCK_HZ >> PRESCALE_BITS != BOARD_TIMER_HZ
#error "TIMER0 would not count at BOARD_TIMER_HZ"
#endif

static int started;

alt_u64 board_clock_read(void)
{
    if (!started) {
        IOWR_32DIRECT(TIMER0_BASE, MODE, MODE_TIMER);
        IOWR_32DIRECT(TIMER0_BASE, BITMODE, BITMODE_32);
        IOWR_32DIRECT(TIMER0_BASE, PRESCALER, PRESCALE_BITS);
        IOWR_32DIRECT(TIMER0_BASE, TASKS_START, 1);
        started = 1;
    }
    IOWR_32DIRECT(TIMER0_BASE, TASKS_CAPTURE0, 1);
    return IORD_32DIRECT(TIMER0_BASE, CC0);
}
