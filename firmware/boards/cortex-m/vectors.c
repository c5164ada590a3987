/*
 * Cortex-M board support: the vector table, with the external
 * interrupts (the board's BOARD_NVIC_LINES NVIC lines) after picolibc's
 * 16 system exceptions.  picolibc's own table stops at SysTick; this one
 * replaces it (crt0 refers to __interrupt_vector, which picolibc defines
 * weak) and is the same up to there, so the fault handlers of picolibc's
 * crt0 and a program's arm_systick_isr() etc. still take effect.
 *
 * The four NVIC lines from BOARD_PERFCTR_IRQ_FIRST are the performance
 * counter cores' (system.h's PERFORMANCE_COUNTER_IRQ...): their entry
 * passes the line and the pc the exception frame holds to
 * cortex_m_perfctr_irq() (interrupts.c).  Any other line is unexpected:
 * the program stops and says which.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "alt_types.h"
#include "system.h"

#define PERFCTR_LINES 4

extern char __stack[];
void _start(void);

void cortex_m_halt_isr(void);
void cortex_m_ignore_isr(void);
void cortex_m_unexpected_isr(void);
void cortex_m_perfctr_isr(void);
void cortex_m_perfctr_irq(alt_u32 line, alt_u32 pc);

void cortex_m_halt_isr(void)
{
    for (;;) {
        continue;
    }
}

void cortex_m_ignore_isr(void)
{
}

/*
 * The system exceptions' handlers, as picolibc names them: picolibc's
 * crt0 (or the program) defines the ones it has; the others default as
 * in picolibc's own table.
 */
#define WEAK_ALIAS(name, to) \
    void name(void) __attribute__((weak, alias(#to)))
WEAK_ALIAS(arm_nmi_isr, cortex_m_halt_isr);
WEAK_ALIAS(arm_hardfault_isr, cortex_m_halt_isr);
WEAK_ALIAS(arm_memmanage_isr, cortex_m_halt_isr);
WEAK_ALIAS(arm_busfault_isr, cortex_m_halt_isr);
WEAK_ALIAS(arm_usagefault_isr, cortex_m_halt_isr);
WEAK_ALIAS(arm_svc_isr, cortex_m_ignore_isr);
WEAK_ALIAS(arm_debugmon_isr, cortex_m_ignore_isr);
WEAK_ALIAS(arm_pendsv_isr, cortex_m_ignore_isr);
WEAK_ALIAS(arm_systick_isr, cortex_m_ignore_isr);

/* An interrupt nobody asked for: say which line, stop */
void cortex_m_unexpected_isr(void)
{
    alt_u32 ipsr;

    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    printf("ARM fault: unexpected interrupt (NVIC line %lu)\n",
           (unsigned long)(ipsr & 0x1ff) - 16);
    fflush(stdout);
    _Exit(1);
}

/*
 * The performance counter lines' entry.  The hardware has saved r0-r3,
 * r12, lr, pc and xPSR on the stack the interrupted code used (PSP if
 * EXC_RETURN bit 2 says so, else MSP): the pc is at offset 24.  The C
 * handler is an ordinary AAPCS function; the stack stays 8-byte
 * aligned.
 */
__attribute__((naked)) void cortex_m_perfctr_isr(void)
{
#if __ARM_ARCH_ISA_THUMB >= 2
    __asm__ volatile(
        "tst lr, #4\n\t"
        "ite eq\n\t"
        "mrseq r1, msp\n\t"
        "mrsne r1, psp\n\t"
        "ldr r1, [r1, #24]\n\t"
        "mrs r0, ipsr\n\t"
        "ubfx r0, r0, #0, #9\n\t"
        "sub r0, r0, #16\n\t"
        "push {r4, lr}\n\t"
        "bl cortex_m_perfctr_irq\n\t"
        "pop {r4, pc}\n\t");
#else
    /* Armv6-M: no IT, no TST or BFX with an immediate */
    __asm__ volatile(
        ".syntax unified\n\t"
        "mov r0, lr\n\t"
        "movs r1, #4\n\t"
        "tst r0, r1\n\t"
        "mrs r1, msp\n\t"
        "beq 1f\n\t"
        "mrs r1, psp\n"
        "1:\n\t"
        "ldr r1, [r1, #24]\n\t"
        "mrs r0, ipsr\n\t"
        "lsls r0, r0, #23\n\t"
        "lsrs r0, r0, #23\n\t"
        "subs r0, r0, #16\n\t"
        "push {r4, lr}\n\t"
        "bl cortex_m_perfctr_irq\n\t"
        "pop {r4, pc}\n\t");
#endif
}

#define X cortex_m_unexpected_isr
#define P cortex_m_perfctr_isr

/*
 * VTOR resets to the start of the image's flash (0, or the Secure
 * 0x10000000 of the TrustZone boards), where the table goes first,
 * aligned as VTOR needs: its size rounded up to a power of two.
 */
#define VECTORS (16 + BOARD_NVIC_LINES)
__attribute__((section(".data.init.enter"),
               aligned(VECTORS <= 64 ? 256 : VECTORS <= 128 ? 512 : 1024),
               used))
void *const __interrupt_vector[VECTORS] = {
    __stack, _start, arm_nmi_isr, arm_hardfault_isr, arm_memmanage_isr,
    arm_busfault_isr, arm_usagefault_isr, 0, 0, 0, 0, arm_svc_isr,
    arm_debugmon_isr, 0, arm_pendsv_isr, arm_systick_isr,
    [16 ... 16 + BOARD_PERFCTR_IRQ_FIRST - 1] = X,
    [16 + BOARD_PERFCTR_IRQ_FIRST ...
     16 + BOARD_PERFCTR_IRQ_FIRST + PERFCTR_LINES - 1] = P,
#if BOARD_PERFCTR_IRQ_FIRST + PERFCTR_LINES < BOARD_NVIC_LINES
    [16 + BOARD_PERFCTR_IRQ_FIRST + PERFCTR_LINES ... VECTORS - 1] = X,
#endif
};
