/*
 * Board support of QEMU's Arm virt board (arm-virt, aarch64-virt): the
 * performance counter cores' interrupts through the GICv2.  QEMU's platform bus gives each -device
 * perf-counter an SPI, in the order the devices are plugged, from SPI
 * 112 (GIC interrupt ID 144); the device tree says which (its
 * "interrupts"), system.h's PERFORMANCE_COUNTER_IRQ... hold the IDs for
 * the cores the scripts attach.  Level-sensitive, as SPIs reset.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "gic.h"
#include "io.h"
#include "perfctr.h"
#include "sys/alt_irq.h"
#include "system.h"

void arm_vbar_irq(alt_u32 pc);
void arm_vbar_fault(int kind, alt_u32 pc);

/* Byte n of a GIC register array of one byte per interrupt */
static void gicd_set_byte(alt_u32 reg, alt_u32 id, alt_u32 value)
{
    alt_u32 offset = reg + (id & ~3u);
    alt_u32 shift = 8 * (id & 3);
    alt_u32 word = IORD_32DIRECT(GICD_BASE, offset);

    word = (word & ~(0xffu << shift)) | (value << shift);
    IOWR_32DIRECT(GICD_BASE, offset, word);
}

int board_perfctr_irq_enable(alt_u32 base)
{
    int id = perfctr_irq_line(base);

    if (id < 0) {
        return -1;
    }
    gicd_set_byte(GICD_IPRIORITYR, id, 0xa0);
    gicd_set_byte(GICD_ITARGETSR, id, 0x01);        /* CPU 0 */
    IOWR_32DIRECT(GICD_BASE, GICD_ISENABLER + 4 * (id / 32),
                  1u << (id % 32));
    IOWR_32DIRECT(GICD_BASE, GICD_CTLR, 1);
    IOWR_32DIRECT(GICC_BASE, GICC_PMR, 0xff);       /* every priority */
    IOWR_32DIRECT(GICC_BASE, GICC_CTLR, 1);
    __asm__ volatile("dsb sy\n\tisb" : : : "memory");
    alt_irq_enable_all(1);
    return 0;
}

void board_perfctr_irq_disable(alt_u32 base)
{
    int id = perfctr_irq_line(base);

    if (id < 0) {
        return;
    }
    IOWR_32DIRECT(GICD_BASE, GICD_ICENABLER + 4 * (id / 32),
                  1u << (id % 32));
    __asm__ volatile("dsb sy\n\tisb" : : : "memory");
}

/* From the IRQ vector (arm-vbar/ or aarch64/exceptions.S) */
void arm_vbar_irq(alt_u32 pc)
{
    alt_u32 iar = IORD_32DIRECT(GICC_BASE, GICC_IAR);
    alt_u32 id = iar & 0x3ff;
    alt_u32 base;

    if (id == GIC_SPURIOUS) {
        return;
    }
    base = perfctr_irq_core(id);
    if (base) {
        perfctr_irq_dispatch(base, pc);
        IOWR_32DIRECT(GICC_BASE, GICC_EOIR, iar);
        return;
    }
    IOWR_32DIRECT(GICC_BASE, GICC_EOIR, iar);
    arm_vbar_fault(4, pc);      /* "unexpected irq": the program stops */
}
