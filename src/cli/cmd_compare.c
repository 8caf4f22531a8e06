/*
 * ncqsim compare JOBFILE --vary KEY=V1,V2 ... — one job file under several
 * system variants, each repeated with independent seeds, as one table of
 * percentiles with 95 % confidence half-widths; JSON and an SVG plot.
 */
#include "cli/cmd.h"
#include "cli/cli.h"
#include "cli/datadir.h"

#include "run/compare.h"
#include "run/replay.h"
#include "run/runner.h"
#include "util/outfile.h"
#include "util/clock.h"
#include "util/input.h"
#include "util/parse.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_MAX_REPEAT 64

enum { O_VARY = 0x200, O_REPEAT, O_PRECISION, O_MAX_REPEAT, O_PCT, O_PLOT, O_THREADS, O_RUNTIME,
       O_TRACE, O_SHARD };

static const struct option longopts[] = {
	CLI_COMMON_LONGOPTS,
	{ "vary", required_argument, NULL, O_VARY },
	{ "repeat", required_argument, NULL, O_REPEAT },
	{ "precision", required_argument, NULL, O_PRECISION },
	{ "max-repeat", required_argument, NULL, O_MAX_REPEAT },
	{ "percentiles", required_argument, NULL, O_PCT },
	{ "plot", required_argument, NULL, O_PLOT },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "runtime", required_argument, NULL, O_RUNTIME },
	{ "trace", required_argument, NULL, O_TRACE },
	{ "shard", required_argument, NULL, O_SHARD },
	CMD_REPLAY_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct cmd_opt compare_opts[] = {
	{ "--vary", "KEY=V1,V2", "a knob or drive.KEY and its values; repeatable (the\n"
	  "last --vary changes fastest across the variants)" },
	{ "--repeat", "N", "independent runs per variant (default 1; 2 or more\n"
	  "give error bars)" },
	{ "--precision", "P%", "add runs until every p99.99 has a half-width of at\n"
	  "most P % of its mean, or --max-repeat is reached\n"
	  "(then says so); needs p99.99 among --percentiles" },
	{ "--max-repeat", "N", "the limit for --precision (default " STR(DEFAULT_MAX_REPEAT)
	  ", at most " STR(CMP_MAX_RUNS) ")" },
	{ "--percentiles", "LIST", "percentiles to tabulate, ':' or ',' separated\n"
	  "(default 50:99:99.9:99.99)" },
	{ "--plot", "FILE.svg", "latency exceedance plot, one line per variant, job\n"
	  "and priority class" },
	{ "--threads", "N", "simulations at once (default: the online CPUs)" },
	{ "--runtime", "TIME", "cap every job's runtime (as fio's --runtime)" },
	{ "--trace", "TRACE", "replay a trace instead of running a job file, as\n"
	  "'ncqsim replay' does, with its options (below);\n"
	  "a replay draws no random numbers: every run of a\n"
	  "variant is the same, so --repeat adds nothing" },
	{ "--shard", "I/N", "run only shard I of N and write its results as JSON\n"
	  "for 'ncqsim merge' (see below)" },
	CMD_OPT_END,
};

const struct cmd_doc cmd_compare_doc = {
	.usage = (const char *const[]){
		"[OPTIONS] JOBFILE --vary KEY=V1,V2[,...] [--vary ...]",
		"[OPTIONS] --trace TRACE --vary KEY=V1,V2[,...] [--vary ...]", NULL },
	.text =
		"Runs a fio job file under every combination of the --vary values (a knob\n"
		"such as device/ncq_prio_enable, queue/scheduler or device/queue_depth, or a\n"
		"drive parameter drive.KEY), each combination a variant A, B, ... Each\n"
		"variant runs --repeat times with seeds SEED, SEED+1, ..., in parallel\n"
		"threads, one simulation per thread. The table has a block of rows per job,\n"
		"direction and priority class, a column per variant, and in each cell the\n"
		"mean over the runs ± the 95 % confidence half-width (Student t, n-1\n"
		"degrees of freedom) of each percentile (in ms), the maximum and IOPS.\n"
		"With --output-format json or json+, the report holds every run's full fio\n"
		"report.\n"
		"\n"
		"example:\n"
		"  ncqsim compare examples/seed.fio --system examples/seed.system \\\n"
		"      --vary device/ncq_prio_enable=0,1 --repeat 8 --plot seed.svg\n",
	.options = (const struct cmd_opt *const[]){ compare_opts, cmd_replay_opts, cli_common_opts,
						     cmd_help_opt, NULL },
	.after =
		"Shards: the runs of a sweep are its cells, variant v (0, 1, ... in --vary\n"
		"order) and run r (seed SEED+r); cell number r x variants + v goes to shard\n"
		"(number mod N) + 1. So shards can run anywhere, in any order, with any\n"
		"--threads. Each writes JSON (to --output) holding its runs' table rows as\n"
		"histograms and their fio reports (json+ with --output-format=json+), and\n"
		"the sweep's identity: job file and system file hashes, --set and --drive,\n"
		"seed, --repeat, --percentiles, --runtime and the variants. 'ncqsim merge\n"
		"SHARD.json...' checks that identity, refuses a cell twice or a missing one,\n"
		"and prints what the unsharded compare prints. With --trace the trace's hash\n"
		"and the replay options stand for the job file's. --precision adds runs as\n"
		"it goes, so it cannot be sharded.\n"
		"\n"
		"  ncqsim compare examples/seed.fio --system examples/seed.system \\\n"
		"      --vary device/ncq_prio_enable=0,1 --repeat 8 --shard 2/3 --output s2.json\n",
	.longopts = longopts,
};

