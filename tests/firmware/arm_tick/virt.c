/*
 * The tick on QEMU's Arm virt board (hw/arm/virt.c; arm-virt and
 * aarch64-virt): the generic timer's virtual timer (CNTV_*, usable at
 * PL1/EL1; the board starts a -kernel ELF in SVC mode or at EL1, without
 * EL2/EL3), counting CNTFRQ = 62.5 MHz (system.h's
 * BOARD_TIMER_HZ); each compare (CNTV_CVAL, 64 bits, absolute) is the
 * previous one plus the period.  Its interrupt is PPI 11, GIC interrupt
 * ID 27, level-sensitive, through the GICv2.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arm_tick.h"
#include "generic_timer.h"
#include "gic.h"
#include "io.h"
#include "system.h"

static alt_u32 period;
static alt_u64 next_compare;

void arm_tick_start(alt_u32 period_us)
{
    alt_u32 word;

    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    word = IORD_32DIRECT(GICD_BASE, GICD_IPRIORITYR + (VIRTUAL_TIMER_ID & ~3));
    word &= ~(0xffu << 8 * (VIRTUAL_TIMER_ID & 3));
    word |= 0xa0u << 8 * (VIRTUAL_TIMER_ID & 3);
    IOWR_32DIRECT(GICD_BASE, GICD_IPRIORITYR + (VIRTUAL_TIMER_ID & ~3), word);
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER, 1u << VIRTUAL_TIMER_ID);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    /* 62.5 counts a microsecond; in 32 bits (no 64-bit division here) */
    period = period_us * (BOARD_TIMER_HZ / 500000) / 2;
    next_compare = generic_timer_count() + period;
    generic_timer_set_cval(next_compare);
    generic_timer_set_ctl(CNTV_CTL_ENABLE);
    __asm__ volatile("dsb sy" : : : "memory");
}

int arm_tick_ack(void)
{
    alt_u32 iar = IORD_32DIRECT(GICC_BASE, GICC_IAR);
    alt_u32 id = iar & 0x3ff;

    if (id == GIC_SPURIOUS) {
        return 0;
    }
    if (id == VIRTUAL_TIMER_ID) {
        next_compare += period;
        generic_timer_set_cval(next_compare);
    }
    IOWR_32DIRECT(GICC_BASE, GICC_EOIR, iar);
    return id == VIRTUAL_TIMER_ID;
}

void arm_tick_stop(void)
{
    generic_timer_set_ctl(0);
}
