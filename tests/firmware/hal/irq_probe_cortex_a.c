/*
 * Cortex-A: the virtual timer made due through the GIC while CPSR.I
 * masks it; the CPU shows it pending (ISR.I) and goes on.  No IRQ
 * handler: picolibc gives IRQ mode no stack, so taking it is not
 * checked (taken_after = -1).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "sys/alt_irq.h"
#include "irq_probe.h"

#define GICD_BASE 0x08000000
#define GICD_CTLR 0x000
#define GICD_ISENABLER0 0x100
#define GICD_ICENABLER0 0x180
#define GICC_BASE 0x08010000
#define GICC_CTLR 0x000
#define GICC_PMR 0x004
#define VIRTUAL_TIMER_IRQ 27
#define ISR_I (1u << 7)

void irq_probe_run(struct irq_probe *r)
{
    alt_irq_context context;
    alt_u32 isr;

    context = alt_irq_disable_all();
    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER0, 1u << VIRTUAL_TIMER_IRQ);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 0\n\t"   /* CNTV_TVAL */
                     "mcr p15, 0, %1, c14, c3, 1\n\tisb" /* CNTV_CTL */
                     : : "r"(0), "r"(1));
    __asm__ volatile("mrc p15, 0, %0, c12, c1, 0" : "=r"(isr));
    r->pending = (isr & ISR_I) != 0;
    r->taken_masked = 0;    /* still running: it was not taken */
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(0));
    IOWR_32DIRECT(GICD_BASE, GICD_ICENABLER0, 1u << VIRTUAL_TIMER_IRQ);
    alt_irq_enable_all(context);
    r->taken_after = -1;
}
