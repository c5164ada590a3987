/*
 * QTest for the performance counter core: one test per rule of the
 * behaviour it reproduces, with exact counts.  Virtual time only moves
 * when the test steps it, so every count is known in advance.  The
 * version 2 registers (event selects, thresholds, the interrupt) are
 * perf-counter-irq-test.c's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qobject/qlist.h"
#include "perf-counter-qtest.h"

/* After power-on every counter, event count and flag is zero */
static void test_power_on_state(const void *data)
{
    QTestState *qts = start_default(data);

    assert_all_zero(qts, 3);
    /* Nothing runs until START */
    qtest_clock_step(qts, 1000 * TICK_NS);
    assert_all_zero(qts, 3);
    qtest_quit(qts);
}

/* Rule 2: START runs the global counter, STOP holds it */
static void test_start_stop_global(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    qtest_clock_step(qts, 100 * TICK_NS);
    assert_eq(pc_time(qts, 0), 100);
    pc_stop(qts);
    qtest_clock_step(qts, 50 * TICK_NS);
    assert_eq(pc_time(qts, 0), 100);
    pc_start(qts);
    qtest_clock_step(qts, 7 * TICK_NS);
    assert_eq(pc_time(qts, 0), 107);
    assert_eq(pc_events(qts, 0), 2);
    qtest_quit(qts);
}

/* Rule 5: a second START while running counts again, time goes on */
static void test_repeated_start(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    qtest_clock_step(qts, 10 * TICK_NS);
    pc_start(qts);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_eq(pc_time(qts, 0), 20);
    assert_eq(pc_events(qts, 0), 2);
    qtest_quit(qts);
}

/* Rule 4: a section counts only while begun and the global counter runs */
static void test_section_counts_inside_global(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    qtest_clock_step(qts, 5 * TICK_NS);
    pc_begin(qts, 2);
    qtest_clock_step(qts, 30 * TICK_NS);
    pc_end(qts, 2);
    qtest_clock_step(qts, 5 * TICK_NS);
    assert_eq(pc_time(qts, 2), 30);
    assert_eq(pc_events(qts, 2), 1);
    assert_eq(pc_time(qts, 0), 40);
    /* The other sections never ran */
    assert_eq(pc_time(qts, 1), 0);
    assert_eq(pc_time(qts, 3), 0);
    assert_eq(pc_events(qts, 1), 0);
    qtest_quit(qts);
}

/* Rules 3 and 5: BEGIN while stopped sets the flag but is no occurrence */
static void test_begin_while_stopped(const void *data)
{
    QTestState *qts = start_default(data);

    pc_begin(qts, 1);
    qtest_clock_step(qts, 20 * TICK_NS);
    assert_eq(pc_time(qts, 1), 0);
    pc_start(qts);
    qtest_clock_step(qts, 25 * TICK_NS);
    pc_end(qts, 1);
    assert_eq(pc_time(qts, 1), 25);
    assert_eq(pc_events(qts, 1), 0);
    qtest_quit(qts);
}

/* Rule 5: BEGIN on a running section counts again; time is continuous */
static void test_repeated_begin(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    pc_begin(qts, 3);
    qtest_clock_step(qts, 10 * TICK_NS);
    pc_begin(qts, 3);
    qtest_clock_step(qts, 10 * TICK_NS);
    pc_end(qts, 3);
    assert_eq(pc_time(qts, 3), 20);
    assert_eq(pc_events(qts, 3), 2);
    qtest_quit(qts);
}

/* STOP pauses begun sections; START resumes them without a new BEGIN */
static void test_stop_pauses_sections(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    pc_begin(qts, 1);
    qtest_clock_step(qts, 10 * TICK_NS);
    pc_stop(qts);
    qtest_clock_step(qts, 100 * TICK_NS);
    assert_eq(pc_time(qts, 1), 10);
    pc_start(qts);
    qtest_clock_step(qts, 3 * TICK_NS);
    assert_eq(pc_time(qts, 1), 13);
    assert_eq(pc_events(qts, 1), 1);
    qtest_quit(qts);
}

