/*
 * Stops: end a run at an exact point of the guest's execution, for
 * firmware that never exits (accel/tcg/perfctr-stop.c).
 *
 * The perfctr plugin says where (its stop= arguments): after a number
 * of retired instructions, of estimated cycles, or of nanoseconds of
 * virtual time, or when the pc reaches an address for the K-th time.
 * QEMU then stops the vCPUs between two guest instructions and shuts
 * down as on a guest's exit (exit status 0), so that the plugin's and
 * the devices' exit handlers write everything they have counted.
 *
 * Plain C, included by QEMU and by the plugin; what the plugin calls is
 * exported (plugins/perfctr-hook.symbols).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef ACCEL_TCG_PERFCTR_STOP_H
#define ACCEL_TCG_PERFCTR_STOP_H

#include <stdbool.h>
#include <stdint.h>

typedef enum PerfctrStopKind {
    PERFCTR_STOP_INSTRUCTIONS,  /* retired instructions (needs -icount) */
    PERFCTR_STOP_CYCLES,        /* estimated cycles (a timing model) */
    PERFCTR_STOP_TIME,          /* nanoseconds of QEMU_CLOCK_VIRTUAL */
} PerfctrStopKind;

/*
 * Stop the run once vCPU 0 has retired count instructions, or its
 * count of estimated cycles has reached count (stopped after the
 * instruction that reached it), or the virtual clock reached count ns.
 * Armed when the machine first runs.  False, with *why saying it, if
 * this QEMU cannot (no -icount for instructions).
 */
bool perfctr_stop_after(PerfctrStopKind kind, uint64_t count,
                        const char **why);

/*
 * Stop the run now, before the instruction whose translated code
 * returns to host_pc runs (called from a callback of that instruction
 * registered with QEMU_PLUGIN_CB_R_REGS).  what says why, e.g. the
 * address reached.  Does not return.
 */
void perfctr_stop_here(unsigned vcpu_index, uintptr_t host_pc,
                       const char *what);

/*
 * Stop the run now, from a device's access or a QEMU_CLOCK_VIRTUAL
 * timer (where the guest is between two instructions): what says why
 * (the serial backend's "input-end").  Does not return.
 */
void perfctr_stop_now(const char *what);

/*
 * How the run has gone so far: what stopped it (NULL if no stop did),
 * the instructions vCPU 0 retired (false if -icount is off and QEMU
 * does not know them) and the virtual nanoseconds.
 */
bool perfctr_stop_outcome(const char **stopped_by, uint64_t *instructions,
                          uint64_t *ns);

/*
 * For QEMU, as it hands the vCPU its budget of instructions under
 * icount: budget, cut to the instructions left before a stop after
 * instructions while guest time follows a timing model's cycles (a
 * virtual-clock deadline would expire early then, again and again, each
 * time leaving the code at a point that depends on the count); the
 * machine stops there when none are left
 */
int64_t perfctr_stop_instruction_budget(int64_t budget);

#endif
