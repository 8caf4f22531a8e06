/*
 * compare — the same job file under several system variants (the
 * cartesian product of --vary lists), each repeated with independent
 * seeds, run in parallel threads (one simulation per thread, no shared
 * mutable state between simulations), summarised as one table: rows are
 * jobs × directions × priority classes, columns the variants, cells the
 * mean ± 95 % confidence half-width of each percentile over the runs.
 */
#ifndef NCQSIM_COMPARE_H
#define NCQSIM_COMPARE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host/knobs.h"
#include "stats/hist.h"
#include "stats/report.h"
#include "util/err.h"
#include "workload/job.h"

struct runner_result;
struct report;

#define CMP_MAX_VARIANTS 64
#define CMP_MAX_VARY 8
#define CMP_MAX_PCT 12
#define CMP_MAX_RUNS 256
#define CMP_MAX_THREADS 64
#define CMP_MAX_IDENT 16
/* The depth at which compare's JSON writes a run's report (see compare_write_json). */
#define CMP_RUN_DEPTH 4

struct cmp_variant {
	char label[8];			/* "A", "B", ... */
	char desc[512];			/* "device/ncq_prio_enable=1 queue/scheduler=none" */
	struct host_config cfg;
};

/*
 * One value per run, indexed by the run's number (NAN where that run had
 * no such row), so that the summary does not depend on which thread
 * finished first; and the summary over the runs present.
 */
struct cmp_stat {
	double v[CMP_MAX_RUNS];
	unsigned n;			/* runs present */
	double mean, hw;
};

/* One row in one variant's column: every run's figures, and all runs' latencies. */
struct cmp_cell {
	struct cmp_stat pct[CMP_MAX_PCT], max, iops;
	struct hist merged;		/* for the plot */
};

struct cmp_row {
	unsigned order;			/* the job's place in the report: rows sort by it */
	char job[128];
	int ddir;
	int prio;			/* ioprio value, or -1 for the whole job */
	bool lat;			/* lat rather than clat (lat_percentiles) */
	struct cmp_cell *cell[CMP_MAX_VARIANTS];	/* allocated when first seen */
};

struct compare {
	const struct workload *w;
	const char *jobfile;
	const struct job_source_factory *sources;	/* compare --trace: the replay's; else NULL */
	struct cmp_variant variants[CMP_MAX_VARIANTS];
	unsigned nvariants;
	double pct[CMP_MAX_PCT];
	unsigned npct;
	unsigned repeat, max_repeat, threads;
	double precision;		/* target half-width / mean for p99.99; 0: none */
	uint64_t seed;
	int64_t runtime_cap;
	bool keep_reports;		/* for JSON: every run's full report */
	const char *const *protect;	/* files no run's log may overwrite */
	unsigned nprotect;
	int progress;			/* enum cli_progress's values: 0 none, 1 terminal, 2 lines */
	double progress_every;		/* seconds between lines (style 2) */
	/* Set by a signal: runs in progress stop and are dropped, no new one starts. */
	const volatile sig_atomic_t *stop;
	bool interrupted;		/* out: the table holds the runs finished before */
	unsigned runs_done;		/* out: runs that count in the table */
	/*
	 * --shard I/N (1 <= shard <= nshards; nshards 0: not sharded): only the
	 * cells (variant v, run r) with (r * nvariants + v) % nshards == I - 1.
	 */
	unsigned shard, nshards;
	/* What a shard must agree on to be merged, beside what compare knows itself. */
	struct { char key[32]; char value[1024]; } ident[CMP_MAX_IDENT];
	unsigned nident;
	/* Results. */
	unsigned runs_per_variant;
	struct cmp_row *rows;		/* every (job, direction, priority) seen; grows */
	unsigned nrows, rows_cap;
	struct runner_result *results[CMP_MAX_VARIANTS][CMP_MAX_RUNS];	/* keep_reports */
	char *run_json[CMP_MAX_VARIANTS][CMP_MAX_RUNS];	/* merged: each run's report, rendered */
	double sim_seconds, cpu_seconds;
	uint64_t ios;
	bool precision_reached;
	char precision_note[256];
};

/*
 * Build the variants from --vary assignments ("KEY=V1,V2") on top of base.
 * Errors name the --vary and the bad value.
 */
int compare_variants(struct compare *c, const struct host_config *base, const char *const *vary,
		     unsigned nvary, struct err *e);
/* Run everything (and more, for --precision); RUNNER_REFUSED as runner_run(). */
int compare_run(struct compare *c, struct err *e);
void compare_print_table(const struct compare *c, FILE *out);
/* -1 when out of memory for a run's report (the JSON is then incomplete). */
int compare_write_json(const struct compare *c, FILE *out, bool plus);
int compare_plot(const struct compare *c, const char *path, struct err *e);
void compare_free(struct compare *c);

/* The shard (1..nshards) that runs cell (variant v, run r). */
static inline unsigned compare_cell_shard(const struct compare *c, unsigned v, unsigned r)
{
	return (r * c->nvariants + v) % c->nshards + 1;
}
/*
 * A shard's result (compare_run() with c->nshards set and keep_reports):
 * every run's table rows as histograms, and its fio report rendered as
 * JSON (json+ when plus), in a JSON file compare_merge() reads.
 */
int compare_write_shard(const struct compare *c, FILE *out, bool plus, struct err *e);
/*
 * Fill c (zeroed) from shard files as compare_run() would have: checks they
 * are one sweep (same identity, every cell exactly once). *plus says which
 * JSON the runs' reports were rendered in.
 */
int compare_merge(struct compare *c, const char *const *files, unsigned nfiles, bool *plus,
		  struct err *e);

/* For compare_shard.c: a row of one run's report. */
typedef int (*compare_row_fn)(void *ctx, unsigned order, const char *job, int ddir, int prio,
			      bool lat, const struct hist *h, uint64_t runtime_ms);
int compare_report_rows(const struct report *r, compare_row_fn fn, void *ctx);
/* Returns -1 only when out of memory. */
int compare_add_row(struct compare *c, unsigned v, unsigned run, unsigned order, const char *job,
		    int ddir, int prio, bool lat, const struct hist *h, uint64_t runtime_ms);
/* Sort the rows into the report's order and summarise every cell over runs. */
void compare_summarise(struct compare *c, unsigned runs);

#endif