/* END stops a section whether or not the global counter runs */
static void test_end_while_stopped(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    pc_begin(qts, 1);
    qtest_clock_step(qts, 10 * TICK_NS);
    pc_stop(qts);
    pc_end(qts, 1);
    pc_start(qts);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_eq(pc_time(qts, 1), 10);
    assert_eq(pc_time(qts, 0), 20);
    qtest_quit(qts);
}

/* Rule 1: RESET zeroes everything and stops global and all sections */
static void test_reset_command(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    pc_begin(qts, 1);
    pc_begin(qts, 3);
    qtest_clock_step(qts, 10 * TICK_NS);
    pc_reset(qts);
    assert_all_zero(qts, 3);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_all_zero(qts, 3);
    /* Sections were cleared too: START alone runs only the global */
    pc_start(qts);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_eq(pc_time(qts, 0), 10);
    assert_eq(pc_time(qts, 1), 0);
    assert_eq(pc_time(qts, 3), 0);
    qtest_quit(qts);
}

/* Rule 1: a system reset gives the same state as RESET */
static void test_system_reset(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    pc_begin(qts, 2);
    qtest_clock_step(qts, 10 * TICK_NS);
    qtest_system_reset(qts);
    assert_all_zero(qts, 3);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_all_zero(qts, 3);
    qtest_quit(qts);
}

/* Rules 6 and 7: time is 64 bits, read live as lo then hi */
static void test_time_above_32_bits(const void *data)
{
    QTestState *qts = start_board(data, 1000000000, 1);
    const uint64_t ticks = (3ULL << 32) + 5;

    pc_start(qts);
    qtest_clock_step(qts, ticks);
    assert_eq(qtest_readl(qts, TIME_LO(0)), 5);
    assert_eq(qtest_readl(qts, TIME_HI(0)), 3);
    /* Live: the low word moves on while the counter runs */
    qtest_clock_step(qts, 2);
    assert_eq(qtest_readl(qts, TIME_LO(0)), 7);
    /* A 64-bit load reads lo and hi at the same instant */
    assert_eq(qtest_readq(qts, TIME_LO(0)), ticks + 2);
    qtest_quit(qts);
}

/*
 * Counts are kept in virtual nanoseconds and converted on read, so a
 * clock whose period is not a whole number of ns loses nothing over
 * many short intervals.
 */
static void test_no_rounding_drift(const void *data)
{
    QTestState *qts = start_board(data, 3000000, 1);  /* 333.3 ns per tick */
    int i;

    for (i = 0; i < 30; i++) {
        pc_start(qts);
        qtest_clock_step(qts, 100);
        pc_stop(qts);
        qtest_clock_step(qts, 1000);
    }
    /* 30 * 100 ns = 3000 ns = 9 ticks; per-interval rounding gives 0 */
    assert_eq(pc_time(qts, 0), 9);
    qtest_quit(qts);
}

static void assert_zero_between(QTestState *qts, uint32_t from, uint32_t to)
{
    uint32_t offset;

    for (offset = from; offset < to; offset += 4) {
        assert_eq(qtest_readl(qts, pc_base + offset), 0);
    }
}

/* Word 4i+3 and every offset that holds no register read 0 */
static void test_unused_words_read_zero(const void *data)
{
    QTestState *qts = start_default(data);   /* 3 sections: 4 counters */

    pc_start(qts);
    pc_begin(qts, 1);
    qtest_clock_step(qts, 10 * TICK_NS);
    qtest_writel(qts, pc_base + EXT_SNAPSHOT, 0);
    assert_eq(qtest_readl(qts, RESERVED(0)), 0);
    assert_eq(qtest_readl(qts, RESERVED(1)), 0);
    assert_zero_between(qts, 16 * 4, 0x400);            /* past counter 3 */
    assert_zero_between(qts, 0x400 + 16 * 4, 0x800);    /* selects */
    assert_zero_between(qts, EXT_SNAPSHOT, EXT_EVENTS_AVAILABLE);
    assert_zero_between(qts, EXT_EVENTS_AVAILABLE + 4, 0x900);
    assert_zero_between(qts, 0x900 + 4 * 4, 0xa00);     /* flags */
    assert_zero_between(qts, 0xa00 + 16 * 4, 0xe00);    /* snapshots */
    assert_zero_between(qts, 0xe00 + 8 * 4, PC_MMIO_SIZE);  /* insns */
    qtest_quit(qts);
}

