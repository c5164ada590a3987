/*
 * uart_ticker: firmware that behaves as real firmware does, for every
 * board: no semihosting at all (its own startup, no picolibc crt0, no C
 * library), output only on the board's first UART, a periodic timer
 * interrupt, and a main loop that never ends.
 *
 * What a test may rely on (keep these names and this behaviour):
 *
 * - main() prints exactly "uart_ticker: started\n" on the UART, starts
 *   the tick, then loops forever: it calls background_work() and,
 *   whenever 100 more ticks have passed, report(n), which prints
 *   "tick N\n" (N = 100, 200, 300, ...).  It never returns, never exits,
 *   never waits (no WFI): every instruction is compute, so under
 *   -icount the virtual time is the instruction count << shift.
 * - tick_handler(): called from the board's interrupt entry once per
 *   tick, with interrupts masked; it increments the volatile counter
 *   `ticks`, then runs a busy loop of TICK_WORK iterations (a volatile
 *   accumulator, 5 instructions an iteration, 6 on the Cortex-M0) so
 *   that it takes about 3% of the instructions of each tick: TICK_WORK =
 *   ALT_CPU_FREQ / 1000 * 3% / TICK_LOOP_INSNS.
 * - background_work(), report(n), tick_handler(): never inlined, so
 *   that a profiler sees each as a function of its own.
 * - The tick is 1 kHz of the board's virtual time, from the board's own
 *   timer; each compare is the previous compare plus 1 ms (or an
 *   auto-reloading timer), so ticks never drift.
 *
 * Per board (system.h's ALT_CPU_FREQ is one instruction a clock under
 * -icount shift = log2(1e9 / ALT_CPU_FREQ)):
 *
 * | board             | UART                       | tick                                   | insns/tick | TICK_WORK |
 * | mps2-an385/6/500  | CMSDK APB UART0 0x40004000 | SysTick, processor clock 25 MHz,       |     31,250 |       187 |
 * |                   |                            | reload 24999 (exception 15)            |            |           |
 * | mps2-an505        | CMSDK APB UART0 0x40200000 | SysTick, 20 MHz, reload 19999          |     31,250 |       187 |
 * | mps3-an547        | CMSDK APB UART0 0x49303000 | SysTick, 32 MHz, reload 31999          |     31,250 |       187 |
 * | lm3s6965evb       | PL011 0x4000c000           | SysTick, 12.5 MHz, reload 12499        |     31,250 |       187 |
 * | microbit          | nRF51 UART 0x40002000      | SysTick, 16 MHz, reload 15999          |     15,625 |        78 |
 * | arm-virt          | PL011 0x09000000           | generic virtual timer, CNTV_CVAL +=    |  1,000,000 |     6,000 |
 * |                   |                            | 62500 (62.5 MHz), GICv2 PPI ID 27      |            |           |
 * | riscv32-virt      | NS16550A 0x10000000        | CLINT mtimecmp += 10000 (10 MHz),      |   125,000* |       750 |
 * |                   |                            | machine timer interrupt (mcause 7)     |            |           |
 * | sifive_e          | SiFive UART0 0x10013000    | CLINT mtimecmp += 32 or 33 (32768 Hz), |   250,000* |     1,500 |
 * |                   |                            | machine timer interrupt (mcause 7)     |            |           |
 * | raspi1ap          | PL011 0x20201000           | BCM2835 system timer C1 += 1000        |  1,000,000 |     6,000 |
 * |                   |                            | (1 MHz), GPU IRQ 1 (IRQ pending 1)     |            |           |
 *
 * (*) On average: QEMU's CLINT fires at mtimecmp plus where in its
 * 100 ns step mtime was when mtimecmp was written, so a tick comes up to
 * 100 ns (12 instructions) late, never drifting (gaps of 124,999 and
 * 125,011 instructions, 125,000 on average).  On sifive_e mtime's step
 * is 30.5 us, so ticks are 32 or 33 of them apart, 1 ms on average.  On
 * the other boards every gap is exact.
 *
 * The board's part is board_<dir>.c (UART, timer, interrupt entry;
 * Cortex-M's vector table) and start_arm.S / start_riscv.S (the entry
 * point, stacks, vectors).  Memory is the cross file's (picolibc.ld's
 * layout from its --defsym's, without picolibc): code at __flash, data
 * and stack at __ram.
 *
 * SPDX-License-Identifier: MIT
 */
