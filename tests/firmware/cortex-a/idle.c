/*
 * Idle waiting on the Cortex-A "virt" board: WFI, woken by the virtual
 * timer through the GIC.  Under -icount with sleep=off QEMU jumps
 * virtual time to the next timer event while the CPU sleeps, so a long
 * wait costs no host time.  IRQs stay masked in the CPU: WFI wakes on a
 * pending interrupt all the same, and no handler is needed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "system.h"
#include "test_support.h"

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

void test_idle_wait(alt_u32 timer_ticks)
{
    alt_u32 start = board_timer_read();

    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    IOWR_32DIRECT(GICD_BASE, GICD_IPRIORITYR + (VIRTUAL_TIMER_IRQ & ~3), 0);
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER0, 1u << VIRTUAL_TIMER_IRQ);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    while (board_timer_read() - start < timer_ticks) {
        write_cntv_tval(BOARD_TIMER_HZ);    /* wake about once a second */
        write_cntv_ctl(CNTV_CTL_ENABLE);
        __asm__ volatile("wfi");
    }
    write_cntv_ctl(0);
    IOWR_32DIRECT(GICD_BASE, GICD_ICENABLER0, 1u << VIRTUAL_TIMER_IRQ);
}
