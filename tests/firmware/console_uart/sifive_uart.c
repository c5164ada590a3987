/*
 * The console on sifive_e: the FE310's UART0 at UART0_BASE
 * (from meson.build).  It sends once txctrl.txen is set; a byte may be
 * written while txdata's FULL bit is clear.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "console_uart.h"

#define UART_TXDATA 0x00
#define UART_TXDATA_FULL (1u << 31)
#define UART_RXDATA 0x04
#define UART_RXDATA_EMPTY (1u << 31)
#define UART_TXCTRL 0x08
#define UART_TXCTRL_TXEN 1u
#define UART_RXCTRL 0x0c
#define UART_RXCTRL_RXEN 1u

void board_uart_init(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_TXCTRL, UART_TXCTRL_TXEN);
}

void board_uart_putc(char c)
{
    while (IORD_32DIRECT(UART0_BASE, UART_TXDATA) & UART_TXDATA_FULL) {
        continue;
    }
    IOWR_32DIRECT(UART0_BASE, UART_TXDATA, (alt_u8)c);
}

void board_uart_rx_enable(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_RXCTRL, UART_RXCTRL_RXEN);
}

int board_uart_getc(void)
{
    alt_u32 data = IORD_32DIRECT(UART0_BASE, UART_RXDATA);

    return data & UART_RXDATA_EMPTY ? -1 : (int)(data & 0xff);
}
