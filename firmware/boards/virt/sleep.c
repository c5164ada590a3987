/*
 * Board support of QEMU's Arm virt board (arm-virt, aarch64-virt):
 * sleeping with WFI, woken by the virtual timer through the GIC.  The
 * CPU's IRQ mask is set meanwhile: WFI wakes on a pending interrupt all
 * the same, and no handler runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "generic_timer.h"
#include "gic.h"
#include "io.h"
#include "sys/alt_irq.h"

void board_sleep(alt_u32 ticks)
{
    alt_irq_context irqs;

    if (ticks == 0) {
        return;
    }
    irqs = alt_irq_disable_all();
    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    IOWR_32DIRECT(GICD_BASE, GICD_IPRIORITYR + (VIRTUAL_TIMER_ID & ~3), 0);
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER, 1u << VIRTUAL_TIMER_ID);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    generic_timer_set_tval(ticks);
    generic_timer_set_ctl(CNTV_CTL_ENABLE);
    __asm__ volatile("dsb sy\n\twfi" : : : "memory");
    /* Disabled, the timer drops its (level) interrupt */
    generic_timer_set_ctl(0);
    IOWR_32DIRECT(GICD_BASE, GICD_ICENABLER, 1u << VIRTUAL_TIMER_ID);
    alt_irq_enable_all(irqs);
}
