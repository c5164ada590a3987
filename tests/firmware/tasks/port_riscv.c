/*
 * The test scheduler's port to the RISC-V boards in machine mode (tasks.c):
 * tasks switched by the machine timer's trap; a task waiting for the
 * next tick yields by ECALL, and every NMI_EVERY ticks the timer's
 * handler makes an ECALL itself, taken inside it (a nested exception)
 * and switching nothing.
 *
 * trap_entry saves the interrupted code's registers on its stack and
 * that stack pointer in pxCurrentTCB, calls trap(), and restores the
 * registers of the task pxCurrentTCB names then, ending with MRET; so
 * a task's stack pointer after the MRET is the one it was interrupted
 * with.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "system.h"
#include "tasks.h"

#define TICK_MTIME (BOARD_TIMER_HZ / 200)       /* 5 ms of mtime */
#define FRAME_WORDS 32          /* x1, x3-x31, mepc, mstatus */
#define CLINT_MTIMECMP 0x2004000
#define CLINT_MTIME 0x200bff8
#define MCAUSE_TIMER 0x80000007u
#define MCAUSE_ECALL 11u
#define MIE_MTIE (1u << 7)
#define MSTATUS_MPIE (1u << 7)
#define MSTATUS_MPP_M (3u << 11)

static volatile uint32_t nesting;

void trap_entry(void);
void trap(uint32_t cause);

/* As trap_entry leaves a task: its registers, mepc, mstatus */
uint32_t *port_new_stack(uint32_t *top, void (*entry)(void))
{
    top -= FRAME_WORDS;
    /* gp and tp as the C code has them */
    __asm__ volatile("mv %0, gp" : "=r"(top[1]));
    __asm__ volatile("mv %0, tp" : "=r"(top[2]));
    top[30] = (uint32_t)entry;                      /* mepc */
    top[31] = MSTATUS_MPP_M | MSTATUS_MPIE;         /* interrupts on */
    return top;
}

static void set_timer(uint64_t when)
{
    *(volatile uint32_t *)(CLINT_MTIMECMP + 4) = 0xffffffff;
    *(volatile uint32_t *)CLINT_MTIMECMP = (uint32_t)when;
    *(volatile uint32_t *)(CLINT_MTIMECMP + 4) = (uint32_t)(when >> 32);
}

static uint64_t next_tick;

void trap(uint32_t cause)
{
    if (nesting++) {
        nmis++;                 /* the timer's own ECALL, taken inside it */
        work(1);
    } else if (cause == MCAUSE_TIMER) {
        xTaskIncrementTick();
        if (ticks % NMI_EVERY == 0) {
            __asm__ volatile("ecall" : : : "memory");
        }
        next_tick += TICK_MTIME;
        set_timer(ticks == TICKS ? UINT64_MAX : next_tick);
        select_next_task();
    } else if (cause == MCAUSE_ECALL) {
        select_next_task();     /* a task yields */
    } else {
        printf("unexpected trap, mcause 0x%lx\n", (unsigned long)cause);
        exit(1);
    }
    nesting--;
}

/*
 * Save x1, x3-x31, mepc (past an ECALL) and mstatus on the interrupted
 * stack, and that stack in pxCurrentTCB; trap(mcause); then the same
 * from whatever task pxCurrentTCB names now.
 */
