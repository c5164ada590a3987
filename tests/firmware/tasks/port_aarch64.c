/*
 * The test scheduler's port to AArch64 (tasks.c): aarch64-virt's
 * Cortex-A53 at EL1.  Tasks run at EL1 on SP_EL0, as FreeRTOS's
 * Cortex-A53 port runs them, and are switched by the tick's IRQ
 * (../arm_tick/virt.c); a task waiting for the next tick yields by
 * SVC, and every NMI_EVERY ticks the tick's handler makes an SVC itself,
 * taken inside it (a nested exception) and switching nothing
 * (port_tick_trap.c).
 * port_aarch64.S has the vectors and the entry that saves and restores
 * a task; a task's stack pointer after its ERET is the one it was
 * interrupted with.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arm_tick.h"
#include "tasks.h"

#define TICK_US 1000            /* under -icount shift=0: 1M instructions */
/* As port_aarch64.S saves a task: x0-x30, ELR, SPSR, FPSR, FPCR, q0-q31 */
#define FRAME_BYTES 800
#define FRAME_ELR 31
#define FRAME_SPSR 32
#define SPSR_EL1T 0x4u          /* EL1, on SP_EL0 */
#define SPSR_F (1u << 6)        /* FIQs and SErrors stay masked */
#define SPSR_A (1u << 8)

extern const uint32_t port_vectors[];

/* As port_switch leaves a task: its frame, every register 0 but ELR
 * (the entry) and SPSR */
uint32_t *port_new_stack(uint32_t *top, void (*entry)(void))
{
    uint64_t *frame = (uint64_t *)((char *)top - FRAME_BYTES);
    unsigned i;

    for (i = 0; i < FRAME_BYTES / sizeof(*frame); i++) {
        frame[i] = 0;
    }
    frame[FRAME_ELR] = (uintptr_t)entry;
    frame[FRAME_SPSR] = SPSR_EL1T | SPSR_F | SPSR_A;
    return (uint32_t *)frame;
}

void port_start(void)
{
    __asm__ volatile("msr vbar_el1, %0\n\tisb" : : "r"(port_vectors)
                     : "memory");
    /* main on, on SP_EL0: the stack port_switch saves tasks on */
    __asm__ volatile("mov x0, sp\n\t"
                     "msr sp_el0, x0\n\t"
                     "msr spsel, #0" : : : "x0", "memory");
    arm_tick_start(TICK_US);
    UNMASK_INTERRUPTS();
    port_yield();                       /* main yields to the first task */
    for (;;) {
        continue;                       /* not reached */
    }
}
