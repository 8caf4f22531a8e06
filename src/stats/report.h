/*
 * report — a run's results in fio's shapes, and fio's two output formats.
 *
 * The job engine fills one struct report_job per job (per clone); the
 * report merges groups when group_reporting asks (fio's sum_thread_stats),
 * then writes fio 3.33's normal text and JSON (json+ adds the histogram
 * bins). Field names and rules follow fio's stat.c: IOPS and bandwidth from
 * the per-direction runtime, units switching as fio switches them,
 * percentiles by fio's rule, per-priority entries only when two or more
 * priorities have samples.
 */
#ifndef NCQSIM_REPORT_H
#define NCQSIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/hist.h"
#include "stats/steady.h"
#include "util/json.h"

#define REPORT_DIRS 3		/* read, write, trim (sync is its own entry) */
#define REPORT_MAX_PRIOS 64
#define REPORT_MAX_OPTS 128

struct report_opt {
	char key[64];
	char value[256];
};

struct report_prio {
	uint16_t ioprio;	/* as fio reports it: the value the job asked for */
	struct hist h;		/* clat, or lat with lat_percentiles */
};

#define REPORT_HOST_QUEUE	0
#define REPORT_DRIVE		1

struct report_dir {
	uint64_t io_bytes, total_ios, short_ios, drop_ios;
	uint64_t runtime_ms;
	struct hist slat, clat, lat;
	struct report_prio *prios;
	unsigned nprios;
	struct hist_summary bw, iops;		/* per-interval samples: KiB/s and IOPS */
	/* ncqsim: clat split, ns: [REPORT_HOST_QUEUE] then [REPORT_DRIVE], fed together. */
	struct hist_summary_pair split;
};

struct report_job {
	char name[128];
	char description[256];
	int groupid;
	unsigned members;
	unsigned number;		/* 1-based job number (fio's pid-ish) */
	int error;			/* errno that ended the job, 0 none */
	const char *error_site;		/* fio's "file:F, func=G" for it; NULL: io_u.c's io_u error */
	char error_note[320];
	/* latency_target: the option's values, and the depth it settled on (else iodepth). */
	uint64_t latency_target_ns, latency_window_us;
	double latency_percentile;		/* 0: fio's default, 100 */
	unsigned latency_depth;			/* 0: iodepth */		/* what fio prints on stderr when it happens, "" none */
	bool continue_on_error;		/* report total_err and first_error (fio does then) */
	uint64_t total_err;		/* errors counted under continue_on_error */
	int first_error;
	const char *carried_site;	/* where the last error carried past was raised, NULL: the engine */
	struct report_dir dir[REPORT_DIRS];
	/* fio's total_submit and total_complete are the sums of the last two. */
	uint64_t io_u_map[7], io_u_submit[7], io_u_complete[7];
	/* fio's latency buckets; lat_all: the three as one row, for an index worked out once. */
	union {
		struct {
			uint64_t lat_n[10], lat_u[10], lat_m[12];
		};
		uint64_t lat_all[32];
	};
	struct hist_summary sync_lat;	/* fsync/fdatasync calls: fio's "sync" */
	int64_t run_time_ms;		/* job_runtime */
	double elapsed_s;
	bool async;			/* slat is measured */
	bool multi_prio;		/* cmdprio: per-I/O priorities */
	uint16_t ioprio;		/* the job's own priority (fio's view) */
	bool disable_prio_stat;		/* a group mixing priorities without per-I/O ones */
	/* Options that shape the report. */
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	int unified;			/* enum report_unified: unified_rw_reporting */
	double percentiles[HIST_MAX_PERCENTILES];
	unsigned npercentiles, percentile_precision;
	unsigned sig_figs, kb_base;
	bool unit_bits;			/* unit_base=1: BW in bits per second (text only, as fio 3.33) */
	unsigned iodepth;
	bool group_reporting;
	bool no_stats;			/* fio's stats=0: left out of the report */
	bool block_error_pct;		/* block_error_percentiles: the block lifetime section */
	/* The header line: rw, block sizes, engine. */
	char rw[16];
	uint64_t bs_min[3], bs_max[3];
	char ioengine[32];
	unsigned clone;			/* 0 for the first of a numjobs set */
	struct report_opt opts[REPORT_MAX_OPTS];
	unsigned nopts;
	/* steadystate: the window and criterion (NULL: no steady-state detection) */
	struct steady *ss;
	unsigned ss_dur;		/* its window in seconds, as fio reports it */
};

struct report_disk {
	bool present;			/* fio's disk_util: the "Disk stats" section */
	char name[64];
	uint64_t ios[2], merges[2], sectors[2], ticks_ms[2], in_queue_ms;
	double util;
};

struct report {
	const char *version;		/* "ncqsim-0.1" */
	struct report_job *jobs;	/* as run, one per clone */
	unsigned njobs;
	struct report_opt global_opts[REPORT_MAX_OPTS];
	unsigned nglobal;
	struct report_disk disk;
	int64_t wall_ms;		/* the run's start, ms since 1970, for the timestamps (0: now) */
	bool interrupted;		/* stopped by a signal: covers the time until then */
	/* ncqsim's own JSON object (drive, knobs, seed, ...), written by the caller. */
	void (*ncqsim_json)(struct json_writer *w, void *ctx);
	void *ncqsim_ctx;
};

/* fio's unified_rw_reporting: directions apart, one "mixed" direction, or both. */
enum report_unified { REPORT_UNIFIED_NONE, REPORT_UNIFIED_MIXED, REPORT_UNIFIED_BOTH };

void report_job_init(struct report_job *j);
/* report_job_init() of a record whose bytes are all zero already (calloc): no 300 KB memset. */
void report_job_init_zeroed(struct report_job *j);
void report_job_free(struct report_job *j);
/* The priority entry for ioprio, created on first use (NULL when full). */
struct report_prio *report_prio_get(struct report_dir *d, uint16_t ioprio);
void report_job_reset(struct report_job *j);

/* The first job an I/O error ended (continue_on_error did not cover it), or NULL. */
const struct report_job *report_first_failed_job(const struct report *r);

/* Priorities with samples in a direction: two or more get per-priority entries. */
unsigned report_prios_with_samples(const struct report_dir *d);

/* Output. `formats` is a mask of REPORT_* bits. */
enum { REPORT_NORMAL = 1, REPORT_JSON = 2, REPORT_JSONPLUS = 4, REPORT_TERSE = 8 };
/* The lines fio prints before the run (job headers, version, Starting N). */
void report_write_header(FILE *out, const struct report *r);
/*
 * As fio writes them when several are asked for: terse lines, then JSON,
 * then the normal text. Terse is fio's version 3 (the only one ncqsim writes).
 */
int report_write(FILE *out, const struct report *r, unsigned formats);
/* The JSON report as one member (key, or NULL in an array) of an open container. */
int report_json_member(struct json_writer *w, const char *key, const struct report *r,
		       bool plus);

/* fio's num2str(): "33.1MiB", "8480", "32.8k". */
void report_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, int pow2,
		    const char *unit);

/* Merged per-group entries (fio's group_reporting); caller frees with report_jobs_free. */
struct report_job *report_groups(const struct report *r, unsigned *n);
void report_jobs_free(struct report_job *jobs, unsigned n);

#endif
