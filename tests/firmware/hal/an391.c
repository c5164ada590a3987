/*
 * Test firmware in the manner of AN 391 ("Profiling Nios II Systems"):
 * the same code measured with the performance counter and with the
 * HAL's timestamp timer, both of which must agree; then the report.
 * Uses the BSP names a generated system.h gives "performance_counter_0".
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "sys/alt_cache.h"
#include "sys/alt_timestamp.h"

#define CHECKSUM_SECTION 1
#define TS_OVERHEAD_SECTION 2
/* (BUFFER_BYTES instead on a board with little RAM, from its cross file) */
#ifdef BUFFER_BYTES
#define BUFFER_SIZE BUFFER_BYTES
#else
#define BUFFER_SIZE 65536
#endif

static unsigned char buffer[BUFFER_SIZE];

static alt_u16 checksum_test_routine(const unsigned char *data, int len)
{
    alt_u32 sum = 0;
    int i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += (alt_u32)data[i] << 8 | data[i + 1];
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (alt_u16)~sum;
}

int main(void)
{
    alt_timestamp_type t0, t1, o0, o1;
    alt_u16 checksum;
    int i;

    for (i = 0; i < BUFFER_SIZE; i++) {
        buffer[i] = (unsigned char)(i * 7 + 3);
    }
    alt_dcache_flush_all();
    if (alt_timestamp_start() < 0) {
        printf("no timestamp timer\n");
        return 1;
    }

    PERF_RESET(PERFORMANCE_COUNTER_0_BASE);
    PERF_START_MEASURING(PERFORMANCE_COUNTER_0_BASE);

    t0 = alt_timestamp();
    PERF_BEGIN(PERFORMANCE_COUNTER_0_BASE, CHECKSUM_SECTION);
    checksum = checksum_test_routine(buffer, BUFFER_SIZE);
    PERF_END(PERFORMANCE_COUNTER_0_BASE, CHECKSUM_SECTION);
    t1 = alt_timestamp();

    /* What two timestamp reads cost, in counter clocks */
    PERF_BEGIN(PERFORMANCE_COUNTER_0_BASE, TS_OVERHEAD_SECTION);
    o0 = alt_timestamp();
    o1 = alt_timestamp();
    PERF_END(PERFORMANCE_COUNTER_0_BASE, TS_OVERHEAD_SECTION);

    PERF_STOP_MEASURING(PERFORMANCE_COUNTER_0_BASE);
    (void)o0;
    (void)o1;

    printf("an391 checksum=%u section=%llu timestamp=%llu ts_freq=%lu "
           "cpu_freq=%lu ts_overhead=%llu\n", (unsigned)checksum,
           (unsigned long long)perf_get_section_time(
               (void *)PERFORMANCE_COUNTER_0_BASE, CHECKSUM_SECTION),
           (unsigned long long)(alt_timestamp_type)(t1 - t0),
           (unsigned long)alt_timestamp_freq(),
           (unsigned long)alt_get_cpu_freq(),
           (unsigned long long)perf_get_section_time(
               (void *)PERFORMANCE_COUNTER_0_BASE, TS_OVERHEAD_SECTION));
    perf_print_formatted_report((void *)PERFORMANCE_COUNTER_0_BASE,
                                ALT_CPU_FREQ, 2, "checksum_test",
                                "ts_overhead");
    return 0;
}
