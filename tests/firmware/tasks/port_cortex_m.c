/*
 * The test scheduler's port to the Cortex-M boards (tasks.c): tasks on
 * the process stack (PSP), switched by PendSV as FreeRTOS's Cortex-M3
 * and Cortex-M0 ports do, the tick by SysTick, which pends an NMI every
 * NMI_EVERY ticks (taken at once, inside it); the first task starts
 * through SVC.
 *
 * SPDX-License-Identifier: MIT
 */
#include "tasks.h"

#define TICK_CLOCKS 50000       /* 2 ms at 25 MHz */
#define SYST_CSR 0xe000e010
#define SYST_RVR 0xe000e014
#define SYST_CVR 0xe000e018
#define ICSR 0xe000ed04
#define ICSR_NMIPENDSET (1u << 31)
#define ICSR_PENDSVSET (1u << 28)
#define SHPR2 0xe000ed1c
#define SHPR3 0xe000ed20
#define REG(addr) (*(volatile uint32_t *)(addr))

void arm_svc_isr(void);
void arm_pendsv_isr(void);
void arm_systick_isr(void);
void arm_nmi_isr(void);

/* r4-r11, then the frame the hardware unstacks: r0-r3, r12, lr, pc, xPSR */
uint32_t *port_new_stack(uint32_t *top, void (*entry)(void))
{
    top -= 16;
    top[8 + 6] = (uint32_t)entry;       /* pc */
    top[8 + 7] = 0x01000000;            /* xPSR: Thumb */
    return top;
}

void port_yield(void)
{
    REG(ICSR) = ICSR_PENDSVSET;
}

void arm_systick_isr(void)
{
    xTaskIncrementTick();
    if (ticks % NMI_EVERY == 0) {
        REG(ICSR) = ICSR_NMIPENDSET;
    }
    if (ticks == TICKS) {
        REG(SYST_CSR) = 0;
    }
    REG(ICSR) = ICSR_PENDSVSET;
}

void arm_nmi_isr(void)
{
    nmis++;
    work(1);
}

/* Save the task's r4-r11 on its stack, switch, restore the next one's */
__attribute__((naked)) void arm_pendsv_isr(void)
{
#if __ARM_ARCH_ISA_THUMB >= 2
    __asm__ volatile(
        "mrs r0, psp\n\t"
        "stmdb r0!, {r4-r11}\n\t"
        "ldr r3, =pxCurrentTCB\n\t"
        "ldr r2, [r3]\n\t"
        "str r0, [r2]\n\t"
        "push {r3, lr}\n\t"
        "bl select_next_task\n\t"
        "pop {r3, lr}\n\t"
        "ldr r1, [r3]\n\t"
        "ldr r0, [r1]\n\t"
        "ldmia r0!, {r4-r11}\n\t"
        "msr psp, r0\n\t"
        "bx lr\n\t"
        ".ltorg\n\t");
#else
    /* Armv6-M (FreeRTOS's Cortex-M0 port): STM and LDM of r4-r7 only */
    __asm__ volatile(
        ".syntax unified\n\t"
        "mrs r0, psp\n\t"
        "ldr r3, =pxCurrentTCB\n\t"
        "ldr r2, [r3]\n\t"
        "subs r0, r0, #32\n\t"
        "str r0, [r2]\n\t"
        "stmia r0!, {r4-r7}\n\t"
        "mov r4, r8\n\t"
        "mov r5, r9\n\t"
        "mov r6, r10\n\t"
        "mov r7, r11\n\t"
        "stmia r0!, {r4-r7}\n\t"
        "push {r3, lr}\n\t"
        "bl select_next_task\n\t"
        "pop {r2, r3}\n"
        /* r2: &pxCurrentTCB, r3: the EXC_RETURN to return with */
        "port_restore_armv6m:\n\t"
        "ldr r1, [r2]\n\t"
        "ldr r0, [r1]\n\t"
        "adds r0, r0, #16\n\t"
        "ldmia r0!, {r4-r7}\n\t"
        "mov r8, r4\n\t"
        "mov r9, r5\n\t"
        "mov r10, r6\n\t"
        "mov r11, r7\n\t"
        "msr psp, r0\n\t"
        "subs r0, r0, #32\n\t"
        "ldmia r0!, {r4-r7}\n\t"
        "bx r3\n\t"
        ".ltorg\n\t");
#endif
}

/* The first task: its stack as PendSV restores one, in Thread mode */
__attribute__((naked)) void arm_svc_isr(void)
{
#if __ARM_ARCH_ISA_THUMB >= 2
    __asm__ volatile(
        "ldr r3, =pxCurrentTCB\n\t"
        "ldr r1, [r3]\n\t"
        "ldr r0, [r1]\n\t"
        "ldmia r0!, {r4-r11}\n\t"
        "msr psp, r0\n\t"
        "mov lr, #0xfffffffd\n\t"   /* Thread mode, PSP */
        "bx lr\n\t"
        ".ltorg\n\t");
#else
    /* PendSV's restore (its second half), returning to Thread mode */
    __asm__ volatile(
        ".syntax unified\n\t"
        "ldr r2, =pxCurrentTCB\n\t"
        "movs r3, #2\n\t"
        "mvns r3, r3\n\t"           /* 0xfffffffd: Thread mode, PSP */
        "b port_restore_armv6m\n\t"
        ".ltorg\n\t");
#endif
}

void port_start(void)
{
    select_next_task();
    REG(SHPR2) = 0;                     /* SVCall: highest */
    REG(SHPR3) = 0x80ffu << 16;         /* SysTick 0x80, PendSV lowest */
    REG(SYST_RVR) = TICK_CLOCKS - 1;
    REG(SYST_CVR) = 0;
    REG(SYST_CSR) = 7;                  /* processor clock, interrupt, on */
    __asm__ volatile("svc 0" : : : "memory");
    for (;;) {
        continue;                       /* not reached */
    }
}
