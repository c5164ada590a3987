/*
 * Guest time in modelled cycles (tests/boot/test_model_time.py), on
 * riscv32-virt: the CLINT's machine timer (mtime, 10 MHz) interrupts
 * every TIMER_PERIOD ticks while main() spins, and the handler reads
 * mcycle.  Prints
 *   "entries N N ...": mcycle at each of the first TICKS interrupts
 * The handler moves mtimecmp on by the period from where it was, so
 * the deadlines do not drift with the handler's lateness.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define CLINT_MTIMECMP_LO (*(volatile uint32_t *)0x02004000)
#define CLINT_MTIMECMP_HI (*(volatile uint32_t *)0x02004004)
#define CLINT_MTIME_LO (*(volatile uint32_t *)0x0200bff8)
#define MIE_MTIE (1u << 7)
#define MSTATUS_MIE (1u << 3)

/* 10 us of the 10 MHz mtime */
#define TIMER_PERIOD 100
#define TICKS 8

static volatile uint32_t entries[TICKS];
static volatile int ticks;
static uint32_t deadline;

static void set_mtimecmp(uint32_t lo)
{
    CLINT_MTIMECMP_HI = 0xffffffff;     /* no early match while split */
    CLINT_MTIMECMP_LO = lo;
    CLINT_MTIMECMP_HI = 0;
}

static void __attribute__((interrupt("machine"), aligned(4)))
timer_interrupt(void)
{
    uint32_t now;

    __asm__ volatile("csrr %0, mcycle" : "=r"(now));
    if (ticks < TICKS) {
        entries[ticks] = now;
    }
    ticks++;
    deadline += TIMER_PERIOD;
    set_mtimecmp(deadline);
}

int main(void)
{
    int i;

    __asm__ volatile("csrw mtvec, %0" :: "r"(timer_interrupt));
    deadline = CLINT_MTIME_LO + TIMER_PERIOD;
    set_mtimecmp(deadline);
    __asm__ volatile("csrs mie, %0" :: "r"(MIE_MTIE));
    __asm__ volatile("csrs mstatus, %0" :: "r"(MSTATUS_MIE));
    while (ticks < TICKS) {
        /* A long block: the deadline falls inside it, not at its end */
        __asm__ volatile(".rept 32\n\tnop\n\t.endr");
    }
    __asm__ volatile("csrc mstatus, %0" :: "r"(MSTATUS_MIE));
    printf("entries");
    for (i = 0; i < TICKS; i++) {
        printf(" %lu", (unsigned long)entries[i]);
    }
    printf("\n");
    return 0;
}
