/*
 * Test firmware: a Nios II-style program using the HAL layer the way
 * course labs do: integer bases straight from system.h, alt_printf,
 * usleep, alt_nticks, interrupt masking, nios2.h, the cache calls.
 * Built with -Werror: an integer base must not even warn.  The vendor's
 * prototypes are redeclared in vendor_decl.c, linked in.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <unistd.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "alt_stdio.h"
#include "board.h"
#include "nios2.h"
#include "sys/alt_alarm.h"
#include "sys/alt_cache.h"
#include "sys/alt_irq.h"
#include "sys/alt_timestamp.h"
#include "irq_probe.h"
#include "vendor_decl.h"

static volatile alt_u32 sink;

static void spin(alt_u32 n)
{
    alt_u32 i;

    for (i = 0; i < n; i++) {
        sink = i;
    }
}

/* Sections timed through integer bases only */
static void integer_bases(void)
{
    alt_u32 base_variable = PERFORMANCE_COUNTER_0_BASE;

    PERF_RESET(PERFORMANCE_COUNTER_0_BASE);
    PERF_START_MEASURING(PERFORMANCE_COUNTER_0_BASE);
    PERF_BEGIN(PERFORMANCE_COUNTER_0_BASE, 1);
    spin(1000);
    PERF_END(PERFORMANCE_COUNTER_0_BASE, 1);
    PERF_STOP_MEASURING(PERFORMANCE_COUNTER_0_BASE);
    printf("integer_base section=%llu starts=%lu same=%d base_matches=%d\n",
           (unsigned long long)perf_get_section_time(
               PERFORMANCE_COUNTER_0_BASE, 1),
           (unsigned long)perf_get_num_starts(base_variable, 1),
           perf_get_total_time(PERFORMANCE_COUNTER_BASE) ==
               perf_get_total_time((void *)PERFORMANCE_COUNTER_0_BASE),
           alt_get_performance_counter_base() ==
               (void *)PERFORMANCE_COUNTER_BASE);
    perf_print_formatted_report(PERFORMANCE_COUNTER_0_BASE,
                                alt_get_cpu_freq(), 1, "spin 1000");
}

static void small_stdio(void)
{
    alt_putstr("alt_putstr ok");
    alt_putchar('\n');
    alt_printf("alt_printf %s %c %x %x %x 100%% %d\n", "str", 'c', 0,
               0x2a, 0xdeadbeef);
}

/* usleep() waits in virtual time, measured by the board timer */
static void sleeping(void)
{
    static const useconds_t lengths[] = { 250000, 1500000 };
    unsigned i;

    board_timer_start();
    for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
        alt_u32 t0 = board_timer_read();
        alt_u32 n0 = alt_nticks();
        alt_timestamp_type s0 = alt_timestamp();
        alt_u32 t1, n1;
        alt_timestamp_type s1;

        usleep(lengths[i]);
        t1 = board_timer_read();
        n1 = alt_nticks();
        s1 = alt_timestamp();
        printf("usleep us=%lu timer_ticks=%lu nticks=%lu "
               "timestamp_ticks=%llu\n", (unsigned long)lengths[i],
               (unsigned long)(t1 - t0), (unsigned long)(n1 - n0),
               (unsigned long long)(alt_timestamp_type)(s1 - s0));
    }
    printf("clock ticks_per_second=%lu timer_hz=%lu timestamp_freq=%lu "
           "timestamp_bits=%d\n",
           (unsigned long)alt_ticks_per_second(),
           (unsigned long)BOARD_TIMER_HZ,
           (unsigned long)alt_timestamp_freq(),
           (int)sizeof(alt_timestamp_type) * 8);
}

static void masking(void)
{
    struct irq_probe probe;
    alt_irq_context outer, inner;
    int after_outer, after_inner, after_restore_inner, after_restore_outer;
    alt_u32 status_masked, status;

    alt_irq_enable_all(1);
    outer = alt_irq_disable_all();
    after_outer = alt_irq_enabled();
    inner = alt_irq_disable_all();
    after_inner = alt_irq_enabled();
    alt_irq_enable_all(inner);
    after_restore_inner = alt_irq_enabled();
    NIOS2_READ_STATUS(status_masked);
    alt_irq_enable_all(outer);
    after_restore_outer = alt_irq_enabled();
    NIOS2_READ_STATUS(status);
    NIOS2_WRITE_STATUS(status & ~NIOS2_STATUS_PIE_MSK);
    printf("irq_mask outer=%lu inner=%lu after_outer=%d after_inner=%d "
           "after_restore_inner=%d after_restore_outer=%d "
           "status_masked=%lu status=%lu after_write_status=%d\n",
           (unsigned long)outer, (unsigned long)inner, after_outer,
           after_inner, after_restore_inner, after_restore_outer,
           (unsigned long)status_masked, (unsigned long)status,
           alt_irq_enabled());

    irq_probe_run(&probe);
    printf("irq_pending pending=%d taken_masked=%d taken_after=%d\n",
           probe.pending, probe.taken_masked, probe.taken_after);
}

static void caches(void)
{
    volatile alt_u32 *shared = alt_uncached_malloc(64);
    alt_u32 cpuid = 1;

    shared[0] = 42;
    alt_dcache_flush((void *)shared, 64);
    alt_dcache_flush_all();
    alt_dcache_flush_no_writeback((void *)shared, 64);
    alt_icache_flush_all();
    alt_icache_flush((void *)caches, 64);
    NIOS2_READ_CPUID(cpuid);
    printf("cache value=%lu remap_same=%d cpuid=%lu\n",
           (unsigned long)shared[0],
           alt_remap_uncached((void *)shared, 64) == shared,
           (unsigned long)cpuid);
    alt_uncached_free(shared);
}

int main(void)
{
    alt_timestamp_start();
    integer_bases();
    printf("vendor_prototypes section=%llu\n",
           (unsigned long long)vendor_decl_section_time(1));
    small_stdio();
    sleeping();
    masking();
    caches();
    return 0;
}
