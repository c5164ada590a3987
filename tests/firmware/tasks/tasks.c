/*
 * A small preemptive scheduler, for the profiler's tasks and handlers
 * (tests/boot/test_tasks.py); its ports switch by PendSV on the MPS2
 * boards' Cortex-M (port_cortex_m.c), by the machine timer's trap on
 * riscv32-virt (port_riscv.c) and by the tick's IRQ on arm-virt and
 * raspi1ap (port_arm.c, port_arm.S) and aarch64-virt (port_aarch64.c,
 * port_aarch64.S).
 *
 * Four tasks run on their own stacks: alpha, beta and gamma do 1, 2 and
 * 3 units of work at each tick, then yield until the next; idle takes
 * the rest.  At each tick its handler sends the ticks to a queue and
 * gives a semaphore (queue.c), which idle receives and takes; the work
 * tasks wait on the semaphore's list of waiters.  Every NMI_EVERY ticks the tick's handler takes a nested
 * exception, which does a unit of work.
 *
 * The control block names its fields as FreeRTOS does (TCB_t,
 * pxCurrentTCB, pcTaskName, pxStack) but lays them out otherwise, so
 * that a profiler that finds the names finds them through DWARF; a
 * task's state is the list its xStateListItem is in, as in FreeRTOS: a
 * ready list of pxReadyTasksLists while it is ready, xDelayedTaskList1
 * while it waits for the tick (the profiler's task instances); and the
 * tick's work is xTaskIncrementTick, as FreeRTOS's.
 *
 * At each tick idle also allocates 8 to 32 bytes and frees them (the
 * profiler's heap, as the tasks run).
 *
 * Each work task calls deepest() once per tick, with interrupts masked,
 * which notes the stack pointer at the task's deepest point.  After
 * TICKS ticks idle prints, and exits with 0:
 *   "ticks T nmis N switches S"
 *   "task NAME deepest_sp 0xADDR" for alpha, beta and gamma
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "queue.h"
#include "tasks.h"

#define WORK_UNIT 300

static uint32_t stacks[NUM_TASKS][STACK_WORDS] __attribute__((aligned(16)));
static TCB_t tcbs[NUM_TASKS];
static List_t pxReadyTasksLists[1];
static List_t xDelayedTaskList1;
/* A queue, named in the registry; a semaphore, by its symbol */
static Queue_t ticks_queue_buffer;
static QueueHandle_t ticks_queue;
Queue_t done_semaphore;
TCB_t tasks_boot;
TCB_t *volatile pxCurrentTCB = &tasks_boot;
volatile uint32_t ticks, nmis, switches;
static volatile uint32_t sink;

void __attribute__((noinline)) work(uint32_t units)
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

    MASK_INTERRUPTS();
    frame[0] = 1;
    READ_SP(sp);
    if (!self->deepest_sp || sp < self->deepest_sp) {
        self->deepest_sp = sp;
    }
    sink += frame[0];
    UNMASK_INTERRUPTS();
}

static int is_ready(const TCB_t *task)
{
    return task->xStateListItem.pvContainer == &pxReadyTasksLists[0];
}

static void make_ready(TCB_t *task)
{
    task->xStateListItem.pvContainer = &pxReadyTasksLists[0];
}

/*
 * What a tick's handler sent and gave: received and taken, a second
 * receive and take failing (the queue is empty, the semaphore taken)
 */
static void __attribute__((noinline)) take_what_the_tick_gave(void)
{
    uint32_t got;

    xQueueReceive(ticks_queue, &got, 0);
    xQueueReceive(ticks_queue, &got, 0);
    xQueueSemaphoreTake(&done_semaphore, 0);
    xQueueSemaphoreTake(&done_semaphore, 0);
}

/*
 * FreeRTOS's name and arguments: a task about to block notes the list of
 * waiters it waits in (the profiler names what each instance waited on)
 */
void __attribute__((noinline)) vTaskPlaceOnEventList(List_t *waiters,
                                                     uint32_t ticks_to_wait)
{
    __asm__ volatile("" : : "r"(waiters), "r"(ticks_to_wait) : "memory");
}

/*
 * Until the next tick, as a take of the semaphore the tick gives would
 * (not inlined: the same instructions in every task)
 */
