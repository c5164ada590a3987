/*
 * uart_ticker on the Cortex-M boards (the MPS2 images, QEMU's
 * hw/arm/mps2.c and mps2-tz.c; lm3s6965evb, stellaris.c; microbit,
 * microbit.c); the console is the board's UART driver (cmsdk_uart.c,
 * pl011.c or nrf51_uart.c):
 *
 * - The vector table first in flash (VTOR resets there: 0, or 0x10000000
 *   on the AN505; the AN547's 0 is its ITCM, which the image fills
 *   through the Secure alias 0x10000000).  QEMU reads the initial SP and
 *   the reset PC there: picolibc.ld puts .data.init.enter first.  The
 *   reset handler is an ordinary C function: the hardware has loaded SP
 *   from entry 0.
 * - Tick: SysTick (exception 15) on the processor clock (CSR.CLKSOURCE
 *   = 1), which QEMU clocks from the board's SYSCLK (SYSCLK_HZ, from the
 *   build: 25 MHz, the AN505's 20 MHz, the AN547's 32 MHz, the
 *   LM3S6965's 12.5 MHz at reset, the nRF51's 16 MHz); an interrupt
 *   every SYSCLK_HZ / 1000 clocks, exactly 1 ms, reloaded by the
 *   hardware (no drift).  Under -icount shift=5 that is 31,250
 *   instructions.  The exception entry is a plain C function (the
 *   hardware stacks what AAPCS needs).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "uart_ticker.h"

#define SYST_CSR 0xe000e010
#define SYST_RVR 0xe000e014
#define SYST_CVR 0xe000e018
#define SYST_CSR_ENABLE 1u
#define SYST_CSR_TICKINT 2u
#define SYST_CSR_CLKSOURCE 4u   /* processor clock */
#define SYSTICK_RELOAD (SYSCLK_HZ / TICK_HZ - 1)

#define NVIC_LINES 32

void _start(void);
void cortex_m_systick_isr(void);
void cortex_m_fault_isr(void);
void cortex_m_other_isr(void);

void board_tick_start(void)
{
    IOWR_32DIRECT(SYST_RVR, 0, SYSTICK_RELOAD);
    IOWR_32DIRECT(SYST_CVR, 0, 0);      /* any write: reload on next clock */
    IOWR_32DIRECT(SYST_CSR, 0,
                  SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE);
    __asm__ volatile("cpsie i" : : : "memory");
}

/* SysTick: the hardware reloads the count, nothing to acknowledge */
void cortex_m_systick_isr(void)
{
    tick_handler();
}

/* Faults: say so on the UART and stop */
void cortex_m_fault_isr(void)
{
    alt_u32 ipsr;

    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    uart_ticker_fault("exception", ipsr & 0x1ff);
}

/* Nothing else is enabled: an unexpected exception stops the program */
void cortex_m_other_isr(void)
{
    cortex_m_fault_isr();
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

#define F cortex_m_fault_isr
#define O cortex_m_other_isr

__attribute__((section(".data.init.enter"), aligned(256), used))
void *const cortex_m_vectors[16 + NVIC_LINES] = {
    __stack, _start,
    F, F, F, F, F,          /* NMI, HardFault, MemManage, BusFault, Usage */
    0, 0, 0, 0,
    O, O, 0, O,             /* SVCall, DebugMon, -, PendSV */
    cortex_m_systick_isr,
    /* NVIC lines 0-31: none enabled */
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
};
