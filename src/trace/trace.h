/*
 * trace — readers of recorded block I/O traces, each yielding one stream of
 * timed requests (struct trace_record) read a record at a time, so a trace
 * larger than memory streams through a fixed buffer.
 *
 *   trace_open(path, "auto"|NAME) ──► format row (trace_formats, by name
 *        │                             or by probing the first bytes)
 *        ▼
 *   trace_next() ──► 1: *r is the next I/O   (reads and writes only)
 *                ├─► 0: end of the trace
 *                └─► -1: e holds "FILE:LINE: what was expected, got what"
 *
 * Formats are rows of the trace_formats registry (util/plugin.h), one
 * module each: fio's iolog v2/v3, blkparse's default text, blktrace's
 * binary blk_io_trace records, MSR Cambridge CSV, SNIA-style CSV with a
 * header, DiskSim ascii. Records that carry no data transfer (syncs,
 * trims, flushes, notes) are counted in `ignored`, never replayed.
 *
 * A malformed line is an error, or with skip_bad a count in `bad` and the
 * reader goes on; a malformed binary record header is always an error
 * (nothing after it can be trusted).
 */
#ifndef NCQSIM_TRACE_H
#define NCQSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"
#include "util/plugin.h"

#define TRACE_WHO_MAX 48

struct trace_record {
	int64_t time_ns;		/* from the trace's first record (may be < 0 if out of order) */
	uint64_t offset, len;		/* bytes */
	int ddir;			/* DDIR_READ or DDIR_WRITE (workload/job_options.h) */
	uint32_t pid;			/* 0 where the format has none */
	uint16_t ioprio;		/* the trace's own priority; 0: none recorded */
	char who[TRACE_WHO_MAX];	/* process name, HOST_DISK, ...; "" for none */
	uint64_t where;			/* line (text) or record number (binary) */
};

struct trace_opts {
	bool skip_bad;			/* count malformed lines and go on */
	bool at_dispatch;		/* blkparse/blktrace: D (issue) events instead of Q */
	bool one_file;			/* blktrace: the file given, not its other CPUs' beside it */
	/* iolog (fio's replay_* options, as fio applies them while reading) */
	unsigned replay_skip;		/* 1 << DDIR_READ | 1 << DDIR_WRITE: directions left out */
	uint64_t replay_align;		/* offsets rounded down to this (0: as logged) */
	uint64_t replay_scale;		/* offsets divided by this (0 or 1: as logged) */
};

/* Buffered input with line numbers, shared by every format. */
struct trace_in;

struct trace_in *trace_in_open(const char *path, struct err *e);
void trace_in_close(struct trace_in *in);
/* The next line without its end (\n, \r\n), NUL-terminated in place; -1 at the end. */
long trace_in_line(struct trace_in *in, char **line, struct err *e);
/* Exactly n bytes (NULL: skip them): n, 0 at a clean end, -1 a short read (e set). */
long trace_in_bytes(struct trace_in *in, void *buf, size_t n, struct err *e);
const char *trace_in_path(const struct trace_in *in);
uint64_t trace_in_lineno(const struct trace_in *in);
uint64_t trace_in_offset(const struct trace_in *in);	/* bytes consumed */
/* A record that moves no data (sync, trim, flush, a note): counted, not replayed. */
void trace_in_ignored(struct trace_in *in);

/* A malformed line or record: skippable with skip_bad. */
#define TRACE_BAD (-2)

struct trace_format {
	struct plugin plugin;		/* name, help */
	/* How surely the first bytes of a file are this format: 0 (no) .. 100. */
	int (*probe)(const unsigned char *head, size_t len);
	size_t state_size;		/* zeroed for begin() */
	/* Read any header; e.g. "FILE:1: expected 'fio version 2 iolog' ...". */
	int (*begin)(void *state, struct trace_in *in, const struct trace_opts *o, struct err *e);
	/* 1 a record, 0 the end, TRACE_BAD a malformed line, -1 an error (e set). */
	int (*next)(void *state, struct trace_in *in, struct trace_record *r, struct err *e);
	void (*end)(void *state);	/* may be NULL */
	/*
	 * Whether fio replays the times as delays between records rather than
	 * as times since the start (iolog version 3); NULL: never.
	 */
	bool (*relative_time)(const void *state);
};

extern struct plugin_registry trace_formats;

/* A format row by name ("iolog", "blkparse", ...), NULL if none. */
const struct trace_format *trace_format_find(const char *name);

struct trace_reader;

/* format "auto" (or NULL) probes the file. */
struct trace_reader *trace_open(const char *path, const char *format, const struct trace_opts *o,
				struct err *e);
int trace_next(struct trace_reader *rd, struct trace_record *r, struct err *e);
void trace_close(struct trace_reader *rd);

const struct trace_format *trace_reader_format(const struct trace_reader *rd);
bool trace_reader_relative_time(const struct trace_reader *rd);
uint64_t trace_reader_bad(const struct trace_reader *rd);	/* skipped with skip_bad */
uint64_t trace_reader_ignored(const struct trace_reader *rd);	/* no data: sync, trim, ... */

/*
 * fio's merge_blktrace_file: blktrace files (`n` of them, each a single
 * file) merged into one, written to `out` in the host's byte order — the
 * queue events of reads, writes and discards, their payloads dropped —
 * in time order, each file's times scaled by scalar[i] percent and
 * repeated iters[i] times (NULL: 100 and 1). -1 with e set for a file
 * that is no blktrace or a damaged record.
 */
struct trace_merge {
	const char *const *paths;
	unsigned n;
	const unsigned *scalar, *iters;
};
int trace_blktrace_merge(const struct trace_merge *m, FILE *out, struct err *e);

/* Formats' helpers. */
/* "FILE:LINE: " + message; returns TRACE_BAD. */
int trace_bad(struct trace_in *in, struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The next white-space separated field; NULL at the end of the line. */
char *trace_field(char **p);
/*
 * Split a CSV line in place (the traces have no quoting) into at most max
 * fields; returns the count, or max + 1 when there are more.
 */
unsigned trace_csv_split(char *line, char **f, unsigned max);
/* A whole unsigned decimal number; -1 if s is not one. */
int trace_u64(const char *s, uint64_t *v);

#endif
