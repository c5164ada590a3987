/*
 * raspi board support: the performance counter cores' interrupts
 * through the BCM2835 interrupt controller.  Our QEMU gives each -device
 * perf-counter a GPU interrupt, in the order the devices are plugged,
 * from 12 (12-15: the VideoCore's multicore sync lines, which nothing
 * else drives there); system.h's PERFORMANCE_COUNTER_IRQ... hold them
 * for the cores the scripts attach.  They show in IRQ pending 1.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "perfctr.h"
#include "raspi.h"
#include "system.h"

void arm_vbar_irq(alt_u32 pc);
void arm_vbar_fault(int kind, alt_u32 pc);

int board_perfctr_irq_enable(alt_u32 base)
{
    int irq = perfctr_irq_line(base);

    if (irq < 0) {
        return -1;
    }
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_1, 1u << irq);
    __asm__ volatile("cpsie i" : : : "memory");
    return 0;
}

void board_perfctr_irq_disable(alt_u32 base)
{
    int irq = perfctr_irq_line(base);

    if (irq < 0) {
        return;
    }
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_1, 1u << irq);
}

/* From the IRQ vector (arm-vbar/exceptions.S) */
void arm_vbar_irq(alt_u32 pc)
{
    alt_u32 pending = IORD_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_PENDING_1);
    int handled = 0;
    unsigned irq;

    for (irq = 0; irq < 32; irq++) {
        alt_u32 base = perfctr_irq_core(irq);

        if ((pending & (1u << irq)) && base) {
            perfctr_irq_dispatch(base, pc);
            handled = 1;
        }
    }
    if (!handled) {
        arm_vbar_fault(4, pc);  /* "unexpected irq": the program stops */
    }
}
