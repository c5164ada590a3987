/*
 * RISC-V board support (riscv32-virt, sifive_e: SiFive's CLINT at
 * 0x02000000 on both): the machine timer (mtime, 64 bits, counting
 * virtual time from reset, at BOARD_TIMER_HZ) as the board clock, which
 * the board timer and the system tick count (firmware/boards/clock/).
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define MTIME_LO 0x0200bff8
#define MTIME_HI 0x0200bffc

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
