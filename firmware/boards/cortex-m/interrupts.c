/*
 * Cortex-M board support: the performance counter cores' interrupts, NVIC
 * lines PERFORMANCE_COUNTER_IRQ... (system.h; QEMU gives the -device
 * perf-counter four lines from BOARD_PERFCTR_IRQ_FIRST in the order the
 * devices are plugged, which the scripts do in system.h's order).  The
 * vector is in vectors.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "perfctr.h"
#include "system.h"

/* A bit per line, 32 lines a register */
#define NVIC_ISER(line) (0xe000e100 + 4 * ((line) / 32))  /* set-enable */
#define NVIC_ICER(line) (0xe000e180 + 4 * ((line) / 32))  /* clear-enable */
#define NVIC_ICPR(line) (0xe000e280 + 4 * ((line) / 32))  /* clear-pending */
#define NVIC_BIT(line) (1u << ((line) % 32))

void cortex_m_perfctr_irq(alt_u32 line, alt_u32 pc);

int board_perfctr_irq_enable(alt_u32 base)
{
    int line = perfctr_irq_line(base);

    if (line < 0) {
        return -1;
    }
    IOWR_32DIRECT(NVIC_ISER(line), 0, NVIC_BIT(line));
    __asm__ volatile("dsb\n\tisb\n\tcpsie i" : : : "memory");
    return 0;
}

void board_perfctr_irq_disable(alt_u32 base)
{
    int line = perfctr_irq_line(base);

    if (line < 0) {
        return;
    }
    IOWR_32DIRECT(NVIC_ICER(line), 0, NVIC_BIT(line));
    IOWR_32DIRECT(NVIC_ICPR(line), 0, NVIC_BIT(line));
    __asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* From the vector: NVIC line, and the pc the program resumes at */
void cortex_m_perfctr_irq(alt_u32 line, alt_u32 pc)
{
    alt_u32 base = perfctr_irq_core(line);

    if (base) {
        perfctr_irq_dispatch(base, pc);
        return;
    }
    /* A line no core of system.h has: never again */
    IOWR_32DIRECT(NVIC_ICER(line), 0, NVIC_BIT(line));
}
