/*
 * uart_ticker on the Arm boards with a VBAR: arm-virt (QEMU "virt",
 * Cortex-A15, started in SVC mode) and raspi1ap (BCM2835, ARM1176JZF-S,
 * started in Secure SVC mode), in Arm state, and aarch64-virt (Cortex-A53
 * at EL1, start_aarch64.S):
 *
 * - UART: PL011 UART0 (pl011.c) at 0x09000000 on the virt boards,
 *   0x20201000 on raspi1ap.
 * - Tick: the board's timer through its interrupt controller
 *   (../arm_tick/<board>.c), each compare the previous one plus 1 ms;
 *   under -icount shift=0 that is 1,000,000 instructions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arm_tick.h"
#include "sys/alt_irq.h"
#include "uart_ticker.h"

void board_tick_start(void)
{
    arm_tick_start(1000000 / TICK_HZ);
    alt_irq_enable_all(1);              /* as if they had been enabled */
}

/* From irq_entry (start_arm.S, start_aarch64.S) */
int board_irq_ack(void)
{
    return arm_tick_ack();
}

void board_fault(int what)
{
    uart_ticker_fault("exception", what);
}
