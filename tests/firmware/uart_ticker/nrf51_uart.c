/*
 * uart_ticker's console on the nRF51 (microbit): its UART at UART0_BASE
 * (from meson.build).  A byte goes out once TX is started; the next may
 * be written when TXDRDY says the last one left (QEMU drops a byte
 * written before).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "uart_ticker.h"

#define UART_STARTTX 0x008
#define UART_TXDRDY 0x11c
#define UART_ENABLE 0x500
#define UART_ENABLE_ON 4
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
