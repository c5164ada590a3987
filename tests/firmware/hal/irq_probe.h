/*
 * The HAL interrupt test's per-architecture part: raise a real
 * interrupt while alt_irq_disable_all() masks it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HAL_IRQ_PROBE_H
#define HAL_IRQ_PROBE_H

struct irq_probe {
    int pending;        /* the CPU saw it pending while masked */
    int taken_masked;   /* times its handler ran while masked: 0 */
    int taken_after;    /* after alt_irq_enable_all(): 1; -1: no handler
                           can be installed here, not checked */
};

void irq_probe_run(struct irq_probe *r);

#endif
