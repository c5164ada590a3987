/*
 * The console on the MPS2 boards: CMSDK APB UART0 at
 * UART0_BASE (0x40004000, the AN505's 0x40200000, the AN547's
 * 0x49303000) on UART_CLK_HZ (both from meson.build).
 * QEMU sends nothing unless CTRL.TX_EN is set, and complains unless
 * BAUDDIV is 16 or more.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "console_uart.h"

#define UART_DATA 0x00
#define UART_STATE 0x04
#define UART_STATE_TXFULL 1u
#define UART_STATE_RXFULL 2u
#define UART_CTRL 0x08
#define UART_CTRL_TX_EN 1u
#define UART_CTRL_RX_EN 2u
#define UART_BAUDDIV 0x10
#define UART_BAUD 115200

void board_uart_init(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_BAUDDIV, UART_CLK_HZ / UART_BAUD);
    IOWR_32DIRECT(UART0_BASE, UART_CTRL, UART_CTRL_TX_EN);
}

void board_uart_putc(char c)
{
    while (IORD_32DIRECT(UART0_BASE, UART_STATE) & UART_STATE_TXFULL) {
        continue;
    }
    IOWR_32DIRECT(UART0_BASE, UART_DATA, (alt_u8)c);
}

void board_uart_rx_enable(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_CTRL, UART_CTRL_TX_EN | UART_CTRL_RX_EN);
}

int board_uart_getc(void)
{
    if (!(IORD_32DIRECT(UART0_BASE, UART_STATE) & UART_STATE_RXFULL)) {
        return -1;
    }
    return IORD_32DIRECT(UART0_BASE, UART_DATA) & 0xff;
}
