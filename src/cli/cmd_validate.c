/*
 * ncqsim validate — a drive file against a drive that was measured.
 *
 *   ncqsim validate TRACE --drive FILE [--plot FILE.svg] [--output-format=normal|json]
 *   ncqsim validate --fio-log FILE --job FILE.fio --drive FILE ...
 *
 * Replays the measured requests one at a time on the drive model
 * (run/validate.h) and prints the count, the mean and p10/p50/p90/p99 of
 * measured and simulated access time, and the RMS demerit.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "disk/model.h"
#include "run/validate.h"
#include "stats/hist.h"
#include "stats/plot.h"
#include "util/json.h"
#include "util/outfile.h"
#include "workload/job.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_PLOT = 0x200, OPT_FIO_LOG, OPT_JOB, OPT_FORMAT, OPT_OUTPUT, OPT_DRIVE };

static const struct option longopts[] = {
	{ "drive", required_argument, NULL, OPT_DRIVE },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "output-format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "fio-log", required_argument, NULL, OPT_FIO_LOG },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_validate_doc = {
	.usage = (const char *const[]){
		"TRACE --drive NAME|FILE [--plot FILE.svg] [--output-format=normal|json]",
		"--fio-log FILE --job FILE.fio --drive NAME|FILE [...]", NULL },
	.text =
		"Replays requests whose service time was measured on a real drive, one at a\n"
		"time as they were measured (each issued its think time after the previous\n"
		"completes; the first at 0), on the drive model, and compares the simulated\n"
		"access time (issue to completion at the drive) with the measured one: count,\n"
		"means, p10/p50/p90/p99 and the RMS demerit (Ruemmler and Wilkes: the RMS of\n"
		"the difference of the two distributions at 10 000 quantiles), in ms and as a\n"
		"percentage of the measured mean.\n"
		"\n"
		"TRACE is a DiskSim validate trace, one request a line:\n"
		"  R|W LABEL LBN SECTORS MEASURED_US THINK_US\n"
		"With --fio-log, the requests come from a latency log of your own drive\n"
		"written by a QD1 fio job (write_lat_log with log_offset=1); --job names\n"
		"that job file, whose thinktime spaces the requests.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--drive", "NAME|FILE", "the drive model (required; see 'ncqsim drives',\n"
			  "'ncqsim import')" },
			{ "--plot", "FILE.svg", "both distributions (1 - CDF, log axes) as an SVG" },
			{ "--output-format", "=F", "normal or json" },
			{ "--output", "FILE", "write the report there" },
			{ "--fio-log", "FILE", "a fio latency log instead of TRACE" },
			{ "--job", "FILE.fio", "the job that wrote --fio-log" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = longopts,
};

static void print_normal(FILE *out, const char *trace, const struct disk_model *m,
			 const struct validate_result *r)
{
	unsigned k;

	fprintf(out, "validate: %s on drive %s\n", trace, m->name);
	fprintf(out, "  requests %zu (the model served %llu from the buffer, %llu from read-ahead, "
		"%llu at the media, %llu into the write cache)\n", r->requests,
		(unsigned long long)r->hits, (unsigned long long)r->streamed,
		(unsigned long long)r->media, (unsigned long long)r->cached);
	fprintf(out, "  %-10s %12s %12s\n", "(ms)", "measured", "simulated");
	fprintf(out, "  %-10s %12.3f %12.3f\n", "mean", r->measured_mean_ms, r->simulated_mean_ms);
	for (k = 0; k < VALIDATE_NPCT; k++) {
		char label[16];

		snprintf(label, sizeof(label), "p%g", validate_percentiles[k]);
		fprintf(out, "  %-10s %12.3f %12.3f\n", label, r->measured_pct[k], r->simulated_pct[k]);
	}
	fprintf(out, "  RMS demerit %.3f ms (%.2f %% of the measured mean)\n", r->rms_ms,
		r->rms_percent);
}

static void print_json(FILE *out, const struct validate_result *r)
{
	struct json_writer w;
	unsigned k, side;

	json_writer_init(&w, out);
	json_object_begin(&w, NULL);
	json_uint(&w, "requests", r->requests);
	json_double(&w, "rms_ms", r->rms_ms);
	json_double(&w, "rms_percent", r->rms_percent);
	json_double(&w, "measured_mean_ms", r->measured_mean_ms);
	json_double(&w, "simulated_mean_ms", r->simulated_mean_ms);
	json_object_begin(&w, "percentiles");
	for (side = 0; side < 2; side++) {
		json_object_begin(&w, side ? "simulated_ms" : "measured_ms");
		for (k = 0; k < VALIDATE_NPCT; k++) {
			char key[16];

			snprintf(key, sizeof(key), "%g", validate_percentiles[k]);
			json_double(&w, key, side ? r->simulated_pct[k] : r->measured_pct[k]);
		}
		json_object_end(&w);
	}
	json_object_end(&w);
	json_object_end(&w);
	json_writer_finish(&w);
}

static int write_plot(const char *path, const char *trace, const struct disk_model *m,
		      const struct validate_result *r)
{
	struct hist *h = calloc(2, sizeof(*h));
	struct plot_series s[2];
	char title[256], note[96];
	const char *notes[1] = { note };
	struct outfile of;
	struct err e;
	size_t i;
	int rc;

	if (!h) {
		cli_error("validate: out of memory");
		return -1;
	}
	hist_init(&h[0]);
	hist_init(&h[1]);
	for (i = 0; i < r->requests; i++) {
		hist_add(&h[0], (uint64_t)(r->measured[i] * 1e6));
		hist_add(&h[1], (uint64_t)(r->simulated[i] * 1e6));
	}
	s[0].label = "measured";
	s[0].h = &h[0];
	s[1].label = "ncqsim";
	s[1].h = &h[1];
	snprintf(title, sizeof(title), "%s on %s: access time", trace, m->name);
	snprintf(note, sizeof(note), "RMS demerit %.3f ms (%.1f %% of the measured mean)",
		 r->rms_ms, r->rms_percent);
	if (outfile_open(&of, path, "option '--plot'", &e)) {
		free(h);
		cli_error("%s", e.msg);
		return -1;
	}
	rc = plot_exceedance_svg(of.f, title, s, 2, notes, 1);
	free(h);
	if (rc) {
		outfile_abort(&of);
		cli_error("%s: nothing to plot", path);
		return -1;
	}
	if (outfile_commit(&of, &e)) {
		cli_error("%s", e.msg);
		return -1;
	}
	return 0;
}

/* The QD1 job that wrote the log: its think time, and a check that it is QD1 and logged offsets. */
static int fio_job(const char *job_path, double *think_ms)
{
	struct workload w;
	struct err e;
	const struct job_options *o;

	if (workload_load(&w, job_path, NULL, &e)) {
		cli_error("%s", e.msg);
		return -1;
	}
	o = &w.defs[0].o;
	if (w.ndefs != 1 || w.njobs != 1) {
		cli_error("%s: expected one job (numjobs=1) that wrote the log, found %u", job_path,
			  w.njobs);
		goto bad;
	}
	if (o->engine_kind != JOB_ENGINE_SYNC && o->iodepth != 1) {
		cli_error("%s:%d: option 'iodepth': expected 1 (validate replays one request at a "
			  "time), got %u", job_path, w.defs[0].line, o->iodepth);
		goto bad;
	}
	if (!o->log_offset) {
		cli_error("%s:%d: option 'log_offset': expected 1 (the log must give each "
			  "request's offset)", job_path, w.defs[0].line);
		goto bad;
	}
	*think_ms = (double)o->thinktime / 1e6;
	workload_free(&w);
	return 0;
bad:
	workload_free(&w);
	return -1;
}

