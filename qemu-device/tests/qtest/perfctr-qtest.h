/*
 * What the project's qtests share (perf-counter-test.c,
 * perf-counter-irq-test.c, armv7m-dwt-test.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_QTEST_H
#define PERFCTR_QTEST_H

#include "libqtest.h"

/*
 * Like g_assert_cmpuint(), which checkpatch.pl allows only in QEMU's own
 * tests/ tree, but the test goes on to its end: one wrong count does not
 * hide the others.
 */
#define assert_eq(got, expected) \
    assert_eq_at(__FILE__, __LINE__, #got, (got), (expected))

static inline void assert_eq_at(const char *file, int line, const char *what,
                                uint64_t got, uint64_t expected)
{
    if (got != expected) {
        g_test_message("%s:%d: %s is %" PRIu64 ", expected %" PRIu64,
                       file, line, what, got, expected);
        g_test_fail();
    }
}

/* A test case: its name, last in the test's path, and its body */
typedef struct PerfctrQTestCase {
    const char *name;
    void (*func)(const void *data);
} PerfctrQTestCase;

/*
 * Add each of the @n @cases as "@prefix/@machine/NAME", run on @board:
 * the path says which case failed on which machine
 */
static inline void add_board_cases(const char *prefix, const char *machine,
                                   const void *board,
                                   const PerfctrQTestCase *cases, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        g_autofree char *path = g_strdup_printf("%s/%s/%s", prefix, machine,
                                                cases[i].name);

        qtest_add_data_func(path, board, cases[i].func);
    }
}

#endif
