/*
 * RISC-V board support (riscv32-virt, sifive_e: SiFive's CLINT at
 * 0x02000000 on both): the machine timer (mtime, 64 bits, counting
 * virtual time from reset, at BOARD_TIMER_HZ) as the board timer, the
 * board clock and the source of the system tick.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define MTIME_LO 0x0200bff8
#define MTIME_HI 0x0200bffc

static alt_u32 timer_start;

void board_timer_start(void)
{
    timer_start = IORD_32DIRECT(MTIME_LO, 0);
}

alt_u32 board_timer_read(void)
{
    return IORD_32DIRECT(MTIME_LO, 0) - timer_start;
}

alt_u64 board_clock_read(void)
{
    alt_u32 hi, lo;

    /* Read hi again until it did not change across the lo read */
    do {
        hi = IORD_32DIRECT(MTIME_HI, 0);
        lo = IORD_32DIRECT(MTIME_LO, 0);
    } while (IORD_32DIRECT(MTIME_HI, 0) != hi);
    return (alt_u64)hi << 32 | lo;
}

alt_u32 board_nticks(void)
{
    return (alt_u32)(board_clock_read() /
                     (BOARD_TIMER_HZ / BOARD_TICKS_PER_SECOND));
}
