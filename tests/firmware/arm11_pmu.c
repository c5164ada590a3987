/*
 * The ARM1176 performance monitor, rule by rule (tests/boot/
 * test_arm11_pmu.py reads the lines printed here).  The measured code
 * is hand-written ARM (arm11/pmu_scenarios.S), so every count is known.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "altera_avalon_performance_counter.h"
#include "arm11_pmu.h"
#include "perfctr.h"
#include "io.h"
#include "raspi.h"
#include "system.h"

#define E ARM11_PMU_PMNC_E
#define RESET_ALL (ARM11_PMU_PMNC_P | ARM11_PMU_PMNC_C)
#define EVENTS(e0, e1) \
    (ARM11_PMU_PMNC_EVTCOUNT0(e0) | ARM11_PMU_PMNC_EVTCOUNT1(e1))
#define INSNS_AND_BRANCHES \
    EVENTS(ARM11_PMU_EVT_INSTRUCTION, ARM11_PMU_EVT_BRANCH)

void pmu_loop(alt_u32 pmnc, alt_u32 n);
void pmu_loop_then(alt_u32 pmnc, alt_u32 n, alt_u32 stop);
void pmu_calls(alt_u32 pmnc, alt_u32 n);
void pmu_not_taken(alt_u32 pmnc, alt_u32 n);
void pmu_with_core(alt_u32 pmnc, alt_u32 n, void *core);
void pmu_flow(alt_u32 pmnc, alt_u32 n, void *core);
void pmu_svc(alt_u32 pmnc, alt_u32 n);
void pmu_chain_branches(alt_u32 pmnc);
void pmu_chain_calls(alt_u32 pmnc);
void pmu_chain_returns(alt_u32 pmnc);
extern char pmu_chain_branches_steps[], pmu_chain_calls_steps[],
    pmu_chain_returns_steps[];
alt_u32 pmu_user_read_ccnt(int *undefined);
void pmu_spin(alt_u32 n);
void pmu_irq_call(void (*fn)(alt_u32), alt_u32 arg);
extern volatile alt_u32 pmu_irq_count, pmu_irq_ccnt, pmu_irq_pc;

/* The branch events and the perf-counter core's events they are */
static const struct {
    alt_u32 event;
    enum perfctr_event core;
} branch_events[] = {
    { ARM11_PMU_EVT_BRANCH, PERFCTR_EVENT_BRANCHES },
    { ARM11_PMU_EVT_PC_CHANGE, PERFCTR_EVENT_TAKEN_BRANCHES },
    { ARM11_PMU_EVT_CALL, PERFCTR_EVENT_CALLS },
    { ARM11_PMU_EVT_RETURN, PERFCTR_EVENT_RETURNS },
};
#define N_BRANCH_EVENTS (sizeof(branch_events) / sizeof(branch_events[0]))

static void print_counters(const char *name, alt_u32 n)
{
    printf("%s n=%lu pmnc=%lu ccnt=%lu pmn0=%lu pmn1=%lu\n", name,
           (unsigned long)n, (unsigned long)arm11_pmu_pmnc_read(),
           (unsigned long)arm11_pmu_ccnt_read(),
           (unsigned long)arm11_pmu_pmn0_read(),
           (unsigned long)arm11_pmu_pmn1_read());
}

static alt_u32 pmu_irq_pending(void)
{
    return (IORD_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_PENDING_BASIC) >>
            BCM2835_IRQ_BASIC_PMU) & 1;
}

static void test_reset_values(void)
{
    print_counters("reset", 0);
    printf("reset_validation v=%lu\n",
           (unsigned long)arm11_pmu_validation_read());
}

/* E: with E clear nothing counts; the event selection reads back */
static void test_enable(void)
{
    pmu_loop(RESET_ALL | INSNS_AND_BRANCHES, 100);
    print_counters("disabled", 100);
    pmu_loop(E | RESET_ALL | INSNS_AND_BRANCHES, 100);
    print_counters("enabled", 100);
    arm11_pmu_pmnc_write(INSNS_AND_BRANCHES | ARM11_PMU_PMNC_X |
                         ARM11_PMU_PMNC_D | ARM11_PMU_PMNC_ECC);
    printf("readback pmnc=%lu\n", (unsigned long)arm11_pmu_pmnc_read());
    arm11_pmu_pmnc_write(0);
}

