/*
 * Test firmware: runs each measured scenario and prints its raw counts
 * as "name key=value ..." lines, for tests/boot to check exactly.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "board.h"
#include "perfctr.h"
#include "sys/alt_timestamp.h"
#include "test_support.h"

#define PERF ((void *)PERFORMANCE_COUNTER_BASE)

static const alt_u32 loop_lengths[] = { 1, 2, 10, 1000, 100000 };

static void print_counts(const char *name, alt_u32 n)
{
    /* Read the events first: perf_get_*_time() stop the core */
    alt_u32 occurrences = perf_get_num_starts(PERF, 1);
    alt_u32 starts = perf_get_num_starts(PERF, 0);
    unsigned long long section = perf_get_section_time(PERF, 1);
    unsigned long long global = perf_get_total_time(PERF);

    printf("%s n=%lu section=%llu global=%llu occurrences=%lu starts=%lu\n",
           name, (unsigned long)n, section, global,
           (unsigned long)occurrences, (unsigned long)starts);
}

static int count_nonzero(void)
{
    int nonzero = 0;
    int i;

    for (i = 0; i <= PERFORMANCE_COUNTER_HOW_MANY_SECTIONS; i++) {
        nonzero += IORD(PERF, 4 * i) != 0;
        nonzero += IORD(PERF, 4 * i + 1) != 0;
        nonzero += IORD(PERF, 4 * i + 2) != 0;
        nonzero += IORD(PERF, 4 * i + 3) != 0;
    }
    return nonzero;
}

static void reset_zeroes_everything(void)
{
    int before, i;

    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    for (i = 1; i <= PERFORMANCE_COUNTER_HOW_MANY_SECTIONS; i++) {
        PERF_BEGIN(PERF, i);
    }
    scenario_loop(PERF, 10);
    before = count_nonzero();
    PERF_RESET(PERF);
    printf("reset before_nonzero=%d after_nonzero=%d\n", before,
           count_nonzero());
    /* RESET also ended every section: START alone counts only global */
    PERF_START_MEASURING(PERF);
    scenario_begin_while_stopped(PERF, 1);  /* a BEGIN/END pair on 1 */
    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    PERF_STOP_MEASURING(PERF);
    printf("reset_stops_sections section2=%llu section7=%llu\n",
           (unsigned long long)perf_get_section_time(PERF, 2),
           (unsigned long long)perf_get_section_time(PERF,
                                   PERFORMANCE_COUNTER_HOW_MANY_SECTIONS));
}

/*
 * Section 1 idles for 10 s of virtual time more than 2^32 clocks take.
 * The global counter starts one store earlier and stops one store later.
 */
static void above_32_bits(void)
{
    alt_u32 seconds = (alt_u32)((1ULL << 32) / ALT_CPU_FREQ + 10);
    alt_u64 t0, t1;

    PERF_RESET(PERF);
    board_timer_start();
    t0 = board_clock_read();
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
    test_idle_wait(seconds);
    PERF_END(PERF, 1);
    PERF_STOP_MEASURING(PERF);
    t1 = board_clock_read();
    PERFCTR_SNAPSHOT(PERF);
    printf("above_32_bits section=%llu global=%llu hi=%lu lo=%lu "
           "clock_ticks=%llu instructions=%llu\n",
           (unsigned long long)perf_get_section_time(PERF, 1),
           (unsigned long long)perf_get_total_time(PERF),
           (unsigned long)IORD(PERF, 5), (unsigned long)IORD(PERF, 4),
           (unsigned long long)(alt_timestamp_type)(t1 - t0),
           (unsigned long long)perfctr_snapshot_instructions(PERF, 1));
}

/* The counter and the board's own timer measure the same busy loop */
static void agrees_with_board_timer(void)
{
    alt_u32 t0, t1;

    PERF_RESET(PERF);
    board_timer_start();
    t0 = board_timer_read();
    scenario_loop(PERF, 1000000);
    t1 = board_timer_read();
    printf("board_timer section=%llu timer_ticks=%lu\n",
           (unsigned long long)perf_get_section_time(PERF, 1),
           (unsigned long)(t1 - t0));
}

/* Two cores time the same loop: one clock, so the same count */
static void two_counters(void)
{
    void *second = (void *)PERFORMANCE_COUNTER_1_BASE;

    PERF_RESET(PERF);
    PERF_RESET(second);
    scenario_two_counters(PERF, second, 1000);
    printf("two_counters n=1000 first=%llu second=%llu\n",
           (unsigned long long)perf_get_total_time(PERF),
           (unsigned long long)perf_get_total_time(second));
}

/* The extension block: identification, instructions, live reads */
static void extension(void)
{
    struct perfctr_info info = { 0 };
    unsigned long long first, second;
    int found = perfctr_probe(PERF, &info) == 0;

    printf("ext found=%d version=%lu sections=%lu freq=%lu icount=%d\n",
           found, (unsigned long)info.version,
           (unsigned long)info.num_sections, (unsigned long)info.clock_hz,
           info.counts_instructions);

    PERF_RESET(PERF);
    scenario_loop(PERF, 1000);
    PERFCTR_SNAPSHOT(PERF);
    printf("instructions n=1000 section_clocks=%llu section=%llu "
           "global=%llu\n",
           (unsigned long long)perfctr_snapshot_time(PERF, 1),
           (unsigned long long)perfctr_snapshot_instructions(PERF, 1),
           (unsigned long long)perfctr_snapshot_instructions(PERF, 0));

    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
    first = perfctr_time(PERF, 1);
    scenario_spin(1000);
    second = perfctr_time(PERF, 1);
    printf("live_read first=%llu second=%llu still_running=%d\n",
           first, second,
           (IORD(PERF, PERFCTR_REG_STATUS) & PERFCTR_STATUS_ENABLED) != 0);
    PERF_RESET(PERF);
}

int main(void)
{
    unsigned i;

    printf("config freq=%lu timer_hz=%lu sections=%d\n",
           (unsigned long)alt_get_cpu_freq(), (unsigned long)BOARD_TIMER_HZ,
           PERFORMANCE_COUNTER_HOW_MANY_SECTIONS);
    for (i = 0; i < sizeof(loop_lengths) / sizeof(loop_lengths[0]); i++) {
        PERF_RESET(PERF);
        scenario_loop(PERF, loop_lengths[i]);
        print_counts("loop", loop_lengths[i]);
    }
    PERF_RESET(PERF);
    scenario_begin_while_stopped(PERF, 100);
    print_counts("begin_while_stopped", 100);
    PERF_RESET(PERF);
    scenario_repeated_begin(PERF, 100);
    print_counts("repeated_begin", 100);

    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    PERF_BEGIN(PERF, 1);
    PERF_END(PERF, 1);
    PERF_STOP_MEASURING(PERF);
    printf("empty_section clocks=%llu\n",
           (unsigned long long)perf_get_section_time(PERF, 1));

    reset_zeroes_everything();
    two_counters();
    extension();
    agrees_with_board_timer();
    above_32_bits();
    return 0;
}
