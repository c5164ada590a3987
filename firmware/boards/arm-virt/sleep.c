/*
 * arm-virt board support: sleeping with WFI, woken by the virtual timer
 * through the GIC.  The CPU's IRQ mask (CPSR.I) is set meanwhile: WFI
 * wakes on a pending interrupt all the same, and no handler runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"

#define GICD_BASE 0x08000000
#define GICD_CTLR 0x000
#define GICD_ISENABLER0 0x100
#define GICD_ICENABLER0 0x180
#define GICD_IPRIORITYR 0x400
#define GICC_BASE 0x08010000
#define GICC_CTLR 0x000
#define GICC_PMR 0x004
#define VIRTUAL_TIMER_IRQ 27    /* PPI 11 */
#define CNTV_CTL_ENABLE 1

static void write_cntv_tval(alt_u32 ticks)
{
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 0\n\tisb" : : "r"(ticks));
}

static void write_cntv_ctl(alt_u32 ctl)
{
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(ctl));
}

void board_sleep(alt_u32 ticks)
{
    alt_u32 cpsr;

    if (ticks == 0) {
        return;
    }
    __asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr) : : "memory");
    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    IOWR_32DIRECT(GICD_BASE, GICD_IPRIORITYR + (VIRTUAL_TIMER_IRQ & ~3), 0);
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER0, 1u << VIRTUAL_TIMER_IRQ);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    write_cntv_tval(ticks);
    write_cntv_ctl(CNTV_CTL_ENABLE);
    __asm__ volatile("dsb\n\twfi" : : : "memory");
    /* Disabled, the timer drops its (level) interrupt */
    write_cntv_ctl(0);
    IOWR_32DIRECT(GICD_BASE, GICD_ICENABLER0, 1u << VIRTUAL_TIMER_IRQ);
    if (!(cpsr & 0x80)) {
        __asm__ volatile("cpsie i" : : : "memory");
    }
}
