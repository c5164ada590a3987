/*
 * RISC-V board support (riscv32-virt, sifive_e): the performance counter
 * cores' interrupts through the PLIC (at 0x0c000000 on both), as machine
 * external interrupts of hart 0 (PLIC context 0).  The board gives each
 * -device perf-counter a PLIC source, in the order the devices are
 * plugged (virt's platform bus from 64, as the device tree's
 * "interrupts" say; sifive_e from 40); system.h's
 * PERFORMANCE_COUNTER_IRQ... hold them for the cores the scripts attach.
 *
 * Enabling one installs this file's trap vector (mtvec), which also
 * reports any exception the way board_fault_report_install()'s does.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"
#include "perfctr.h"
#include "system.h"

#define PLIC_BASE 0x0c000000
#define PLIC_PRIORITY(src) (4 * (src))
#define PLIC_ENABLE(ctx, src) (0x2000 + 0x80 * (ctx) + 4 * ((src) / 32))
#define PLIC_THRESHOLD(ctx) (0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx) (0x200004 + 0x1000 * (ctx))
#define PLIC_CONTEXT 0                  /* hart 0, machine mode */

#define MCAUSE_MACHINE_EXTERNAL 0x8000000bu
#define MCAUSE_LOAD_ACCESS 5
#define MCAUSE_STORE_ACCESS 7
#define MIE_MEIE (1u << 11)

static void plic_enable(alt_u32 src, int on)
{
    alt_u32 offset = PLIC_ENABLE(PLIC_CONTEXT, src);
    alt_u32 bits = IORD_32DIRECT(PLIC_BASE, offset);

    if (on) {
        bits |= 1u << (src % 32);
    } else {
        bits &= ~(1u << (src % 32));
    }
    IOWR_32DIRECT(PLIC_BASE, offset, bits);
}

static void external_interrupt(alt_u32 pc)
{
    alt_u32 src;

    while ((src = IORD_32DIRECT(PLIC_BASE, PLIC_CLAIM(PLIC_CONTEXT)))) {
        alt_u32 base = perfctr_irq_core(src);

        if (base) {
            perfctr_irq_dispatch(base, pc);
        } else {
            plic_enable(src, 0);        /* not ours: never again */
        }
        IOWR_32DIRECT(PLIC_BASE, PLIC_CLAIM(PLIC_CONTEXT), src);
    }
}

/*
 * The trap vector: GCC saves every register the function and what it
 * calls may change, and returns with mret
 */
__attribute__((interrupt("machine"), aligned(4)))
static void riscv_virt_trap(void)
{
    alt_u32 cause, pc, value;

    __asm__ volatile("csrr %0, mcause" : "=r"(cause));
    __asm__ volatile("csrr %0, mepc" : "=r"(pc));
    if (cause == MCAUSE_MACHINE_EXTERNAL) {
        external_interrupt(pc);
        return;
    }
    __asm__ volatile("csrr %0, mtval" : "=r"(value));
    if (cause == MCAUSE_LOAD_ACCESS || cause == MCAUSE_STORE_ACCESS) {
        perfctr_fault_report(value, pc);
    }
    perfctr_trap_report(cause, pc, value);
}

int board_perfctr_irq_enable(alt_u32 base)
{
    int src = perfctr_irq_line(base);

    if (src < 0) {
        return -1;
    }
    __asm__ volatile("csrw mtvec, %0" : : "r"(riscv_virt_trap));
    IOWR_32DIRECT(PLIC_BASE, PLIC_PRIORITY(src), 1);
    IOWR_32DIRECT(PLIC_BASE, PLIC_THRESHOLD(PLIC_CONTEXT), 0);
    plic_enable(src, 1);
    __asm__ volatile("csrs mie, %0\n\tcsrsi mstatus, 0x8"
                     : : "r"(MIE_MEIE) : "memory");
    return 0;
}

void board_perfctr_irq_disable(alt_u32 base)
{
    int src = perfctr_irq_line(base);

    if (src < 0) {
        return;
    }
    plic_enable(src, 0);
}