static int parse_count(const char *opt, const char *arg, unsigned lo, unsigned hi, unsigned *v)
{
	uint64_t n;

	if (parse_u64(arg, &n) || n < lo || n > hi) {
		cli_error("compare: option '%s': expected a whole number from %u to %u, got '%s'", opt,
			  lo, hi, arg);
		return -1;
	}
	*v = (unsigned)n;
	return 0;
}

/* "5%", "5" → 0.05. */
static int parse_precision(const char *arg, double *v)
{
	char buf[64];
	size_t len = strlen(arg);
	double pct;

	if (len && len < sizeof(buf)) {
		memcpy(buf, arg, len + 1);
		if (buf[len - 1] == '%')
			buf[len - 1] = '\0';
		if (!parse_double(buf, &pct) && pct > 0 && pct < 100) {
			*v = pct / 100.0;
			return 0;
		}
	}
	cli_error("compare: option '--precision': expected a percentage above 0 and below 100 such "
		  "as 5%%, got '%s'", arg);
	return -1;
}

static int parse_percentiles(const char *arg, struct compare *c)
{
	char buf[512], *p, *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		goto bad;
	strcpy(buf, arg);
	c->npct = 0;
	for (p = strtok_r(buf, ":,", &save); p; p = strtok_r(NULL, ":,", &save)) {
		double v;
		unsigned k;

		if (parse_double(p, &v) || v <= 0 || v >= 100 || c->npct == CMP_MAX_PCT)
			goto bad;
		for (k = 0; k < c->npct; k++)
			if (c->pct[k] == v)
				goto bad;
		c->pct[c->npct++] = v;
	}
	if (c->npct)
		return 0;
bad:
	cli_error("compare: option '--percentiles': expected up to %d different numbers above 0 "
		  "and below 100, separated by ':' or ',', got '%s'", CMP_MAX_PCT, arg);
	return -1;
}

/* "I/N", 1 <= I <= N <= the cells a sweep can have. */
static int parse_shard(const char *arg, struct compare *c)
{
	unsigned long i, n;
	char *end;

	if (arg[0] >= '0' && arg[0] <= '9') {
		i = strtoul(arg, &end, 10);
		if (*end == '/' && end[1] >= '0' && end[1] <= '9') {
			n = strtoul(end + 1, &end, 10);
			if (!*end && i >= 1 && i <= n && n <= CMP_MAX_VARIANTS * CMP_MAX_RUNS) {
				c->shard = (unsigned)i;
				c->nshards = (unsigned)n;
				return 0;
			}
		}
	}
	cli_error("compare: option '--shard': expected I/N with 1 <= I <= N <= %d, such as 2/3, "
		  "got '%s'", CMP_MAX_VARIANTS * CMP_MAX_RUNS, arg);
	return -1;
}

/* FNV-1a of a file's bytes as hex, or "none" for no file; -1 if it cannot be read. */
static int file_hash(const char *path, char *out, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct err e;
	char *buf;
	size_t n, i;

	if (!path) {
		snprintf(out, len, "none");
		return 0;
	}
	if (input_read(path, "file", (size_t)1 << 30, false, &buf, &n, &e)) {
		cli_error("compare: %s", e.msg);
		return -1;
	}
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)buf[i];
		h *= 0x100000001b3ULL;
	}
	free(buf);
	snprintf(out, len, "fnv1a64:%016llx", (unsigned long long)h);
	return 0;
}

