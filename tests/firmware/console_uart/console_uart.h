/*
 * console_uart: the board's console UART, polled, for the test
 * programs that talk on it as real firmware does (uart_ticker, shell).
 * One driver per UART model (cmsdk_uart.c, pl011.c, ns16550.c,
 * sifive_uart.c, nrf51_uart.c); meson.build picks the board's and
 * gives its UART0_BASE (and the clock of the CMSDK UART).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef CONSOLE_UART_H
#define CONSOLE_UART_H

/* Set the UART up to send */
void board_uart_init(void);
void board_uart_putc(char c);
/* Set it up to receive too */
void board_uart_rx_enable(void);
/* The next received byte, or -1 if none has arrived */
int board_uart_getc(void);

#endif
