/*
 * QTest for the performance counter core's version 2 registers: event
 * selects, thresholds and overflows, their flags and the interrupt
 * line, with exact instants (virtual time moves only when stepped)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "perf-counter-qtest.h"

/* The level of the core's interrupt output, intercepted by the test */
static QTestState *start_intercepted(const void *data)
{
    QTestState *qts = start_with(data, "");

    qtest_irq_intercept_out_named(qts, "/machine/peripheral/pc",
                                  "sysbus-irq");
    return qts;
}

static void set_threshold(QTestState *qts, int counter, uint64_t value,
                          uint32_t ctrl)
{
    qtest_writel(qts, THRESH_LO(counter), value);
    qtest_writel(qts, THRESH_HI(counter), value >> 32);
    qtest_writel(qts, CTRL(counter), ctrl);
}

/* Events: every select, threshold and flag register, and its reset */
static void test_event_registers(const void *data)
{
    QTestState *qts = start_default(data);
    int i;

    for (i = 0; i <= 3; i++) {
        assert_eq(qtest_readl(qts, EVSEL(i)), EVENT_INSTRUCTIONS);
        assert_eq(qtest_readl(qts, CTRL(i)), 0);
        assert_eq(qtest_readl(qts, THRESH_LO(i)), 0);
        assert_eq(qtest_readl(qts, THRESH_HI(i)), 0);
        assert_eq(qtest_readl(qts, FLAGS(i)), 0);
    }
    assert_eq(qtest_readl(qts, pc_base + EXT_PENDING_LO), 0);
    /* No plugin and no -icount: QEMU counts exceptions, their returns */
    assert_eq(qtest_readl(qts, pc_base + EXT_EVENTS_AVAILABLE),
              1 << EVENT_EXCEPTIONS | 1 << EVENT_EXCEPTION_RETURNS);
    qtest_writel(qts, EVSEL(2), EVENT_LOADS);
    assert_eq(qtest_readl(qts, EVSEL(2)), EVENT_LOADS);
    /* No such event: ignored */
    qtest_writel(qts, EVSEL(2), EVENT_LAST + 1);
    assert_eq(qtest_readl(qts, EVSEL(2)), EVENT_LOADS);
    qtest_writel(qts, CTRL(1), 0xffffffff);
    assert_eq(qtest_readl(qts, CTRL(1)), 7);
    qtest_writel(qts, CTRL(1), 0);
    qtest_writel(qts, THRESH_LO(3), 0x12345678);
    qtest_writel(qts, THRESH_HI(3), 0x9abcdef0);
    assert_eq(qtest_readq(qts, THRESH_LO(3)), 0x9abcdef012345678ULL);
    /* Presets: both halves, read back */
    qtest_writel(qts, EVCNT_LO(1), 0xfffffff0);
    qtest_writel(qts, EVCNT_HI(1), 2);
    assert_eq(qtest_readq(qts, EVCNT_LO(1)), 0x2fffffff0ULL);
    /* Selecting an event starts its count from 0 */
    qtest_writel(qts, EVSEL(1), EVENT_INSTRUCTIONS);
    assert_eq(qtest_readq(qts, EVCNT_LO(1)), 0);
    /* RESET puts everything back */
    qtest_writel(qts, EVCNT_LO(3), 5);
    pc_reset(qts);
    assert_eq(qtest_readl(qts, EVSEL(2)), EVENT_INSTRUCTIONS);
    assert_eq(qtest_readq(qts, THRESH_LO(3)), 0);
    assert_eq(qtest_readq(qts, EVCNT_LO(3)), 0);
    qtest_quit(qts);
}

/*
 * A time threshold further than 64-bit nanoseconds reach is never
 * reached, and arming it costs nothing (the fuzzer found it hanging)
 */
static void test_threshold_beyond_time(const void *data)
{
    QTestState *qts = start_intercepted(data);

    pc_start(qts);
    set_threshold(qts, 0, UINT64_MAX, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    qtest_clock_step(qts, 1000 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, FLAGS(0)), 0);
    qtest_quit(qts);
}