/* "--name=value" of a long option (its value NULL for a flag), after those already in buf. */
static void append_option(char *buf, size_t size, int opt, const char *value)
{
	const struct option *o;
	size_t len = strlen(buf);

	for (o = longopts; o->name && o->val != opt; o++)
		;
	if (o->name && len < size)
		snprintf(buf + len, size - len, "%s--%s%s%s", len ? " " : "", o->name,
			 value ? "=" : "", value ? value : "");
}

static void add_ident(struct compare *c, const char *key, const char *value)
{
	if (c->nident == CMP_MAX_IDENT)
		return;
	snprintf(c->ident[c->nident].key, sizeof(c->ident[0].key), "%s", key);
	snprintf(c->ident[c->nident].value, sizeof(c->ident[0].value), "%s", value);
	c->nident++;
}

/* What a shard must share with the others, beyond what struct compare holds. */
static int shard_identity(struct compare *c, const char *jobpath, const char *replay_args,
			  const struct cli_common *common)
{
	char buf[1024];
	size_t len = 0;
	unsigned k;

	if (file_hash(jobpath, buf, sizeof(buf)))
		return -1;
	/* A trace's replay options shape its jobs as a job file's lines do. */
	if (replay_args) {
		add_ident(c, "trace file hash", buf);
		add_ident(c, "replay options", replay_args);
	} else
		add_ident(c, "job file hash", buf);
	if (file_hash(common->system_file ? (common->system_path[0] ? common->system_path :
					     common->system_file) : NULL, buf, sizeof(buf)))
		return -1;
	add_ident(c, "system file hash", buf);
	buf[0] = '\0';
	for (k = 0; k < common->nsets && len < sizeof(buf); k++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", k ? " " : "",
					common->sets[k]);
	add_ident(c, "sets", buf);
	add_ident(c, "drive option", common->drive ? common->drive : "");
	return 0;
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > CMP_MAX_THREADS ? CMP_MAX_THREADS : (unsigned)n;
}

