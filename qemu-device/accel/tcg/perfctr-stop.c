/*
 * Stops at an exact point of the guest's execution (see
 * include/accel/tcg/perfctr-stop.h).
 *
 * Instructions and virtual time are stopped by a QEMU_CLOCK_VIRTUAL
 * timer: under -icount a vCPU runs exactly up to the next deadline, so
 * the timer expires between the same two instructions on every run.
 * An instruction count is a deadline only while the guest does not
 * sleep (a WFI skips virtual time without retiring instructions), so
 * the timer checks the count and, if it is short, sets the deadline
 * again for what is left.  While guest time follows a timing model's
 * cycles, which run ahead of instructions, instructions are instead the
 * end of the vCPU's budget (perfctr_stop_instruction_budget()).
 * Estimated cycles are a target armed through the hook, reached after
 * the instruction that reached it; a pc is the plugin's callback before
 * the instruction at that pc.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "exec/cpu-common.h"
#include "hw/core/cpu.h"
#include "system/cpu-timers.h"
#include "system/runstate.h"
#include "accel/tcg/perfctr-hook.h"
#include "accel/tcg/perfctr-stop.h"

typedef struct PerfctrStop {
    bool armed[PERFCTR_STOP_TIME + 1];
    uint64_t count[PERFCTR_STOP_TIME + 1];
    VMChangeStateEntry *on_start;
    QEMUTimer *timer;
    PerfctrHookClient cycles;
    const char *stopped_by;
    char what[64];
    /* Where it stopped: nothing runs after, but idle time may pass */
    uint64_t instructions;
    int64_t ns;
} PerfctrStop;

static PerfctrStop stop;

/*
 * Leave as a guest's exit through semihosting does, at once and from
 * where it is (the vCPU's thread or the timer's): nothing runs after
 * the stop, not even idle time, and the exit handlers of the devices
 * and of the plugin write what they counted.
 */
static G_NORETURN void perfctr_stop_machine(const char *why)
{
    stop.stopped_by = why;
    stop.instructions = icount_enabled() ? icount_get_raw() : 0;
    stop.ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    if (!bql_locked()) {
        bql_lock();
    }
    exit(0);
}

/*
 * Instructions are the end of the vCPU's budget, not a deadline: while
 * guest time follows a model's cycles (one vCPU)
 */
static bool instructions_by_budget(void)
{
    return stop.armed[PERFCTR_STOP_INSTRUCTIONS] &&
           perfctr_hook_model_time() && first_cpu && !CPU_NEXT(first_cpu);
}

/* The next virtual-time deadline, or -1 when nothing is left to wait */
static int64_t perfctr_stop_deadline(void)
{
    int64_t deadline = INT64_MAX;

    if (stop.armed[PERFCTR_STOP_TIME]) {
        deadline = stop.count[PERFCTR_STOP_TIME];
    }
    if (stop.armed[PERFCTR_STOP_INSTRUCTIONS] &&
        !instructions_by_budget()) {
        uint64_t done = icount_get_raw();
        uint64_t left = stop.count[PERFCTR_STOP_INSTRUCTIONS] - done;

        if (done >= stop.count[PERFCTR_STOP_INSTRUCTIONS]) {
            return 0;
        }
        deadline = MIN(deadline, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                                 icount_to_ns(MIN(left, INT64_MAX >> 8)));
    }
    return deadline == INT64_MAX ? -1 : deadline;
}

static void perfctr_stop_timer_expired(void *opaque)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (stop.armed[PERFCTR_STOP_TIME] &&
        now >= stop.count[PERFCTR_STOP_TIME]) {
        g_snprintf(stop.what, sizeof(stop.what), "time %" PRIu64 " ns",
                   stop.count[PERFCTR_STOP_TIME]);
        perfctr_stop_machine(stop.what);
    } else if (stop.armed[PERFCTR_STOP_INSTRUCTIONS] &&
               icount_get_raw() >= stop.count[PERFCTR_STOP_INSTRUCTIONS]) {
        g_snprintf(stop.what, sizeof(stop.what), "instructions %" PRIu64,
                   stop.count[PERFCTR_STOP_INSTRUCTIONS]);
        perfctr_stop_machine(stop.what);
    } else if (perfctr_stop_deadline() > 0) {
        /* The guest slept: the instructions are not all retired yet */
        timer_mod(stop.timer, perfctr_stop_deadline());
    }
}

