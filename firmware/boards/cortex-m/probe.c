/*
 * Cortex-M board support: reading an address that may be empty.  On the
 * MPS2 boards QEMU fills the unused peripheral space with
 * "unimplemented" devices that read 0, so a plain load tells an empty
 * address by its value.
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
 * prints the registers and exits with 1; nothing to add here.
 */
void board_fault_report_install(void)
{
}
