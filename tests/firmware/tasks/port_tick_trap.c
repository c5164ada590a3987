/*
 * What the test scheduler's ports to the A-profile and ARM11 cores
 * share (port_arm.c, port_aarch64.c): the one entry both ways into the
 * scheduler take from their vectors, an IRQ (the tick, ../arm_tick/)
 * or an SVC (a task's yield, or the tick handler's own SVC, taken inside
 * it: a nested exception that switches nothing), and the yield.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "arm_tick.h"
#include "tasks.h"

#define CAUSE_IRQ 0

volatile uint32_t port_nesting;

void port_trap(uint32_t cause);
void __attribute__((noreturn)) port_fault(void);

/* From port_switch (port_arm.S, port_aarch64.S), IRQs masked */
void port_trap(uint32_t cause)
{
    if (port_nesting++) {
        nmis++;                 /* the tick's own SVC, taken inside it */
        work(1);
    } else if (cause == CAUSE_IRQ) {
        if (arm_tick_ack()) {
            xTaskIncrementTick();
            if (ticks % NMI_EVERY == 0) {
                __asm__ volatile("svc #0" : : : "memory");
            }
            if (ticks == TICKS) {
                arm_tick_stop();
            }
            select_next_task();
        }
    } else {
        select_next_task();     /* a task yields */
    }
    port_nesting--;
}

void port_fault(void)
{
    printf("unexpected exception\n");
    exit(1);
}

void port_yield(void)
{
    __asm__ volatile("svc #0" : : : "memory");
}