static void perfctr_stop_cycles_reached(PerfctrHookClient *client)
{
    uint64_t cycles;

    if (perfctr_hook_read_event(client->vcpu_index, PERFCTR_EVENT_CYCLES,
                                &cycles) &&
        cycles >= stop.count[PERFCTR_STOP_CYCLES]) {
        g_snprintf(stop.what, sizeof(stop.what), "cycles %" PRIu64,
                   stop.count[PERFCTR_STOP_CYCLES]);
        perfctr_stop_machine(stop.what);
    }
}

/* Arm what was asked when the machine first runs: the clocks exist */
static void perfctr_stop_vm_state(void *opaque, bool running,
                                  RunState state)
{
    int64_t deadline;

    if (!running || stop.timer) {
        return;
    }
    stop.timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                              perfctr_stop_timer_expired, NULL);
    deadline = perfctr_stop_deadline();
    if (deadline >= 0) {
        timer_mod(stop.timer, deadline);
    }
    if (stop.armed[PERFCTR_STOP_CYCLES]) {
        memset(stop.cycles.target, 0xff, sizeof(stop.cycles.target));
        stop.cycles.vcpu_index = 0;
        stop.cycles.reached = perfctr_stop_cycles_reached;
        stop.cycles.target[PERFCTR_EVENT_CYCLES] =
            stop.count[PERFCTR_STOP_CYCLES];
        stop.cycles.want = BIT(PERFCTR_EVENT_CYCLES);
        stop.cycles.targeted = BIT(PERFCTR_EVENT_CYCLES);
        perfctr_hook_add_client(&stop.cycles);
        perfctr_hook_arm(&stop.cycles);
    }
}

bool perfctr_stop_after(PerfctrStopKind kind, uint64_t count,
                        const char **why)
{
    if (kind > PERFCTR_STOP_TIME) {
        *why = "no such kind of stop";
        return false;
    }
    if (kind == PERFCTR_STOP_INSTRUCTIONS && !icount_enabled()) {
        *why = "a stop after instructions needs -icount";
        return false;
    }
    stop.armed[kind] = true;
    stop.count[kind] = count;
    if (!stop.on_start) {
        stop.on_start = qemu_add_vm_change_state_handler(
            perfctr_stop_vm_state, NULL);
    }
    return true;
}

int64_t perfctr_stop_instruction_budget(int64_t budget)
{
    uint64_t done;

    if (!instructions_by_budget()) {
        return budget;
    }
    done = icount_get_raw();
    if (done >= stop.count[PERFCTR_STOP_INSTRUCTIONS]) {
        g_snprintf(stop.what, sizeof(stop.what), "instructions %" PRIu64,
                   stop.count[PERFCTR_STOP_INSTRUCTIONS]);
        perfctr_stop_machine(stop.what);
    }
    return MIN(budget,
               (int64_t)(stop.count[PERFCTR_STOP_INSTRUCTIONS] - done));
}

void perfctr_stop_here(unsigned vcpu_index, uintptr_t host_pc,
                       const char *what)
{
    CPUState *cpu = current_cpu;

    g_strlcpy(stop.what, what, sizeof(stop.what));
    if (cpu && cpu->cpu_index == vcpu_index) {
        /* Back to the instruction that has not run: counts exact there */
        perfctr_hook_cpu_restore_before(cpu, host_pc);
        cpu->neg.can_do_io = true;
    }
    perfctr_stop_machine(stop.what);
}

void perfctr_stop_now(const char *what)
{
    g_strlcpy(stop.what, what, sizeof(stop.what));
    perfctr_stop_machine(stop.what);
}

bool perfctr_stop_outcome(const char **stopped_by, uint64_t *instructions,
                          uint64_t *ns)
{
    *stopped_by = stop.stopped_by;
    if (stop.stopped_by) {
        *ns = stop.ns;
        *instructions = stop.instructions;
    } else {
        *ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        *instructions = icount_enabled() ? icount_get_raw() : 0;
    }
    return icount_enabled();
}
