/*
 * The performance counter report table, from values.
 *
 * Same text as the HAL's perf_print_formatted_report() (same widths and
 * printf conversions) whenever everything fits, with its defects fixed:
 * no division by zero on a zero total, and a column widens to fit its
 * longest cell instead of breaking the table.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>
#include "perfctr.h"

enum { COL_NAME, COL_PERCENT, COL_SECONDS, COL_CLOCKS, COL_OCCURRENCES,
       NUM_COLS };

/* The HAL's column widths: its "%-15s|%5.3g|%11.5f|%15lld|%11u" */
static const int hal_width[NUM_COLS] = { 15, 5, 11, 15, 11 };

/* Cell texts of one row, without padding */
struct cells {
    char percent[16];
    char seconds[40];
    char clocks[24];
    char occurrences[16];
};

static void format_cells(struct cells *c, const struct perfctr_row *row,
                         alt_u32 clock_hz, alt_u64 total_clocks)
{
    double percent = 0.0;

    if (total_clocks != 0) {
        percent = (double)row->clocks * 100 / (double)total_clocks;
    }
    snprintf(c->percent, sizeof(c->percent), "%.3g", percent);
    snprintf(c->seconds, sizeof(c->seconds), "%.5f",
             (double)row->clocks / clock_hz);
    snprintf(c->clocks, sizeof(c->clocks), "%lld", (long long)row->clocks);
    snprintf(c->occurrences, sizeof(c->occurrences), "%u",
             (unsigned int)row->occurrences);
}

static const char *row_name(const struct perfctr_row *row)
{
    return row->name ? row->name : "";
}

static int widen(int width, const char *text)
{
    int len = (int)strlen(text);

    return len > width ? len : width;
}

static void print_separator(FILE *out, const int *width)
{
    int col, i;

    for (col = 0; col < NUM_COLS; col++) {
        fputc('+', out);
        for (i = 0; i < width[col]; i++) {
            fputc('-', out);
        }
    }
    fputs("+\n", out);
}

static void print_header(FILE *out, const int *width)
{
    /* The HAL centres "%" in its 5 columns: two spaces, %, two spaces */
    int left = (width[COL_PERCENT] - 1) / 2;
    int right = width[COL_PERCENT] - 1 - left;

    fprintf(out, "|%-*s|%*s%%%*s|%*s|%*s|%*s|\n",
            width[COL_NAME], " Section",
            left, "", right, "",
            width[COL_SECONDS], "Time (sec)",
            width[COL_CLOCKS], "Time (clocks)",
            width[COL_OCCURRENCES], "Occurrences");
}

int perfctr_report_write(FILE *out, alt_u32 clock_hz, alt_u64 total_clocks,
                         int num_rows, const struct perfctr_row *rows)
{
    int width[NUM_COLS];
    struct cells c;
    int i;

    memcpy(width, hal_width, sizeof(width));
    for (i = 0; i < num_rows; i++) {
        format_cells(&c, &rows[i], clock_hz, total_clocks);
        width[COL_NAME] = widen(width[COL_NAME], row_name(&rows[i]));
        width[COL_PERCENT] = widen(width[COL_PERCENT], c.percent);
        width[COL_SECONDS] = widen(width[COL_SECONDS], c.seconds);
        width[COL_CLOCKS] = widen(width[COL_CLOCKS], c.clocks);
        width[COL_OCCURRENCES] = widen(width[COL_OCCURRENCES],
                                       c.occurrences);
    }

    fprintf(out, "--Performance Counter Report--\n"
            "Total Time: %3G seconds  (%lld clock-cycles)\n",
            (double)total_clocks / clock_hz, (long long)total_clocks);
    print_separator(out, width);
    print_header(out, width);
    print_separator(out, width);
    for (i = 0; i < num_rows; i++) {
        format_cells(&c, &rows[i], clock_hz, total_clocks);
        fprintf(out, "|%-*s|%*s|%*s|%*s|%*s|\n",
                width[COL_NAME], row_name(&rows[i]),
                width[COL_PERCENT], c.percent,
                width[COL_SECONDS], c.seconds,
                width[COL_CLOCKS], c.clocks,
                width[COL_OCCURRENCES], c.occurrences);
        print_separator(out, width);
    }
    fflush(out);
    return ferror(out) ? -1 : 0;
}
