/*
 * The performance counter tutorial of AN 391 ("Profiling Nios II
 * Systems"), on an emulated board: a checksum routine measured as a
 * section, and two sections that measure the cost of measuring.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include "system.h"
#include "altera_avalon_performance_counter.h"
#include "board.h"

/* Mnemonic section numbers, as the manual advises */
#define CHECKSUM_SECTION 1
#define PC_OVERHEAD_SECTION 2   /* an empty section: the macros' cost */
#define TS_OVERHEAD_SECTION 3   /* two reads of the board timer */

#define BUFFER_SIZE 4096

static unsigned char buffer[BUFFER_SIZE];

/* RFC 1071 Internet checksum of len bytes */
static alt_u16 checksum_test_routine(const unsigned char *data, int len)
{
    alt_u32 sum = 0;
    int i;

    for (i = 0; i + 1 < len; i += 2) {
        sum += (alt_u32)data[i] << 8 | data[i + 1];
    }
    if (len & 1) {
        sum += (alt_u32)data[len - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (alt_u16)~sum;
}

int main(void)
{
    void *perf = (void *)PERFORMANCE_COUNTER_BASE;
    volatile alt_u32 timestamp;
    alt_u16 checksum;
    int i;

    for (i = 0; i < BUFFER_SIZE; i++) {
        buffer[i] = (unsigned char)(i * 7 + 3);
    }
    board_timer_start();

    PERF_RESET(perf);
    PERF_START_MEASURING(perf);

    PERF_BEGIN(perf, CHECKSUM_SECTION);
    checksum = checksum_test_routine(buffer, BUFFER_SIZE);
    PERF_END(perf, CHECKSUM_SECTION);

    PERF_BEGIN(perf, PC_OVERHEAD_SECTION);
    PERF_END(perf, PC_OVERHEAD_SECTION);

    PERF_BEGIN(perf, TS_OVERHEAD_SECTION);
    timestamp = board_timer_read();
    timestamp = board_timer_read();
    PERF_END(perf, TS_OVERHEAD_SECTION);

    PERF_STOP_MEASURING(perf);
    (void)timestamp;

    printf("checksum of %d bytes: 0x%04x\n", BUFFER_SIZE, checksum);
    perf_print_formatted_report(perf, alt_get_cpu_freq(), 3,
                                "1st checksum_test", "pc_overhead",
                                "ts_overhead");
    return 0;
}
