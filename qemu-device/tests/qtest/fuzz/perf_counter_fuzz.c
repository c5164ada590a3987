/*
 * Fuzzing target for the performance counter core: random sequences of
 * accesses of every size to two cores, and of virtual-time steps, with
 * the core's invariants checked after every step.
 *
 * generic-fuzz cannot drive this device: its "step to the next timer"
 * operation aborts when no timer is pending, and the core needs none.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "tests/qtest/libqtest.h"
#include "fuzz.h"

/* Where mps2-an385 puts the two cores of the command line below */
#define PC_BASE 0x40030000
#define PC_MMIO_SIZE 0x1000
#define PC_SNAPSHOT 0x81c
#define PC_SNAP_TIME(i) (0xa00 + 16 * (i))

static const uint32_t counters[] = { 8, 64 };   /* num-sections + 1 */

enum {
    OP_READB, OP_READW, OP_READL, OP_READQ,
    OP_WRITEB, OP_WRITEW, OP_WRITEL, OP_WRITEQ,
    OP_COMMAND, OP_CLOCK_STEP,
    OP_COUNT
};

typedef struct QEMU_PACKED Action {
    uint8_t op;
    uint8_t core;
    uint16_t offset;
    uint32_t value;
} Action;

static uint64_t read_pair(QTestState *s, uint64_t addr)
{
    uint64_t lo = qtest_readl(s, addr);

    return (uint64_t)qtest_readl(s, addr + 4) << 32 | lo;
}

/*
 * No section has counted more than the global counter, and a snapshot
 * taken now equals the live counts (virtual time only moves on
 * OP_CLOCK_STEP).
 */
static void check_invariants(QTestState *s, int core)
{
    uint64_t base = PC_BASE + core * PC_MMIO_SIZE;
    uint64_t global = read_pair(s, base);
    uint32_t i;

    qtest_writel(s, base + PC_SNAPSHOT, 0);
    for (i = 0; i < counters[core]; i++) {
        uint64_t time = read_pair(s, base + 16 * i);

        g_assert(time <= global);
        g_assert(read_pair(s, base + PC_SNAP_TIME(i)) == time);
    }
}

static void perf_counter_fuzz(QTestState *s, const unsigned char *data,
                              size_t size)
{
    Action a;

    while (size >= sizeof(a)) {
        int core;
        uint64_t addr;

        memcpy(&a, data, sizeof(a));
        data += sizeof(a);
        size -= sizeof(a);
        core = a.core % ARRAY_SIZE(counters);
        addr = PC_BASE + core * PC_MMIO_SIZE + a.offset % PC_MMIO_SIZE;

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
            break;
        case OP_WRITEW:
            qtest_writew(s, addr, a.value);
            break;
        case OP_WRITEL:
            qtest_writel(s, addr, a.value);
            break;
        case OP_WRITEQ:
            qtest_writeq(s, addr, (uint64_t)a.value << 32 | a.value);
            break;
        case OP_COMMAND:
            /* Aim at the command words, which random offsets rarely hit */
            qtest_writel(s, PC_BASE + core * PC_MMIO_SIZE +
                         16 * (a.offset % counters[core]) + 4 * (a.op & 1),
                         a.value & 1);
            break;
        case OP_CLOCK_STEP:
            /* qtest refuses a step of 0 */
            qtest_clock_step(s, (uint64_t)a.value + 1);
            break;
        }
        check_invariants(s, core);
    }
    fuzz_reset(s);
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
        .fuzz = perf_counter_fuzz,
    });
}

fuzz_target_init(register_perf_counter_fuzz_targets);
