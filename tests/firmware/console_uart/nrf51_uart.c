/*
 * The console on the nRF51 (microbit): its UART at UART0_BASE
 * (from meson.build).  A byte goes out once TX is started; the next may
 * be written when TXDRDY says the last one left (QEMU drops a byte
 * written before).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "console_uart.h"

#define UART_STARTRX 0x000
#define UART_STARTTX 0x008
#define UART_RXDRDY 0x108
#define UART_TXDRDY 0x11c
#define UART_ENABLE 0x500
#define UART_ENABLE_ON 4
#define UART_RXD 0x518
#define UART_TXD 0x51c

void board_uart_init(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_ENABLE, UART_ENABLE_ON);
    IOWR_32DIRECT(UART0_BASE, UART_STARTTX, 1);
}

void board_uart_putc(char c)
{
    IOWR_32DIRECT(UART0_BASE, UART_TXD, (alt_u8)c);
    while (!IORD_32DIRECT(UART0_BASE, UART_TXDRDY)) {
        continue;
    }
    IOWR_32DIRECT(UART0_BASE, UART_TXDRDY, 0);
}

void board_uart_rx_enable(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_STARTRX, 1);
}

int board_uart_getc(void)
{
    if (!IORD_32DIRECT(UART0_BASE, UART_RXDRDY)) {
        return -1;
    }
    IOWR_32DIRECT(UART0_BASE, UART_RXDRDY, 0);
    return IORD_32DIRECT(UART0_BASE, UART_RXD) & 0xff;
}