#include "system.h"
#include "uart_ticker.h"

/*
 * 3% of the instructions of a tick, 5 instructions an iteration (6 in
 * Armv6-M's Thumb, where GCC compares after the store)
 */
#define TICK_INSNS (ALT_CPU_FREQ / TICK_HZ)
#if defined(__thumb__) && __ARM_ARCH_ISA_THUMB < 2
#define TICK_LOOP_INSNS 6
#else
#define TICK_LOOP_INSNS 5
#endif
#define TICK_WORK (TICK_INSNS * 3 / 100 / TICK_LOOP_INSNS)

/* Ticks between two report() calls */
#define REPORT_EVERY 100

/* Rounds of background_work()'s xorshift per call */
#define BACKGROUND_ROUNDS 64

volatile alt_u32 ticks;

/* Initialized data, so that a missing .data copy would show */
static alt_u32 background_state = 2463534242u;

__attribute__((noinline)) void tick_handler(void)
{
    volatile alt_u32 acc = 0;
    alt_u32 i;

    ticks++;
    for (i = TICK_WORK; i != 0; i--) {
        acc += i;
    }
}

__attribute__((noinline)) void background_work(void)
{
    alt_u32 x = background_state;
    int i;

    for (i = 0; i < BACKGROUND_ROUNDS; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    background_state = x;
}

void uart_puts(const char *s)
{
    while (*s) {
        board_uart_putc(*s++);
    }
}

/* Decimal without a division (ARMv6 has none, and no libgcc is linked) */
static void uart_put_decimal(alt_u32 n)
{
    static const alt_u32 powers[] = {
        1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
        10000u, 1000u, 100u, 10u, 1u,
    };
    int started = 0;
    unsigned k;

    for (k = 0; k < sizeof(powers) / sizeof(powers[0]); k++) {
        char digit = '0';

        while (n >= powers[k]) {
            n -= powers[k];
            digit++;
        }
        if (digit != '0' || started || powers[k] == 1) {
            board_uart_putc(digit);
            started = 1;
        }
    }
}

__attribute__((noinline)) void report(alt_u32 n)
{
    uart_puts("tick ");
    uart_put_decimal(n);
    board_uart_putc('\n');
}

/* Called by the entry point before main: .data from its load image, .bss */
void uart_ticker_init_memory(void)
{
    extern alt_u32 __data_start[], __data_end[], __data_source[];
    extern alt_u32 __bss_start[], __bss_end[];
    volatile alt_u32 *to = __data_start;
    const volatile alt_u32 *from = __data_source;

    while (to < __data_end) {
        *to++ = *from++;
    }
    for (to = __bss_start; to < __bss_end; to++) {
        *to = 0;
    }
}

int main(void)
{
    alt_u32 next = REPORT_EVERY;

    board_uart_init();
    uart_puts("uart_ticker: started\n");
    board_tick_start();
    for (;;) {
        background_work();
        if (ticks >= next) {
            report(next);
            next += REPORT_EVERY;
        }
    }
}

void uart_ticker_fault(const char *what, alt_u32 code)
{
    int shift;

    uart_puts("uart_ticker: fault, ");
    uart_puts(what);
    uart_puts(" 0x");
    for (shift = 28; shift >= 0; shift -= 4) {
        board_uart_putc("0123456789abcdef"[(code >> shift) & 15]);
    }
    board_uart_putc('\n');
    for (;;) {
        continue;
    }
}
