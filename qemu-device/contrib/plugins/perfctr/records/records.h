/*
 * perfctr plugin: bulk records of the results file.  The records a long
 * run keeps by the hundred thousand (switches, probes, stores) are
 * written as binary, not one text line each: the package reads them
 * without parsing a number (docs/plugin-results.md).  A block is the
 * line "records TAG COUNT FIELDS", then COUNT records of one 64-bit
 * little-endian integer per letter of FIELDS (q: signed, Q: unsigned),
 * then a newline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_RECORDS_H
#define PERFCTR_RECORDS_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "records/stream.h"

static inline void records_begin(FILE *out, const char *tag, guint count,
                                 const char *fields)
{
    fprintf(out, "records %s %u %s\n", tag, count, fields);
}

/* One record: its n fields (changed to little-endian), in one write */
static inline void records_put(FILE *out, uint64_t *fields, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        fields[i] = GUINT64_TO_LE(fields[i]);
    }
    fwrite(fields, sizeof(*fields), n, out);
}

static inline void records_end(FILE *out)
{
    fputc('\n', out);
}

/*
 * A module's records in the results file: write(out, 0) writes them all
 * as a block, unless the stream holds them all (at exit, after
 * stream_end()): then the line that says how many it has
 */
static inline void records_write(FILE *out, const char *tag, guint count,
                                 void (*write)(FILE *out, guint from))
{
    if (stream_holding_all()) {
        fprintf(out, "records-in-stream %s %u\n", tag, count);
    } else {
        write(out, 0);
    }
}

/*
 * stream.h's writer of a module's records: write(out, from) writes those
 * from index from on, under the module's lock; their count now
 */
static inline guint records_stream(FILE *out, GMutex *lock, GArray *records,
                                   guint from,
                                   void (*write)(FILE *out, guint from))
{
    guint count;

    g_mutex_lock(lock);
    if (records->len > from) {
        write(out, from);
    }
    count = records->len;
    g_mutex_unlock(lock);
    return count;
}

#endif
