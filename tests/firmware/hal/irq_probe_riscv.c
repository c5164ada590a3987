/*
 * RISC-V: the machine timer made due (mtimecmp = 0) while mstatus.MIE
 * masks it; a handler of the test's own (mtvec) takes it once MIE is
 * restored.
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "sys/alt_irq.h"
#include "irq_probe.h"

#define MTIMECMP_LO 0x02004000
#define MTIMECMP_HI 0x02004004
#define MIP_MTIP (1u << 7)
#define MIE_MTIE (1u << 7)

static volatile int taken;

__attribute__((interrupt("machine"), aligned(4)))
static void timer_handler(void)
{
    taken++;
    IOWR_32DIRECT(MTIMECMP_HI, 0, 0xffffffff);  /* no longer due */
}

void irq_probe_run(struct irq_probe *r)
{
    alt_irq_context context;
    alt_u32 mtvec, mip;

    IOWR_32DIRECT(MTIMECMP_HI, 0, 0xffffffff);
    __asm__ volatile("csrrw %0, mtvec, %1" : "=r"(mtvec)
                     : "r"(timer_handler));
    alt_irq_enable_all(1);
    context = alt_irq_disable_all();
    IOWR_32DIRECT(MTIMECMP_LO, 0, 0);
    IOWR_32DIRECT(MTIMECMP_HI, 0, 0);
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE));
    __asm__ volatile("csrr %0, mip" : "=r"(mip));
    r->pending = (mip & MIP_MTIP) != 0;
    r->taken_masked = taken;
    alt_irq_enable_all(context);
    __asm__ volatile("nop" : : : "memory");
    r->taken_after = taken;
    __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE));
    __asm__ volatile("csrw mtvec, %0" : : "r"(mtvec));
}
