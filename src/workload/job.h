/*
 * job — fio's jobs, simulated: a workload is the jobs of one job file; a
 * run drives them against the host's block layer and fills fio-shaped
 * reports (stats/report).
 *
 * Each job keeps `iodepth` I/Os in flight (async engines) or one (sync
 * engines), chooses offsets and sizes as fio does, sets each I/O's
 * priority (the job's, or a cmdprio share), honours runtime, time_based,
 * size, number_ios, ramp_time, startdelay, rate_iops, thinktime and
 * stonewall, and records latencies as fio on Linux would see them:
 *
 *   slat  the time io_submit() blocks before the I/O is in the block layer
 *         (all requests taken: queue/nr_requests) — async engines only
 *   clat  from there to completion: scheduler wait + driver tag wait + drive
 *   lat   slat + clat
 *
 * With a sync engine fio measures clat from the start of the system call,
 * so a wait for a request lands in clat and there is no slat.
 */
#ifndef NCQSIM_JOB_H
#define NCQSIM_JOB_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host/blk.h"
#include "sim/sim.h"
#include "stats/report.h"
#include "util/err.h"
#include "workload/job_options.h"

struct job_def {
	struct job_options o;
	struct report_opt opts[REPORT_MAX_OPTS];	/* "job options", as written */
	unsigned nopts;
	int groupid;
	unsigned segment;		/* stonewall segment */
	unsigned occurrence;		/* how many earlier jobs had this name */
	char file[256];			/* where the job's section starts */
	int line;
};

/* Jobs in one workload, counting numjobs clones (fio has no such limit; memory does). */
#define WORKLOAD_MAX_JOBS 4096
/* Memory for the jobs' I/O units (iodepth x numjobs), checked before any is allocated. */
#define WORKLOAD_MAX_IO_MEMORY (1ULL << 30)

struct workload {
	struct job_def *defs;
	unsigned ndefs;
	unsigned njobs;			/* counting numjobs clones */
	struct report_opt global_opts[REPORT_MAX_OPTS];
	unsigned nglobal;
	char **inputs;			/* the job file and every include: never written */
	size_t ninputs;
};

/*
 * Read a job file. Warnings (options accepted but without effect in a
 * simulation) go to `warn` as "FILE:LINE: ..." lines; NULL drops them.
 */
int workload_load(struct workload *w, const char *path, FILE *warn, struct err *e);
int workload_load_text(struct workload *w, const char *text, const char *name, FILE *warn,
		       struct err *e);
/*
 * fio's command line: job options given as --name=... lines (cmdline, a
 * job-file text; NULL: none), then job files ("-": standard input), in
 * order, as one workload; with sections, only the jobs so named (fio's
 * --section).
 */
struct workload_sources {
	const char *cmdline;
	const char *const *paths;
	size_t npaths;
	const char *const *sections;
	size_t nsections;
};

int workload_load_sources(struct workload *w, const struct workload_sources *src, FILE *warn,
			  struct err *e);
void workload_free(struct workload *w);

/* What the jobs run against. */
struct job_target {
	struct sim *sim;
	struct blk_queue *q;
	uint64_t capacity;		/* bytes */
	unsigned logical_size;		/* bytes */
	uint64_t max_request;		/* bytes: queue/max_sectors_kb */
	uint64_t max_discard;		/* bytes one discard may cover; 0: the queue has no discard */
	int kernel;			/* enum host_kernel: how the I/O priority is derived */
};

struct job_source;

/*
 * Sources other than fio's generator (workload/source.h): a trace, for
 * read_iolog or `ncqsim replay`. The engine asks before setting up each
 * job; the factory, not the engine, knows formats and files.
 */
struct job_source_factory {
	/*
	 * Job `index` (0-based, numjobs clones counted), clone `clone` of its
	 * job (0 the first): fill *src to give it another source, or leave
	 * src->ops NULL. *run is NULL at the start of each run: the factory
	 * keeps there what one run's jobs share. Returns -1 with e set for
	 * input the run refuses.
	 */
	int (*open)(const void *ctx, void **run, const struct job_options *o, unsigned index,
		    unsigned clone, const struct job_target *t, struct job_source *src,
		    struct err *e);
	/* After the run, whatever happened: free *run; -1 with e set if a source failed. */
	int (*close)(const void *ctx, void *run, struct err *e);
	const void *ctx;
};

struct workload_run_opts {
	uint64_t seed;
	int64_t runtime_cap;		/* --runtime: caps every job (0: none) */
	/* Called about every simulated second: sim seconds, I/Os done so far. */
	void (*progress)(void *ctx, double sim_seconds, uint64_t ios);
	void *progress_ctx;
	/*
	 * Inserted in the names of latency logs and write_iolog files
	 * ("lat_clat.1.TAG.log", "FILE.TAG"), so that runs side by side
	 * (compare's variants and seeds) keep their own; NULL: fio's names.
	 */
	const char *log_tag;
	/* Files no log may overwrite (system, drive, trace), besides w->inputs. */
	const char *const *protect;
	unsigned nprotect;
	/*
	 * Set (by a signal handler) to stop: every job stops issuing, the I/Os
	 * in flight complete, no later stonewall segment starts, and the
	 * report covers the time until then. NULL: never.
	 */
	const volatile sig_atomic_t *stop;	/* the report says so: report.interrupted */
	const struct job_source_factory *sources;	/* NULL: fio's generator for all */
	/*
	 * The wall clock at simulated time 0, ms since 1970: the epoch of
	 * log_unix_epoch and log_alternate_epoch (CLOCK_REALTIME). 0: 1970.
	 */
	int64_t wall_ms;
};

/*
 * Run every job; fills out->jobs/njobs/global options (the caller frees
 * them with report_jobs_free()). Errors that depend on the drive (a region
 * beyond its capacity, a block size not a multiple of its sector) name the
 * job and its file and line, and return WORKLOAD_REFUSED: the job file does
 * not fit the system. Anything that goes wrong once running returns -1.
 */
#define WORKLOAD_REFUSED (-2)

int workload_run(const struct workload *w, const struct job_target *t,
		 const struct workload_run_opts *ro, struct report *out, struct err *e);

#endif
