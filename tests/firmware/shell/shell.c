/*
 * shell: a command shell on the board's console UART, as firmware
 * that is tested by talking to it (a REPL, a monitor) is: it prints a
 * prompt, reads a line (echoing what it reads), runs the command and
 * answers, each command's work in a section of the counter core.
 *
 * What a test may rely on (keep these names and this behaviour):
 *
 * - It prints "perf-counter shell on BOARD\r\n", then "> " before each
 *   line it reads.  It echoes every byte it takes; a line ends at "\r"
 *   or "\n" (the "\n" of a "\r\n" is taken as an empty line's end and
 *   ignored); a backspace (0x08 or 0x7f) takes back the last byte.
 * - fib N: "fib(N) = F" (N from 0 to 40), in section 1 ("fib").
 * - crc N: "crc32(N) = 0xXXXXXXXX", the CRC-32 of the bytes 0, 1, 2, ...
 *   (mod 256) of N bytes (N up to 65536), in section 2 ("crc").
 * - sort N: "sorted N words, checksum C" (N up to 1024 pseudo-random
 *   words, insertion sort), in section 3 ("sort").
 * - calls N: "called N, sum S", N calls (up to 1000000) through a table
 *   of function pointers, as an interpreter's or a command table's
 *   dispatch makes them (no section).
 * - dwt: "dwt on" once the Cortex-M DWT's cycle counter runs (set
 *   going here: DEMCR.TRCENA, CTRL.CYCCNTENA), "no dwt" on a core
 *   without one.
 * - echo WORDS: the words; help: the commands; report: the counter
 *   core's report, on semihosting's output (the run's standard output).
 * - exit [CODE]: "bye", then the program exits with CODE (default 0).
 * - Anything else: "unknown command: WORD".  It polls the UART (never
 *   sleeps), as most such firmware does.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "console_uart.h"

#define LINE_MAX 80
#define BACKSPACE 0x08
#define DELETE 0x7f
#define CRC_MAX 65536
#define SORT_MAX 1024
#define CALLS_MAX 1000000

static unsigned int words[SORT_MAX];

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define DEMCR (*(volatile unsigned int *)0xe000edfc)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL (*(volatile unsigned int *)0xe0001000)
#define DWT_CTRL_CYCCNTENA 1u
#define DWT_LAR (*(volatile unsigned int *)0xe0001fb0)
#define LAR_UNLOCK 0xc5acce55u

static int dwt_start(void)
{
    DEMCR |= DEMCR_TRCENA;
    DWT_LAR = LAR_UNLOCK;       /* the M7's DWT takes writes once unlocked */
    DWT_CTRL |= DWT_CTRL_CYCCNTENA;
    return 1;
}
#else
static int dwt_start(void)
{
    return 0;
}
#endif

static void uart_puts(const char *s)
{
    while (*s) {
        board_uart_putc(*s++);
    }
}

static void uart_putu(unsigned long long n)
{
    char digits[21];
    int i = 0;

    do {
        digits[i++] = '0' + n % 10;
        n /= 10;
    } while (n);
    while (i) {
        board_uart_putc(digits[--i]);
    }
}

static void uart_puthex(unsigned int n)
{
    int i;

    uart_puts("0x");
    for (i = 28; i >= 0; i -= 4) {
        board_uart_putc("0123456789abcdef"[(n >> i) & 0xf]);
    }
}

static int uart_wait_getc(void)
{
    int c;

    while ((c = board_uart_getc()) < 0) {
        continue;
    }
    return c;
}

/* A line into line (NUL-terminated, LINE_MAX bytes at most), echoed */
static void read_line(char *line)
{
    static int after_cr;
    int n = 0;

    for (;;) {
        int c = uart_wait_getc();

        if (c == '\n' && after_cr) {
            after_cr = 0;
            continue;
        }
        after_cr = c == '\r';
        if (c == '\r' || c == '\n') {
            uart_puts("\r\n");
            line[n] = 0;
            return;
        }
        if (c == BACKSPACE || c == DELETE) {
            if (n) {
                n--;
                uart_puts("\b \b");
            }
            continue;
        }
        if (n < LINE_MAX - 1) {
            line[n++] = c;
            board_uart_putc(c);
        }
    }
}

static unsigned long long fib(unsigned int n)
{
    unsigned long long a = 0, b = 1;

    while (n--) {
        unsigned long long t = a + b;

        a = b;
        b = t;
    }
    return a;
}

