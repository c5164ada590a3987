/*
 * QTest for the Cortex-M DWT's counters (hw/misc/armv7m_dwt.c) and ITM
 * stimulus ports (hw/misc/armv7m_itm.c) on the MPS2 boards.  No guest
 * instruction runs under qtest, so CYCCNT counts virtual time at the
 * CPU's clock (25 MHz: one count each 40 ns), which only moves when the
 * test steps it: every count is known in advance.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "perfctr-qtest.h"

#define DEMCR 0xe000edfc
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL 0xe0001000
#define DWT_CYCCNT 0xe0001004
#define DWT_CPICNT 0xe0001008
#define DWT_FOLDCNT 0xe0001018
#define DWT_PCSR 0xe000101c
#define DWT_LAR 0xe0001fb0
#define DWT_LSR 0xe0001fb4
#define DWT_PID0 0xe0001fe0
#define CTRL_CYCCNTENA 1u
#define CTRL_CPIEVTENA (1u << 17)
#define CTRL_RO 0x0c000000u     /* NOTRCPKT, NOEXTTRIG; NUMCOMP 0 */
#define LAR_KEY 0xc5acce55u
#define ITM_STIM(n) (0xe0000000 + 4 * (n))
#define ITM_TER 0xe0000e00
#define ITM_TCR 0xe0000e80
#define ITM_LAR 0xe0000fb0
#define ITM_PID0 0xe0000fe0
#define ITM_TCR_ITMENA 1u

typedef struct Board {
    const char *machine;
    bool has_lock;              /* the Cortex-M7's */
    unsigned tick_ps;           /* of the CPU clock, the board's SYSCLK */
} Board;

static const Board boards[] = {
    { "mps2-an385", false, 40000 },
    { "mps2-an386", false, 40000 },
    { "mps2-an500", true, 40000 },
    { "mps2-an505", false, 50000 },
    { "mps3-an547", false, 31250 },
    { "lm3s6965evb", false, 80000 },
};

/* Let n ticks of the board's CPU clock pass */
static void step_ticks(QTestState *qts, const Board *board, unsigned n)
{
    qtest_clock_step(qts, (int64_t)n * board->tick_ps / 1000);
}

/* The board, its DWT unlocked and TRCENA set */
static QTestState *start_enabled(const Board *board)
{
    QTestState *qts = qtest_initf("-machine %s", board->machine);

    qtest_writel(qts, DWT_LAR, LAR_KEY);
    qtest_writel(qts, DEMCR, DEMCR_TRCENA);
    return qts;
}

static void test_reset_values(const void *data)
{
    const Board *board = data;
    QTestState *qts = qtest_initf("-machine %s", board->machine);
    static const uint32_t ids[] = { 0x02, 0xb0, 0x3b, 0x00,
                                    0x0d, 0xe0, 0x05, 0xb1 };
    int i;

    assert_eq(qtest_readl(qts, DWT_CTRL), CTRL_RO);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 0);
    assert_eq(qtest_readl(qts, DEMCR), 0);
    assert_eq(qtest_readl(qts, DWT_LSR), board->has_lock ? 3 : 0);
    for (i = 0; i < ARRAY_SIZE(ids); i++) {
        assert_eq(qtest_readl(qts, DWT_PID0 + 4 * i), ids[i]);
    }
    /* Not read by the core: no sample */
    assert_eq(qtest_readl(qts, DWT_PCSR), 0xffffffff);
    qtest_quit(qts);
}

static void test_trcena_and_cyccntena_gate_cyccnt(const void *data)
{
    const Board *board = data;
    QTestState *qts = qtest_initf("-machine %s", board->machine);

    qtest_writel(qts, DWT_LAR, LAR_KEY);
    qtest_writel(qts, DWT_CTRL, CTRL_CYCCNTENA);
    step_ticks(qts, board, 100);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 0);

    qtest_writel(qts, DEMCR, DEMCR_TRCENA);
    assert_eq(qtest_readl(qts, DEMCR), DEMCR_TRCENA);
    step_ticks(qts, board, 100);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 100);

    qtest_writel(qts, DWT_CTRL, 0);
    step_ticks(qts, board, 50);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 100);
    assert_eq(qtest_readl(qts, DWT_CTRL), CTRL_RO);
    qtest_quit(qts);
}

static void test_cyccnt_is_written_and_wraps(const void *data)
{
    const Board *board = data;
    QTestState *qts = start_enabled(board);

    qtest_writel(qts, DWT_CYCCNT, 0xfffffff0);
    qtest_writel(qts, DWT_CTRL, CTRL_CYCCNTENA);
    step_ticks(qts, board, 0x20);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 0x10);
    qtest_quit(qts);
}

