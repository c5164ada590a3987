/*
 * latency: PendSV pended with interrupts masked (PRIMASK), taken when
 * they are unmasked after a known number of instructions: 0, 100 and
 * 300 NOPs, whose latencies tests/boot/test_latency.py knows apart in
 * advance (100 and 300 instructions more than the first); then pended,
 * cleared 50 NOPs later, and pended again: its latency counts from the
 * second pend (the first one's again).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#define ICSR (*(volatile unsigned int *)0xe000ed04)
#define ICSR_PENDSVSET (1u << 28)
#define ICSR_PENDSVCLR (1u << 27)

static volatile unsigned int taken;

void arm_pendsv_isr(void)
{
    taken++;
}

/* Pend PendSV, run NOPS no-ops masked, unmask: it is taken there */
#define MASKED_FOR(NOPS) \
    __asm__ volatile("cpsid i\n\t" \
                     "str %0, [%1]\n\t" \
                     ".rept " #NOPS "\n\t" \
                     "nop\n\t" \
                     ".endr\n\t" \
                     "cpsie i" \
                     : : "r"(ICSR_PENDSVSET), "r"(&ICSR) : "memory")

int main(void)
{
    MASKED_FOR(0);
    MASKED_FOR(100);
    MASKED_FOR(300);
    __asm__ volatile("cpsid i\n\t"
                     "str %0, [%2]\n\t"
                     ".rept 50\n\t"
                     "nop\n\t"
                     ".endr\n\t"
                     "str %1, [%2]\n\t"
                     ".rept 20\n\t"
                     "nop\n\t"
                     ".endr\n\t"
                     "str %0, [%2]\n\t"
                     "cpsie i"
                     : : "r"(ICSR_PENDSVSET), "r"(ICSR_PENDSVCLR), "r"(&ICSR)
                     : "memory");
    printf("pendsv taken %u times\n", taken);
    return taken == 4 ? 0 : 1;
}