int cmd_compare(int argc, char **argv)
{
	static const double default_pct[] = { 50, 99, 99.9, 99.99 };
	const char *vary[CMP_MAX_VARY + 1];
	unsigned nvary = 0, k;
	struct cli_common common;
	char jobpath[4096], tracepath[4096], replay_args[1024] = "";
	const char *jobfound = NULL;
	struct compare *c;
	struct workload w;
	struct err e;
	const char *plot = NULL, *trace = NULL;
	struct replay_opts rpo;
	struct replay_plan *plan = NULL;
	bool repeat_set = false, max_repeat_set = false, replay_opt = false;
	double wall0;
	struct outfile out;
	const char *protect[3];
	int opt, common_rc, rc = EXIT_BAD_INPUT;

	/* The table of runs is large: on the heap, not the stack. */
	c = calloc(1, sizeof(*c));
	if (!c) {
		cli_error("compare: out of memory");
		return EXIT_RUN_FAILED;
	}
	cli_common_init(&common);
	memset(&rpo, 0, sizeof(rpo));
	rpo.format = "auto";
	rpo.speed = 1.0;
	c->repeat = 1;
	c->max_repeat = DEFAULT_MAX_REPEAT;
	c->threads = online_cpus();
	memcpy(c->pct, default_pct, sizeof(default_pct));
	c->npct = sizeof(default_pct) / sizeof(default_pct[0]);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			cmd_doc_help("compare", &cmd_compare_doc, stdout);
			free(c);
			return 0;
		case O_VARY:
			if (nvary == CMP_MAX_VARY) {
				cli_error("compare: option '--vary': at most %d of them", CMP_MAX_VARY);
				goto out_free;
			}
			vary[nvary++] = optarg;
			continue;
		case O_REPEAT:
			if (parse_count("--repeat", optarg, 1, CMP_MAX_RUNS, &c->repeat))
				goto out_free;
			repeat_set = true;
			continue;
		case O_MAX_REPEAT:
			if (parse_count("--max-repeat", optarg, 2, CMP_MAX_RUNS, &c->max_repeat))
				goto out_free;
			max_repeat_set = true;
			continue;
		case O_PRECISION:
			if (parse_precision(optarg, &c->precision))
				goto out_free;
			continue;
		case O_PCT:
			if (parse_percentiles(optarg, c))
				goto out_free;
			continue;
		case O_PLOT:
			plot = optarg;
			continue;
		case O_THREADS:
			if (parse_count("--threads", optarg, 1, CMP_MAX_THREADS, &c->threads))
				goto out_free;
			continue;
		case O_RUNTIME:
			if (cli_runtime_option("compare", optarg, &c->runtime_cap))
				goto out_free;
			continue;
		case O_TRACE:
			trace = optarg;
			continue;
		case O_SHARD:
			if (parse_shard(optarg, c))
				goto out_free;
			continue;
		}
		common_rc = cmd_replay_option(&rpo, "compare", opt, optarg);
		if (common_rc < 0)
			goto out_free;
		if (common_rc > 0) {
			replay_opt = true;
			append_option(replay_args, sizeof(replay_args), opt, optarg);
			continue;
		}
		common_rc = cli_common_option(&common, "compare", opt, optarg);
		if (common_rc < 0)
			goto out_free;
		if (common_rc == 0) {
			cli_bad_option("compare", "compare", opt, argv[optind - 1]);
			goto out_free;
		}
	}
	if (common.formats & CLI_OUT_TERSE) {
		/* fio's terse lines describe one run's jobs; compare's tables are its own. */
		cli_error("compare: option '--output-format': terse is for 'ncqsim run' and 'replay'; "
			  "compare writes normal, json or json+");
		goto out_free;
	}
	if (trace && optind != argc) {
		cli_error("compare: expected a JOBFILE or --trace, not both (see 'ncqsim compare --help')");
		goto out_free;
	}
	if (!trace && optind != argc - 1) {
		cli_error("compare: expected one JOBFILE, got %d arguments (see 'ncqsim compare --help')",
			  argc - optind);
		goto out_free;
	}
	if (replay_opt && !trace) {
		cli_error("compare: --format, --closed, --speed, --at, --prio and --skip-bad are "
			  "options of --trace, which is not given");
		goto out_free;
	}
	if (common.debug_mask) {
		cli_error("compare: option '--debug' traces one simulation; use 'ncqsim run' for that");
		goto out_free;
	}
	if (c->precision > 0) {
		bool has_tail = false;

		for (k = 0; k < c->npct; k++)
			has_tail |= fabs(c->pct[k] - 99.99) < 1e-9;
		if (!has_tail) {
			cli_error("compare: option '--precision' applies to p99.99, which --percentiles "
				  "leaves out");
			goto out_free;
		}
		/* A half-width needs at least two runs; start with a round of every thread. */
		if (!repeat_set)
			c->repeat = c->threads < 2 ? 2 : c->threads;
		if (c->repeat > c->max_repeat) {
			cli_error("compare: option '--repeat' (%u) is above --max-repeat (%u)", c->repeat,
				  c->max_repeat);
			goto out_free;
		}
	} else if (max_repeat_set) {
		cli_error("compare: option '--max-repeat' is the limit for --precision, which is not set");
		goto out_free;
	}
	if (c->nshards && c->precision > 0) {
		cli_error("compare: option '--shard': --precision decides the runs as it goes, so "
			  "it cannot be split into shards");
		goto out_free;
	}
	if (c->nshards && plot) {
		cli_error("compare: option '--plot' is for 'ncqsim merge' when --shard is given");
		goto out_free;
	}
	if (cli_common_finish(&common))
		goto out_free;
	if (trace) {
		trace = datadir_or("examples", trace, NULL, tracepath, sizeof(tracepath));
		rpo.path = trace;
		plan = replay_plan_open(&rpo, &e);
		if (!plan) {
			cli_error("compare: %s", e.msg);
			goto out_free;
		}
		if (replay_workload(plan, &w, &e)) {
			cli_error("compare: %s", e.msg);
			goto out_free;
		}
		if (!common.quiet)
			replay_plan_describe(plan, stderr);
		if (c->repeat > 1 && !common.quiet)
			cli_warn("compare: a replay draws no random numbers: the %u runs of each variant "
				 "are the same, and their confidence intervals are zero", c->repeat);
		c->sources = replay_sources(plan);
	} else if (jobfound = datadir_or("examples", argv[optind], NULL, jobpath, sizeof(jobpath)),
		   workload_load(&w, jobfound, stderr, &e)) {
		cli_error("%s", e.msg);
		goto out_free;
	}
	c->w = &w;
	c->jobfile = trace ? trace : argv[optind];
	c->seed = common.seed;
	c->progress = (int)cli_progress_style(&common);
	c->progress_every = common.eta_interval;
	c->stop = &cli_interrupted;
	c->keep_reports = (common.formats & (CLI_OUT_JSON | CLI_OUT_JSONPLUS)) != 0 || c->nshards;
	if (compare_variants(c, &common.cfg, vary, nvary, &e)) {
		cli_error("compare: %s", e.msg);
		goto out_workload;
	}
	if (c->nshards && shard_identity(c, trace ? trace : jobfound, trace ? replay_args : NULL,
					 &common))
		goto out_workload;
	if (cli_check_output("--output", common.output_path, &w, &common) ||
	    (plot && cli_check_output("--plot", plot, &w, &common)))
		goto out_workload;
	if (trace && ((common.output_path && outfile_same_target(common.output_path, trace)) ||
		      (plot && outfile_same_target(plot, trace)))) {
		cli_error("compare: %s is the trace of this run; refusing to overwrite it", trace);
		goto out_workload;
	}
	if (plot && common.output_path && outfile_same_target(plot, common.output_path)) {
		cli_error("compare: options '--plot' and '--output' name the same file, %s", plot);
		goto out_workload;
	}
	if (outfile_open(&out, common.output_path, "option '--output'", &e)) {
		cli_error("compare: %s", e.msg);
		goto out_workload;
	}
	c->nprotect = cli_protected(&common, protect);
	if (trace)
		protect[c->nprotect++] = trace;
	c->protect = protect;
	wall0 = clock_wall();
	cli_catch_interrupts();
	rc = compare_run(c, &e);
	if (rc) {
		cli_error("compare: %s", e.msg);
		rc = rc == RUNNER_REFUSED ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		goto out_close;
	}
	if (c->nshards) {
		if (c->interrupted) {
			cli_error("compare: interrupted by signal %d: shard %u/%u not written",
				  (int)cli_interrupted, c->shard, c->nshards);
			rc = EXIT_RUN_FAILED;
			goto out_close;
		}
		if (compare_write_shard(c, out.f, (common.formats & CLI_OUT_JSONPLUS) != 0, &e)) {
			cli_error("compare: %s", e.msg);
			rc = EXIT_RUN_FAILED;
			goto out_close;
		}
	} else if (common.formats & CLI_OUT_NORMAL)
		compare_print_table(c, out.f);
	if (!c->nshards && (common.formats & (CLI_OUT_JSON | CLI_OUT_JSONPLUS)) &&
	    compare_write_json(c, out.f, (common.formats & CLI_OUT_JSONPLUS) != 0)) {
		cli_error("compare: out of memory while writing the JSON report");
		rc = EXIT_RUN_FAILED;
		goto out_close;
	}
	if (plot && compare_plot(c, plot, &e)) {
		cli_error("compare: %s", e.msg);
		rc = EXIT_RUN_FAILED;
		goto out_close;
	}
	if (outfile_commit(&out, &e)) {
		cli_error("compare: %s", e.msg);
		rc = EXIT_RUN_FAILED;
		goto out_workload;
	}
	if (c->interrupted) {
		cli_error("compare: interrupted by signal %d: %u of %u runs finished; the table "
			  "holds those", (int)cli_interrupted, c->runs_done,
			  c->runs_per_variant * c->nvariants);
		rc = EXIT_RUN_FAILED;
		goto out_workload;
	}
	if (c->precision > 0 && !c->precision_reached)
		cli_warn("compare: %s", c->precision_note);
	if (!common.quiet)
		fprintf(stderr, "ncqsim: %.0f s simulated in %.1f CPU-s, %.2fM I/Os per CPU-second; "
			"%.1f s wall on %u thread%s\n", c->sim_seconds, c->cpu_seconds,
			c->cpu_seconds > 0 ? (double)c->ios / c->cpu_seconds / 1e6 : 0.0,
			clock_wall() - wall0, c->threads, c->threads == 1 ? "" : "s");
	rc = 0;
	goto out_workload;
out_close:
	outfile_abort(&out);
out_workload:
	compare_free(c);
	workload_free(&w);
out_free:
	replay_plan_free(plan);
	free(c);
	return rc;
}
