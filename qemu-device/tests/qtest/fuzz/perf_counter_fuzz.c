/*
 * Fuzzing target for the performance counter core: random sequences of
 * accesses of every size to two cores, of writes aimed at the command
 * words and version 2's registers (event selects, controls, thresholds,
 * flags, event counts, PENDING), and of virtual-time steps, with the
 * core's invariants checked after every step (on a window of its
 * counters that moves on at each step) and on every counter at the end,
 * the interrupt lines included.
 *
 * generic-fuzz cannot drive this device: its "step to the next timer"
 * operation aborts when no timer is pending, and the core needs none.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/module.h"
#include "tests/qtest/libqtest.h"
#include "fuzz.h"

/* Where mps2-an385 puts the two cores of the command line below */
#define PC_BASE 0x40030000
#define PC_MMIO_SIZE 0x1000
#define PC_EVSEL(i) (0x400 + 16 * (i))
#define PC_CTRL(i) (0x404 + 16 * (i))
#define PC_CTRL_THRESH_EN 0x1
#define PC_CTRL_THRESH_ON_TIME 0x4
#define PC_THRESH(i) (0x408 + 16 * (i))
#define PC_STATUS 0x810
#define PC_STATUS_IRQ 0x4
#define PC_SNAPSHOT 0x81c
#define PC_PENDING 0x820
#define PC_FLAGS(i) (0x900 + 4 * (i))
#define PC_FLAGS_THRESH 0x1
#define PC_FLAGS_MASK 0x3
#define PC_SNAP_TIME(i) (0xa00 + 16 * (i))
#define PC_EVCNT(i) (0xe00 + 8 * (i))
#define PC_NUM_EVENTS 18
/* ... and the NVIC lines it wires them to */
#define PC_FIRST_IRQ 28

#define NUM_CORES 2
#define MAX_COUNTERS 64
static const uint32_t counters[NUM_CORES] = { 8, 64 };  /* num-sections + 1 */

enum {
    OP_READB, OP_READW, OP_READL, OP_READQ,
    OP_WRITEB, OP_WRITEW, OP_WRITEL, OP_WRITEQ,
    OP_COMMAND, OP_CLOCK_STEP,
    /* Version 2's registers, which random offsets rarely hit */
    OP_EVSEL, OP_CTRL, OP_THRESH, OP_FLAGS, OP_EVCNT, OP_PENDING,
    OP_COUNT
};

typedef struct QEMU_PACKED Action {
    uint8_t op;
    uint8_t core;
    uint16_t offset;
    uint32_t value;
} Action;

/*
 * Counters checked after each step: the global counter, the one the
 * step aimed at and a window of CHECK_WINDOW that moves on by as many
 * at each step; every counter at the end of the input.  Reading all 64
 * counters' registers after every step made the checks nearly all of
 * an input's time (960 register reads a check).
 */
#define CHECK_WINDOW 4

/* What the last check read, to tell that nothing went backward */
typedef struct Seen {
    uint64_t time[MAX_COUNTERS];
    uint64_t events[MAX_COUNTERS];
    /* A RESET, an EVSEL write or a preset since the counter's last check */
    bool rewound[MAX_COUNTERS];
    unsigned window;            /* the window's first counter */
} Seen;

static uint64_t read_pair(QTestState *s, uint64_t addr)
{
    uint64_t lo = qtest_readl(s, addr);

    return (uint64_t)qtest_readl(s, addr + 4) << 32 | lo;
}

/*
 * The 32-bit words of one register block, counters' words each, in one
 * qtest command (reads have no effect on the core; time stands still
 * between them): a qtest round trip per register made the checks cost
 * most of each input
 */
static void read_block(QTestState *s, uint64_t addr, uint32_t *words,
                       unsigned count)
{
    unsigned i;

    qtest_memread(s, addr, words, 4 * count);
    for (i = 0; i < count; i++) {
        words[i] = le32_to_cpu(words[i]);
    }
}

static uint64_t pair(const uint32_t *words)
{
    return (uint64_t)words[1] << 32 | words[0];
}

/* Whether [addr, addr + size) overlaps [start, end) of core's window */
static bool touches(uint64_t addr, unsigned size, int core, uint64_t start,
                    uint64_t end)
{
    uint64_t base = PC_BASE + core * PC_MMIO_SIZE;

    return addr < base + end && base + start < addr + size;
}

/*
 * The invariants of counters [first, first + count) of a core (see
 * check_invariants), global being the global counter's time and
 * pending the core's PENDING, read in the same instant
 */