static void test_exact_counts(void)
{
    static const alt_u32 ns[] = { 1, 10, 1000 };
    unsigned i;

    for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
        pmu_loop(E | RESET_ALL | INSNS_AND_BRANCHES, ns[i]);
        print_counters("loop", ns[i]);
    }
    pmu_calls(E | RESET_ALL | INSNS_AND_BRANCHES, 50);
    print_counters("calls", 50);
    pmu_calls(E | RESET_ALL |
              EVENTS(ARM11_PMU_EVT_CALL, ARM11_PMU_EVT_CYCLE), 50);
    print_counters("calls_events", 50);
    pmu_not_taken(E | RESET_ALL | INSNS_AND_BRANCHES, 30);
    print_counters("not_taken", 30);
    /* Events QEMU cannot know read 0 */
    pmu_loop(E | RESET_ALL | EVENTS(ARM11_PMU_EVT_ICACHE_MISS,
                                    ARM11_PMU_EVT_DCACHE_MISS), 100);
    print_counters("unsupported", 100);
}

/* P zeroes the count registers only, C the cycle counter only */
static void test_reset_bits(void)
{
    pmu_loop(E | RESET_ALL | INSNS_AND_BRANCHES, 100);
    arm11_pmu_pmnc_write(ARM11_PMU_PMNC_P);
    print_counters("p_reset", 100);
    pmu_loop(E | RESET_ALL | INSNS_AND_BRANCHES, 100);
    arm11_pmu_pmnc_write(ARM11_PMU_PMNC_C);
    print_counters("c_reset", 100);
}

/* D: CCNT counts every 64th cycle; the count registers every one */
static void test_divider(void)
{
    pmu_loop(E | RESET_ALL | ARM11_PMU_PMNC_D |
             EVENTS(ARM11_PMU_EVT_CYCLE, ARM11_PMU_EVT_CYCLE), 1000);
    print_counters("divider", 1000);
    /* Continued: the remainder carries into the next run */
    pmu_loop(E | ARM11_PMU_PMNC_D |
             EVENTS(ARM11_PMU_EVT_CYCLE, ARM11_PMU_EVT_CYCLE), 1000);
    print_counters("divider_again", 1000);
}

/*
 * Overflow: each counter started 10 below 2^32 wraps in a 2n + 2 = 22
 * loop and sets its flag; writing 1 to a flag clears it only with E set
 */
static void test_overflow(void)
{
    alt_u32 events = EVENTS(ARM11_PMU_EVT_CYCLE, ARM11_PMU_EVT_INSTRUCTION);

    arm11_pmu_pmnc_write(ARM11_PMU_PMNC_OVERFLOWS | E);
    arm11_pmu_pmnc_write(0);
    arm11_pmu_ccnt_write(0xfffffff6u);
    arm11_pmu_pmn0_write(0xfffffff6u);
    arm11_pmu_pmn1_write(0xfffffff6u);
    pmu_loop(E | events, 10);
    print_counters("overflow", 10);
    arm11_pmu_pmnc_write(events | ARM11_PMU_PMNC_OVERFLOWS);
    printf("clear_without_e pmnc=%lu\n",
           (unsigned long)arm11_pmu_pmnc_read());
    arm11_pmu_pmnc_write(E | events | ARM11_PMU_PMNC_CCR);
    printf("clear_ccr pmnc=%lu\n", (unsigned long)arm11_pmu_pmnc_read());
    arm11_pmu_pmnc_write(E | events | ARM11_PMU_PMNC_CR0 |
                         ARM11_PMU_PMNC_CR1);
    printf("clear_all pmnc=%lu\n", (unsigned long)arm11_pmu_pmnc_read());
    arm11_pmu_pmnc_write(0);
    /* Not reached: 2^32 - 100 + 22 */
    arm11_pmu_ccnt_write(0xffffff9cu);
    pmu_loop(E, 10);
    print_counters("no_overflow", 10);
}

/*
 * nPMUIRQ: an overflow whose interrupt is enabled raises ARM basic
 * interrupt 6 at the interrupt controller, seen pending (CPSR.I masks
 * it, so no handler runs) without touching a PMU register; clearing the
 * flag drops it; without the enable, the overflow raises nothing.
 */