static void test_event_counters_are_8_bit(const void *data)
{
    const Board *board = data;
    QTestState *qts = start_enabled(board);

    qtest_writel(qts, DWT_CPICNT, 0x1ff);
    assert_eq(qtest_readl(qts, DWT_CPICNT), 0xff);
    qtest_writel(qts, DWT_FOLDCNT, 0x123);
    assert_eq(qtest_readl(qts, DWT_FOLDCNT), 0x23);
    /* No instruction runs: no cycle beyond one an instruction */
    qtest_writel(qts, DWT_CTRL, CTRL_CYCCNTENA | CTRL_CPIEVTENA);
    step_ticks(qts, board, 100);
    assert_eq(qtest_readl(qts, DWT_CPICNT), 0xff);
    qtest_quit(qts);
}

static void test_lock_ignores_writes(const void *data)
{
    const Board *board = data;
    QTestState *qts = qtest_initf("-machine %s", board->machine);

    qtest_writel(qts, DWT_CYCCNT, 1234);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), board->has_lock ? 0 : 1234);
    qtest_writel(qts, DWT_LAR, LAR_KEY);
    assert_eq(qtest_readl(qts, DWT_LSR), board->has_lock ? 1 : 0);
    qtest_writel(qts, DWT_CYCCNT, 1234);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 1234);
    /* Any other value locks it again */
    qtest_writel(qts, DWT_LAR, 0);
    qtest_writel(qts, DWT_CYCCNT, 99);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), board->has_lock ? 1234 : 99);
    qtest_quit(qts);
}

static void test_itm_registers_and_fifoready(const void *data)
{
    const Board *board = data;
    QTestState *qts = qtest_initf("-machine %s", board->machine);

    assert_eq(qtest_readl(qts, ITM_PID0), 0x01);
    assert_eq(qtest_readl(qts, ITM_STIM(0)), 0);        /* disabled */
    qtest_writel(qts, ITM_TCR, ITM_TCR_ITMENA);
    assert_eq(qtest_readl(qts, ITM_TCR), board->has_lock ? 0 : 1);
    qtest_writel(qts, ITM_LAR, LAR_KEY);
    qtest_writel(qts, ITM_TCR, ITM_TCR_ITMENA);
    qtest_writel(qts, ITM_TER, 0x80000001);
    assert_eq(qtest_readl(qts, ITM_TCR), ITM_TCR_ITMENA);
    assert_eq(qtest_readl(qts, ITM_TER), 0x80000001);
    /* DEMCR.TRCENA (the DWT's) enables the ITM too */
    assert_eq(qtest_readl(qts, ITM_STIM(0)), 0);
    qtest_writel(qts, DEMCR, DEMCR_TRCENA);
    assert_eq(qtest_readl(qts, ITM_STIM(0)), 1);
    qtest_quit(qts);
}

static void test_itm_stimulus_bytes_reach_the_chardev(const void *data)
{
    const Board *board = data;
    g_autofree char *path = NULL;
    g_autofree char *out = NULL;
    int fd = g_file_open_tmp("itm-XXXXXX", &path, NULL);
    QTestState *qts;

    g_assert(fd >= 0);
    close(fd);
    qts = qtest_initf("-machine %s -chardev file,id=itm,path=%s "
                      "-global armv7m-itm.chardev=itm",
                      board->machine, path);
    qtest_writeb(qts, ITM_STIM(0), 'a');                /* disabled */
    qtest_writel(qts, DEMCR, DEMCR_TRCENA);
    qtest_writel(qts, ITM_LAR, LAR_KEY);
    qtest_writel(qts, ITM_TCR, ITM_TCR_ITMENA);
    qtest_writel(qts, ITM_TER, 1);
    qtest_writeb(qts, ITM_STIM(1), 'b');                /* not in TER */
    qtest_writeb(qts, ITM_STIM(0), 'c');
    qtest_writew(qts, ITM_STIM(0), 0x6564);             /* "de" */
    qtest_writel(qts, ITM_STIM(0), 0x0a686766);         /* "fgh\n" */
    qtest_quit(qts);
    g_assert(g_file_get_contents(path, &out, NULL, NULL));
    assert_eq(strcmp(out, "cdefgh\n"), 0);
    unlink(path);
}

static const PerfctrQTestCase tests[] = {
    { "reset-values", test_reset_values },
    { "trcena-and-cyccntena-gate-cyccnt",
      test_trcena_and_cyccntena_gate_cyccnt },
    { "cyccnt-is-written-and-wraps", test_cyccnt_is_written_and_wraps },
    { "event-counters-are-8-bit", test_event_counters_are_8_bit },
    { "lock-ignores-writes", test_lock_ignores_writes },
    { "itm-registers-and-fifoready", test_itm_registers_and_fifoready },
    { "itm-stimulus-bytes-reach-the-chardev",
      test_itm_stimulus_bytes_reach_the_chardev },
};

int main(int argc, char **argv)
{
    size_t b;

    g_test_init(&argc, &argv, NULL);
    if (strcmp(qtest_get_arch(), "arm")) {
        return g_test_run();
    }
    for (b = 0; b < ARRAY_SIZE(boards); b++) {
        if (qtest_has_machine(boards[b].machine)) {
            add_board_cases("armv7m-debug", boards[b].machine, &boards[b],
                            tests, ARRAY_SIZE(tests));
        }
    }
    return g_test_run();
}