static void __attribute__((noinline)) wait_for_tick(TCB_t *self)
{
    vTaskPlaceOnEventList(&done_semaphore.xTasksWaitingToReceive, 1);
    self->xStateListItem.pvContainer = &xDelayedTaskList1;
    port_yield();
    while (!is_ready(self)) {
        continue;
    }
}

/*
 * The three work tasks' code alike to the byte, aligned alike, so that
 * their calls return to the same halfwords (a return to a 32-bit
 * instruction on an odd one costs the Cortex-M3/M4 a cycle more): each
 * reaches its control block through a register, not at an offset of
 * its own
 */
#define TASK_FUNCTION __attribute__((noreturn, noinline, aligned(4)))

static inline TCB_t *in_register(TCB_t *tcb)
{
    __asm__("" : "+r"(tcb));
    return tcb;
}

static void TASK_FUNCTION task_alpha(void)
{
    TCB_t *self = in_register(&tcbs[ALPHA]);

    for (;;) {
        work(self->work_units);
        deepest(self);
        wait_for_tick(self);
    }
}

static void TASK_FUNCTION task_beta(void)
{
    TCB_t *self = in_register(&tcbs[BETA]);

    for (;;) {
        work(self->work_units);
        deepest(self);
        wait_for_tick(self);
    }
}

static void TASK_FUNCTION task_gamma(void)
{
    TCB_t *self = in_register(&tcbs[GAMMA]);

    for (;;) {
        work(self->work_units);
        deepest(self);
        wait_for_tick(self);
    }
}

static void __attribute__((noreturn, noinline)) task_idle(void)
{
    uint32_t seen = 0;
    void *block;
    int i;

    while (ticks < TICKS) {
        __asm__ volatile("wfi");
        if (ticks != seen) {
            seen = ticks;
            take_what_the_tick_gave();
            block = malloc(8 + 8 * (seen % 4));
            sink = (uint32_t)(uintptr_t)block;  /* (kept: not elided) */
            free(block);
        }
    }
    printf("ticks %lu nmis %lu switches %lu\n", (unsigned long)ticks,
           (unsigned long)nmis, (unsigned long)switches);
    for (i = ALPHA; i < IDLE; i++) {
        printf("task %s deepest_sp 0x%08lx\n", tcbs[i].pcTaskName,
               (unsigned long)tcbs[i].deepest_sp);
    }
    exit(0);
}

static void create(int i, const char *name, void (*entry)(void),
                   uint32_t units)
{
    int c;

    for (c = 0; name[c] && c < (int)sizeof(tcbs[i].pcTaskName) - 1; c++) {
        tcbs[i].pcTaskName[c] = name[c];
    }
    tcbs[i].pxTopOfStack = port_new_stack(&stacks[i][STACK_WORDS], entry);
    tcbs[i].pxStack = stacks[i];
    tcbs[i].work_units = units;
    make_ready(&tcbs[i]);
}

void select_next_task(void)
{
    int at = pxCurrentTCB == &tasks_boot ? NUM_TASKS - 1 :
             pxCurrentTCB - tcbs;
    int i;

    for (i = 1; i <= NUM_TASKS; i++) {
        TCB_t *next = &tcbs[(at + i) % NUM_TASKS];

        if (is_ready(next) || next == &tcbs[IDLE]) {
            if (next != pxCurrentTCB) {
                switches++;
            }
            pxCurrentTCB = next;
            return;
        }
    }
}

/*
 * At each tick, in its handler: every task is ready again; the ticks
 * sent, the semaphore given (as FreeRTOS's handlers do, FromISR)
 */
void xTaskIncrementTick(void)
{
    uint32_t now = ++ticks;
    int i;

    for (i = 0; i < NUM_TASKS; i++) {
        if (!is_ready(&tcbs[i])) {
            make_ready(&tcbs[i]);
        }
    }
    xQueueGenericSendFromISR(ticks_queue, &now, 0, 0);
    xQueueGiveFromISR(&done_semaphore, 0);
}

int main(void)
{
    ticks_queue = xQueueGenericCreateStatic(QUEUE_ITEMS, sizeof(uint32_t),
                                            &ticks_queue_buffer);
    vQueueAddToRegistry(ticks_queue, "ticks");
    xQueueGenericCreateStatic(1, 0, &done_semaphore);
    create(ALPHA, "alpha", task_alpha, 1);
    create(BETA, "beta", task_beta, 2);
    create(GAMMA, "gamma", task_gamma, 3);
    create(IDLE, "idle", task_idle, 0);
    port_start();
}
