/*
 * Cortex-A (the virt boards: arm-virt's Cortex-A15, aarch64-virt's
 * Cortex-A53): the virtual timer made due through the GIC while the CPU's
 * IRQ mask (CPSR.I, PSTATE.I) masks it; the CPU shows it pending (ISR.I)
 * and goes on.  No IRQ handler: the board's treats any interrupt but a
 * counter core's as a fault, so taking it is not checked
 * (taken_after = -1).
 *
 * SPDX-License-Identifier: MIT
 */
#include "generic_timer.h"
#include "gic.h"
#include "io.h"
#include "sys/alt_irq.h"
#include "irq_probe.h"

#define ISR_I (1u << 7)

/* ISR (ISR_EL1): bit 7, an IRQ pending */
static alt_u32 read_isr(void)
{
#ifdef __aarch64__
    alt_u64 isr;

    __asm__ volatile("mrs %0, isr_el1" : "=r"(isr));
    return (alt_u32)isr;
#else
    alt_u32 isr;

    __asm__ volatile("mrc p15, 0, %0, c12, c1, 0" : "=r"(isr));
    return isr;
#endif
}

void irq_probe_run(struct irq_probe *r)
{
    alt_irq_context context;

    context = alt_irq_disable_all();
    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER, 1u << VIRTUAL_TIMER_ID);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    generic_timer_set_tval(0);
    generic_timer_set_ctl(CNTV_CTL_ENABLE);
    r->pending = (read_isr() & ISR_I) != 0;
    r->taken_masked = 0;    /* still running: it was not taken */
    generic_timer_set_ctl(0);
    IOWR_32DIRECT(GICD_BASE, GICD_ICENABLER, 1u << VIRTUAL_TIMER_ID);
    alt_irq_enable_all(context);
    r->taken_after = -1;
}
