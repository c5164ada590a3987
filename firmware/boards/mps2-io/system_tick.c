/*
 * MPS2 board support: the system tick is the FPGA I/O block's 100 Hz
 * counter (CLK100HZ), which counts virtual time from reset on its own:
 * no interrupt, nothing to start.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define FPGAIO_CLK100HZ (BOARD_FPGAIO_BASE + 0x14)

#if BOARD_TICKS_PER_SECOND != 100
#error "CLK100HZ ticks 100 times a second"
#endif

alt_u32 board_nticks(void)
{
    return IORD_32DIRECT(FPGAIO_CLK100HZ, 0);
}
