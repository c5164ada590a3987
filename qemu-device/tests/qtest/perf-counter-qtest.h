/*
 * What the perf-counter qtests share (perf-counter-test.c, the
 * original map, the extension and the readout; perf-counter-irq-test.c,
 * version 2's event selects, thresholds and interrupt): the boards,
 * the register map, starting a board, the commands
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERF_COUNTER_QTEST_H
#define PERF_COUNTER_QTEST_H

#include "libqtest.h"
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

static inline QTestState *start_board(const Board *board, uint32_t freq_hz,
                                      uint32_t sections)
{
    pc_base = board->base;
    return qtest_initf("-machine %s "
                       "-device perf-counter,clock-frequency=%" PRIu32
                       ",num-sections=%" PRIu32,
                       board->machine, freq_hz, sections);
}

static inline QTestState *start_default(const Board *board)
{
    return start_board(board, 25000000, 3);
}

static inline void pc_reset(QTestState *qts)
{
    qtest_writel(qts, TIME_LO(0), 1);
}

static inline void pc_start(QTestState *qts)
{
    qtest_writel(qts, TIME_HI(0), 0);
}

static inline void pc_stop(QTestState *qts)
{
    qtest_writel(qts, TIME_LO(0), 0);
}

static inline void pc_begin(QTestState *qts, int section)
{
    qtest_writel(qts, TIME_HI(section), 0);
}

static inline void pc_end(QTestState *qts, int section)
{
    qtest_writel(qts, TIME_LO(section), 0);
}

static inline uint64_t pc_time(QTestState *qts, int counter)
{
    uint64_t lo = qtest_readl(qts, TIME_LO(counter));
    uint64_t hi = qtest_readl(qts, TIME_HI(counter));

    return hi << 32 | lo;
}

static inline uint32_t pc_events(QTestState *qts, int counter)
{
    return qtest_readl(qts, EVENTS(counter));
}

static inline void assert_all_zero(QTestState *qts, int sections)
{
    int i;

    for (i = 0; i <= sections; i++) {
        assert_eq(pc_time(qts, i), 0);
        assert_eq(pc_events(qts, i), 0);
    }
}

/* A QEMU with one core named "pc", started with more -device options */
static inline QTestState *start_with(const Board *board,
                                     const char *options)
{
    pc_base = board->base;
    return qtest_initf("-machine %s -device perf-counter,id=pc,"
                       "clock-frequency=25000000,num-sections=3%s",
                       board->machine, options);
}

/* Add each of the @n @cases on each board of this QEMU's target */
static inline void add_tests(const PerfctrQTestCase *cases, size_t n)
{
    const char *arch = qtest_get_arch();
    size_t b;

    for (b = 0; b < ARRAY_SIZE(boards); b++) {
        if (!strcmp(boards[b].arch, arch) &&
            qtest_has_machine(boards[b].machine)) {
            add_board_cases("perf-counter", boards[b].machine, &boards[b],
                            cases, n);
        }
    }
}

#endif
