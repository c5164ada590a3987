/*
 * Cortex-M board support: sleeping with WFI, woken by SysTick on the
 * processor clock (system.h's BOARD_SYSTICK_HZ; the board timer's
 * BOARD_TIMER_HZ on most boards).
 * PRIMASK stays set: the NVIC wakes WFI for a pending SysTick all the
 * same, and the pending bit is cleared before PRIMASK is restored, so no
 * handler is needed and none runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"

#define SYST_CSR 0xe000e010
#define SYST_RVR 0xe000e014
#define SYST_CVR 0xe000e018
#define SYST_CSR_ENABLE 1
#define SYST_CSR_TICKINT 2
#define SYST_CSR_CLKSOURCE 4    /* processor clock */
#define SYST_RVR_MAX 0xffffff
#define ICSR 0xe000ed04
#define ICSR_PENDSTCLR (1u << 25)

/* Ticks of the board timer in SysTick's */
#if BOARD_SYSTICK_HZ == BOARD_TIMER_HZ
#define SYSTICK_TICKS(ticks) (ticks)
#else
#define SYSTICK_TICKS(ticks) \
    ((alt_u64)(ticks) * BOARD_SYSTICK_HZ / BOARD_TIMER_HZ)
#endif

void board_sleep(alt_u32 ticks)
{
    alt_u64 systick = SYSTICK_TICKS(ticks);
    alt_u32 primask;

    if (systick == 0) {
        return;
    }
    if (systick > SYST_RVR_MAX) {
        systick = SYST_RVR_MAX;
    }
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)
                     : : "memory");
    IOWR_32DIRECT(SYST_RVR, 0, (alt_u32)systick);
    IOWR_32DIRECT(SYST_CVR, 0, 0);
    IOWR_32DIRECT(SYST_CSR, 0,
                  SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE);
    __asm__ volatile("dsb\n\twfi" : : : "memory");
    IOWR_32DIRECT(SYST_CSR, 0, 0);
    IOWR_32DIRECT(ICSR, 0, ICSR_PENDSTCLR);
    __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}
