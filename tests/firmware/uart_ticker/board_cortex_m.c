/*
 * uart_ticker on the MPS2 boards (mps2-an385 Cortex-M3, mps2-an386
 * Cortex-M4, mps2-an500 Cortex-M7, QEMU's hw/arm/mps2.c; mps2-an505
 * Cortex-M33, hw/arm/mps2-tz.c):
 *
 * - The vector table first in flash (VTOR resets there: 0, or 0x10000000
 *   on the AN505; QEMU reads the initial SP and the reset PC there):
 *   picolibc.ld puts .data.init.enter first.  The reset handler is an
 *   ordinary C function: the hardware has loaded SP from entry 0.
 * - UART: CMSDK APB UART0 at UART0_BASE (0x40004000, the AN505's
 *   0x40200000; from the build).  QEMU sends nothing unless CTRL.TX_EN
 *   is set, and complains unless BAUDDIV is 16 or more.
 * - Tick: SysTick (exception 15) on the processor clock (CSR.CLKSOURCE
 *   = 1), which QEMU clocks from the board's SYSCLK (SYSCLK_HZ: 25 MHz,
 *   the AN505's 20 MHz); an interrupt every SYSCLK_HZ / 1000 clocks,
 *   exactly 1 ms, reloaded by the hardware (no drift).  Under -icount
 *   shift=5 that is 31,250 instructions.  The exception entry is a plain C function (the
 *   hardware stacks what AAPCS needs).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "uart_ticker.h"

#define UART_DATA 0x00
#define UART_STATE 0x04
#define UART_STATE_TXFULL 1u
#define UART_CTRL 0x08
#define UART_CTRL_TX_EN 1u
#define UART_BAUDDIV 0x10
#define UART_BAUD 115200

#define SYST_CSR 0xe000e010
#define SYST_RVR 0xe000e014
#define SYST_CVR 0xe000e018
#define SYST_CSR_ENABLE 1u
#define SYST_CSR_TICKINT 2u
#define SYST_CSR_CLKSOURCE 4u   /* processor clock */
#define SYSTICK_RELOAD (SYSCLK_HZ / TICK_HZ - 1)

#define NVIC_LINES 32

void _start(void);
void mps2_systick_isr(void);
void mps2_fault_isr(void);
void mps2_other_isr(void);

void board_uart_init(void)
{
    IOWR_32DIRECT(UART0_BASE, UART_BAUDDIV, SYSCLK_HZ / UART_BAUD);
    IOWR_32DIRECT(UART0_BASE, UART_CTRL, UART_CTRL_TX_EN);
}

void board_uart_putc(char c)
{
    while (IORD_32DIRECT(UART0_BASE, UART_STATE) & UART_STATE_TXFULL) {
        continue;
    }
    IOWR_32DIRECT(UART0_BASE, UART_DATA, (alt_u8)c);
}

void board_tick_start(void)
{
    IOWR_32DIRECT(SYST_RVR, 0, SYSTICK_RELOAD);
    IOWR_32DIRECT(SYST_CVR, 0, 0);      /* any write: reload on next clock */
    IOWR_32DIRECT(SYST_CSR, 0,
                  SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE);
    __asm__ volatile("cpsie i" : : : "memory");
}

/* SysTick: the hardware reloads the count, nothing to acknowledge */
void mps2_systick_isr(void)
{
    tick_handler();
}

/* Faults: say so on the UART and stop */
void mps2_fault_isr(void)
{
    alt_u32 ipsr;

    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    uart_ticker_fault("exception", ipsr & 0x1ff);
}

/* Nothing else is enabled: an unexpected exception stops the program */
void mps2_other_isr(void)
{
    mps2_fault_isr();
}

void _start(void)
{
    uart_ticker_init_memory();
    main();
    for (;;) {
        continue;
    }
}

extern char __stack[];

#define F mps2_fault_isr
#define O mps2_other_isr

__attribute__((section(".data.init.enter"), aligned(256), used))
void *const mps2_vectors[16 + NVIC_LINES] = {
    __stack, _start,
    F, F, F, F, F,          /* NMI, HardFault, MemManage, BusFault, Usage */
    0, 0, 0, 0,
    O, O, 0, O,             /* SVCall, DebugMon, -, PendSV */
    mps2_systick_isr,
    /* NVIC lines 0-31: none enabled */
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
};