int cmd_validate(int argc, char **argv)
{
	const char *drive = NULL, *plot = NULL, *fio_log = NULL, *job = NULL, *output = NULL;
	const char *trace;
	unsigned formats = CLI_OUT_NORMAL;
	struct disk_model *m = NULL;
	struct validate_trace t = { 0 };
	struct validate_result r = { 0 };
	struct err e;
	struct outfile of;
	int c, rc = EXIT_BAD_INPUT;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd_doc_help("validate", &cmd_validate_doc, stdout);
			return 0;
		case OPT_DRIVE: drive = optarg; break;
		case OPT_PLOT: plot = optarg; break;
		case OPT_FIO_LOG: fio_log = optarg; break;
		case OPT_JOB: job = optarg; break;
		case OPT_OUTPUT: output = optarg; break;
		case OPT_FORMAT:
			if (cli_output_formats(optarg, CLI_OUT_NORMAL | CLI_OUT_JSON, &formats))
				return EXIT_BAD_INPUT;
			if (formats == (CLI_OUT_NORMAL | CLI_OUT_JSON)) {
				cli_error("validate: --output-format: expected normal or json, not both");
				return EXIT_BAD_INPUT;
			}
			break;
		default:
			return cli_bad_option("validate", "validate", c, argv[optind - 1]);
		}
	}
	if (fio_log ? optind != argc : argc - optind != 1) {
		cli_error(fio_log ? "validate: with --fio-log, no TRACE argument" :
			  "validate: expected one TRACE (or --fio-log FILE --job FILE.fio)");
		return EXIT_BAD_INPUT;
	}
	if (!fio_log != !job) {
		cli_error("validate: --fio-log and --job go together");
		return EXIT_BAD_INPUT;
	}
	if (!drive) {
		cli_error("validate: --drive NAME|FILE is required (the model to check)");
		return EXIT_BAD_INPUT;
	}
	m = malloc(sizeof(*m));
	if (!m || disk_model_load(drive, m, &e)) {
		cli_error("%s", m ? e.msg : "out of memory");
		goto out;
	}
	trace = fio_log ? fio_log : argv[optind];
	if (fio_log) {
		double think_ms;

		if (fio_job(job, &think_ms) ||
		    (validate_read_fio_log(fio_log, NULL, m->logical_sector_size, think_ms, &t, &e) &&
		     (cli_error("%s", e.msg), 1)))
			goto out;
	} else if (validate_read_disksim(trace, NULL, &t, &e)) {
		cli_error("%s", e.msg);
		goto out;
	}
	if (validate_run(m, &t, trace, &r, &e)) {
		cli_error("%s", e.msg);
		goto out;
	}
	if (plot && write_plot(plot, trace, m, &r))
		goto out;
	if (outfile_open(&of, output, "option '--output'", &e)) {
		cli_error("%s", e.msg);
		goto out;
	}
	if (formats & CLI_OUT_JSON)
		print_json(of.f, &r);
	else
		print_normal(of.f, trace, m, &r);
	if (outfile_commit(&of, &e)) {
		cli_error("%s", e.msg);
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	rc = 0;
out:
	validate_result_free(&r);
	validate_trace_free(&t);
	free(m);
	return rc;
}
