/*
 * Board support of QEMU's Arm virt board (arm-virt, aarch64-virt): the
 * generic timer's virtual count (CNTVCT, 64 bits, counting virtual time
 * from reset) as the board clock, which the board timer and the system
 * tick count (firmware/boards/clock/).
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "generic_timer.h"

alt_u64 board_clock_read(void)
{
    return generic_timer_count();
}
