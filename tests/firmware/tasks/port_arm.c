/*
 * The test scheduler's port to the Arm boards with a VBAR (tasks.c):
 * arm-virt's Cortex-A15 and raspi1ap's ARM1176.  Tasks, in System mode,
 * are switched by the tick's IRQ (../arm_tick/<board>.c); a task
 * waiting for the next tick yields by SVC, and every NMI_EVERY ticks the
 * tick's handler makes an SVC itself, taken inside it (a nested
 * exception) and switching nothing (port_tick_trap.c).  port_arm.S has
 * the vectors and the entry that saves and restores a task; a task's
 * stack pointer after its RFE is the one it was interrupted with.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arm_tick.h"
#include "tasks.h"

#define TICK_US 1000            /* under -icount shift=0: 1M instructions */
#define FRAME_WORDS 16          /* r0-r12, lr; then pc, CPSR for RFE */
#define MODE_SYS 0x1fu
#define CPSR_T (1u << 5)
#define CPSR_F (1u << 6)        /* FIQs stay masked */
#define CPSR_A (1u << 8)

extern const uint32_t port_vectors[];

/* As port_switch leaves a task: r0-r12, lr, then pc and CPSR for RFE */
uint32_t *port_new_stack(uint32_t *top, void (*entry)(void))
{
    uint32_t pc = (uint32_t)entry;

    top -= FRAME_WORDS;
    top[14] = pc & ~1u;
    top[15] = MODE_SYS | CPSR_F | CPSR_A | (pc & 1 ? CPSR_T : 0);
    return top;
}

void port_start(void)
{
    __asm__ volatile("mcr p15, 0, %0, c12, c0, 0" /* VBAR */
                     : : "r"(port_vectors) : "memory");
#if __ARM_ARCH >= 7
    __asm__ volatile("isb" : : : "memory");
#else
    __asm__ volatile("mcr p15, 0, %0, c7, c5, 4" : : "r"(0) : "memory");
#endif
    /* main on, in System mode: the mode port_switch saves tasks in */
    __asm__ volatile("mov r0, sp\n\t"
                     "cps #0x1f\n\t"
                     "mov sp, r0" : : : "r0", "memory");
    arm_tick_start(TICK_US);
    __asm__ volatile("cpsie i" : : : "memory");
    port_yield();                       /* main yields to the first task */
    for (;;) {
        continue;                       /* not reached */
    }
}
