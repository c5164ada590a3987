/*
 * Nios II HAL small stdio (see sys/alt_stdio.h) on the C library's
 * stdout and stdin.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdio.h>
#include "sys/alt_stdio.h"

int alt_getchar(void)
{
    int c = getchar();

    return c == EOF ? -1 : c;
}

int alt_putchar(int c)
{
    return putchar(c) == EOF ? -1 : c;
}

int alt_putstr(const char *str)
{
    return fputs(str, stdout) == EOF ? -1 : 0;
}

static void put_hex(unsigned long v)
{
    int shift = 28;

    while (shift > 0 && !((v >> shift) & 0xf)) {
        shift -= 4;
    }
    for (; shift >= 0; shift -= 4) {
        putchar("0123456789abcdef"[(v >> shift) & 0xf]);
    }
}

void alt_printf(const char *fmt, ...)
{
    va_list args;
    const char *s;

    va_start(args, fmt);
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            putchar(*fmt);
            continue;
        }
        switch (*++fmt) {
        case '\0':
            fmt--;      /* a lone % at the end: nothing to print */
            break;
        case '%':
            putchar('%');
            break;
        case 'c':
            putchar(va_arg(args, int));
            break;
        case 'x':
            put_hex(va_arg(args, unsigned long) & 0xffffffff);
            break;
        case 's':
            for (s = va_arg(args, const char *); *s; s++) {
                putchar(*s);
            }
            break;
        default:
            /* Not in the HAL's subset: show it rather than hide it */
            putchar('%');
            putchar(*fmt);
            break;
        }
    }
    va_end(args);
}
