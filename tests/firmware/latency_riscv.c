/*
 * latency_riscv: latency.c on the RISC-V boards: the machine software
 * interrupt (the CLINT's MSIP) raised with interrupts masked (mstatus.MIE
 * clear), taken when they are unmasked after 0, 100 and 300 NOPs; then
 * raised, lowered 50 NOPs later and raised again: its latency counts from
 * the second raise.  QEMU tells the plugin when the interrupt's bit rises
 * in mip.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define CLINT_MSIP (*(volatile uint32_t *)0x2000000)
#define MIE_MSIE (1u << 3)

static volatile unsigned int taken;

void __attribute__((interrupt("machine"), aligned(4))) msip_isr(void)
{
    CLINT_MSIP = 0;
    taken++;
}

/* Raise it, run NOPS no-ops masked, unmask: it is taken there */
#define MASKED_FOR(NOPS) \
    __asm__ volatile("csrci mstatus, 8\n\t" \
                     "sw %0, 0(%1)\n\t" \
                     ".rept " #NOPS "\n\t" \
                     "nop\n\t" \
                     ".endr\n\t" \
                     "csrsi mstatus, 8" \
                     : : "r"(1), "r"(&CLINT_MSIP) : "memory")

int main(void)
{
    __asm__ volatile("csrw mtvec, %0" : : "r"(msip_isr));
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MSIE));
    MASKED_FOR(0);
    MASKED_FOR(100);
    MASKED_FOR(300);
    __asm__ volatile("csrci mstatus, 8\n\t"
                     "sw %0, 0(%1)\n\t"
                     ".rept 50\n\t"
                     "nop\n\t"
                     ".endr\n\t"
                     "sw zero, 0(%1)\n\t"
                     ".rept 20\n\t"
                     "nop\n\t"
                     ".endr\n\t"
                     "sw %0, 0(%1)\n\t"
                     "csrsi mstatus, 8"
                     : : "r"(1), "r"(&CLINT_MSIP) : "memory");
    __asm__ volatile("csrc mie, %0" : : "r"(MIE_MSIE));
    printf("msip taken %u times\n", taken);
    return taken == 4 ? 0 : 1;
}
