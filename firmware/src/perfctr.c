/*
 * The extension block of the performance counter core.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "perfctr.h"

static alt_u64 read_pair(void *p, int word)
{
    alt_u64 lo = IORD(p, word);
    alt_u64 hi = IORD(p, word + 1);

    return hi << 32 | lo;
}

int perfctr_probe(void *p, struct perfctr_info *info)
{
    alt_u32 magic;

    /* A read that faults (nothing there, on the virt boards) is a no */
    if (board_probe_read((alt_u32)(uintptr_t)p + 4 * PERFCTR_REG_MAGIC,
                         &magic) != 0 || magic != PERFCTR_MAGIC) {
        return -1;
    }
    info->version = IORD(p, PERFCTR_REG_VERSION);
    info->num_sections = IORD(p, PERFCTR_REG_NUM_SECTIONS);
    info->clock_hz = IORD(p, PERFCTR_REG_FREQ_HZ);
    info->counts_instructions =
        (IORD(p, PERFCTR_REG_STATUS) & PERFCTR_STATUS_ICOUNT) != 0;
    return 0;
}

alt_u64 perfctr_snapshot_time(void *p, int n)
{
    return read_pair(p, PERFCTR_REG_SNAP(n));
}

alt_u64 perfctr_snapshot_instructions(void *p, int n)
{
    return read_pair(p, PERFCTR_REG_SNAP(n) + 2);
}

alt_u64 perfctr_time(void *p, int n)
{
    PERFCTR_SNAPSHOT(p);
    return perfctr_snapshot_time(p, n);
}

alt_u64 perfctr_instructions(void *p, int n)
{
    PERFCTR_SNAPSHOT(p);
    return perfctr_snapshot_instructions(p, n);
}
