/*
 * runner — one simulation of a job file on a configured system, start to
 * finish: build the system, run the workload, collect a fio-shaped report
 * with ncqsim's own section. `run` uses one; `compare` runs many in
 * threads (nothing is shared between them).
 */
#ifndef NCQSIM_RUNNER_H
#define NCQSIM_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host/knobs.h"
#include "stats/report.h"
#include "run/system.h"
#include "util/err.h"
#include "workload/job.h"

struct runner_result {
	struct report report;
	struct host_knobs knobs;	/* as the kernel would read them back */
	struct disk_model model;
	struct disk_stats disk;
	struct blk_stats blk;
	struct libata_stats ata;
	uint64_t seed;
	double sim_seconds;
	double cpu_seconds;
	uint64_t ios;
	bool ncq;
};

struct runner_opts {
	uint64_t seed;
	int64_t runtime_cap;
	unsigned debug_mask;
	FILE *debug_out;
	void (*progress)(void *ctx, double sim_seconds, uint64_t ios);
	void *progress_ctx;
	const char *log_tag;		/* workload_run_opts.log_tag */
	const char *const *protect;	/* files no log may overwrite */
	unsigned nprotect;
	const volatile sig_atomic_t *stop;	/* workload_run_opts.stop */
	/* Sources other than fio's generator (a trace); NULL: read_iolog's, for jobs that ask. */
	const struct job_source_factory *sources;
	/*
	 * The drive cfg names, already loaded with its drive.KEYs
	 * (system_load_model(cfg)), so a run does not parse and check it again;
	 * NULL: runner_run loads it.
	 */
	const struct disk_model *model;
};

/*
 * Run; on error the message is in e and res holds nothing to free. Returns
 * RUNNER_REFUSED when the configuration or the job file is refused before
 * anything runs (a knob, a drive, a job that does not fit the drive: bad
 * input), -1 when the run itself fails.
 */
#define RUNNER_REFUSED (-2)
int runner_run(const struct workload *w, const struct host_config *cfg,
	       const struct runner_opts *ro, struct runner_result *res, struct err *e);
void runner_result_free(struct runner_result *res);

/* ncqsim's JSON object for one result: drive, knobs, seed, time, stats. */
void runner_json(struct json_writer *w, void *result);

#endif
