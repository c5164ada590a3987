/*
 * QTest for the performance counter core: one test per rule of the
 * behaviour it reproduces, with exact counts.  Virtual time only moves
 * when the test steps it, so every count is known in advance.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qapi/error.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qobject/qlist.h"
#include "perfctr-qtest.h"

#define PC_MMIO_SIZE 0x1000

typedef struct Board {
    const char *arch;
    const char *machine;
    /* Where the board puts the first perf-counter that has no "base" */
    uint64_t base;
} Board;

static const Board boards[] = {
    { "arm", "mps2-an385", 0x40030000 },
    { "arm", "mps2-an386", 0x40030000 },
    { "arm", "mps2-an500", 0x40030000 },
    { "arm", "mps2-an505", 0x40400000 },
    { "arm", "mps3-an547", 0x40400000 },
    { "arm", "lm3s6965evb", 0x40080000 },
    { "arm", "microbit", 0x40080000 },
    { "arm", "virt", 0x0c000000 },
    { "aarch64", "virt", 0x0c000000 },
    { "riscv32", "virt", 0x04000000 },
    { "riscv32", "sifive_e", 0x10040000 },
};

/* Base of the device under test, set by start_board() */
static uint64_t pc_base;

/* Addresses of counter i's words (0 = global, 1.. = sections) */
#define TIME_LO(i) (pc_base + 16 * (i) + 0)
#define TIME_HI(i) (pc_base + 16 * (i) + 4)
#define EVENTS(i) (pc_base + 16 * (i) + 8)
#define RESERVED(i) (pc_base + 16 * (i) + 12)

/* Extension block */
#define EXT_MAGIC 0x800
#define EXT_VERSION 0x804
#define EXT_NUM_SECTIONS 0x808
#define EXT_FREQ_HZ 0x80c
#define EXT_STATUS 0x810
#define STATUS_ENABLED 1
#define EXT_RUNNING_LO 0x814
#define EXT_RUNNING_HI 0x818
#define EXT_SNAPSHOT 0x81c
#define SNAP_TIME_LO(i) (pc_base + 0xa00 + 16 * (i) + 0)
#define SNAP_TIME_HI(i) (pc_base + 0xa00 + 16 * (i) + 4)
#define SNAP_INSNS_LO(i) (pc_base + 0xa00 + 16 * (i) + 8)
#define INSNS_LO(i) (pc_base + 0xe00 + 8 * (i))

/* Extension version 2: event selects, thresholds, interrupt flags */
#define EVSEL(i) (pc_base + 0x400 + 16 * (i))
#define CTRL(i) (pc_base + 0x404 + 16 * (i))
#define CTRL_THRESH_EN 1
#define CTRL_OVF_EN 2
#define CTRL_THRESH_ON_TIME 4
#define THRESH_LO(i) (pc_base + 0x408 + 16 * (i))
#define THRESH_HI(i) (pc_base + 0x40c + 16 * (i))
#define EXT_PENDING_LO 0x820
#define EXT_PENDING_HI 0x824
#define EXT_EVENTS_AVAILABLE 0x828
#define STATUS_IRQ 4
#define FLAGS(i) (pc_base + 0x900 + 4 * (i))
#define FLAG_THRESH 1
#define FLAG_OVF 2
#define EVCNT_LO(i) (pc_base + 0xe00 + 8 * (i))
#define EVCNT_HI(i) (pc_base + 0xe04 + 8 * (i))
#define EVENT_INSTRUCTIONS 1
#define EVENT_LOADS 2
#define EVENT_EXCEPTIONS 8
#define EVENT_CYCLES 9
#define EVENT_EXCEPTION_RETURNS 15
#define EVENT_LAST 17

/* 25 MHz: one tick is 40 ns */
#define TICK_NS 40

static QTestState *start_board(const Board *board, uint32_t freq_hz,
                               uint32_t sections)
{
    pc_base = board->base;
    return qtest_initf("-machine %s "
                       "-device perf-counter,clock-frequency=%" PRIu32
                       ",num-sections=%" PRIu32,
                       board->machine, freq_hz, sections);
}

static QTestState *start_default(const Board *board)
{
    return start_board(board, 25000000, 3);
}

static void pc_reset(QTestState *qts)
{
    qtest_writel(qts, TIME_LO(0), 1);
}

static void pc_start(QTestState *qts)
{
    qtest_writel(qts, TIME_HI(0), 0);
}

static void pc_stop(QTestState *qts)
{
    qtest_writel(qts, TIME_LO(0), 0);
}

static void pc_begin(QTestState *qts, int section)
{
    qtest_writel(qts, TIME_HI(section), 0);
}

static void pc_end(QTestState *qts, int section)
{
    qtest_writel(qts, TIME_LO(section), 0);
}

static uint64_t pc_time(QTestState *qts, int counter)
{
    uint64_t lo = qtest_readl(qts, TIME_LO(counter));
    uint64_t hi = qtest_readl(qts, TIME_HI(counter));

    return hi << 32 | lo;
}

static uint32_t pc_events(QTestState *qts, int counter)
{
    return qtest_readl(qts, EVENTS(counter));
}

static void assert_all_zero(QTestState *qts, int sections)
{
    int i;

    for (i = 0; i <= sections; i++) {
        assert_eq(pc_time(qts, i), 0);
        assert_eq(pc_events(qts, i), 0);
    }
}

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

/* A QEMU with one core named "pc", started with more -device options */
static QTestState *start_with(const Board *board, const char *options)
{
    pc_base = board->base;
    return qtest_initf("-machine %s -device perf-counter,id=pc,"
                       "clock-frequency=25000000,num-sections=3%s",
                       board->machine, options);
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

static const struct {
    const char *name;
    void (*func)(const void *data);
} tests[] = {
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
    const char *arch = qtest_get_arch();
    size_t b, t;

    g_test_init(&argc, &argv, NULL);

    for (b = 0; b < ARRAY_SIZE(boards); b++) {
        if (strcmp(boards[b].arch, arch) ||
            !qtest_has_machine(boards[b].machine)) {
            continue;
        }
        for (t = 0; t < ARRAY_SIZE(tests); t++) {
            g_autofree char *path = g_strdup_printf("perf-counter/%s/%s",
                                                    boards[b].machine,
                                                    tests[t].name);
            qtest_add_data_func(path, &boards[b], tests[t].func);
        }
    }

    return g_test_run();
}
