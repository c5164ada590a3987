/*
 * The caller of jnk0le's "pipeline cycle test" templates (repository
 * jnk0le/random), for scripts/bench --pipetest: each template times its
 * own loop with the DWT's CYCCNT and returns the cycles; this program
 * only enables what the template expects (TRCENA, CYCCNTENA, the
 * Cortex-M7's DWT lock and FPU, which its template saves) and prints
 * what it returns.  The templates are not ours and are not in this
 * repository: the bench compiles them from the user's checkout with
 * -DTEMPLATE=<its function>.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define DEMCR (*(volatile uint32_t *)0xE000EDFC)
#define DEMCR_TRCENA (1u << 24)
#define CPACR (*(volatile uint32_t *)0xE000ED88)
#define CPACR_CP10_CP11 (0xfu << 20)
#define DWT_CTRL (*(volatile uint32_t *)0xE0001000)
#define DWT_CTRL_CYCCNTENA 1u
#define DWT_LAR (*(volatile uint32_t *)0xE0001FB0)
#define DWT_LAR_UNLOCK 0xC5ACCE55u

uint32_t TEMPLATE(void);

int main(void)
{
#ifdef __ARM_FP
    CPACR |= CPACR_CP10_CP11;
    __asm__ volatile("dsb\n\tisb");
#endif
    DEMCR |= DEMCR_TRCENA;
    DWT_LAR = DWT_LAR_UNLOCK;
    DWT_CTRL |= DWT_CTRL_CYCCNTENA;
    printf("template cycles=%lu\n", (unsigned long)TEMPLATE());
    return 0;
}
