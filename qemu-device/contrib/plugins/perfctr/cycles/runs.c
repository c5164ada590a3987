/*
 * perfctr plugin: the instructions and the windows' counts known at
 * translation, summed when read
 *
 * Where cycles.c adds a block's pending costs (its flush points), the
 * total of the cycles is added inline, as devices and targets read it
 * while the guest runs; the instructions, and a window's cycles and
 * instructions, are read only when the run's results are written (and
 * at start=).  So each flush point counts its runs instead, one inline
 * add in place of three, and the sums are its runs times its amounts
 * (the callbacks' dynamic cycles still go to the window's slot).
 * Counting at the same point as the adds keeps a block left early
 * exact: a run counts only the flush points it reached.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "config.h"
#include "cycles/runs.h"

/* Counters a scoreboard holds (per vCPU); a new one when it is full */
#define PER_BOARD 1024

typedef struct FlushPoint {
    qemu_plugin_u64 runs;
    int window;             /* or -1 */
    uint64_t cycles;        /* in the window */
    uint64_t insns;
} FlushPoint;

static const PerfctrConfig *config;
static GMutex lock;
static GArray *points;
static struct qemu_plugin_scoreboard *board;
static unsigned used = PER_BOARD;

void runs_init(const PerfctrConfig *cfg)
{
    config = cfg;
    points = g_array_new(false, false, sizeof(FlushPoint));
}

void runs_count(struct qemu_plugin_insn *insn, int window, uint64_t cycles,
                uint64_t insns)
{
    FlushPoint p = { .window = window, .cycles = cycles, .insns = insns };

    config_lock(config, &lock);
    if (used == PER_BOARD) {
        board = qemu_plugin_scoreboard_new(PER_BOARD * sizeof(uint64_t));
        used = 0;
    }
    p.runs = (qemu_plugin_u64) { board, used++ * sizeof(uint64_t) };
    g_array_append_val(points, p);
    config_unlock(config, &lock);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
        insn, QEMU_PLUGIN_INLINE_ADD_U64, p.runs, 1);
}

void runs_add_sums(uint64_t *insns, uint64_t *windows)
{
    guint i;

    config_lock(config, &lock);
    for (i = 0; i < points->len; i++) {
        const FlushPoint *p = &g_array_index(points, FlushPoint, i);
        uint64_t n = qemu_plugin_u64_sum(p->runs);

        *insns += n * p->insns;
        if (p->window >= 0) {
            windows[2 * p->window] += n * p->cycles;
            windows[2 * p->window + 1] += n * p->insns;
        }
    }
    config_unlock(config, &lock);
}
