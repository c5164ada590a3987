/*
 * The test scheduler's tasks (tasks.c) and what each port gives them
 * (port_cortex_m.c, port_riscv.c, port_arm.c, port_aarch64.c), as
 * FreeRTOS splits tasks.c from its port.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef TASKS_H
#define TASKS_H

#include <stdint.h>

#define TICKS 40
#define NMI_EVERY 8
#ifdef __aarch64__
#define STACK_WORDS 1024        /* an exception frame is 800 bytes */
#else
#define STACK_WORDS 256
#endif

/* A task's state, as FreeRTOS keeps it: the list its item is in */
typedef struct xLIST {
    volatile uint32_t uxNumberOfItems;
} List_t;

typedef struct xLIST_ITEM {
    void *volatile pvContainer;
} ListItem_t;

typedef struct tskTaskControlBlock {
    volatile uint32_t *pxTopOfStack;    /* first: the switch code's */
    ListItem_t xStateListItem;
    volatile uint32_t deepest_sp;
    uint32_t *pxStack;
    uint32_t work_units;
    char pcTaskName[12];
} TCB_t;

enum { ALPHA, BETA, GAMMA, IDLE, NUM_TASKS };

extern TCB_t *volatile pxCurrentTCB;
extern TCB_t tasks_boot;        /* main's, until the first task starts */
extern volatile uint32_t ticks, nmis, switches;

/* Interrupts off and on, and the stack pointer, in the caller's frame */
#if defined(__riscv)
#define MASK_INTERRUPTS() __asm__ volatile("csrci mstatus, 8" : : : "memory")
#define UNMASK_INTERRUPTS() __asm__ volatile("csrsi mstatus, 8" : : : "memory")
#define READ_SP(sp) __asm__ volatile("mv %0, sp" : "=r"(sp))
#elif defined(__aarch64__)
#define MASK_INTERRUPTS() __asm__ volatile("msr daifset, #2" : : : "memory")
#define UNMASK_INTERRUPTS() __asm__ volatile("msr daifclr, #2" : : : "memory")
#define READ_SP(sp) do { \
        uintptr_t sp_; \
        __asm__ volatile("mov %0, sp" : "=r"(sp_)); \
        (sp) = (uint32_t)sp_; \
    } while (0)
#else
#define MASK_INTERRUPTS() __asm__ volatile("cpsid i" : : : "memory")
#define UNMASK_INTERRUPTS() __asm__ volatile("cpsie i" : : : "memory")
#define READ_SP(sp) __asm__ volatile("mov %0, sp" : "=r"(sp))
#endif

/* tasks.c: some work (the nested handler's too); the tick */
void work(uint32_t units);
void xTaskIncrementTick(void);
void select_next_task(void);

/* The port: a new task's stack as a switch leaves one, its top below
 * top; yield to the next task; start the tick and the first task */
uint32_t *port_new_stack(uint32_t *top, void (*entry)(void));
void port_yield(void);
void __attribute__((noreturn)) port_start(void);

#endif
