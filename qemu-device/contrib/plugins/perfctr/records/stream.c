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
static const StreamWriter *writers[MAX_WRITERS];
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

void stream_add(const StreamWriter *writer)
{
    g_assert(n_writers < MAX_WRITERS);
    writers[n_writers++] = writer;
}

/* What was made since the last flush, then last; false if it failed */
static bool flush(const char *last)
{
    unsigned i;

    for (i = 0; i < n_writers; i++) {
        writers[i]->write(out);
    }
    fputs(last, out);
    unflushed = 0;
    if (fflush(out) == 0 && !ferror(out)) {
        for (i = 0; i < n_writers; i++) {
            writers[i]->written();
        }
        return true;
    }
    {
        g_autofree char *msg = g_strdup_printf(
            "perfctr: cannot write %s: %s; the records not in it are kept\n",
            path_given, strerror(errno));
        fputs(msg, stderr);
    }
    fclose(out);
    out = NULL;
    return false;
}

void stream_recorded(uint64_t instructions)
{
    if (out && ++unflushed >= chunk_records) {
        g_autofree char *through = g_strdup_printf(
            "through %" G_GUINT64_FORMAT "\n", instructions);

        flush(through);
    }
}

void stream_restart(void)
{
    if (out) {
        fputs("restart\n", out);
        fclose(out);
        out = NULL;
    }
}

void stream_end(void)
{
    if (out && flush("end\n")) {
        fclose(out);
        out = NULL;
    }
}

const char *stream_path(void)
{
    return path_given;
}
