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
 * A module's records: with stream=, those made since the stream's last
 * flush (kept), after the ones the stream holds (streamed); else all
 */
typedef struct Records {
    GArray *kept;
    guint streamed;
    guint writing;              /* of kept, those the flush writes */
} Records;

static inline void records_init(Records *r, guint size)
{
    r->kept = g_array_new(false, false, size);
    r->streamed = r->writing = 0;
}

/* How many were made (the stream's and those kept) */
static inline guint records_made(const Records *r)
{
    return r->streamed + r->kept->len;
}

static inline void records_reset(Records *r)
{
    g_array_set_size(r->kept, 0);
    r->streamed = r->writing = 0;
}

/*
 * A module's records in the results file: how many the stream holds
 * (and its path, stream_path(), perfctr.c), then write(out) writes those
 * kept as a block, unless there are none after the stream's
 */
static inline void records_write(FILE *out, const char *tag,
                                 const Records *r,
                                 void (*write)(FILE *out))
{
    if (r->streamed) {
        fprintf(out, "records-in-stream %s %u\n", tag, r->streamed);
    }
    if (r->kept->len || !r->streamed) {
        write(out);
    }
}

/*
 * stream.h's write of a module's records: write(out) writes those kept
 * (under the module's lock, if it has one)
 */
static inline void records_stream(FILE *out, GMutex *lock, Records *r,
                                  void (*write)(FILE *out))
{
    if (lock) {
        g_mutex_lock(lock);
    }
    r->writing = r->kept->len;
    if (r->writing) {
        write(out);
    }
    if (lock) {
        g_mutex_unlock(lock);
    }
}

/* stream.h's written: those the flush wrote are the stream's now */
static inline void records_streamed(GMutex *lock, Records *r)
{
    if (lock) {
        g_mutex_lock(lock);
    }
    g_array_remove_range(r->kept, 0, r->writing);
    r->streamed += r->writing;
    r->writing = 0;
    if (lock) {
        g_mutex_unlock(lock);
    }
}

#endif