static void check_counters(QTestState *s, int core, Seen *seen,
                           unsigned first, unsigned count, uint64_t global,
                           uint64_t pending)
{
    uint64_t base = PC_BASE + core * PC_MMIO_SIZE;
    uint32_t times[4 * MAX_COUNTERS], selects[4 * MAX_COUNTERS];
    uint32_t flags[MAX_COUNTERS], events[2 * MAX_COUNTERS];
    unsigned k;

    read_block(s, base + 16 * first, times, 4 * count);
    read_block(s, base + PC_EVSEL(first), selects, 4 * count);
    read_block(s, base + PC_FLAGS(first), flags, count);
    read_block(s, base + PC_EVCNT(first), events, 2 * count);
    for (k = 0; k < count; k++) {
        unsigned i = first + k;
        uint64_t time = pair(&times[4 * k]);
        uint64_t events_now = pair(&events[2 * k]);
        uint32_t ctrl = selects[4 * k + 1];
        uint64_t thresh = pair(&selects[4 * k + 2]);

        g_assert(time <= global);
        g_assert(selects[4 * k] < PC_NUM_EVENTS);
        g_assert(!(flags[k] & ~PC_FLAGS_MASK));
        if ((ctrl & PC_CTRL_THRESH_EN) &&
            (ctrl & PC_CTRL_THRESH_ON_TIME ? time : events_now) >= thresh) {
            g_assert(flags[k] & PC_FLAGS_THRESH);
        }
        g_assert(seen->rewound[i] || time >= seen->time[i]);
        g_assert(seen->rewound[i] || events_now >= seen->events[i]);
        g_assert(!!(pending & BIT_ULL(i)) == (flags[k] != 0));
        seen->time[i] = time;
        seen->events[i] = events_now;
        seen->rewound[i] = false;
    }
}

/* A snapshot taken now holds the times the checks just read */
static void check_snapshot(QTestState *s, int core, const Seen *seen,
                           unsigned first, unsigned count)
{
    uint64_t base = PC_BASE + core * PC_MMIO_SIZE;
    uint32_t snaps[4 * MAX_COUNTERS];
    unsigned k;

    read_block(s, base + PC_SNAP_TIME(first), snaps, 4 * count);
    for (k = 0; k < count; k++) {
        g_assert(pair(&snaps[4 * k]) == seen->time[first + k]);
    }
}

/*
 * On a core, for each counter checked (all, or the global one, @aimed
 * and the window): no section has counted more than the global counter;
 * a snapshot taken now equals the live counts (virtual time only moves
 * on OP_CLOCK_STEP); every EVSEL is an event; no flag bit beyond THRESH
 * and OVF; FLAGS.THRESH set while an enabled threshold is reached (a
 * comparison, so even after an ack); PENDING has bit i exactly when
 * FLAGS i is not 0; no time goes backward but by a RESET, and no event
 * count but by a RESET, an EVSEL write or a preset.  And STATUS.IRQ and
 * the interrupt line are high exactly when PENDING is not 0.
 */
static void check_invariants(QTestState *s, int core, Seen *seen,
                             bool all, unsigned aimed)
{
    uint64_t base = PC_BASE + core * PC_MMIO_SIZE;
    unsigned n = counters[core];
    unsigned first = all ? 0 : seen->window;
    unsigned count = all ? n : MIN(CHECK_WINDOW, n - first);
    bool aimed_apart = !all && aimed && (aimed < first ||
                                         aimed >= first + count);
    uint64_t global, pending;
    bool high;

    /* Reads first: a write (SNAPSHOT's too) would bring the flags up */
    global = read_pair(s, base);
    pending = read_pair(s, base + PC_PENDING);
    high = pending != 0;
    g_assert(!!(qtest_readl(s, base + PC_STATUS) & PC_STATUS_IRQ) == high);
    g_assert(qtest_get_irq(s, PC_FIRST_IRQ + core) == high);
    if (first) {
        check_counters(s, core, seen, 0, 1, global, pending);
    }
    check_counters(s, core, seen, first, count, global, pending);
    if (aimed_apart) {
        check_counters(s, core, seen, aimed, 1, global, pending);
    }

    qtest_writel(s, base + PC_SNAPSHOT, 0);
    if (first) {
        check_snapshot(s, core, seen, 0, 1);
    }
    check_snapshot(s, core, seen, first, count);
    if (aimed_apart) {
        check_snapshot(s, core, seen, aimed, 1);
    }
    seen->window = (first + count) % n;
}

/* An action aimed at counter i's word of a version 2 register */
static void aim(QTestState *s, const Action *a, uint64_t base, uint32_t i)
{
    bool other = (a->op / OP_COUNT) & 1;   /* the op's spare bit */

    switch (a->op % OP_COUNT) {
    case OP_EVSEL:
        /* Every event, and values that are none (logged, ignored) */
        qtest_writel(s, base + PC_EVSEL(i),
                     other ? a->value : a->value % (PC_NUM_EVENTS + 2));
        break;
    case OP_CTRL:
        qtest_writel(s, base + PC_CTRL(i), other ? a->value : a->value & 7);
        break;
    case OP_THRESH:
        /* Small thresholds, which time reaches, as well as any */
        qtest_writel(s, base + PC_THRESH(i) + 4 * other,
                     other ? a->value : a->value & 0xffff);
        break;
    case OP_FLAGS:
        qtest_writel(s, base + PC_FLAGS(i), a->value);
        break;
    case OP_EVCNT:
        /* Presets, near the wrap of the low word as software does */
        qtest_writel(s, base + PC_EVCNT(i) + 4 * other,
                     other ? a->value : UINT32_MAX - (a->value & 0xff));
        break;
    case OP_PENDING:
        /* Read-only: the write must change nothing */
        qtest_writel(s, base + PC_PENDING + 4 * other, a->value);
        break;
    }
}

