/*
 * riscv32-virt board support: the ACLINT machine timer (mtime) as the
 * board timer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"

#define MTIME_LO 0x0200bff8

static alt_u32 timer_start;

void board_timer_start(void)
{
    timer_start = IORD_32DIRECT(MTIME_LO, 0);
}

alt_u32 board_timer_read(void)
{
    return IORD_32DIRECT(MTIME_LO, 0) - timer_start;
}
