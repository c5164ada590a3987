/*
 * The Cortex-M DWT's counters as firmware uses them (tests/boot/
 * test_dwt.py), on the MPS2 boards.  Prints:
 *   "ctrl 0x.. lsr 0x.. id PID0 PID1 PID2 PID3 CID0 CID1 CID2 CID3"
 *   "locked_write N": CYCCNT after writing 1234 before unlocking LAR
 *   "without_trcena N": CYCCNT over dwt_loop() with CYCCNTENA but not
 *     DEMCR.TRCENA
 *   "loop N": CYCCNT over dwt_loop(), TRCENA set
 *   "interval cyccnt N cpicnt N exccnt N sleepcnt N lsucnt N foldcnt N":
 *     every counter zeroed, then enabled from one write of CTRL to the
 *     next, around dwt_loop()
 *   "disabled N": CYCCNT over dwt_loop() with CYCCNTENA clear
 *   "wrap N": CPICNT after writing 0x1ff (an 8-bit counter)
 *   "pcsr 0x..": what PCSR read, in main()
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define DEMCR (*(volatile uint32_t *)0xe000edfc)
#define DEMCR_TRCENA (1u << 24)
#define DWT ((volatile uint32_t *)0xe0001000)
#define DWT_CTRL 0
#define DWT_CYCCNT 1
#define DWT_CPICNT 2
#define DWT_EXCCNT 3
#define DWT_SLEEPCNT 4
#define DWT_LSUCNT 5
#define DWT_FOLDCNT 6
#define DWT_PCSR 7
#define DWT_LAR (0xfb0 / 4)
#define DWT_LSR (0xfb4 / 4)
#define DWT_PID0 (0xfe0 / 4)
#define DWT_CID0 (0xff0 / 4)
#define CTRL_CYCCNTENA 1u
#define CTRL_EVENTS (0x1fu << 17)   /* CPI, EXC, SLEEP, LSU, FOLD */

uint32_t dwt_loop(volatile uint32_t *dwt);

int main(void)
{
    uint32_t pc;
    int i;

    printf("ctrl 0x%08lx lsr 0x%lx id", (unsigned long)DWT[DWT_CTRL],
           (unsigned long)DWT[DWT_LSR]);
    for (i = 0; i < 8; i++) {
        printf(" 0x%02lx", (unsigned long)DWT[DWT_PID0 + i]);
    }
    printf("\n");

    DWT[DWT_CYCCNT] = 1234;
    printf("locked_write %lu\n", (unsigned long)DWT[DWT_CYCCNT]);
    DWT[DWT_LAR] = 0xc5acce55;

    DWT[DWT_CYCCNT] = 0;
    DWT[DWT_CTRL] = CTRL_CYCCNTENA;
    printf("without_trcena %lu\n", (unsigned long)dwt_loop(DWT));

    DEMCR |= DEMCR_TRCENA;
    printf("loop %lu\n", (unsigned long)dwt_loop(DWT));

    /* Every counter from 0, between two writes of CTRL */
    DWT[DWT_CTRL] = 0;
    for (i = DWT_CYCCNT; i <= DWT_FOLDCNT; i++) {
        DWT[i] = 0;
    }
    DWT[DWT_CTRL] = CTRL_CYCCNTENA | CTRL_EVENTS;
    dwt_loop(DWT);
    DWT[DWT_CTRL] = 0;
    printf("interval cyccnt %lu cpicnt %lu exccnt %lu sleepcnt %lu "
           "lsucnt %lu foldcnt %lu\n",
           (unsigned long)DWT[DWT_CYCCNT], (unsigned long)DWT[DWT_CPICNT],
           (unsigned long)DWT[DWT_EXCCNT], (unsigned long)DWT[DWT_SLEEPCNT],
           (unsigned long)DWT[DWT_LSUCNT], (unsigned long)DWT[DWT_FOLDCNT]);

    printf("disabled %lu\n", (unsigned long)dwt_loop(DWT));
    DWT[DWT_CPICNT] = 0x1ff;
    printf("wrap %lu\n", (unsigned long)DWT[DWT_CPICNT]);
    pc = DWT[DWT_PCSR];
    printf("pcsr 0x%08lx\n", (unsigned long)pc);
    return 0;
}
