/*
 * validate — a drive model against a drive that was measured: replay the
 * measured requests one at a time on the model (disk/service) and compare
 * the distributions of access time.
 *
 * Inputs:
 *   DiskSim `validate` traces: "R|W LABEL LBN SECTORS MEASURED_US THINK_US"
 *     per line; the first request is issued at 0, each next one THINK_US
 *     after the previous completes (DiskSim reads the next line at each
 *     completion). LABEL (Hit, Miss, Doub, Trip) is the extraction tool's
 *     and is not an input.
 *   fio latency logs (write_lat_log, log_offset=1) of a QD1 job: "TIME_MS,
 *     LATENCY_NS, DDIR, BS, OFFSET[, PRIO]" per line; the next request is
 *     issued the job's thinktime after the previous completes.
 *
 * The metric (the reference README; Ruemmler and Wilkes' demerit figure):
 * for p = 0.0001 … 1 (10 000 points), the time at cumulative fraction p of
 * each distribution, linear between its samples; the RMS of the
 * differences, in ms and as a percentage of the measured mean. Both
 * distributions are kept as sorted samples (memory: 16 bytes a request),
 * since the metric needs every quantile exactly.
 */
#ifndef NCQSIM_VALIDATE_H
#define NCQSIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disk/model.h"
#include "util/err.h"

struct validate_request {
	uint64_t lba;
	uint32_t sectors;
	bool write;
	double measured_ms, think_ms;
};

struct validate_trace {
	struct validate_request *req;
	size_t n;
};

/* A DiskSim validate trace; `text` NULL reads `path`. */
int validate_read_disksim(const char *path, const char *text, struct validate_trace *t,
			  struct err *e);
/*
 * A fio latency log of a QD1 job, in logical sectors of `sector_size`;
 * think_ms between requests.
 */
int validate_read_fio_log(const char *path, const char *text, unsigned sector_size,
			  double think_ms, struct validate_trace *t, struct err *e);
void validate_trace_free(struct validate_trace *t);

#define VALIDATE_NPCT 4	/* p10, p50, p90, p99 */
extern const double validate_percentiles[VALIDATE_NPCT];

struct validate_result {
	size_t requests;
	double rms_ms, rms_percent;
	double measured_mean_ms, simulated_mean_ms;
	double measured_pct[VALIDATE_NPCT], simulated_pct[VALIDATE_NPCT];
	uint64_t hits, streamed, media, cached;	/* how the model served them */
	double *measured, *simulated;	/* sorted, ms */
};

/* Replay on the model. A request beyond the drive's capacity is an error naming it. */
int validate_run(const struct disk_model *m, const struct validate_trace *t,
		 const char *trace_name, struct validate_result *r, struct err *e);
void validate_result_free(struct validate_result *r);

/* The time at cumulative fraction p of sorted samples x[0..n-1] (n >= 1). */
double validate_quantile(const double *x, size_t n, double p);
/* The RMS demerit of two sorted sample sets, in their unit. */
double validate_rms(const double *a, size_t na, const double *b, size_t nb);

#endif
