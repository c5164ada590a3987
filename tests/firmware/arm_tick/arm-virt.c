/*
 * The tick on arm-virt (hw/arm/virt.c): the generic timer's virtual
 * timer (CNTV_*, usable at PL1; the board starts a -kernel ELF in SVC
 * mode without EL2/EL3), counting CNTFRQ = 62.5 MHz (system.h's
 * BOARD_TIMER_HZ); each compare (CNTV_CVAL, 64 bits, absolute) is the
 * previous one plus the period.  Its interrupt is PPI 11, GIC interrupt
 * ID 27, level-sensitive, through the GICv2.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arm_tick.h"
#include "gic.h"
#include "io.h"
#include "system.h"

#define VIRTUAL_TIMER_ID 27     /* PPI 11 */
#define CNTV_CTL_ENABLE 1u

static alt_u32 period;
static alt_u64 next_compare;

static alt_u64 read_cntvct(void)
{
    alt_u32 lo, hi;

    __asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
    return (alt_u64)hi << 32 | lo;
}

static void write_cntv_cval(alt_u64 value)
{
    __asm__ volatile("mcrr p15, 3, %0, %1, c14\n\tisb"
                     : : "r"((alt_u32)value), "r"((alt_u32)(value >> 32))
                     : "memory");
}

static void write_cntv_ctl(alt_u32 ctl)
{
    __asm__ volatile("mcr p15, 0, %0, c14, c3, 1\n\tisb" : : "r"(ctl)
                     : "memory");
}

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
    next_compare = read_cntvct() + period;
    write_cntv_cval(next_compare);
    write_cntv_ctl(CNTV_CTL_ENABLE);
    __asm__ volatile("dsb" : : : "memory");
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
        write_cntv_cval(next_compare);
    }
    IOWR_32DIRECT(GICC_BASE, GICC_EOIR, iar);
    return id == VIRTUAL_TIMER_ID;
}

void arm_tick_stop(void)
{
    write_cntv_ctl(0);
}
