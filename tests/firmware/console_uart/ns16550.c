/*
 * The console on riscv32-virt: its NS16550A UART0 at
 * UART0_BASE (from meson.build); LSR.THRE before THR.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "console_uart.h"

#define UART_THR 0
#define UART_RBR 0
#define UART_LSR 5
#define UART_LSR_DR (1u << 0)
#define UART_LSR_THRE (1u << 5)

void board_uart_init(void)
{
    /* QEMU's 16550 needs no setup to send */
}

void board_uart_putc(char c)
{
    volatile alt_u8 *uart = (volatile alt_u8 *)UART0_BASE;

    while (!(uart[UART_LSR] & UART_LSR_THRE)) {
        continue;
    }
    uart[UART_THR] = (alt_u8)c;
}

void board_uart_rx_enable(void)
{
    /* It receives from reset */
}

int board_uart_getc(void)
{
    volatile alt_u8 *uart = (volatile alt_u8 *)UART0_BASE;

    if (!(uart[UART_LSR] & UART_LSR_DR)) {
        return -1;
    }
    return uart[UART_RBR];
}
