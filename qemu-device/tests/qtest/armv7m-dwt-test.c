/*
 * QTest for the Cortex-M DWT's counters (hw/misc/armv7m_dwt.c) on the
 * MPS2 boards.  No guest instruction runs under qtest, so CYCCNT counts
 * virtual time at the CPU's clock (25 MHz: one count each 40 ns), which
 * only moves when the test steps it: every count is known in advance.
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
#define TICK_NS 40              /* the MPS2 boards' 25 MHz */

typedef struct Board {
    const char *machine;
    bool has_lock;              /* the Cortex-M7's */
} Board;

static const Board boards[] = {
    { "mps2-an385", false },
    { "mps2-an386", false },
    { "mps2-an500", true },
};

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
    qtest_clock_step(qts, 100 * TICK_NS);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 0);

    qtest_writel(qts, DEMCR, DEMCR_TRCENA);
    assert_eq(qtest_readl(qts, DEMCR), DEMCR_TRCENA);
    qtest_clock_step(qts, 100 * TICK_NS);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 100);

    qtest_writel(qts, DWT_CTRL, 0);
    qtest_clock_step(qts, 50 * TICK_NS);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 100);
    assert_eq(qtest_readl(qts, DWT_CTRL), CTRL_RO);
    qtest_quit(qts);
}

static void test_cyccnt_is_written_and_wraps(const void *data)
{
    QTestState *qts = start_enabled(data);

    qtest_writel(qts, DWT_CYCCNT, 0xfffffff0);
    qtest_writel(qts, DWT_CTRL, CTRL_CYCCNTENA);
    qtest_clock_step(qts, 0x20 * TICK_NS);
    assert_eq(qtest_readl(qts, DWT_CYCCNT), 0x10);
    qtest_quit(qts);
}

static void test_event_counters_are_8_bit(const void *data)
{
    QTestState *qts = start_enabled(data);

    qtest_writel(qts, DWT_CPICNT, 0x1ff);
    assert_eq(qtest_readl(qts, DWT_CPICNT), 0xff);
    qtest_writel(qts, DWT_FOLDCNT, 0x123);
    assert_eq(qtest_readl(qts, DWT_FOLDCNT), 0x23);
    /* No instruction runs: no cycle beyond one an instruction */
    qtest_writel(qts, DWT_CTRL, CTRL_CYCCNTENA | CTRL_CPIEVTENA);
    qtest_clock_step(qts, 100 * TICK_NS);
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

static const struct {
    const char *name;
    void (*func)(const void *data);
} tests[] = {
    { "reset-values", test_reset_values },
    { "trcena-and-cyccntena-gate-cyccnt",
      test_trcena_and_cyccntena_gate_cyccnt },
    { "cyccnt-is-written-and-wraps", test_cyccnt_is_written_and_wraps },
    { "event-counters-are-8-bit", test_event_counters_are_8_bit },
    { "lock-ignores-writes", test_lock_ignores_writes },
};

int main(int argc, char **argv)
{
    size_t b, t;

    g_test_init(&argc, &argv, NULL);
    if (strcmp(qtest_get_arch(), "arm")) {
        return g_test_run();
    }
    for (b = 0; b < ARRAY_SIZE(boards); b++) {
        if (!qtest_has_machine(boards[b].machine)) {
            continue;
        }
        for (t = 0; t < ARRAY_SIZE(tests); t++) {
            g_autofree char *path = g_strdup_printf("armv7m-dwt/%s/%s",
                                                    boards[b].machine,
                                                    tests[t].name);
            qtest_add_data_func(path, &boards[b], tests[t].func);
        }
    }
    return g_test_run();
}
