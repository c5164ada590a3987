/*
 * Host unit tests of the report formatter against exact expected text.
 * Prints TAP: "ok N - name" or "not ok N - name" with a diff-able dump.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfctr.h"

static int test_number;
static int failures;

static void check(const char *name, alt_u32 clock_hz, alt_u64 total,
                  int num_rows, const struct perfctr_row *rows,
                  const char *expected)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int rc = perfctr_report_write(out, clock_hz, total, num_rows, rows);

    fclose(out);
    test_number++;
    if (rc == 0 && strcmp(text, expected) == 0) {
        printf("ok %d - %s\n", test_number, name);
    } else {
        failures++;
        printf("not ok %d - %s\n# rc %d\n# expected:\n%s# got:\n%s",
               test_number, name, rc, expected, text);
    }
    free(text);
}

#define SEPARATOR "+---------------+-----+-----------+---------------+-----------+\n"
#define HEADER    "| Section       |  %  | Time (sec)|  Time (clocks)|Occurrences|\n"

static void test_spec_example(void)
{
    static const struct perfctr_row rows[] = {
        { "fac5", 120, 1 }, { "fac10", 874, 1 }, { "fac15", 0, 0 },
    };

    check("spec example: 50 MHz, total 2000, three sections",
          50000000, 2000, 3, rows,
          "--Performance Counter Report--\n"
          "Total Time: 4E-05 seconds  (2000 clock-cycles)\n"
          SEPARATOR HEADER SEPARATOR
          "|fac5           |    6|    0.00000|            120|          1|\n"
          SEPARATOR
          "|fac10          | 43.7|    0.00002|            874|          1|\n"
          SEPARATOR
          "|fac15          |    0|    0.00000|              0|          0|\n"
          SEPARATOR);
}

static void test_zero_total(void)
{
    static const struct perfctr_row rows[] = { { "idle", 0, 0 } };

    check("zero total: 0 percent, no division by zero",
          25000000, 0, 1, rows,
          "--Performance Counter Report--\n"
          "Total Time:   0 seconds  (0 clock-cycles)\n"
          SEPARATOR HEADER SEPARATOR
          "|idle           |    0|    0.00000|              0|          0|\n"
          SEPARATOR);
}

static void test_long_name(void)
{
    static const struct perfctr_row rows[] = {
        { "1st checksum_test", 51899750, 1 }, { "pc_overhead", 18, 1 },
    };

    check("long name and tiny percent widen their columns (the manual's table)",
          50000000, 103855534, 2, rows,
          "--Performance Counter Report--\n"
          "Total Time: 2.07711 seconds  (103855534 clock-cycles)\n"
          "+-----------------+--------+-----------+---------------+-----------+\n"
          "| Section         |   %    | Time (sec)|  Time (clocks)|Occurrences|\n"
          "+-----------------+--------+-----------+---------------+-----------+\n"
          "|1st checksum_test|      50|    1.03800|       51899750|          1|\n"
          "+-----------------+--------+-----------+---------------+-----------+\n"
          "|pc_overhead      |1.73e-05|    0.00000|             18|          1|\n"
          "+-----------------+--------+-----------+---------------+-----------+\n");
}

static void test_long_values(void)
{
    static const struct perfctr_row rows[] = {
        { "forever", 1234567890123456789ULL, 4000000000U },
    };

    check("values wider than their columns widen them",
          1000, 1234567890123456789ULL, 1, rows,
          "--Performance Counter Report--\n"
          "Total Time: 1.23457E+15 seconds  (1234567890123456789 "
          "clock-cycles)\n"
          "+---------------+-----+----------------------+-------------------"
          "+-----------+\n"
          "| Section       |  %  |            Time (sec)|      Time (clocks)"
          "|Occurrences|\n"
          "+---------------+-----+----------------------+-------------------"
          "+-----------+\n"
          "|forever        |  100|1234567890123456.75000|1234567890123456789"
          "| 4000000000|\n"
          "+---------------+-----+----------------------+-------------------"
          "+-----------+\n");
}

static void test_null_name_and_no_rows(void)
{
    static const struct perfctr_row rows[] = { { NULL, 5, 2 } };

    check("a NULL name prints as empty", 10, 10, 1, rows,
          "--Performance Counter Report--\n"
          "Total Time:   1 seconds  (10 clock-cycles)\n"
          SEPARATOR HEADER SEPARATOR
          "|               |   50|    0.50000|              5|          2|\n"
          SEPARATOR);
    check("no sections: header only", 10, 0, 0, rows,
          "--Performance Counter Report--\n"
          "Total Time:   0 seconds  (0 clock-cycles)\n"
          SEPARATOR HEADER SEPARATOR);
}

int main(void)
{
    test_spec_example();
    test_zero_total();
    test_long_name();
    test_long_values();
    test_null_name_and_no_rows();
    printf("1..%d\n", test_number);
    return failures != 0;
}
