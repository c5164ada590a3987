/*
 * A small preemptive scheduler on the MPS2 boards' Cortex-M, for the
 * profiler's tasks and handlers (tests/boot/test_tasks.py).
 *
 * Four tasks run on their own stacks (PSP): alpha, beta and gamma do
 * 1, 2 and 3 units of work at each tick, then wait for the next; idle
 * takes the rest.  SysTick (every TICK_CLOCKS) makes them ready and
 * pends PendSV, which switches stacks, as FreeRTOS's Cortex-M3 port
 * does; every NMI_EVERY ticks SysTick also pends an NMI, which preempts
 * it (a nested interrupt).  The first task starts through SVC.
 *
 * The control block names its fields as FreeRTOS does (TCB_t,
 * pxCurrentTCB, pcTaskName, pxStack) but lays them out otherwise, so
 * that a profiler that finds the names finds them through DWARF.
 *
 * Each work task calls deepest() once per tick, with interrupts masked,
 * which notes the stack pointer at the task's deepest point.  After
 * TICKS ticks idle prints, and exits with 0:
 *   "ticks T nmis N switches S"
 *   "task NAME deepest_sp 0xADDR" for alpha, beta and gamma
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TICKS 40
#define NMI_EVERY 8
#define TICK_CLOCKS 50000       /* 2 ms at 25 MHz */
#define STACK_WORDS 256
#define WORK_UNIT 300

#define SYST_CSR 0xe000e010
#define SYST_RVR 0xe000e014
#define SYST_CVR 0xe000e018
#define ICSR 0xe000ed04
#define ICSR_NMIPENDSET (1u << 31)
#define ICSR_PENDSVSET (1u << 28)
#define SHPR2 0xe000ed1c
#define SHPR3 0xe000ed20
#define REG(addr) (*(volatile uint32_t *)(addr))

typedef struct tskTaskControlBlock {
    volatile uint32_t *pxTopOfStack;    /* first: the switch code's */
    volatile uint32_t ready;
    volatile uint32_t deepest_sp;
    uint32_t *pxStack;
    uint32_t work_units;
    char pcTaskName[12];
} TCB_t;

enum { ALPHA, BETA, GAMMA, IDLE, NUM_TASKS };

static uint32_t stacks[NUM_TASKS][STACK_WORDS] __attribute__((aligned(8)));
static TCB_t tcbs[NUM_TASKS];
TCB_t *volatile pxCurrentTCB;
static volatile uint32_t ticks, nmis, switches;
static volatile uint32_t sink;

void arm_svc_isr(void);
void arm_pendsv_isr(void);
void arm_systick_isr(void);
void arm_nmi_isr(void);
void select_next_task(void);

static void __attribute__((noinline)) work(uint32_t units)
{
    uint32_t i;

    for (i = 0; i < units * WORK_UNIT; i++) {
        sink += i;
    }
}

/* The task's deepest stack: a frame of its own, interrupts masked */
static void __attribute__((noinline)) deepest(TCB_t *self)
{
    volatile uint32_t frame[64];
    uint32_t sp;

    __asm__ volatile("cpsid i" : : : "memory");
    frame[0] = 1;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    if (!self->deepest_sp || sp < self->deepest_sp) {
        self->deepest_sp = sp;
    }
    sink += frame[0];
    __asm__ volatile("cpsie i" : : : "memory");
}

/* Until the next tick: let the others run */
static void wait_for_tick(TCB_t *self)
{
    self->ready = 0;
    REG(ICSR) = ICSR_PENDSVSET;
    while (!self->ready) {
        continue;
    }
}

static void __attribute__((noreturn, noinline)) task_alpha(void)
{
    for (;;) {
        work(tcbs[ALPHA].work_units);
        deepest(&tcbs[ALPHA]);
        wait_for_tick(&tcbs[ALPHA]);
    }
}

