/*
 * uart_ticker on the RISC-V boards in machine mode (riscv32-virt: QEMU
 * "virt", rv32imac, -bios none, hw/riscv/virt.c; sifive_e: the FE310,
 * hw/riscv/sifive_e.c); the console is the board's UART driver
 * (ns16550.c or sifive_uart.c):
 *
 * - Tick: the CLINT's machine timer, mtime counting BOARD_TIMER_HZ
 *   (10 MHz on virt, 32768 Hz on sifive_e): each mtimecmp (hart 0,
 *   0x02004000, 64 bits) is the previous one + BOARD_TIMER_HZ / 1000,
 *   1 ms (on sifive_e 32 or 33 mtime ticks, 1 ms on average); on virt
 *   under -icount shift=3 that is 125,000 instructions.  (QEMU raises
 *   the interrupt when mtime, which it derives from virtual time in
 *   whole steps, reaches mtimecmp: up to a step late, never drifting.)
 *   The machine timer interrupt (mie.MTIE, mcause 0x80000007) comes to
 *   mtvec, direct mode: riscv_trap(), a GCC interrupt("machine")
 *   function (it saves what it and its callees may change and returns
 *   with mret).
 *
 * SPDX-License-Identifier: MIT
 */
#include "io.h"
#include "system.h"
#include "uart_ticker.h"

#define CLINT_MTIMECMP_LO 0x02004000
#define CLINT_MTIMECMP_HI 0x02004004
#define CLINT_MTIME_LO 0x0200bff8
#define CLINT_MTIME_HI 0x0200bffc

#define MCAUSE_MACHINE_TIMER 0x80000007u
#define MIE_MTIE (1u << 7)
#define MSTATUS_MIE (1u << 3)

#define TIMER_PERIOD (BOARD_TIMER_HZ / TICK_HZ)

static alt_u64 next_compare;
/* Of BOARD_TIMER_HZ / TICK_HZ's fraction, in 1 / TICK_HZ of a tick */
static alt_u32 period_remainder;

static alt_u64 read_mtime(void)
{
    alt_u32 hi, lo;

    do {
        hi = IORD_32DIRECT(CLINT_MTIME_HI, 0);
        lo = IORD_32DIRECT(CLINT_MTIME_LO, 0);
    } while (IORD_32DIRECT(CLINT_MTIME_HI, 0) != hi);
    return (alt_u64)hi << 32 | lo;
}

/* Never a compare below both the old and the new: low half first to -1 */
static void write_mtimecmp(alt_u64 value)
{
    IOWR_32DIRECT(CLINT_MTIMECMP_LO, 0, 0xffffffff);
    IOWR_32DIRECT(CLINT_MTIMECMP_HI, 0, (alt_u32)(value >> 32));
    IOWR_32DIRECT(CLINT_MTIMECMP_LO, 0, (alt_u32)value);
}

__attribute__((interrupt("machine"), aligned(4)))
static void riscv_trap(void)
{
    alt_u32 cause;

    __asm__ volatile("csrr %0, mcause" : "=r"(cause));
    if (cause != MCAUSE_MACHINE_TIMER) {
        uart_ticker_fault("mcause", cause);
    }
    /*
     * The next tick 1 ms after this one, on average where mtime's rate
     * is no multiple of 1 kHz (as Bresenham's line steps): drops
     * mip.MTIP
     */
    next_compare += TIMER_PERIOD;
    period_remainder += BOARD_TIMER_HZ % TICK_HZ;
    if (period_remainder >= TICK_HZ) {
        period_remainder -= TICK_HZ;
        next_compare++;
    }
    write_mtimecmp(next_compare);
    tick_handler();
}

void board_tick_start(void)
{
    __asm__ volatile("csrw mtvec, %0" : : "r"(riscv_trap));
    next_compare = read_mtime() + TIMER_PERIOD;
    write_mtimecmp(next_compare);
    __asm__ volatile("csrs mie, %0\n\tcsrs mstatus, %1"
                     : : "r"(MIE_MTIE), "r"(MSTATUS_MIE) : "memory");
}