/* A time threshold raises the interrupt at its exact instant */
static void test_threshold_on_time(const void *data)
{
    QTestState *qts = start_intercepted(data);

    set_threshold(qts, 0, 100, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    /* Stopped: time does not count, nothing fires */
    qtest_clock_step(qts, 1000 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    pc_start(qts);
    qtest_clock_step(qts, 99 * TICK_NS + TICK_NS - 1);
    g_assert(!qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, FLAGS(0)), 0);
    qtest_clock_step(qts, 1);
    g_assert(qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, FLAGS(0)), FLAG_THRESH);
    assert_eq(qtest_readl(qts, pc_base + EXT_PENDING_LO), 1);
    assert_eq(qtest_readl(qts, pc_base + EXT_STATUS),
              STATUS_ENABLED | STATUS_IRQ);
    /* A comparison: acknowledged while still reached, it is set again */
    qtest_writel(qts, FLAGS(0), FLAG_THRESH);
    g_assert(qtest_get_irq(qts, 0));
    /* Moved up, then acknowledged: the line drops until the new value */
    set_threshold(qts, 0, 150, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    qtest_writel(qts, FLAGS(0), FLAG_THRESH);
    g_assert(!qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 49 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    qtest_clock_step(qts, TICK_NS);
    g_assert(qtest_get_irq(qts, 0));
    assert_eq(pc_time(qts, 0), 150);
    /* Disabled, then acknowledged: stays low */
    qtest_writel(qts, CTRL(0), 0);
    qtest_writel(qts, FLAGS(0), FLAG_THRESH);
    g_assert(!qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, pc_base + EXT_STATUS), STATUS_ENABLED);
    qtest_quit(qts);
}

/* A section's threshold counts its own time: STOP and END pause it */
static void test_threshold_section_time(const void *data)
{
    QTestState *qts = start_intercepted(data);

    set_threshold(qts, 2, 40, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    pc_start(qts);
    qtest_clock_step(qts, 100 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    pc_begin(qts, 2);
    qtest_clock_step(qts, 30 * TICK_NS);
    pc_stop(qts);
    qtest_clock_step(qts, 100 * TICK_NS);
    pc_start(qts);
    qtest_clock_step(qts, 5 * TICK_NS);
    pc_end(qts, 2);
    qtest_clock_step(qts, 100 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    pc_begin(qts, 2);
    qtest_clock_step(qts, 5 * TICK_NS - 1);
    g_assert(!qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1);
    g_assert(qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, FLAGS(2)), FLAG_THRESH);
    assert_eq(qtest_readl(qts, pc_base + EXT_PENDING_LO), 1 << 2);
    assert_eq(pc_time(qts, 2), 40);
    qtest_quit(qts);
}

/* The line is the OR of every counter's flags; each is acknowledged */
static void test_irq_or_of_flags(const void *data)
{
    QTestState *qts = start_intercepted(data);

    set_threshold(qts, 1, 10, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    set_threshold(qts, 3, 20, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    pc_start(qts);
    pc_begin(qts, 1);
    pc_begin(qts, 3);
    qtest_clock_step(qts, 20 * TICK_NS);
    assert_eq(qtest_readl(qts, pc_base + EXT_PENDING_LO), 0xa);
    qtest_writel(qts, CTRL(1), 0);
    qtest_writel(qts, FLAGS(1), FLAG_THRESH);
    g_assert(qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, pc_base + EXT_PENDING_LO), 0x8);
    /* Writing 0 clears nothing */
    qtest_writel(qts, CTRL(3), 0);
    qtest_writel(qts, FLAGS(3), 0);
    g_assert(qtest_get_irq(qts, 0));
    qtest_writel(qts, FLAGS(3), FLAG_THRESH | FLAG_OVF);
    g_assert(!qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, pc_base + EXT_PENDING_LO), 0);
    qtest_quit(qts);
}

/* An event threshold compares the count: a preset past it sets the flag */
static void test_threshold_on_event_count(const void *data)
{
    QTestState *qts = start_intercepted(data);

    set_threshold(qts, 0, 1000, CTRL_THRESH_EN);
    qtest_writel(qts, EVCNT_LO(0), 999);
    g_assert(!qtest_get_irq(qts, 0));
    /* Time does not matter to an event threshold */
    pc_start(qts);
    qtest_clock_step(qts, 2000 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    qtest_writel(qts, EVCNT_LO(0), 1000);
    g_assert(qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, FLAGS(0)), FLAG_THRESH);
    /* A preset of the high half is not a wrap: no overflow flag */
    qtest_writel(qts, CTRL(0), CTRL_OVF_EN);
    qtest_writel(qts, FLAGS(0), FLAG_THRESH);
    qtest_writel(qts, EVCNT_HI(0), 1);
    g_assert(!qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, FLAGS(0)), 0);
    qtest_quit(qts);
}

/* System reset: thresholds disarmed, flags and line cleared */
static void test_reset_clears_interrupts(const void *data)
{
    QTestState *qts = start_intercepted(data);

    set_threshold(qts, 0, 10, CTRL_THRESH_EN | CTRL_THRESH_ON_TIME);
    pc_start(qts);
    qtest_clock_step(qts, 10 * TICK_NS);
    g_assert(qtest_get_irq(qts, 0));
    qtest_system_reset(qts);
    g_assert(!qtest_get_irq(qts, 0));
    assert_eq(qtest_readl(qts, CTRL(0)), 0);
    assert_eq(qtest_readl(qts, FLAGS(0)), 0);
    pc_start(qts);
    qtest_clock_step(qts, 100 * TICK_NS);
    g_assert(!qtest_get_irq(qts, 0));
    qtest_quit(qts);
}

static const PerfctrQTestCase tests[] = {
    { "event-registers", test_event_registers },
    { "threshold-on-time", test_threshold_on_time },
    { "threshold-beyond-time", test_threshold_beyond_time },
    { "threshold-section-time", test_threshold_section_time },
    { "irq-or-of-flags", test_irq_or_of_flags },
    { "threshold-on-event-count", test_threshold_on_event_count },
    { "reset-clears-interrupts", test_reset_clears_interrupts },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add_tests(tests, ARRAY_SIZE(tests));
    return g_test_run();
}