/* Extension: identification and configuration */
static void test_ext_identification(const void *data)
{
    QTestState *qts = start_board(data, 31250000, 5);

    assert_eq(qtest_readl(qts, pc_base + EXT_MAGIC), 0x544e4350);
    assert_eq(qtest_readl(qts, pc_base + EXT_VERSION), 2);
    assert_eq(qtest_readl(qts, pc_base + EXT_NUM_SECTIONS), 5);
    assert_eq(qtest_readl(qts, pc_base + EXT_FREQ_HZ), 31250000);
    /* qtest runs without -icount: no instruction counting */
    assert_eq(qtest_readl(qts, pc_base + EXT_STATUS), 0);
    pc_start(qts);
    assert_eq(qtest_readl(qts, pc_base + EXT_STATUS), STATUS_ENABLED);
    pc_stop(qts);
    assert_eq(qtest_readl(qts, pc_base + EXT_STATUS), 0);
    /* Read-only: writes change nothing */
    qtest_writel(qts, pc_base + EXT_NUM_SECTIONS, 7);
    qtest_writel(qts, pc_base + EXT_FREQ_HZ, 1);
    assert_eq(qtest_readl(qts, pc_base + EXT_NUM_SECTIONS), 5);
    assert_eq(qtest_readl(qts, pc_base + EXT_FREQ_HZ), 31250000);
    qtest_quit(qts);
}

/* Extension: which sections are begun, whatever the global state */
static void test_ext_running_flags(const void *data)
{
    QTestState *qts = start_board(data, 25000000, 40);

    pc_begin(qts, 1);
    pc_begin(qts, 3);
    pc_begin(qts, 35);
    assert_eq(qtest_readl(qts, pc_base + EXT_RUNNING_LO), 0xa);
    assert_eq(qtest_readl(qts, pc_base + EXT_RUNNING_HI), 0x8);
    pc_end(qts, 3);
    assert_eq(qtest_readl(qts, pc_base + EXT_RUNNING_LO), 0x2);
    pc_reset(qts);
    assert_eq(qtest_readl(qts, pc_base + EXT_RUNNING_LO), 0);
    assert_eq(qtest_readl(qts, pc_base + EXT_RUNNING_HI), 0);
    qtest_quit(qts);
}

/* Extension: SNAPSHOT latches every counter at one instant */
static void test_ext_snapshot_latches(const void *data)
{
    QTestState *qts = start_board(data, 1000000000, 2);
    const uint64_t ticks = (1ULL << 32) + 5;

    pc_start(qts);
    pc_begin(qts, 2);
    qtest_clock_step(qts, ticks);
    qtest_writel(qts, pc_base + EXT_SNAPSHOT, 0);
    qtest_clock_step(qts, 100);
    /* The latched values stay; the live ones go on */
    assert_eq(qtest_readl(qts, SNAP_TIME_LO(0)), 5);
    assert_eq(qtest_readl(qts, SNAP_TIME_HI(0)), 1);
    assert_eq(qtest_readl(qts, SNAP_TIME_LO(2)), 5);
    assert_eq(qtest_readl(qts, SNAP_TIME_HI(2)), 1);
    assert_eq(qtest_readl(qts, SNAP_TIME_LO(1)), 0);
    assert_eq(qtest_readl(qts, TIME_LO(0)), 105);
    /* Latching stops nothing */
    assert_eq(qtest_readl(qts, pc_base + EXT_STATUS), STATUS_ENABLED);
    /* No instructions are counted without -icount */
    assert_eq(qtest_readl(qts, SNAP_INSNS_LO(0)), 0);
    assert_eq(qtest_readl(qts, INSNS_LO(0)), 0);
    /* RESET clears the latch too */
    pc_reset(qts);
    assert_eq(qtest_readl(qts, SNAP_TIME_LO(0)), 0);
    assert_eq(qtest_readl(qts, SNAP_TIME_HI(2)), 0);
    qtest_quit(qts);
}