static void perf_counter_fuzz(QTestState *s, const unsigned char *data,
                              size_t size)
{
    Seen seen[NUM_CORES] = { 0 };   /* all 0 after the machine's reset */
    Action a;
    int c;

    while (size >= sizeof(a)) {
        bool rewound[NUM_CORES] = { false };
        int core;
        uint64_t base, addr;
        unsigned width = 0;
        uint32_t i;

        memcpy(&a, data, sizeof(a));
        data += sizeof(a);
        size -= sizeof(a);
        core = a.core % NUM_CORES;
        base = PC_BASE + core * PC_MMIO_SIZE;
        addr = base + a.offset % PC_MMIO_SIZE;
        i = a.offset % counters[core];

        switch (a.op % OP_COUNT) {
        case OP_READB:
            qtest_readb(s, addr);
            break;
        case OP_READW:
            qtest_readw(s, addr);
            break;
        case OP_READL:
            qtest_readl(s, addr);
            break;
        case OP_READQ:
            qtest_readq(s, addr);
            break;
        case OP_WRITEB:
            qtest_writeb(s, addr, a.value);
            width = 1;
            break;
        case OP_WRITEW:
            qtest_writew(s, addr, a.value);
            width = 2;
            break;
        case OP_WRITEL:
            qtest_writel(s, addr, a.value);
            width = 4;
            break;
        case OP_WRITEQ:
            qtest_writeq(s, addr, (uint64_t)a.value << 32 | a.value);
            width = 8;
            break;
        case OP_COMMAND:
            /* Aim at the command words, which random offsets rarely hit */
            addr = base + 16 * i + 4 * ((a.op / OP_COUNT) & 1);
            qtest_writel(s, addr, a.value & 1);
            width = 4;
            break;
        case OP_CLOCK_STEP:
            /* qtest refuses a step of 0 */
            qtest_clock_step(s, (uint64_t)a.value + 1);
            break;
        default:
            aim(s, &a, base, i);
            rewound[core] = a.op % OP_COUNT == OP_EVSEL ||
                            a.op % OP_COUNT == OP_EVCNT;
            break;
        }
        /* A random write may be a RESET, an EVSEL write or a preset */
        for (c = 0; width && c < NUM_CORES; c++) {
            rewound[c] = touches(addr, width, c, 0, 8) ||
                         touches(addr, width, c, PC_EVSEL(0),
                                 PC_EVSEL(counters[c])) ||
                         touches(addr, width, c, PC_EVCNT(0),
                                 PC_EVCNT(counters[c]));
        }
        /*
         * A step of time moves both cores; an access reaches its own
         * core's window only, and leaves the other as it was
         */
        for (c = 0; c < NUM_CORES; c++) {
            if (rewound[c]) {
                memset(seen[c].rewound, true, sizeof(seen[c].rewound));
            }
            if (c == core || a.op % OP_COUNT == OP_CLOCK_STEP) {
                check_invariants(s, c, &seen[c], false,
                                 c == core ? i : 0);
            }
        }
    }
    /* Every counter of both at the end, should a core reach the other */
    for (c = 0; c < NUM_CORES; c++) {
        check_invariants(s, c, &seen[c], true, 0);
    }
    fuzz_reset(s);
}

/* Watch the cores' lines where they enter the NVIC */
static void perf_counter_pre_fuzz(QTestState *s)
{
    qtest_irq_intercept_in(s, "/machine/armv7m");
}

static GString *perf_counter_cmdline(FuzzTarget *t)
{
    return g_string_new(TARGET_NAME " -machine mps2-an385,accel=qtest"
                        " -m 16M -display none"
                        " -device perf-counter,num-sections=7,"
                        "clock-frequency=3000000"
                        " -device perf-counter,num-sections=63");
}

static void register_perf_counter_fuzz_targets(void)
{
    fuzz_add_target(&(FuzzTarget){
        .name = "perf-counter-fuzz",
        .description = "Fuzz the perf-counter MMIO interface and virtual "
                       "time, checking its invariants after every step",
        .get_init_cmdline = perf_counter_cmdline,
        .pre_fuzz = perf_counter_pre_fuzz,
        .fuzz = perf_counter_fuzz,
    });
}

fuzz_target_init(register_perf_counter_fuzz_targets);