static void test_interrupt(void)
{
    alt_u32 cpsr, before, raised, kept_without_e, cleared, disabled;

    __asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr) : : "memory");
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_OVERFLOWS);
    arm11_pmu_pmnc_write(0);
    before = pmu_irq_pending();
    arm11_pmu_ccnt_write(0xfffffff6u);
    /* Stopped with the interrupt still enabled */
    pmu_loop_then(E | ARM11_PMU_PMNC_ECC, 10, ARM11_PMU_PMNC_ECC);
    raised = pmu_irq_pending();
    arm11_pmu_pmnc_write(ARM11_PMU_PMNC_ECC | ARM11_PMU_PMNC_CCR);
    kept_without_e = pmu_irq_pending();
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_ECC | ARM11_PMU_PMNC_CCR);
    cleared = pmu_irq_pending();
    arm11_pmu_pmnc_write(0);
    arm11_pmu_ccnt_write(0xfffffff6u);
    pmu_loop_then(E, 10, 0);
    disabled = pmu_irq_pending();
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_OVERFLOWS);
    arm11_pmu_pmnc_write(0);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    if (!(cpsr & 0x80)) {
        __asm__ volatile("cpsie i" : : : "memory");
    }
    printf("interrupt before=%lu raised=%lu kept_without_e=%lu "
           "cleared=%lu disabled=%lu\n", (unsigned long)before,
           (unsigned long)raised, (unsigned long)kept_without_e,
           (unsigned long)cleared, (unsigned long)disabled);
}

/*
 * The interrupt comes at the overflow itself: the loop runs on for 1000
 * rounds after it, and the pending interrupt is seen by polling the
 * controller inside a C loop, counted in rounds
 */
static void test_interrupt_timing(void)
{
    alt_u32 cpsr, rounds = 0;

    __asm__ volatile("mrs %0, cpsr\n\tcpsid i" : "=r"(cpsr) : : "memory");
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    arm11_pmu_pmnc_write(0);
    arm11_pmu_ccnt_write(0xffffffffu - 50000);
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_ECC);
    while (!pmu_irq_pending() && rounds < 100000) {
        rounds++;
    }
    arm11_pmu_pmnc_write(0);
    printf("interrupt_timing rounds=%lu ccnt=%lu\n", (unsigned long)rounds,
           (unsigned long)arm11_pmu_ccnt_read());
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_OVERFLOWS);
    arm11_pmu_pmnc_write(0);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    if (!(cpsr & 0x80)) {
        __asm__ volatile("cpsie i" : : : "memory");
    }
}

/*
 * The interrupt taken: CCNT started 100 short of overflowing, IRQs
 * unmasked for a 1000-round loop; the handler (arm11/pmu_scenarios.S)
 * runs once, notes CCNT a few instructions past 0, and clears the flag
 */
static void test_interrupt_taken(void)
{
    alt_u32 pmnc;

    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    arm11_pmu_pmnc_write(0);
    arm11_pmu_ccnt_write(0xffffffffu - 99);
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_ECC);
    pmu_irq_call(pmu_spin, 1000);
    pmnc = arm11_pmu_pmnc_read();
    arm11_pmu_pmnc_write(0);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    printf("interrupt_taken count=%lu ccnt_in_handler=%lu flags=%lu "
           "pending=%lu\n", (unsigned long)pmu_irq_count,
           (unsigned long)pmu_irq_ccnt,
           (unsigned long)(pmnc & ARM11_PMU_PMNC_OVERFLOWS),
           (unsigned long)pmu_irq_pending());
}

/*
 * Each branch event over every kind of branch (arm11/pmu_scenarios.S),
 * in PMN0, with the perf-counter core counting the same event over the
 * same interval, and PMN1 counting instructions
 */
static void test_branch_events(void)
{
    void *core = (void *)PERFORMANCE_COUNTER_BASE;
    unsigned i;

    for (i = 0; i < N_BRANCH_EVENTS; i++) {
        PERF_RESET(core);
        perfctr_event_select(core, 0, branch_events[i].core);
        pmu_flow(E | RESET_ALL | EVENTS(branch_events[i].event,
                                        ARM11_PMU_EVT_INSTRUCTION),
                 40, core);
        printf("flow event=%lu n=40 pmn0=%lu pmn1=%lu core=%lu\n",
               (unsigned long)branch_events[i].event,
               (unsigned long)arm11_pmu_pmn0_read(),
               (unsigned long)arm11_pmu_pmn1_read(),
               (unsigned long)perfctr_event_count(core, 0));
        pmu_svc(E | RESET_ALL | EVENTS(branch_events[i].event,
                                       ARM11_PMU_EVT_INSTRUCTION), 30);
        printf("svc event=%lu n=30 pmn0=%lu pmn1=%lu\n",
               (unsigned long)branch_events[i].event,
               (unsigned long)arm11_pmu_pmn0_read(),
               (unsigned long)arm11_pmu_pmn1_read());
    }
    PERF_RESET(core);
}

