/*
 * perfctr plugin: the records streamed as the run goes (stream.h)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <errno.h>
#include <string.h>

#include "records/stream.h"

#define MAX_WRITERS 4

static FILE *out;
static char *path_given;        /* absolute */
static bool holds_all;          /* ended with "end", every write done */
static StreamWrite writers[MAX_WRITERS];
static guint written[MAX_WRITERS];
static unsigned n_writers;
static unsigned unflushed, chunk_records;

bool stream_init(const char *path, unsigned chunk)
{
    chunk_records = chunk ? chunk : STREAM_CHUNK;
    path_given = g_canonicalize_filename(path, NULL);
    out = fopen(path, "w");
    if (!out) {
        g_autofree char *msg = g_strdup_printf(
            "perfctr: cannot write %s: %s\n", path, strerror(errno));
        fputs(msg, stderr);
        return false;
    }
    fputs(STREAM_FORMAT_LINE "\n", out);
    return true;
}

void stream_add(StreamWrite write)
{
    g_assert(n_writers < MAX_WRITERS);
    writers[n_writers++] = write;
}

static void flush(void)
{
    unsigned i;

    for (i = 0; i < n_writers; i++) {
        written[i] = writers[i](out, written[i]);
    }
    unflushed = 0;
}

void stream_recorded(uint64_t instructions)
{
    if (out && ++unflushed >= chunk_records) {
        flush();
        fprintf(out, "through %" G_GUINT64_FORMAT "\n", instructions);
        fflush(out);
    }
}

/* Whether every write to the stream succeeded */
static bool close_with(const char *last)
{
    bool written = false;

    if (out) {
        fprintf(out, "%s\n", last);
        written = !ferror(out);
        written = fclose(out) == 0 && written;
        out = NULL;
    }
    return written;
}

void stream_restart(void)
{
    close_with("restart");
}

void stream_end(void)
{
    if (out) {
        flush();
    }
    holds_all = close_with("end");
}

/* After stream_end(): the stream's path if it holds every record kept */
const char *stream_holding_all(void)
{
    return holds_all ? path_given : NULL;
}
