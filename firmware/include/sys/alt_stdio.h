/*
 * Nios II HAL small stdio: character I/O on the program's console
 * (semihosting stdout / stdin here).
 *
 * alt_printf() understands what the HAL's does: %c, %s, %x (unsigned,
 * lower-case hex, no padding) and %%.  Nothing else: no %d, no widths.
 * Unlike the HAL's (which prints nothing for them), an unknown
 * conversion is printed as written ("%d"), so the gap shows.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef __ALT_STDIO_H__
#define __ALT_STDIO_H__

#ifdef __cplusplus
extern "C" {
#endif

/* The next character from the console; -1 at end of input */
int alt_getchar(void);
/* Write c; returns c, or -1 on error */
int alt_putchar(int c);
/* Write str, without adding a newline; >= 0, or -1 on error */
int alt_putstr(const char *str);
void alt_printf(const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
