/*
 * uart_ticker: what the program's common part (uart_ticker.c) and each
 * board's part (board_*.c, start_*.S) give each other.  See
 * uart_ticker.c for what the program does.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef UART_TICKER_H
#define UART_TICKER_H

#include "alt_types.h"
#include "console_uart.h"

/* The tick: 1 kHz of the board's virtual time */
#define TICK_HZ 1000

/* Counted by tick_handler(), once per tick */
extern volatile alt_u32 ticks;

/* Common part (uart_ticker.c) */
void tick_handler(void);
void uart_ticker_init_memory(void);
void uart_puts(const char *s);
/* Say on the UART that the program faulted (what, code), and stop */
void uart_ticker_fault(const char *what, alt_u32 code);
int main(void);

/* Board part (board_*.c, and the console UART's driver) */
/*
 * Program the first compare 1 ms from now and enable the tick's
 * interrupt; every later compare is the previous one plus 1 ms, set by
 * the board's interrupt entry before it calls tick_handler()
 */
void board_tick_start(void);

/*
 * Arm boards with a VBAR (start_arm.S's vectors): acknowledge the IRQ and
 * set the next compare, return nonzero if it was the tick; report an
 * exception (0 reset, 1 undefined, 2 SVC, 3 prefetch abort, 4 data
 * abort, 5 reserved, 7 FIQ) and stop
 */
int board_irq_ack(void);
void board_fault(int what);

#endif
