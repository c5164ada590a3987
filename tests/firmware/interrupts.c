/*
 * The cores' interrupt lines on every board (tests/boot/test_interrupts.py):
 * for each core system.h declares, a time threshold of 1000 clocks on
 * the global counter, armed and started; the program spins, the
 * attached handler acknowledges and notes the pc it interrupted.  Then
 * the same with the line enabled but no handler attached: the library
 * disables the line and says so, and the program goes on.
 *
 * Prints "irq base=B attached=0 taken=1 pc=P cleared=1" per core (P in
 * spin(), which the test looks up in the image),
 * "no_handler base=B pending=1 done=1" and "no_line enable=-1 attach=-1".
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "board.h"
#include "io.h"
#include "perfctr.h"
#include "system.h"

/* Extension block, VERSION 2: counter i's threshold and flags */
#define EXT_CTRL(i) (0x404 + 16 * (i))
#define EXT_THRESH_LO(i) (0x408 + 16 * (i))
#define EXT_THRESH_HI(i) (0x40c + 16 * (i))
#define EXT_FLAGS(i) (0x900 + 4 * (i))
#define EXT_PENDING_LO 0x820
#define CTRL_THRESH_EN 0x1
#define CTRL_THRESH_ON_TIME 0x4
#define FLAG_THRESH 0x1

#define THRESHOLD 1000
#define SPIN_LIMIT 100000

static const alt_u32 bases[] = {
    PERFORMANCE_COUNTER_BASE,
#ifdef PERFORMANCE_COUNTER_1_BASE
    PERFORMANCE_COUNTER_1_BASE,
#endif
};
#define NUM_CORES (sizeof(bases) / sizeof(bases[0]))

struct taken {
    volatile int count;
    volatile alt_u32 pc;
};

static void handler(alt_u32 base, alt_u32 pc, void *context)
{
    struct taken *t = context;

    IOWR_32DIRECT(base, EXT_CTRL(0), 0);                /* disarm */
    IOWR_32DIRECT(base, EXT_FLAGS(0), FLAG_THRESH);     /* acknowledge */
    t->pc = pc;
    t->count++;
}

/* Until *flag is set or the limit: where the interrupts come */
__attribute__((noinline, noipa)) int spin(volatile int *flag, int limit)
{
    int i;

    for (i = 0; i < limit && !*flag; i++) {
        __asm__ volatile("" : : : "memory");
    }
    return i;
}

static void arm_threshold(alt_u32 base)
{
    PERF_RESET((void *)(uintptr_t)base);
    IOWR_32DIRECT(base, EXT_THRESH_LO(0), THRESHOLD);
    IOWR_32DIRECT(base, EXT_THRESH_HI(0), 0);
    IOWR_32DIRECT(base, EXT_CTRL(0), CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    PERF_START_MEASURING((void *)(uintptr_t)base);
}

int main(void)
{
    static struct taken taken[NUM_CORES];
    volatile int never = 0;
    unsigned k;

    for (k = 0; k < NUM_CORES; k++) {
        alt_u32 base = bases[k];
        int attached = perfctr_irq_attach(base, handler, &taken[k]);

        arm_threshold(base);
        spin(&taken[k].count, SPIN_LIMIT);
        PERF_STOP_MEASURING((void *)(uintptr_t)base);
        perfctr_irq_detach(base);
        printf("irq base=0x%08lx attached=%d taken=%d pc=0x%08lx "
               "cleared=%d\n", (unsigned long)base, attached,
               taken[k].count, (unsigned long)taken[k].pc,
               IORD_32DIRECT(base, EXT_PENDING_LO) == 0);
    }

    /* A line enabled with no handler attached */
    board_perfctr_irq_enable(bases[0]);
    arm_threshold(bases[0]);
    spin(&never, SPIN_LIMIT);
    PERF_STOP_MEASURING((void *)(uintptr_t)bases[0]);
    printf("no_handler base=0x%08lx pending=%d done=1\n",
           (unsigned long)bases[0],
           (IORD_32DIRECT(bases[0], EXT_PENDING_LO) & 1) != 0);
    IOWR_32DIRECT(bases[0], EXT_CTRL(0), 0);
    IOWR_32DIRECT(bases[0], EXT_FLAGS(0), FLAG_THRESH);

    /* A base with no core, so no line */
    printf("no_line enable=%d attach=%d\n",
           board_perfctr_irq_enable(bases[0] + 0x10000),
           perfctr_irq_attach(bases[0] + 0x10000, handler, &taken[0]));
    return 0;
}
