/*
 * Idle waiting on Cortex-M: WFI, woken by SysTick.  Under -icount with
 * sleep=off QEMU jumps virtual time to the next timer event while the
 * CPU sleeps, so a long wait costs no host time.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "test_support.h"

#define SYST_CSR 0xe000e010
#define SYST_RVR 0xe000e014
#define SYST_CVR 0xe000e018
#define SYST_CSR_ENABLE 1
#define SYST_CSR_TICKINT 2
#define SYST_CSR_CLKSOURCE 4    /* processor clock */

/* Overrides picolibc's default handler; the wake-up is all we need */
void arm_systick_isr(void)
{
}

void test_idle_wait(alt_u32 timer_ticks)
{
    alt_u32 start = board_timer_read();

    IOWR_32DIRECT(SYST_RVR, 0, 0xffffff);
    IOWR_32DIRECT(SYST_CVR, 0, 0);
    IOWR_32DIRECT(SYST_CSR, 0,
                  SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE);
    __asm__ volatile("cpsie i");
    while (board_timer_read() - start < timer_ticks) {
        __asm__ volatile("wfi");
    }
    __asm__ volatile("cpsid i");
    IOWR_32DIRECT(SYST_CSR, 0, 0);
}