__attribute__((naked, aligned(4))) void trap_entry(void)
{
    __asm__ volatile(
        "addi sp, sp, -128\n\t"
        "sw x1, 0(sp)\n\t"
        "sw x3, 4(sp)\n\t"  "sw x4, 8(sp)\n\t"  "sw x5, 12(sp)\n\t"
        "sw x6, 16(sp)\n\t" "sw x7, 20(sp)\n\t" "sw x8, 24(sp)\n\t"
        "sw x9, 28(sp)\n\t" "sw x10, 32(sp)\n\t" "sw x11, 36(sp)\n\t"
        "sw x12, 40(sp)\n\t" "sw x13, 44(sp)\n\t" "sw x14, 48(sp)\n\t"
        "sw x15, 52(sp)\n\t" "sw x16, 56(sp)\n\t" "sw x17, 60(sp)\n\t"
        "sw x18, 64(sp)\n\t" "sw x19, 68(sp)\n\t" "sw x20, 72(sp)\n\t"
        "sw x21, 76(sp)\n\t" "sw x22, 80(sp)\n\t" "sw x23, 84(sp)\n\t"
        "sw x24, 88(sp)\n\t" "sw x25, 92(sp)\n\t" "sw x26, 96(sp)\n\t"
        "sw x27, 100(sp)\n\t" "sw x28, 104(sp)\n\t" "sw x29, 108(sp)\n\t"
        "sw x30, 112(sp)\n\t" "sw x31, 116(sp)\n\t"
        "csrr a0, mcause\n\t"
        "csrr t0, mepc\n\t"
        "bltz a0, 1f\n\t"
        "addi t0, t0, 4\n\t"            /* past the ECALL */
        "1: sw t0, 120(sp)\n\t"
        "csrr t0, mstatus\n\t"
        "sw t0, 124(sp)\n\t"
        "la t0, nesting\n\t"
        "lw t0, 0(t0)\n\t"
        "bnez t0, 2f\n\t"               /* nested: not a task's stack */
        "la t0, pxCurrentTCB\n\t"
        "lw t0, 0(t0)\n\t"
        "sw sp, 0(t0)\n\t"
        "2: call trap\n\t"
        "la t0, nesting\n\t"
        "lw t0, 0(t0)\n\t"
        "bnez t0, 3f\n\t"
        "la t0, pxCurrentTCB\n\t"
        "lw t0, 0(t0)\n\t"
        "lw sp, 0(t0)\n\t"
        "3: lw t0, 120(sp)\n\t"
        "csrw mepc, t0\n\t"
        "lw t0, 124(sp)\n\t"
        "csrw mstatus, t0\n\t"
        "lw x1, 0(sp)\n\t"
        "lw x3, 4(sp)\n\t"  "lw x4, 8(sp)\n\t"  "lw x5, 12(sp)\n\t"
        "lw x6, 16(sp)\n\t" "lw x7, 20(sp)\n\t" "lw x8, 24(sp)\n\t"
        "lw x9, 28(sp)\n\t" "lw x10, 32(sp)\n\t" "lw x11, 36(sp)\n\t"
        "lw x12, 40(sp)\n\t" "lw x13, 44(sp)\n\t" "lw x14, 48(sp)\n\t"
        "lw x15, 52(sp)\n\t" "lw x16, 56(sp)\n\t" "lw x17, 60(sp)\n\t"
        "lw x18, 64(sp)\n\t" "lw x19, 68(sp)\n\t" "lw x20, 72(sp)\n\t"
        "lw x21, 76(sp)\n\t" "lw x22, 80(sp)\n\t" "lw x23, 84(sp)\n\t"
        "lw x24, 88(sp)\n\t" "lw x25, 92(sp)\n\t" "lw x26, 96(sp)\n\t"
        "lw x27, 100(sp)\n\t" "lw x28, 104(sp)\n\t" "lw x29, 108(sp)\n\t"
        "lw x30, 112(sp)\n\t" "lw x31, 116(sp)\n\t"
        "addi sp, sp, 128\n\t"
        "mret\n\t");
}

void port_yield(void)
{
    __asm__ volatile("ecall" : : : "memory");
}

void port_start(void)
{
    __asm__ volatile("csrw mtvec, %0" : : "r"(trap_entry));
    next_tick = *(volatile uint64_t *)CLINT_MTIME + TICK_MTIME;
    set_timer(next_tick);
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE));
    port_yield();                       /* main yields to the first task */
    for (;;) {
        continue;                       /* not reached */
    }
}
