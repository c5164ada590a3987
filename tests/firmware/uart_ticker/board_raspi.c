/*
 * uart_ticker on raspi1ap (QEMU "raspi1ap", BCM2835, ARM1176JZF-S, Arm
 * state; QEMU starts a -kernel ELF at its entry in Secure SVC mode;
 * hw/arm/bcm2835_peripherals.c, include/hw/arm/raspi_platform.h):
 *
 * - UART: PL011 UART0 at 0x20201000 (UARTEN | TXE; FR.TXFF before DR).
 * - Tick: the BCM2835 system timer (0x20003000), 1 MHz (system.h's
 *   BOARD_TIMER_HZ), compare channel 1: each compare (C1, matched
 *   against the low 32 bits of the count) is the previous one + 1000,
 *   exactly 1 ms; under -icount shift=0 that is 1,000,000 instructions.
 *   Its match raises GPU interrupt 1 (IRQ pending 1 bit 1, enabled
 *   through Enable IRQs 1) at the interrupt controller (0x2000b200), a
 *   level until CS.M1 is written 1.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "system.h"
#include "uart_ticker.h"


#define SYSTIMER_BASE 0x20003000
#define SYSTIMER_CS 0x00        /* match flags, write 1 to clear */
#define SYSTIMER_CLO 0x04
#define SYSTIMER_C1 0x10
#define SYSTIMER_M1 (1u << 1)

#define IC_BASE 0x2000b200
#define IC_PENDING_1 0x04
#define IC_ENABLE_1 0x10
#define IRQ_SYSTIMER_1 1        /* GPU interrupt 1 */

#define TIMER_PERIOD (BOARD_TIMER_HZ / TICK_HZ)

static alt_u32 next_compare;

void board_tick_start(void)
{
    IOWR_32DIRECT(SYSTIMER_BASE, SYSTIMER_CS, SYSTIMER_M1);
    next_compare = IORD_32DIRECT(SYSTIMER_BASE, SYSTIMER_CLO) + TIMER_PERIOD;
    IOWR_32DIRECT(SYSTIMER_BASE, SYSTIMER_C1, next_compare);
    IOWR_32DIRECT(IC_BASE, IC_ENABLE_1, 1u << IRQ_SYSTIMER_1);
    __asm__ volatile("cpsie i" : : : "memory");
}

/* From irq_entry (start_arm.S) */
int board_irq_ack(void)
{
    alt_u32 pending = IORD_32DIRECT(IC_BASE, IC_PENDING_1);

    if (!(pending & (1u << IRQ_SYSTIMER_1))) {
        return 0;
    }
    /* Clear the match (drops the line), then the next tick 1 ms later */
    IOWR_32DIRECT(SYSTIMER_BASE, SYSTIMER_CS, SYSTIMER_M1);
    next_compare += TIMER_PERIOD;
    IOWR_32DIRECT(SYSTIMER_BASE, SYSTIMER_C1, next_compare);
    return 1;
}

void board_fault(int what)
{
    uart_ticker_fault("exception", what);
}
