/*
 * Cortex-M board support: reading an address that may be empty.  QEMU
 * fills the unused peripheral space of these boards with
 * "unimplemented" devices that read 0 (and lm3s6965evb reads 0 wherever
 * nothing is), so a plain load tells an empty address by its value.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"

int board_probe_read(alt_u32 addr, alt_u32 *value)
{
    *value = IORD_32DIRECT(addr, 0);
    return 0;
}

/*
 * A load or store where nothing answers at all (outside the peripheral
 * space) is a BusFault, escalated to HardFault: picolibc's handler
 * prints the registers and exits with 1; nothing to add here.  (On
 * lm3s6965evb QEMU ignores it, as it always has for that board.)
 */
void board_fault_report_install(void)
{
}
