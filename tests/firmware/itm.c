/*
 * printf over SWO: the Cortex-M ITM's stimulus port 0 as CMSIS's
 * ITM_SendChar() drives it (tests/boot/test_dwt.py), on the MPS2
 * boards.  Writes "lost" before the ITM is enabled and on port 1,
 * which TER leaves disabled, then "itm: hello " byte by byte, "word"
 * with a 32-bit write and "!\n" with a 16-bit one, each only after the
 * port reads ready; prints (semihosting) "ready_before N" (port 0's
 * FIFOREADY while disabled) and "done".
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define DEMCR (*(volatile uint32_t *)0xe000edfc)
#define DEMCR_TRCENA (1u << 24)
#define ITM_PORT32(n) (*(volatile uint32_t *)(0xe0000000 + 4 * (n)))
#define ITM_PORT16(n) (*(volatile uint16_t *)(0xe0000000 + 4 * (n)))
#define ITM_PORT8(n) (*(volatile uint8_t *)(0xe0000000 + 4 * (n)))
#define ITM_TER (*(volatile uint32_t *)0xe0000e00)
#define ITM_TCR (*(volatile uint32_t *)0xe0000e80)
#define ITM_LAR (*(volatile uint32_t *)0xe0000fb0)
#define ITM_TCR_ITMENA 1u

/* As CMSIS's ITM_SendChar() */
static void send_char(int port, char c)
{
    while (ITM_PORT32(port) == 0) {
        continue;
    }
    ITM_PORT8(port) = c;
}

static void send(int port, const char *s)
{
    while (*s) {
        send_char(port, *s++);
    }
}

int main(void)
{
    unsigned long ready_before = ITM_PORT32(0);

    ITM_PORT8(0) = 'x';                 /* not enabled: lost */
    DEMCR |= DEMCR_TRCENA;
    ITM_LAR = 0xc5acce55;               /* the Cortex-M7's lock */
    ITM_TCR = ITM_TCR_ITMENA;
    ITM_TER = 1;                        /* port 0 only */
    ITM_PORT8(1) = 'y';                 /* port 1 disabled: lost */
    send(0, "itm: hello ");
    while (ITM_PORT32(0) == 0) {
        continue;
    }
    ITM_PORT32(0) = 0x64726f77;         /* "word", little-endian */
    ITM_PORT16(0) = 0x0a21;             /* "!\n" */
    printf("ready_before %lu\ndone\n", ready_before);
    return 0;
}
