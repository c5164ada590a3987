/*
 * RISC-V board support (riscv32-virt, sifive_e): sleeping with WFI,
 * woken by the machine timer.  mstatus.MIE is cleared meanwhile: WFI wakes on a pending
 * enabled interrupt all the same, and no handler runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "io.h"

#define MTIMECMP_LO 0x02004000
#define MTIMECMP_HI 0x02004004
#define MSTATUS_MIE 0x8
#define MIE_MTIE (1u << 7)

void board_sleep(alt_u32 ticks)
{
    alt_u64 deadline;
    alt_u32 mstatus, mie;

    if (ticks == 0) {
        return;
    }
    __asm__ volatile("csrrci %0, mstatus, %1" : "=r"(mstatus)
                     : "i"(MSTATUS_MIE) : "memory");
    deadline = board_clock_read() + ticks;
    /* Never a deadline earlier than both halves: hi first to all ones */
    IOWR_32DIRECT(MTIMECMP_HI, 0, 0xffffffff);
    IOWR_32DIRECT(MTIMECMP_LO, 0, (alt_u32)deadline);
    IOWR_32DIRECT(MTIMECMP_HI, 0, (alt_u32)(deadline >> 32));
    __asm__ volatile("csrrs %0, mie, %1" : "=r"(mie) : "r"(MIE_MTIE));
    __asm__ volatile("wfi" : : : "memory");
    /* The timer interrupt stays pending until mtimecmp moves past mtime */
    IOWR_32DIRECT(MTIMECMP_HI, 0, 0xffffffff);
    if (!(mie & MIE_MTIE)) {
        __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE));
    }
    __asm__ volatile("csrs mstatus, %0" : : "r"(mstatus & MSTATUS_MIE)
                     : "memory");
}