/* Writes to event and reserved words, and past the sections, do nothing */
static void test_meaningless_writes_ignored(const void *data)
{
    QTestState *qts = start_default(data);

    pc_start(qts);
    pc_begin(qts, 1);
    qtest_clock_step(qts, 10 * TICK_NS);
    qtest_writel(qts, EVENTS(0), 0);
    qtest_writel(qts, EVENTS(1), 1);
    qtest_writel(qts, RESERVED(1), 1);
    qtest_writel(qts, TIME_LO(4), 1);   /* would be END 4: no such section */
    qtest_writel(qts, TIME_HI(4), 0);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_eq(pc_time(qts, 0), 20);
    assert_eq(pc_time(qts, 1), 20);
    assert_eq(pc_events(qts, 0), 1);
    assert_eq(pc_events(qts, 1), 1);
    qtest_quit(qts);
}

/* Only aligned 32-bit accesses act; others are ignored, reads give 0 */
static void test_bad_access_size_ignored(const void *data)
{
    QTestState *qts = start_default(data);

    qtest_writeb(qts, TIME_HI(0), 0);      /* not a START */
    qtest_writew(qts, TIME_HI(0), 0);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_eq(pc_time(qts, 0), 0);
    assert_eq(pc_events(qts, 0), 0);
    pc_start(qts);
    qtest_clock_step(qts, 10 * TICK_NS);
    assert_eq(qtest_readb(qts, TIME_LO(0)), 0);
    assert_eq(qtest_readw(qts, TIME_LO(0)), 0);
    qtest_writeb(qts, TIME_LO(0), 1);      /* not a RESET */
    assert_eq(pc_time(qts, 0), 10);
    qtest_quit(qts);
}

/* Several sections at once, each with its own time and count */
static void test_sections_independent(const void *data)
{
    QTestState *qts = start_board(data, 25000000, 7);
    int i;

    pc_start(qts);
    for (i = 1; i <= 7; i++) {
        pc_begin(qts, i);
        qtest_clock_step(qts, i * TICK_NS);
    }
    for (i = 1; i <= 7; i++) {
        pc_end(qts, i);
    }
    /* Section i ran from its BEGIN to the end: sum of steps i..7 */
    for (i = 1; i <= 7; i++) {
        assert_eq(pc_time(qts, i), (i + 7) * (8 - i) / 2);
        assert_eq(pc_events(qts, i), 1);
    }
    qtest_quit(qts);
}

/* Two cores on one board: separate state, one clock */
static void test_two_devices(const void *data)
{
    const Board *board = data;
    QTestState *qts = qtest_initf("-machine %s "
                                  "-device perf-counter,num-sections=1 "
                                  "-device perf-counter,num-sections=2",
                                  board->machine);
    const uint64_t second = board->base + PC_MMIO_SIZE;

    pc_base = board->base;

    qtest_writel(qts, TIME_HI(0), 0);
    qtest_writel(qts, second + 4, 0);
    qtest_writel(qts, second + 16 * 2 + 4, 0);
    qtest_clock_step(qts, 1234);
    qtest_writel(qts, TIME_LO(0), 0);
    qtest_writel(qts, second, 0);
    assert_eq(pc_time(qts, 0), 1234);
    assert_eq(qtest_readl(qts, second), 1234);
    assert_eq(qtest_readl(qts, second + 16 * 2), 1234);
    assert_eq(pc_time(qts, 1), 0);
    qtest_quit(qts);
}

/* qom-get of the core's property @prop, a JSON object */
static QDict *qom_get(QTestState *qts, const char *prop)
{
    QDict *resp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                            "{'path': '/machine/peripheral/pc', "
                            "'property': %s}}", prop);
    QDict *ret = qdict_get_qdict(resp, "return");

    g_assert(ret);
    qobject_ref(ret);
    qobject_unref(resp);
    return ret;
}

/* Element @index of list @key of @dict, a JSON object */
static QDict *list_item(QDict *dict, const char *key, size_t index)
{
    QList *list = qdict_get_qlist(dict, key);
    QListEntry *entry;

    g_assert(list);
    QLIST_FOREACH_ENTRY(list, entry) {
        if (index-- == 0) {
            return qobject_to(QDict, qlist_entry_obj(entry));
        }
    }
    g_test_message("%s has no element %zu", key, index);
    g_test_fail();
    return qdict_new();     /* leaked; the test has failed */
}

