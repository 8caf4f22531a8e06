/*
 * replay — recorded traces as the job engine's I/O sources
 * (workload/source.h): `ncqsim replay`, `compare --trace` and fio's
 * read_iolog job option.
 *
 * A plan reads the trace once before anything runs (every line checked,
 * the jobs found: one per traced process for blkparse and blktrace, per
 * HOST_DISK for MSR, per key column for SNIA CSV, per device for DiskSim,
 * one for an iolog), keeping counts, never records. Each run then streams
 * the trace a second time through one reader shared by the run's jobs:
 *
 *   reader ──► record for job k ──► k's queue ──► k's next(): issue at its time,
 *                                                  or WAIT until it
 *
 * A job whose queue is empty pulls records into the others' queues, at
 * most REPLAY_WINDOW per call; if none was its own it waits until the
 * last pulled record's time (no record of its can be due earlier, as
 * times only grow). Memory is the records due but not yet issued — the
 * backlog when the simulated system falls behind the trace — and not the
 * trace's length.
 *
 * Open loop (the default): each I/O at its recorded time (scaled by
 * --speed), whatever is outstanding, as the traced processes issued them;
 * a process blocked in the block layer (no free request) holds its later
 * I/Os until it wakes, as it would have. Closed (--closed N): one job, N
 * outstanding, times ignored. read_iolog follows fio: version 3 and
 * blktrace times are gaps between records, replay_no_stall drops them.
 */
#ifndef NCQSIM_REPLAY_H
#define NCQSIM_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"
#include "util/err.h"
#include "workload/job.h"

#define REPLAY_MAX_RULES 32
#define REPLAY_MAX_JOBS 256		/* processes beyond this share a job "other" */
#define REPLAY_OPEN_DEPTH 512		/* per job in open loop: above any default nr_requests */
#define REPLAY_WINDOW 4096

/* --prio: PROCESS=CLASS[:LEVEL], PID=..., size<64k=..., size>=1m=... */
struct replay_rule {
	enum { RULE_NAME, RULE_PID, RULE_SIZE_LT, RULE_SIZE_LE, RULE_SIZE_GT, RULE_SIZE_GE } kind;
	char name[TRACE_WHO_MAX];	/* a trailing '*' matches any rest */
	uint32_t pid;
	uint64_t size;
	uint16_t ioprio;
	char text[96];			/* as written, for messages and reports */
};

struct replay_opts {
	const char *path;
	const char *format;		/* "auto" or a trace_formats row */
	struct trace_opts trace;
	unsigned closed;		/* 0: open loop; N: one job, N outstanding */
	double speed;			/* time runs this many times faster (0: 1) */
	bool relative;			/* fio read_iolog: times are gaps between records */
	bool no_stall;			/* fio replay_no_stall: no waiting at all */
	bool one_job;			/* every record in one job */
	struct replay_rule rules[REPLAY_MAX_RULES];
	unsigned nrules;
};

/* One --prio rule; e names what was expected. */
int replay_rule_parse(const char *spec, struct replay_rule *r, struct err *e);

struct replay_plan;

/* Read the whole trace once; errors are FILE:LINE: what was expected. */
struct replay_plan *replay_plan_open(const struct replay_opts *o, struct err *e);
void replay_plan_free(struct replay_plan *p);

/* The jobs to run: one per key, with iodepth, names and descriptions. */
int replay_workload(const struct replay_plan *p, struct workload *w, struct err *e);
/* The factory giving those jobs their trace sources (runner_opts.sources). */
const struct job_source_factory *replay_sources(const struct replay_plan *p);

uint64_t replay_plan_ios(const struct replay_plan *p);
/* "TRACE (FORMAT): N I/Os (R reads, W writes) in J jobs; ..." lines for stderr. */
void replay_plan_describe(const struct replay_plan *p, FILE *out);

/* read_iolog in job files: runner_run uses it when no other factory is given. */
extern const struct job_source_factory replay_iolog_sources;

#endif
