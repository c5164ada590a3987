/*
 * Guest time in modelled cycles: while the perfctr plugin runs a
 * timing model, QEMU's virtual clock under -icount advances by the
 * model's cycles instead of by instructions, so that SysTick, the board
 * timers, mtime and the generic timer follow the modelled core's time
 * (see include/accel/tcg/perfctr-hook.h).
 *
 * icount's clock is bias + (instructions << shift); here it is bias +
 * (cycles << shift), the vCPUs' cycles (all of them, as icount counts
 * the instructions of all).  A vCPU's cycles are recorded whenever QEMU
 * accounts for the instructions it executed, so that the two move
 * together.  QEMU runs a vCPU on a budget of instructions up to the
 * next timer deadline; with cycles running ahead of instructions the
 * budget would overshoot it, so a target on the vCPU's cycles also ends
 * the run where the deadline falls: the timer fires after the
 * instruction that reaches it, the same instruction on every run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/main-loop.h"
#include "hw/core/cpu.h"
#include "qemu/seqlock.h"
#include "qemu/timer.h"
#include "system/cpu-timers.h"
#include "system/cpu-timers-internal.h"
#include "accel/tcg/perfctr-hook.h"

typedef struct PerfctrModelTimeVcpu {
    /* The model's cycles when QEMU last accounted for instructions */
    uint64_t cycles;
    /* Ends the vCPU's run at the next timer deadline */
    PerfctrHookClient deadline;
} PerfctrModelTimeVcpu;

static GPtrArray *vcpus;

bool perfctr_hook_model_time(void)
{
    return icount_enabled() &&
           (perfctr_hook_events() & BIT(PERFCTR_EVENT_CYCLES));
}

/* The deadline is reached: back to QEMU's loop, which runs the timers */
static void perfctr_model_time_reached(PerfctrHookClient *client)
{
    CPUState *cpu = qemu_get_cpu(client->vcpu_index);

    if (cpu) {
        cpu_exit(cpu);
    }
}

static PerfctrModelTimeVcpu *perfctr_model_time_vcpu(unsigned vcpu_index)
{
    PerfctrModelTimeVcpu *v;

    if (!vcpus) {
        vcpus = g_ptr_array_new();
    }
    while (vcpus->len <= vcpu_index) {
        v = g_new0(PerfctrModelTimeVcpu, 1);
        v->deadline.vcpu_index = vcpus->len;
        v->deadline.reached = perfctr_model_time_reached;
        memset(v->deadline.target, 0xff, sizeof(v->deadline.target));
        g_ptr_array_add(vcpus, v);
    }
    return g_ptr_array_index(vcpus, vcpu_index);
}

void perfctr_hook_icount_updated(CPUState *cpu)
{
    uint64_t cycles;

    if (perfctr_hook_model_time() &&
        perfctr_hook_read_event(cpu->cpu_index, PERFCTR_EVENT_CYCLES,
                                &cycles)) {
        qatomic_set_u64(&perfctr_model_time_vcpu(cpu->cpu_index)->cycles,
                        cycles);
    }
}

/* The vCPUs' cycles; the calling vCPU's now if fresh, else when accounted */
static uint64_t perfctr_model_time_cycles(bool fresh)
{
    uint64_t total = 0, cycles;
    unsigned i;

    for (i = 0; vcpus && i < vcpus->len; i++) {
        PerfctrModelTimeVcpu *v = g_ptr_array_index(vcpus, i);

        if (fresh && current_cpu && current_cpu->cpu_index == i &&
            perfctr_hook_read_event(i, PERFCTR_EVENT_CYCLES, &cycles)) {
            total += cycles;
        } else {
            total += qatomic_read_u64(&v->cycles);
        }
    }
    return total;
}

int64_t perfctr_hook_icount_clock(int64_t icount)
{
    return perfctr_hook_model_time() ? perfctr_model_time_cycles(false)
                                     : icount;
}

void perfctr_hook_icount_budget(CPUState *cpu, int64_t budget)
{
    PerfctrModelTimeVcpu *v;
    uint64_t cycles;

    if (!perfctr_hook_model_time() ||
        !perfctr_hook_read_event(cpu->cpu_index, PERFCTR_EVENT_CYCLES,
                                 &cycles)) {
        return;
    }
    v = perfctr_model_time_vcpu(cpu->cpu_index);
    /* The budget is in the clock's units: cycles, here */
    v->deadline.target[PERFCTR_EVENT_CYCLES] =
        budget > 0 ? cycles + budget : PERFCTR_NEVER;
    if (!v->deadline.want &&
        qemu_clock_deadline_ns_all(QEMU_CLOCK_VIRTUAL,
                                   QEMU_TIMER_ATTR_ALL) < 0) {
        /*
         * No timer yet: the budget's end is no deadline, and a target
         * would cost every instruction an inline check from now on
         */
        return;
    }
    if (!v->deadline.want) {
        /* Once: clients are added, and code retranslated, with the BQL */
        v->deadline.want = BIT(PERFCTR_EVENT_CYCLES);
        v->deadline.targeted = BIT(PERFCTR_EVENT_CYCLES);
        bql_lock();
        perfctr_hook_add_client(&v->deadline);
        perfctr_hook_arm(&v->deadline);
        bql_unlock();
    } else {
        perfctr_hook_arm(&v->deadline);
    }
}

int64_t perfctr_hook_virtual_ns(uint64_t instructions)
{
    uint64_t clock = instructions;

    if (!icount_enabled()) {
        return -1;
    }
    if (perfctr_hook_model_time()) {
        clock = perfctr_model_time_cycles(true);
    }
    /* What icount_get() adds up, with the vCPU's count now */
    return qatomic_read_i64(&timers_state.qemu_icount_bias) +
           icount_to_ns(clock);
}
