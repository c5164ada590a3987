/*
 * The console on the boards with a PL011 (arm-virt,
 * raspi1ap, lm3s6965evb): UART0_BASE comes from meson.build.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "console_uart.h"

#define PL011_DR 0x000
#define PL011_FR 0x018
#define PL011_FR_RXFE (1u << 4)
#define PL011_FR_TXFF (1u << 5)
#define PL011_CR 0x030
#define PL011_CR_UARTEN (1u << 0)
#define PL011_CR_TXE (1u << 8)
#define PL011_CR_RXE (1u << 9)

void board_uart_init(void)
{
    IOWR_32DIRECT(UART0_BASE, PL011_CR, PL011_CR_UARTEN | PL011_CR_TXE);
}

void board_uart_putc(char c)
{
    while (IORD_32DIRECT(UART0_BASE, PL011_FR) & PL011_FR_TXFF) {
        continue;
    }
    IOWR_32DIRECT(UART0_BASE, PL011_DR, (alt_u8)c);
}

void board_uart_rx_enable(void)
{
    IOWR_32DIRECT(UART0_BASE, PL011_CR,
                  PL011_CR_UARTEN | PL011_CR_TXE | PL011_CR_RXE);
}

int board_uart_getc(void)
{
    if (IORD_32DIRECT(UART0_BASE, PL011_FR) & PL011_FR_RXFE) {
        return -1;
    }
    return IORD_32DIRECT(UART0_BASE, PL011_DR) & 0xff;
}