/*
 * The overflow interrupt of a count register counting a branch event,
 * preset k events short of the wrap: taken right after the k-th event,
 * at the next instruction's pc, in a chain of 16 steps with one event
 * each (arm11/pmu_scenarios.S)
 */
static void test_exact_overflow(void)
{
    static const int ks[] = { 1, 5, 16 };
    static const struct {
        alt_u32 event;
        void (*run)(alt_u32 pmnc);
        const char *steps;
    } chains[] = {
        { ARM11_PMU_EVT_BRANCH, pmu_chain_branches, pmu_chain_branches_steps },
        { ARM11_PMU_EVT_PC_CHANGE, pmu_chain_branches,
          pmu_chain_branches_steps },
        { ARM11_PMU_EVT_CALL, pmu_chain_calls, pmu_chain_calls_steps },
        { ARM11_PMU_EVT_RETURN, pmu_chain_returns, pmu_chain_returns_steps },
    };
    unsigned c, i;

    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_ENABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
    for (c = 0; c < sizeof(chains) / sizeof(chains[0]); c++) {
        for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
            arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_OVERFLOWS);
            arm11_pmu_pmnc_write(0);
            arm11_pmu_pmn0_write(0u - ks[i]);
            pmu_irq_count = 0;
            pmu_irq_pc = 0;
            pmu_irq_call(chains[c].run, E | ARM11_PMU_PMNC_ECR0 |
                         ARM11_PMU_PMNC_EVTCOUNT0(chains[c].event));
            printf("exact_overflow event=%lu k=%d taken=%lu offset=%ld\n",
                   (unsigned long)chains[c].event, ks[i],
                   (unsigned long)pmu_irq_count,
                   (long)(pmu_irq_pc - (alt_u32)(uintptr_t)chains[c].steps));
        }
    }
    arm11_pmu_pmnc_write(E | ARM11_PMU_PMNC_OVERFLOWS);
    arm11_pmu_pmnc_write(0);
    IOWR_32DIRECT(BCM2835_IC_BASE, BCM2835_IC_DISABLE_BASIC,
                  1u << BCM2835_IRQ_BASIC_PMU);
}

/* User mode: an undefined instruction with V = 0, the count with V = 1 */
static void test_user_access(void)
{
    int undefined_v0 = -1, undefined_v1 = -1;
    alt_u32 value_v1;

    arm11_pmu_pmnc_write(E | RESET_ALL);
    arm11_pmu_set_user_access(0);
    (void)pmu_user_read_ccnt(&undefined_v0);
    arm11_pmu_set_user_access(1);
    printf("validation v=%lu\n", (unsigned long)arm11_pmu_validation_read());
    value_v1 = pmu_user_read_ccnt(&undefined_v1);
    arm11_pmu_set_user_access(0);
    arm11_pmu_pmnc_write(0);
    printf("user_access undefined_v0=%d undefined_v1=%d nonzero_v1=%d\n",
           undefined_v0, undefined_v1, value_v1 != 0);
}

/* The same interval by the perf-counter core and by the PMU */
static void test_agrees_with_core(void)
{
    void *core = (void *)PERFORMANCE_COUNTER_BASE;

    PERF_RESET(core);
    pmu_with_core(E | RESET_ALL | EVENTS(ARM11_PMU_EVT_INSTRUCTION,
                                         ARM11_PMU_EVT_CYCLE), 5000, core);
    printf("with_core n=5000 core=%lu ccnt=%lu pmn0=%lu pmn1=%lu\n",
           (unsigned long)perf_get_total_time(core),
           (unsigned long)arm11_pmu_ccnt_read(),
           (unsigned long)arm11_pmu_pmn0_read(),
           (unsigned long)arm11_pmu_pmn1_read());
}

int main(void)
{
    test_reset_values();
    test_enable();
    test_exact_counts();
    test_reset_bits();
    test_divider();
    test_overflow();
    test_interrupt();
    test_interrupt_timing();
    test_interrupt_taken();
    test_branch_events();
    test_exact_overflow();
    test_user_access();
    test_agrees_with_core();
    printf("arm11_pmu done\n");
    return 0;
}
