/*
 * Cortex-M: SysTick set pending by software (ICSR.PENDSTSET) while
 * PRIMASK masks it; its handler runs once PRIMASK is restored.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "sys/alt_irq.h"
#include "irq_probe.h"

#define ICSR 0xe000ed04
#define ICSR_PENDSTSET (1u << 26)

static volatile int taken;

/* Overrides picolibc's default SysTick handler */
void arm_systick_isr(void)
{
    taken++;
}

void irq_probe_run(struct irq_probe *r)
{
    alt_irq_context context;

    alt_irq_enable_all(1);
    context = alt_irq_disable_all();
    IOWR_32DIRECT(ICSR, 0, ICSR_PENDSTSET);
    __asm__ volatile("dsb\n\tisb" : : : "memory");
    r->pending = (IORD_32DIRECT(ICSR, 0) & ICSR_PENDSTSET) != 0;
    r->taken_masked = taken;
    alt_irq_enable_all(context);
    __asm__ volatile("isb" : : : "memory");
    r->taken_after = taken;
}
