/*
 * ncqsim replay TRACE — replay a recorded block trace on the simulated
 * host and drive, one job per traced process, and report as fio does.
 * The options shared with `compare --trace` are parsed here too.
 */
#include "cli/cmd.h"
#include "cli/cli.h"
#include "cli/datadir.h"

#include "run/replay.h"
#include "run/runner.h"
#include "util/outfile.h"
#include "util/parse.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct option longopts[] = {
	CLI_COMMON_LONGOPTS,
	CMD_REPLAY_LONGOPTS,
	{ "runtime", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_opt cmd_replay_opts[] = {
	{ "--format", "=F", "auto (default: from the first bytes), iolog, blkparse,\n"
	  "blktrace, msr, snia-csv, disksim" },
	{ "--closed", "N", "closed loop: one job, N I/Os outstanding, times ignored" },
	{ "--speed", "X", "replay X times faster (0.5: twice as slow); default 1" },
	{ "--at", "=queue|dispatch", "blkparse, blktrace: replay Q events (default) or D" },
	{ "--prio", "RULE", "a priority: PROCESS=CLASS[:LEVEL] (a name, NAME* for a\n"
	  "prefix, or a pid), or size<64k=CLASS (also <=, >, >=);\n"
	  "CLASS rt, be, idle, or a CDL hint cdl1..cdl7; the first\n"
	  "rule that matches wins, then the trace's own ioprio;\n"
	  "repeatable" },
	{ "--skip-bad", NULL, "count malformed lines and go on instead of stopping" },
	CMD_OPT_END,
};

static const struct cmd_opt replay_own_opts[] = {
	{ "--runtime", "TIME", "stop replaying after this long" },
	CMD_OPT_END,
};

const struct cmd_doc cmd_replay_doc = {
	.usage = (const char *const[]){ "[OPTIONS] TRACE", NULL },
	.text =
		"Replays a recorded block I/O trace on the simulated drive and host and\n"
		"reports as fio 3.33 does (normal text, JSON, JSON+), one job per traced\n"
		"process (blkparse, blktrace), HOST_DISK (MSR), key column (SNIA CSV) or\n"
		"device (DiskSim), one for an iolog. Open loop by default: every I/O at its\n"
		"recorded time, whatever is outstanding, its latency counted from that time\n"
		"(lat percentiles). The trace is read once to check it and find the jobs,\n"
		"then streamed: memory does not grow with its length.\n"
		"\n"
		"Replayed events: reads and writes. blkparse and blktrace: Q (queued by the\n"
		"process), or D (issued to the driver) with --at=dispatch; other events of\n"
		"the same I/Os are passed over. Syncs, trims, discards and flushes move no\n"
		"data and are counted, not replayed. The formats are described in\n"
		"docs/REPLAY.md.\n"
		"\n"
		"example:\n"
		"  ncqsim replay examples/db-backup.blkparse --prio postgres=rt \\\n"
		"      --set device/ncq_prio_enable=1\n",
	.options = (const struct cmd_opt *const[]){ cmd_replay_opts, replay_own_opts,
						     cli_common_opts, cmd_help_opt, NULL },
	.longopts = longopts,
};

int cmd_replay_option(struct replay_opts *o, const char *cmd, int opt, const char *arg)
{
	uint64_t n;
	double v;
	char buf[64];
	size_t len;
	struct err e;

	switch (opt) {
	case CMD_REPLAY_FORMAT:
		if (strcmp(arg, "auto") && !trace_format_find(arg)) {
			char names[256];

			plugin_names(&trace_formats, names, sizeof(names));
			cli_error("%s: option '--format': expected auto, %s, got '%s'", cmd, names, arg);
			return -1;
		}
		o->format = arg;
		return 1;
	case CMD_REPLAY_CLOSED:
		if (parse_u64(arg, &n) || n < 1 || n > 65536) {
			cli_error("%s: option '--closed': expected a number of outstanding I/Os from 1 to "
				  "65536, got '%s'", cmd, arg);
			return -1;
		}
		o->closed = (unsigned)n;
		return 1;
	case CMD_REPLAY_SPEED:
		len = strlen(arg);
		if (len && len < sizeof(buf)) {
			memcpy(buf, arg, len + 1);
			if (buf[len - 1] == 'x')
				buf[len - 1] = '\0';
			if (!parse_double(buf, &v) && v > 0 && v <= 1e6) {
				o->speed = v;
				return 1;
			}
		}
		cli_error("%s: option '--speed': expected a factor above 0 such as 2 or 0.5, got '%s'",
			  cmd, arg);
		return -1;
	case CMD_REPLAY_AT:
		if (!strcmp(arg, "queue") || !strcmp(arg, "dispatch")) {
			o->trace.at_dispatch = !strcmp(arg, "dispatch");
			return 1;
		}
		cli_error("%s: option '--at': expected queue or dispatch, got '%s'", cmd, arg);
		return -1;
	case CMD_REPLAY_PRIO:
		if (o->nrules == REPLAY_MAX_RULES) {
			cli_error("%s: option '--prio': at most %d rules", cmd, REPLAY_MAX_RULES);
			return -1;
		}
		if (replay_rule_parse(arg, &o->rules[o->nrules], &e)) {
			cli_error("%s: %s", cmd, e.msg);
			return -1;
		}
		o->nrules++;
		return 1;
	case CMD_REPLAY_SKIP_BAD:
		o->trace.skip_bad = true;
		return 1;
	}
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	struct cli_common common;
	struct replay_opts rpo;
	struct replay_plan *plan = NULL;
	struct workload w;
	struct runner_opts ro;
	struct err e;
	struct outfile out;
	const char *protect[3];
	int64_t runtime_cap = 0;
	int c, rc;
	char tracepath[4096];

	cli_common_init(&common);
	memset(&rpo, 0, sizeof(rpo));
	rpo.format = "auto";
	rpo.speed = 1.0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd_doc_help("replay", &cmd_replay_doc, stdout);
			return 0;
		case 'r':
			if (cli_runtime_option("replay", optarg, &runtime_cap))
				return EXIT_BAD_INPUT;
			continue;
		}
		rc = cmd_replay_option(&rpo, "replay", c, optarg);
		if (rc < 0)
			return EXIT_BAD_INPUT;
		if (rc > 0)
			continue;
		rc = cli_common_option(&common, "replay", c, optarg);
		if (rc < 0)
			return EXIT_BAD_INPUT;
		if (rc == 0)
			return cli_bad_option("replay", "replay", c, argv[optind - 1]);
	}
	if (optind != argc - 1) {
		cli_error("replay: expected one TRACE, got %d arguments (see 'ncqsim replay --help')",
			  argc - optind);
		return EXIT_BAD_INPUT;
	}
	if (cli_common_finish(&common))
		return EXIT_BAD_INPUT;
	/* An installed ncqsim finds its example traces too, as run finds its job files. */
	rpo.path = datadir_or("examples", argv[optind], NULL, tracepath, sizeof(tracepath));
	plan = replay_plan_open(&rpo, &e);
	if (!plan) {
		cli_error("%s", e.msg);
		return EXIT_BAD_INPUT;
	}
	if (replay_workload(plan, &w, &e)) {
		cli_error("replay: %s", e.msg);
		replay_plan_free(plan);
		return EXIT_BAD_INPUT;
	}
	if (!common.quiet)
		replay_plan_describe(plan, stderr);
	if (cli_check_output("--output", common.output_path, &w, &common)) {
		rc = EXIT_BAD_INPUT;
		goto out_plan;
	}
	if (common.output_path && outfile_same_target(common.output_path, rpo.path)) {
		cli_error("option '--output': %s is the trace of this run; refusing to overwrite it",
			  rpo.path);
		rc = EXIT_BAD_INPUT;
		goto out_plan;
	}
	if (outfile_open(&out, common.output_path, "option '--output'", &e)) {
		cli_error("%s", e.msg);
		rc = EXIT_BAD_INPUT;
		goto out_plan;
	}
	memset(&ro, 0, sizeof(ro));
	ro.seed = common.seed;
	ro.runtime_cap = runtime_cap;
	ro.debug_mask = common.debug_mask;
	ro.debug_out = stderr;
	ro.sources = replay_sources(plan);
	ro.nprotect = cli_protected(&common, protect);
	protect[ro.nprotect++] = rpo.path;
	ro.protect = protect;
	rc = cli_run_report("replay", &common, &w, &ro, replay_plan_ios(plan), &out);
out_plan:
	workload_free(&w);
	replay_plan_free(plan);
	return rc;
}
