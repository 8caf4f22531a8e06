/*
 * ncqsim run JOBFILE — run a fio job file on the simulated system and
 * report as fio does.
 */
#include "cli/cmd.h"
#include "cli/cli.h"
#include "cli/datadir.h"

#include "run/runner.h"
#include "util/outfile.h"
#include "util/parse.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct option longopts[] = {
	CLI_COMMON_LONGOPTS,
	{ "runtime", required_argument, NULL, 'r' },
	/* Taken out of argv before getopt (split_cmdline): listed for the docs' checks. */
	{ "name", required_argument, NULL, 'N' },
	{ "section", required_argument, NULL, 'S' },
	{ "help-options", no_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct cmd_opt run_opts[] = {
	{ "--runtime", "TIME", "cap every job's runtime (as fio's --runtime)" },
	{ "--name", "NAME", "start a job on the command line, as fio: the --OPTION=VALUE and --FLAG "
	  "job options after it are its own, those before the first --name every job's" },
	{ "--section", "NAME", "run only the job NAME of the job files (again for more)" },
	{ "--help-options", NULL, "the fio options ncqsim supports" },
	{ "--help", NULL, "this text" },
	CMD_OPT_END,
};

const struct cmd_doc cmd_run_doc = {
	.usage = (const char *const[]){ "[OPTIONS] [--JOBOPTION=VALUE...] JOBFILE...",
					"[OPTIONS] --name=NAME --JOBOPTION=VALUE... [JOBFILE...]", NULL },
	.text =
		"Runs a fio job file on the simulated drive and host and reports as fio 3.33\n"
		"does: normal text, JSON or JSON+ (with histogram bins). The JSON adds an\n"
		"\"ncqsim\" object (drive, knobs, seed, simulated time) and, per job, how the\n"
		"completion latency splits between the host queue and the drive.\n"
		"\n"
		"As fio's command line: several job files run as one (\"-\" reads one from\n"
		"standard input), and fio's job options are taken as --OPTION=VALUE or --FLAG.\n",
	.options = (const struct cmd_opt *const[]){ cli_common_opts, run_opts, NULL },
	.longopts = longopts,
};

static void help_options(void)
{
	const struct opt_def *o;
	const struct job_no_effect *n;

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
	printf("\nAccepted and echoed, without effect in a simulation:\n");
	for (n = job_no_effect_table(); n->name; n++)
		printf("  %-22s %s\n", n->name, n->why);
}

/* Whether --NAME is one of ncqsim's own options (they win over a job option of that name). */
static bool own_option(const char *name, size_t len)
{
	const struct option *o;

	for (o = longopts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return true;
	return false;
}

static bool job_option_named(const char *name, size_t len)
{
	const struct opt_def *o;

	for (o = job_option_table(); o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return true;
	return false;
}

/* Text grown as the command line's job lines are collected. */
struct cmdline_jobs {
	char *text;
	size_t len, cap;
	bool any_job;
};

static int cmdline_add(struct cmdline_jobs *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (c->len + (size_t)n + 1 > c->cap) {
		size_t cap = (c->len + (size_t)n + 1) * 2;
		char *t = realloc(c->text, cap);

		if (!t)
			return -1;
		c->text = t;
		c->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(c->text + c->len, c->cap - c->len, fmt, ap);
	va_end(ap);
	c->len += (size_t)n;
	return 0;
}

/*
 * fio's command line: --name=N starts a job; --OPTION=VALUE and --FLAG of
 * fio's job options go to it (before the first --name: to [global]);
 * --section=N picks jobs. What is left (ncqsim's options, job files) is
 * returned in argv's order for getopt. Returns the new argc, -1 on error.
 */
static int split_cmdline(int argc, char **argv, struct cmdline_jobs *c, const char **sections,
			 size_t *nsections)
{
	int i, n = 1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		char key[64];
		size_t len;

		if (strncmp(a, "--", 2) || !a[2]) {
			argv[n++] = argv[i];
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		if (len == 7 && !strncmp(a, "section", 7) && eq) {
			sections[(*nsections)++] = eq + 1;
			continue;
		}
		if (len == 4 && !strncmp(a, "name", 4) && eq) {
			if (!eq[1] || strpbrk(eq + 1, "[]\n")) {
				cli_error("run: --name=%s: expected a job name", eq + 1);
				return -1;
			}
			if (cmdline_add(c, "[%s]\n", eq + 1))
				goto oom;
			c->any_job = true;
			continue;
		}
		if (own_option(a, len)) {
			argv[n++] = argv[i];
			continue;
		}
		if (len < sizeof(key)) {
			memcpy(key, a, len);
			key[len] = '\0';
		}
		if (len >= sizeof(key) || (!job_option_named(a, len) && !job_fio_knows(key))) {
			argv[n++] = argv[i];	/* getopt names it */
			continue;
		}
		if (strpbrk(a, "\n;#")) {
			cli_error("run: --%s: a job option's value is one line, without ';' or '#'", a);
			return -1;
		}
		/* Before any --name: every job's, fio's global options. */
		if ((!c->len && cmdline_add(c, "[global]\n")) || cmdline_add(c, "%s\n", a))
			goto oom;
	}
	return n;
oom:
	cli_error("run: out of memory");
	return -1;
}

int cmd_run(int argc, char **argv)
{
	struct cli_common common;
	struct workload w;
	struct runner_opts ro;
	struct err e;
	struct outfile out;
	const char *protect[2];
	int64_t runtime_cap = 0;
	int c, rc;
	struct cmdline_jobs cj;
	struct workload_sources src;
	const char **sections, **paths;
	char (*jobpath)[4096];
	int i;

	cli_common_init(&common);
	memset(&cj, 0, sizeof(cj));
	memset(&src, 0, sizeof(src));
	sections = calloc((size_t)argc, sizeof(*sections));
	if (!sections) {
		cli_error("run: out of memory");
		return EXIT_RUN_FAILED;
	}
	argc = split_cmdline(argc, argv, &cj, sections, &src.nsections);
	if (argc < 0) {
		free(cj.text);
		free(sections);
		return EXIT_BAD_INPUT;
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd_doc_help("run", &cmd_run_doc, stdout);
			rc = 0;
			goto early;
		case 'H':
			help_options();
			rc = 0;
			goto early;
		case 'r':
			if (cli_runtime_option("run", optarg, &runtime_cap)) {
				rc = EXIT_BAD_INPUT;
				goto early;
			}
			continue;
		}
		rc = cli_common_option(&common, "run", c, optarg);
		if (rc < 0) {
			rc = EXIT_BAD_INPUT;
			goto early;
		}
		if (rc == 0) {
			rc = cli_bad_option("run", "run", c, argv[optind - 1]);
			goto early;
		}
	}
	if (optind == argc && !cj.any_job) {
		cli_error("run: expected a JOBFILE or --name=NAME (see 'ncqsim run --help')");
		rc = EXIT_BAD_INPUT;
		goto early;
	}
	if (cli_common_finish(&common)) {
		rc = EXIT_BAD_INPUT;
		goto early;
	}
	src.npaths = (size_t)(argc - optind);
	paths = calloc(src.npaths + 1, sizeof(*paths));
	jobpath = calloc(src.npaths + 1, sizeof(*jobpath));
	if (!paths || !jobpath) {
		free(paths);
		free(jobpath);
		cli_error("run: out of memory");
		rc = EXIT_RUN_FAILED;
		goto early;
	}
	for (i = optind; i < argc; i++)
		paths[i - optind] = strcmp(argv[i], "-") ?
			datadir_or("examples", argv[i], NULL, jobpath[i - optind], sizeof(*jobpath)) :
			"-";
	src.cmdline = cj.text;
	src.paths = paths;
	src.sections = sections;
	rc = workload_load_sources(&w, &src, stderr, &e);
	free(paths);
	free(jobpath);
	free(cj.text);
	free(sections);
	if (rc) {
		cli_error("%s", e.msg);
		return EXIT_BAD_INPUT;
	}
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
	ro.nprotect = cli_protected(&common, protect);
	ro.protect = protect;
	rc = cli_run_report("run", &common, &w, &ro, 0, &out);
	workload_free(&w);
	return rc;
early:
	free(cj.text);
	free(sections);
	return rc;
}
