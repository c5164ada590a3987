/*
 * Call counting for code built with -pg: the arc table and gmon.out.
 *
 * The table is open addressing over (call site, callee), fixed in size
 * so that counting never allocates; a call that finds it full is
 * counted as lost and reported at exit, never folded into another arc.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfctr_gprof.h"

struct arc {
    uintptr_t from_pc;
    uintptr_t self_pc;
    uint32_t count;
};

static struct arc arcs[PERFCTR_GPROF_ARCS];
static unsigned arcs_used;
static unsigned long calls_lost;
static int registered;

static void write_at_exit(void)
{
    perfctr_gprof_write();
}

static unsigned slot_of(uintptr_t from_pc, uintptr_t self_pc)
{
    uint32_t h = ((uint32_t)from_pc * 2654435761u) ^
                 ((uint32_t)self_pc * 40503u);

    return h % PERFCTR_GPROF_ARCS;
}

void perfctr_gprof_arc(uintptr_t from_pc, uintptr_t self_pc)
{
    unsigned i = slot_of(from_pc, self_pc);
    unsigned probes;

    if (!registered) {
        registered = 1;
        atexit(write_at_exit);
    }
    for (probes = 0; probes < PERFCTR_GPROF_ARCS; probes++) {
        struct arc *a = &arcs[i];

        if (a->count && a->from_pc == from_pc && a->self_pc == self_pc) {
            if (a->count == UINT32_MAX) {
                break;          /* gmon.out's count is 32 bits */
            }
            a->count++;
            return;
        }
        if (!a->count) {
            if (arcs_used == PERFCTR_GPROF_ARCS) {
                break;
            }
            a->from_pc = from_pc;
            a->self_pc = self_pc;
            a->count = 1;
            arcs_used++;
            return;
        }
        i = (i + 1) % PERFCTR_GPROF_ARCS;
    }
    calls_lost++;
}

/* v, little-endian, in bytes bytes */
static void put(unsigned char *p, uint64_t v, unsigned bytes)
{
    unsigned i;

    for (i = 0; i < bytes; i++) {
        p[i] = v >> 8 * i;
    }
}

int perfctr_gprof_write(void)
{
    /* The GNU header: "gmon", version 1, 12 spare bytes */
    unsigned char header[20] = { 'g', 'm', 'o', 'n', 1 };
    /* A call arc: tag, two pcs as wide as the target's addresses, count */
    enum { PC = sizeof(uintptr_t) };
    unsigned char record[1 + 2 * PC + 4];
    FILE *f = fopen(PERFCTR_GPROF_FILE, "wb");
    unsigned i;

    if (!f) {
        fprintf(stderr, "perfctr gprof: cannot write %s\n",
                PERFCTR_GPROF_FILE);
        return -1;
    }
    fwrite(header, 1, sizeof(header), f);
    for (i = 0; i < PERFCTR_GPROF_ARCS; i++) {
        if (!arcs[i].count) {
            continue;
        }
        record[0] = 1;          /* a call arc */
        put(record + 1, arcs[i].from_pc, PC);
        put(record + 1 + PC, arcs[i].self_pc, PC);
        put(record + 1 + 2 * PC, arcs[i].count, 4);
        fwrite(record, 1, sizeof(record), f);
    }
    fclose(f);
    if (calls_lost) {
        fprintf(stderr, "perfctr gprof: the arc table (%u arcs) was full: "
                "%lu calls were not counted\n", PERFCTR_GPROF_ARCS,
                calls_lost);
    }
    return 0;
}