/* Readout: qom-get "report" gives the live counts the registers give */
static void test_readout_report(const void *data)
{
    QTestState *qts = start_with(data, "");
    QDict *report, *global, *section;

    pc_start(qts);
    qtest_clock_step(qts, 5 * TICK_NS);
    pc_begin(qts, 2);
    qtest_clock_step(qts, 30 * TICK_NS);
    pc_end(qts, 2);
    qtest_clock_step(qts, 10 * TICK_NS);
    report = qom_get(qts, "report");
    assert_eq(qdict_get_int(report, "version"), 2);
    assert_eq(qdict_get_int(report, "clock-frequency"), 25000000);
    g_assert(g_str_equal(qdict_get_str(report, "clock"), "time"));
    assert_eq(qdict_get_int(report, "num-sections"), 3);
    assert_eq(qdict_get_int(report, "base"), pc_base);
    assert_eq(qdict_get_bool(report, "icount"), false);
    assert_eq(qdict_get_bool(report, "enabled"), true);
    assert_eq(qlist_size(qdict_get_qlist(report, "sections")), 3);
    global = qdict_get_qdict(report, "global");
    /* Live: the global counter still runs */
    assert_eq(qdict_get_int(global, "clocks"), 45);
    assert_eq(qdict_get_int(global, "occurrences"), 1);
    /* No instructions without -icount */
    assert_eq(qdict_haskey(global, "instructions"), 0);
    section = list_item(report, "sections", 1);
    assert_eq(qdict_get_int(section, "section"), 2);
    assert_eq(qdict_get_int(section, "clocks"), 30);
    assert_eq(qdict_get_int(section, "occurrences"), 1);
    assert_eq(qdict_get_bool(section, "running"), false);
    section = list_item(report, "sections", 0);
    assert_eq(qdict_get_int(section, "clocks"), 0);
    qobject_unref(report);
    /* Reading changed nothing: the registers agree, and time goes on */
    qtest_clock_step(qts, 5 * TICK_NS);
    assert_eq(pc_time(qts, 0), 50);
    assert_eq(pc_time(qts, 2), 30);
    qtest_quit(qts);
}

/* Readout: "timeline" holds every command at its virtual time */
static void test_readout_timeline(const void *data)
{
    QTestState *qts = start_with(data, ",timeline-size=100");
    static const char *const expected[] = { "reset", "start", "begin",
                                            "end", "stop" };
    QDict *timeline, *ev;
    int64_t t0;
    size_t i;

    pc_reset(qts);
    pc_start(qts);
    qtest_clock_step(qts, 7 * TICK_NS);
    pc_begin(qts, 3);
    qtest_clock_step(qts, 11 * TICK_NS);
    pc_end(qts, 3);
    pc_stop(qts);
    timeline = qom_get(qts, "timeline");
    assert_eq(qdict_get_int(timeline, "capacity"), 100);
    assert_eq(qdict_get_int(timeline, "dropped"), 0);
    assert_eq(qlist_size(qdict_get_qlist(timeline, "events")), 5);
    for (i = 0; i < ARRAY_SIZE(expected); i++) {
        ev = list_item(timeline, "events", i);
        if (strcmp(qdict_get_str(ev, "event"), expected[i])) {
            g_test_message("event %zu is %s, expected %s", i,
                           qdict_get_str(ev, "event"), expected[i]);
            g_test_fail();
        }
    }
    t0 = qdict_get_int(list_item(timeline, "events", 1), "ns");
    ev = list_item(timeline, "events", 2);
    assert_eq(qdict_get_int(ev, "section"), 3);
    assert_eq(qdict_get_int(ev, "ns") - t0, 7 * TICK_NS);
    ev = list_item(timeline, "events", 3);
    assert_eq(qdict_get_int(ev, "ns") - t0, 18 * TICK_NS);
    /* START and STOP belong to no section */
    assert_eq(qdict_haskey(list_item(timeline, "events", 4), "section"), 0);
    qobject_unref(timeline);
    qtest_quit(qts);
}

