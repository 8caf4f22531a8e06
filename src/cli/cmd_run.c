/*
 * ncqsim run JOBFILE — run a fio job file on the simulated system and
 * report as fio does.
 */
#include "cli/cmd.h"
#include "cli/cli.h"
#include "cli/datadir.h"

#include "run/runner.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/parse.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct option longopts[] = {
	CLI_COMMON_LONGOPTS,
	{ "runtime", required_argument, NULL, 'r' },
	{ "help-options", no_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct cmd_opt run_opts[] = {
	{ "--runtime", "TIME", "cap every job's runtime (as fio's --runtime)" },
	{ "--help-options", NULL, "the fio options ncqsim supports" },
	{ "--help", NULL, "this text" },
	CMD_OPT_END,
};

const struct cmd_doc cmd_run_doc = {
	.usage = (const char *const[]){ "[OPTIONS] JOBFILE", NULL },
	.text =
		"Runs a fio job file on the simulated drive and host and reports as fio 3.33\n"
		"does: normal text, JSON or JSON+ (with histogram bins). The JSON adds an\n"
		"\"ncqsim\" object (drive, knobs, seed, simulated time) and, per job, how the\n"
		"completion latency splits between the host queue and the drive.\n",
	.options = (const struct cmd_opt *const[]){ cli_common_opts, run_opts, NULL },
	.longopts = longopts,
};

static void help_options(void)
{
	const struct opt_def *o;

	printf("fio options ncqsim supports (others fio has are refused by name):\n\n");
	for (o = job_option_table(); o->name; o++) {
		char want[512];

		if (o->flags & OPT_F_HIDDEN)
			continue;
		opt_expectation(o, want, sizeof(want));
		printf("  %-22s %s\n", o->name, o->help ? o->help : "");
		if (o->type != OPT_CUSTOM)
			printf("  %-22s   (%s)\n", "", want);
	}
	printf("\nAccepted and echoed, without effect in a simulation: filename, direct,\n"
	       "buffered, thread, description, invalidate, randrepeat.\n");
}

struct progress {
	enum cli_progress style;
	double wall0, last, every;
	int shown;
};

static void show_progress(void *ctx, double sim_s, uint64_t ios)
{
	struct progress *p = ctx;
	double elapsed;

	if (p->style == CLI_PROGRESS_NONE)
		return;
	elapsed = clock_wall() - p->wall0;
	if (p->style == CLI_PROGRESS_TERMINAL && elapsed >= 1.0) {
		fprintf(stderr, "\rncqsim: %.0f s simulated, %llu I/Os, %.1f s elapsed   ", sim_s,
			(unsigned long long)ios, elapsed);
		p->shown = 1;
	} else if (p->style == CLI_PROGRESS_LINES && elapsed - p->last >= p->every) {
		fprintf(stderr, "ncqsim: %.0f s simulated, %llu I/Os, %.1f s elapsed\n", sim_s,
			(unsigned long long)ios, elapsed);
		p->last = elapsed;
	}
}

int cmd_run(int argc, char **argv)
{
	struct cli_common common;
	struct workload w;
	struct runner_opts ro;
	struct runner_result res;
	struct progress prog;
	struct err e;
	struct outfile out;
	const char *protect[2];
	int64_t runtime_cap = 0;
	int c, rc;
	unsigned formats = 0;
	bool interrupted;
	char jobpath[4096];

	cli_common_init(&common);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd_doc_help("run", &cmd_run_doc, stdout);
			return 0;
		case 'H':
			help_options();
			return 0;
		case 'r':
			if (cli_runtime_option("run", optarg, &runtime_cap))
				return EXIT_BAD_INPUT;
			continue;
		}
		rc = cli_common_option(&common, "run", c, optarg);
		if (rc < 0)
			return EXIT_BAD_INPUT;
		if (rc == 0)
			return cli_bad_option("run", "run", c, argv[optind - 1]);
	}
	if (optind != argc - 1) {
		cli_error("run: expected one JOBFILE, got %d arguments (see 'ncqsim run --help')",
			  argc - optind);
		return EXIT_BAD_INPUT;
	}
	if (cli_common_finish(&common))
		return EXIT_BAD_INPUT;
	if (workload_load(&w, datadir_or("examples", argv[optind], NULL, jobpath, sizeof(jobpath)),
			  stderr, &e)) {
		cli_error("%s", e.msg);
		return EXIT_BAD_INPUT;
	}
	if (common.formats & CLI_OUT_NORMAL)
		formats |= REPORT_NORMAL;
	if (common.formats & CLI_OUT_JSON)
		formats |= REPORT_JSON;
	if (common.formats & CLI_OUT_JSONPLUS)
		formats |= REPORT_JSONPLUS;
	if (cli_check_output("--output", common.output_path, &w, &common)) {
		workload_free(&w);
		return EXIT_BAD_INPUT;
	}
	if (outfile_open(&out, common.output_path, "option '--output'", &e)) {
		cli_error("%s", e.msg);
		workload_free(&w);
		return EXIT_BAD_INPUT;
	}
	memset(&ro, 0, sizeof(ro));
	ro.seed = common.seed;
	ro.runtime_cap = runtime_cap;
	ro.debug_mask = common.debug_mask;
	ro.debug_out = stderr;
	prog.style = cli_progress_style(&common);
	prog.wall0 = clock_wall();
	prog.last = 0;
	prog.every = common.eta_interval;
	prog.shown = 0;
	ro.progress = show_progress;
	ro.progress_ctx = &prog;
	ro.nprotect = cli_protected(&common, protect);
	ro.protect = protect;
	ro.stop = &cli_interrupted;
	cli_catch_interrupts();
	rc = runner_run(&w, &common.cfg, &ro, &res, &e);
	if (prog.shown)
		fprintf(stderr, "\r\033[K");
	if (rc) {
		cli_error("%s", e.msg);
		outfile_abort(&out);
		workload_free(&w);
		/* A drive or knob the system refuses is bad input; the rest a failed run. */
		return rc == RUNNER_REFUSED ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	if (res.report.interrupted)
		cli_error("run: interrupted by signal %d after %.1f s simulated: the report covers "
			  "the time until then", (int)cli_interrupted, res.sim_seconds);
	if (formats & REPORT_NORMAL)
		report_write_header(out.f, &res.report);
	rc = report_write(out.f, &res.report, formats);
	interrupted = res.report.interrupted;
	runner_result_free(&res);
	workload_free(&w);
	if (rc) {
		outfile_abort(&out);
		cli_error("out of memory while writing the report");
		return EXIT_RUN_FAILED;
	}
	if (outfile_commit(&out, &e)) {
		cli_error("%s", e.msg);
		return EXIT_RUN_FAILED;
	}
	/* A report, but not of the run asked for. */
	return interrupted ? EXIT_RUN_FAILED : 0;
}
