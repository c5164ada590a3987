/*
 * perfctr plugin: the records streamed as the run goes (stream=FILE)
 *
 * The host's task analyses walk the switches, the stores and the probes'
 * records in order; a long run makes millions, and walking them once
 * QEMU had exited made a user wait as long again.  With stream=FILE the
 * records kept are also written to FILE as they are made, so that the
 * host walks them on another core while the guest runs.  Every
 * STREAM_CHUNK records (or stream-chunk=), a flush writes: each context
 * made since the last one ("context ID KIND KEY"), each kind's new
 * records as a block of the results file's layout (records.h), then
 * "through N": every record made after it was made at N executed
 * instructions or later.  The file ends with "end" (QEMU
 * exited) or "restart" (start= was reached: the records before it are
 * no longer the profile's, and the stream stops).  One vCPU only.
 * Once a flush is in the file, its records are no longer kept in memory:
 * the results file says how many of each the stream holds, and where,
 * then has those made since (none once the stream ended with "end").  A
 * long run's records were tens of megabytes, written and read twice, and
 * keeping them cost QEMU a tenth of its run with --sample.  A write that
 * fails ends the stream: the records not in it are kept.
 * docs/plugin-results.md has the format.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_STREAM_H
#define PERFCTR_STREAM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define STREAM_FORMAT_LINE "perfctr-stream 1"
#define STREAM_CHUNK 4096

/* A module's part of each flush */
typedef struct StreamWriter {
    void (*write)(FILE *out);   /* what it made since the last flush */
    void (*written)(void);      /* that is in the file: forget it */
} StreamWriter;

/*
 * Opens path, to flush every chunk records (0: STREAM_CHUNK); false (and
 * a message) if it cannot be written
 */
bool stream_init(const char *path, unsigned chunk);
/* A module's writer, flushed in the order they were added */
void stream_add(const StreamWriter *writer);
/* A record was kept, made at instructions executed */
void stream_recorded(uint64_t instructions);
/* The profile restarts (start=): the stream ends */
void stream_restart(void);
/* QEMU exits: the last records, then the end */
void stream_end(void);
/* The file, as an absolute path (once opened) */
const char *stream_path(void);

#endif