static void __attribute__((noreturn, noinline)) task_beta(void)
{
    for (;;) {
        work(tcbs[BETA].work_units);
        deepest(&tcbs[BETA]);
        wait_for_tick(&tcbs[BETA]);
    }
}

static void __attribute__((noreturn, noinline)) task_gamma(void)
{
    for (;;) {
        work(tcbs[GAMMA].work_units);
        deepest(&tcbs[GAMMA]);
        wait_for_tick(&tcbs[GAMMA]);
    }
}

static void __attribute__((noreturn, noinline)) task_idle(void)
{
    int i;

    while (ticks < TICKS) {
        __asm__ volatile("wfi");
    }
    printf("ticks %lu nmis %lu switches %lu\n", (unsigned long)ticks,
           (unsigned long)nmis, (unsigned long)switches);
    for (i = ALPHA; i < IDLE; i++) {
        printf("task %s deepest_sp 0x%08lx\n", tcbs[i].pcTaskName,
               (unsigned long)tcbs[i].deepest_sp);
    }
    exit(0);
}

/* A stack as PendSV leaves a task it switched out: r4-r11, then the
 * frame the hardware unstacks (r0-r3, r12, lr, pc, xPSR) */
static void create(int i, const char *name, void (*entry)(void),
                   uint32_t units)
{
    uint32_t *top = &stacks[i][STACK_WORDS] - 16;
    int c;

    for (c = 0; name[c] && c < (int)sizeof(tcbs[i].pcTaskName) - 1; c++) {
        tcbs[i].pcTaskName[c] = name[c];
    }
    top[8 + 6] = (uint32_t)entry;       /* pc */
    top[8 + 7] = 0x01000000;            /* xPSR: Thumb */
    tcbs[i].pxTopOfStack = top;
    tcbs[i].pxStack = stacks[i];
    tcbs[i].work_units = units;
    tcbs[i].ready = 1;
}

void select_next_task(void)
{
    int at = pxCurrentTCB - tcbs;
    int i;

    for (i = 1; i <= NUM_TASKS; i++) {
        TCB_t *next = &tcbs[(at + i) % NUM_TASKS];

        if (next->ready || next == &tcbs[IDLE]) {
            if (next != pxCurrentTCB) {
                switches++;
            }
            pxCurrentTCB = next;
            return;
        }
    }
}

void arm_systick_isr(void)
{
    int i;

    ticks++;
    for (i = 0; i < NUM_TASKS; i++) {
        tcbs[i].ready = 1;
    }
    if (ticks % NMI_EVERY == 0) {
        REG(ICSR) = ICSR_NMIPENDSET;    /* taken at once, inside this one */
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
}

/* The first task: its stack as PendSV restores one, in Thread mode */
__attribute__((naked)) void arm_svc_isr(void)
{
    __asm__ volatile(
        "ldr r3, =pxCurrentTCB\n\t"
        "ldr r1, [r3]\n\t"
        "ldr r0, [r1]\n\t"
        "ldmia r0!, {r4-r11}\n\t"
        "msr psp, r0\n\t"
        "mov lr, #0xfffffffd\n\t"   /* Thread mode, PSP */
        "bx lr\n\t"
        ".ltorg\n\t");
}

int main(void)
{
    create(ALPHA, "alpha", task_alpha, 1);
    create(BETA, "beta", task_beta, 2);
    create(GAMMA, "gamma", task_gamma, 3);
    create(IDLE, "idle", task_idle, 0);
    pxCurrentTCB = &tcbs[ALPHA];
    REG(SHPR2) = 0;                     /* SVCall: highest */
    REG(SHPR3) = 0x80ffu << 16;         /* SysTick 0x80, PendSV lowest */
    REG(SYST_RVR) = TICK_CLOCKS - 1;
    REG(SYST_CVR) = 0;
    REG(SYST_CSR) = 7;                  /* processor clock, interrupt, on */
    __asm__ volatile("svc 0" : : : "memory");
    return 1;                           /* not reached */
}