static unsigned int crc32(unsigned int n)
{
    unsigned int crc = 0xffffffffu;
    unsigned int i;
    int bit;

    for (i = 0; i < n; i++) {
        crc ^= i & 0xff;
        for (bit = 0; bit < 8; bit++) {
            crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
        }
    }
    return ~crc;
}

static unsigned int sort_words(unsigned int n)
{
    unsigned int seed = 12345, sum = 0;
    unsigned int i, j;

    for (i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        words[i] = seed >> 8;
    }
    for (i = 1; i < n; i++) {
        unsigned int w = words[i];

        for (j = i; j > 0 && words[j - 1] > w; j--) {
            words[j] = words[j - 1];
        }
        words[j] = w;
    }
    for (i = 0; i < n; i++) {
        sum = sum * 31 + words[i];
    }
    return sum;
}

static unsigned int add_one(unsigned int x)
{
    return x + 1;
}

static unsigned int add_three(unsigned int x)
{
    return x + 3;
}

static unsigned int twice(unsigned int x)
{
    return x * 2;
}

static unsigned int halve(unsigned int x)
{
    return x / 2;
}

/* (volatile: each call stays one through a register) */
static unsigned int (*volatile const operations[])(unsigned int) = {
    add_one, add_three, twice, halve,
};

static unsigned int call_through_table(unsigned int n)
{
    unsigned int sum = 0, i;

    for (i = 0; i < n; i++) {
        sum = operations[i % 4](sum) & 0xffff;
    }
    return sum;
}

/* The number after a command, or -1 if there is none or it is too big */
static long argument(const char *text, long most)
{
    char *end;
    long n;

    while (*text == ' ') {
        text++;
    }
    n = strtol(text, &end, 10);
    return end == text || n < 0 || n > most ? -1 : n;
}

static void run(const char *line)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    long n;

    if (!strncmp(line, "fib", 3) && (n = argument(line + 3, 40)) >= 0) {
        unsigned long long f;

        PERF_BEGIN(p, 1);
        f = fib(n);
        PERF_END(p, 1);
        uart_puts("fib(");
        uart_putu(n);
        uart_puts(") = ");
        uart_putu(f);
    } else if (!strncmp(line, "crc", 3) &&
               (n = argument(line + 3, CRC_MAX)) >= 0) {
        unsigned int crc;

        PERF_BEGIN(p, 2);
        crc = crc32(n);
        PERF_END(p, 2);
        uart_puts("crc32(");
        uart_putu(n);
        uart_puts(") = ");
        uart_puthex(crc);
    } else if (!strncmp(line, "sort", 4) &&
               (n = argument(line + 4, SORT_MAX)) >= 0) {
        unsigned int sum;

        PERF_BEGIN(p, 3);
        sum = sort_words(n);
        PERF_END(p, 3);
        uart_puts("sorted ");
        uart_putu(n);
        uart_puts(" words, checksum ");
        uart_putu(sum);
    } else if (!strncmp(line, "calls", 5) &&
               (n = argument(line + 5, CALLS_MAX)) >= 0) {
        unsigned int sum = call_through_table(n);

        uart_puts("called ");
        uart_putu(n);
        uart_puts(", sum ");
        uart_putu(sum);
    } else if (!strcmp(line, "dwt")) {
        uart_puts(dwt_start() ? "dwt on" : "no dwt");
    } else if (!strncmp(line, "echo ", 5)) {
        uart_puts(line + 5);
    } else if (!strcmp(line, "help")) {
        uart_puts("fib N, crc N, sort N, calls N, dwt, echo WORDS, "
                  "report, exit [CODE]");
    } else if (!strcmp(line, "report")) {
        perf_print_formatted_report(p, alt_get_cpu_freq(), 3, "fib", "crc",
                                    "sort");
        uart_puts("report printed");
    } else if (!strncmp(line, "exit", 4)) {
        n = argument(line + 4, 255);
        uart_puts("bye\r\n");
        exit(n < 0 ? 0 : n);
    } else if (line[0]) {
        uart_puts("unknown command: ");
        uart_puts(line);
    } else {
        return;
    }
    uart_puts("\r\n");
}

int main(void)
{
    void *p = (void *)PERFORMANCE_COUNTER_BASE;
    char line[LINE_MAX];

    board_uart_init();
    board_uart_rx_enable();
    PERF_RESET(p);
    PERF_START_MEASURING(p);
    uart_puts("perf-counter shell on " ALT_SYSTEM_NAME "\r\n");
    for (;;) {
        uart_puts("> ");
        read_line(line);
        run(line);
    }
}