/* Readout: a full timeline keeps the first events, counts the rest */
static void test_readout_timeline_capped(const void *data)
{
    QTestState *qts = start_with(data, ",timeline-size=3");
    QDict *timeline;
    int i;

    for (i = 0; i < 10; i++) {
        pc_begin(qts, 1);
    }
    timeline = qom_get(qts, "timeline");
    assert_eq(qdict_get_int(timeline, "capacity"), 3);
    assert_eq(qlist_size(qdict_get_qlist(timeline, "events")), 3);
    assert_eq(qdict_get_int(timeline, "dropped"), 7);
    qobject_unref(timeline);
    qtest_quit(qts);
}

/* Readout: without "timeline-size" nothing is kept */
static void test_readout_no_timeline(const void *data)
{
    QTestState *qts = start_with(data, "");
    QDict *timeline;

    pc_start(qts);
    pc_begin(qts, 1);
    timeline = qom_get(qts, "timeline");
    assert_eq(qdict_get_int(timeline, "capacity"), 0);
    assert_eq(qlist_size(qdict_get_qlist(timeline, "events")), 0);
    assert_eq(qdict_get_int(timeline, "dropped"), 0);
    qobject_unref(timeline);
    qtest_quit(qts);
}

/* Readout: "report-file" gets the report and timeline when QEMU exits */
static void test_readout_file_at_exit(const void *data)
{
    g_autofree char *dir = g_dir_make_tmp("perf-counter-test-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "report.json", NULL);
    g_autofree char *options = g_strdup_printf(
        ",timeline-size=10,report-file=%s", path);
    g_autofree char *text = NULL;
    QTestState *qts;
    QDict *report;
    size_t len;

    g_assert(dir);
    qts = start_with(data, options);
    pc_start(qts);
    pc_begin(qts, 1);
    qtest_clock_step(qts, 100 * TICK_NS);
    pc_end(qts, 1);
    pc_stop(qts);
    /* Created empty at start, written at exit */
    g_assert(g_file_get_contents(path, &text, &len, NULL));
    assert_eq(len, 0);
    g_clear_pointer(&text, g_free);
    qtest_quit(qts);
    g_assert(g_file_get_contents(path, &text, &len, NULL));
    report = qobject_to(QDict, qobject_from_json(text, &error_abort));
    g_assert(report);
    assert_eq(qdict_get_int(qdict_get_qdict(report, "global"), "clocks"),
              100);
    assert_eq(qdict_get_int(list_item(report, "sections", 0), "clocks"),
              100);
    assert_eq(qlist_size(qdict_get_qlist(qdict_get_qdict(report,
                                                         "timeline"),
                                         "events")), 4);
    qobject_unref(report);
    unlink(path);
    rmdir(dir);
}

static const PerfctrQTestCase tests[] = {
    { "power-on-state", test_power_on_state },
    { "start-stop-global", test_start_stop_global },
    { "repeated-start", test_repeated_start },
    { "section-counts-inside-global", test_section_counts_inside_global },
    { "begin-while-stopped", test_begin_while_stopped },
    { "repeated-begin", test_repeated_begin },
    { "stop-pauses-sections", test_stop_pauses_sections },
    { "end-while-stopped", test_end_while_stopped },
    { "reset-command", test_reset_command },
    { "system-reset", test_system_reset },
    { "time-above-32-bits", test_time_above_32_bits },
    { "no-rounding-drift", test_no_rounding_drift },
    { "unused-words-read-zero", test_unused_words_read_zero },
    { "meaningless-writes-ignored", test_meaningless_writes_ignored },
    { "bad-access-size-ignored", test_bad_access_size_ignored },
    { "sections-independent", test_sections_independent },
    { "two-devices", test_two_devices },
    { "ext-identification", test_ext_identification },
    { "ext-running-flags", test_ext_running_flags },
    { "ext-snapshot-latches", test_ext_snapshot_latches },
    { "readout-report", test_readout_report },
    { "readout-timeline", test_readout_timeline },
    { "readout-timeline-capped", test_readout_timeline_capped },
    { "readout-no-timeline", test_readout_no_timeline },
    { "readout-file-at-exit", test_readout_file_at_exit },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add_tests(tests, ARRAY_SIZE(tests));
    return g_test_run();
}
