#include "cli/cli.h"

#include "cli/datadir.h"
#include "disk/model.h"
#include "util/input.h"
#include "util/outfile.h"
#include "workload/job.h"

#include "sim/sim.h"
#include "run/runner.h"
#include "run/system.h"
#include "util/clock.h"
#include "util/parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ncqsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ncqsim: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint8_t *cli_read_file(const char *path, size_t limit, size_t *len)
{
	char *buf;
	struct err e;

	if (input_read(path, "file", limit, false, &buf, len, &e)) {
		cli_error("%s", e.msg);
		return NULL;
	}
	return (uint8_t *)buf;
}

int cli_output_formats(const char *list, unsigned allowed, unsigned *formats)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "normal", CLI_OUT_NORMAL }, { "json", CLI_OUT_JSON }, { "json+", CLI_OUT_JSONPLUS },
		{ "terse", CLI_OUT_TERSE },
	};
	const unsigned nnames = sizeof(names) / sizeof(names[0]);
	char buf[256], *tok, *save = NULL;
	unsigned f = 0, i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < nnames; i++)
			if (!strcmp(tok, names[i].name) && (allowed & names[i].bit))
				break;
		if (i == nnames) {
			cli_error("option '--output-format': expected %s, got '%s'",
				  allowed & CLI_OUT_TERSE ? "a comma list of normal, json, json+, terse" :
				  allowed & CLI_OUT_JSONPLUS ? "a comma list of normal, json, json+" :
				  "normal or json", tok);
			return -1;
		}
		f |= names[i].bit;
	}
	if (!f) {
		cli_error("option '--output-format': expected a format, got '%s'", list);
		return -1;
	}
	*formats = f;
	return 0;
}

int cli_bad_option(const char *cmd, const char *help, int opt, const char *arg)
{
	if (opt == ':')
		cli_error("%s: option '%s' needs a value", cmd, arg);
	else
		cli_error("%s: unknown option '%s' (see 'ncqsim %s --help')", cmd, arg, help);
	return 2;
}

int cli_runtime_option(const char *cmd, const char *arg, int64_t *cap)
{
	if (parse_time(arg, 1000000000LL, cap) || *cap <= 0) {
		cli_error("%s: option '--runtime': expected a time such as 30s, got '%s'", cmd, arg);
		return -1;
	}
	return 0;
}

unsigned cli_protected(const struct cli_common *c, const char *files[2])
{
	unsigned n = 0;

	if (c->system_file)
		files[n++] = c->system_file;
	/* A built-in drive is a name, not a file: only a file that exists counts. */
	if (access(c->cfg.drive, F_OK) == 0)
		files[n++] = c->cfg.drive;
	return n;
}

int cli_check_output(const char *option, const char *path, const struct workload *w,
		     const struct cli_common *c)
{
	const char *files[2];
	unsigned i, n;

	if (!path || !strcmp(path, "-"))
		return 0;
	for (i = 0; i < w->ninputs; i++)
		if (outfile_same_target(path, w->inputs[i])) {
			cli_error("option '%s': %s is %s of this run; refusing to overwrite it", option,
				  path, i ? "a file the job file includes" : "the job file");
			return -1;
		}
	n = cli_protected(c, files);
	for (i = 0; i < n; i++)
		if (outfile_same_target(path, files[i])) {
			cli_error("option '%s': %s is the %s of this run; refusing to overwrite it",
				  option, path, files[i] == c->system_file ? "system file" :
				  "drive model file");
			return -1;
		}
	return 0;
}

const struct cmd_opt cli_common_opts[] = {
	{ "--drive", "NAME|FILE", "drive model (default he8; see 'ncqsim drives')" },
	{ "--set", "KEY=VALUE", "a sysfs knob (see 'ncqsim knobs') or drive.KEY, a drive\n"
	  "parameter (see 'ncqsim drives NAME'); repeatable" },
	{ "--system", "FILE", "knobs and drive from a file (KEY = VALUE lines);\n"
	  "--set and --drive win over it" },
	{ "--seed", "N", "random seed (default 1)" },
	{ "--output-format", "=F", "normal, json, json+, terse (a comma list; printed in fio's\n"
	  "order: terse, json, normal)" },
	{ "--terse-version", "=N", "fio's terse format version: ncqsim writes 3" },
	{ "--minimal", NULL, "terse output (--output-format=terse), as fio" },
	{ "--output", "FILE", "write the report there" },
	{ "--debug", "=LIST", "trace sim,job,blk,sched,ata,disk (or all) on stderr" },
	{ "--quiet", NULL, "no progress line (--eta=never)" },
	{ "--eta", "=WHEN", "progress on stderr: auto (on a terminal), always (a line\n"
	  "every --eta-interval when not a terminal), never" },
	{ "--eta-interval", "=TIME", "time between progress lines (default 10s; on a\n"
	  "terminal the line shows after 1 s, or this if shorter)" },
	CMD_OPT_END,
};

/* cli_common_init() zeroes what follows cfg; host_config_init() zeroes cfg itself. */
_Static_assert(offsetof(struct cli_common, cfg) == 0 &&
	       offsetof(struct cli_common, system_file) == sizeof(struct host_config),
	       "struct cli_common: cfg first, system_file right after it");

void cli_common_init(struct cli_common *c)
{
	memset(&c->system_file, 0, sizeof(*c) - offsetof(struct cli_common, system_file));
	host_config_init(&c->cfg);
	c->seed = 1;
	c->formats = CLI_OUT_NORMAL;
	c->eta_interval = CLI_PROGRESS_EVERY;
}

int cli_common_option(struct cli_common *c, const char *cmd, int opt, const char *arg)
{
	char err[256];

	switch (opt) {
	case CLI_OPT_DRIVE:
		c->drive = arg;
		return 1;
	case CLI_OPT_SET:
		if (c->nsets == CLI_MAX_SETS) {
			cli_error("%s: more than %d --set options", cmd, CLI_MAX_SETS);
			return -1;
		}
		c->sets[c->nsets++] = arg;
		return 1;
	case CLI_OPT_SYSTEM:
		c->system_file = arg;
		return 1;
	case CLI_OPT_SEED:
		if (parse_u64(arg, &c->seed)) {
			cli_error("%s: option '--seed': expected an integer, got '%s'", cmd, arg);
			return -1;
		}
		c->seed_set = true;
		return 1;
	case CLI_OPT_FORMAT:
		return cli_output_formats(arg, CLI_OUT_NORMAL | CLI_OUT_JSON | CLI_OUT_JSONPLUS |
					  CLI_OUT_TERSE, &c->formats) ? -1 : 1;
	case CLI_OPT_MINIMAL:
		c->formats = CLI_OUT_TERSE;
		return 1;
	case CLI_OPT_TERSE_VERSION:
		/* fio takes 2 to 5; the terse layout ncqsim writes is version 3, fio's default. */
		if (strcmp(arg, "3")) {
			cli_error("%s: option '--terse-version': ncqsim writes terse version 3 only, got "
				  "'%s'", cmd, arg);
			return -1;
		}
		return 1;
	case CLI_OPT_OUTPUT:
		c->output_path = arg;
		return 1;
	case CLI_OPT_DEBUG:
		if (sim_debug_parse(arg, &c->debug_mask, err, sizeof(err))) {
			cli_error("%s: %s", cmd, err);
			return -1;
		}
		return 1;
	case CLI_OPT_QUIET:
		c->quiet = true;
		return 1;
	case CLI_OPT_ETA:
		if (!strcmp(arg, "auto"))
			c->eta = 0;
		else if (!strcmp(arg, "always"))
			c->eta = 1;
		else if (!strcmp(arg, "never"))
			c->eta = 2;
		else {
			cli_error("%s: option '--eta': expected auto, always or never, got '%s'", cmd,
				  arg);
			return -1;
		}
		return 1;
	case CLI_OPT_ETA_INTERVAL: {
		int64_t ns;

		if (parse_time(arg, 1000000000LL, &ns) || ns <= 0) {
			cli_error("%s: option '--eta-interval': expected a time such as 10s or 500ms, "
				  "got '%s'", cmd, arg);
			return -1;
		}
		c->eta_interval = (double)ns / 1e9;
		return 1;
	}
	}
	return 0;
}

enum cli_progress cli_progress_style(const struct cli_common *c)
{
	bool tty = isatty(STDERR_FILENO);

	if (c->quiet || c->eta == 2 || c->debug_mask)
		return CLI_PROGRESS_NONE;
	if (tty)
		return CLI_PROGRESS_TERMINAL;
	return c->eta == 1 ? CLI_PROGRESS_LINES : CLI_PROGRESS_NONE;
}

volatile sig_atomic_t cli_interrupted;

static void on_interrupt(int sig)
{
	static const char first[] = "\nncqsim: interrupted: stopping at the simulated time reached; "
		"signal again to quit at once\n";

	if (cli_interrupted)
		_exit(128 + sig);
	cli_interrupted = sig;
	/* write(2) is async-signal-safe; stdio is not. */
	if (write(STDERR_FILENO, first, sizeof(first) - 1) < 0)
		return;
}

void cli_catch_interrupts(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

const char *cli_drive_path(const char *drive, char *buf, size_t len)
{
	unsigned i;

	for (i = 0; i < disk_model_builtin_count(); i++)
		if (!strcmp(drive, disk_model_builtin_name(i)))
			return drive;
	return datadir_or("drives", drive, ".drive", buf, len);
}

int cli_common_finish(struct cli_common *c)
{
	struct err e;
	unsigned i;

	if (c->system_file) {
		size_t len;
		char *text;

		/* Named bare and not here: the installed examples' (cli/datadir.h). */
		c->system_file = datadir_or("examples", c->system_file, NULL, c->system_path,
					    sizeof(c->system_path));
		if (input_read(c->system_file, "system file", 1 << 20, true, &text, &len, &e)) {
			cli_error("%s", e.msg);
			return -1;
		}
		if (host_config_parse_system(&c->cfg, text, c->system_file, &e)) {
			cli_error("%s", e.msg);
			free(text);
			return -1;
		}
		free(text);
	}
	for (i = 0; i < c->nsets; i++) {
		if (host_config_set(&c->cfg, c->sets[i], &e)) {
			cli_error("%s", e.msg);
			return -1;
		}
	}
	if (c->drive) {
		if (strlen(c->drive) >= sizeof(c->cfg.drive)) {
			cli_error("option '--drive': name too long");
			return -1;
		}
		snprintf(c->cfg.drive, sizeof(c->cfg.drive), "%s", c->drive);
		c->cfg.drive_set = true;
	}
	{
		char path[HOST_DRIVE_MAX];
		const char *drive = cli_drive_path(c->cfg.drive, path, sizeof(path));

		if (drive != c->cfg.drive && strlen(drive) < sizeof(c->cfg.drive))
			snprintf(c->cfg.drive, sizeof(c->cfg.drive), "%s", drive);
	}
	/* Load the drive now, so a bad name or drive.KEY fails before any run. */
	{
		static struct disk_model m;

		if (system_load_model(&c->cfg, &m, &e)) {
			cli_error("%s", e.msg);
			return -1;
		}
		c->model = &m;
	}
	return 0;
}

struct progress {
	enum cli_progress style;
	double wall0, last, every;
	uint64_t total;		/* a trace's I/Os; 0: not known */
	bool shown;
};

static void progress_text(const struct progress *p, double sim_s, uint64_t ios, double elapsed,
			  const char *end)
{
	if (p->total)
		fprintf(stderr, "%sncqsim: replay %llu of %llu I/Os (%.0f%%), %.0f s simulated, "
			"%.1f s elapsed%s", *end ? "" : "\r", (unsigned long long)ios,
			(unsigned long long)p->total, 100.0 * (double)ios / (double)p->total, sim_s,
			elapsed, *end ? end : "   ");
	else
		fprintf(stderr, "%sncqsim: %.0f s simulated, %llu I/Os, %.1f s elapsed%s",
			*end ? "" : "\r", sim_s, (unsigned long long)ios, elapsed, *end ? end : "   ");
}

static void show_progress(void *ctx, double sim_s, uint64_t ios)
{
	struct progress *p = ctx;
	double elapsed;

	if (p->style == CLI_PROGRESS_NONE)
		return;
	elapsed = clock_wall() - p->wall0;
	/* A terminal's line from the first second on, or --eta-interval if shorter. */
	if (p->style == CLI_PROGRESS_TERMINAL && elapsed >= (p->every < 1.0 ? p->every : 1.0)) {
		progress_text(p, sim_s, ios, elapsed, "");
		p->shown = true;
	} else if (p->style == CLI_PROGRESS_LINES && elapsed - p->last >= p->every) {
		progress_text(p, sim_s, ios, elapsed, "\n");
		p->last = elapsed;
	}
}

int cli_run_report(const char *cmd, const struct cli_common *c, const struct workload *w,
		   struct runner_opts *ro, uint64_t total_ios, struct outfile *out)
{
	struct progress prog = { cli_progress_style(c), clock_wall(), 0, c->eta_interval,
		total_ios, false };
	struct runner_result res;
	unsigned formats = 0;
	const struct report_job *failed_job;
	bool interrupted, io_failed;
	unsigned i;
	struct err e;
	int rc;

	if (c->formats & CLI_OUT_NORMAL)
		formats |= REPORT_NORMAL;
	if (c->formats & CLI_OUT_JSON)
		formats |= REPORT_JSON;
	if (c->formats & CLI_OUT_JSONPLUS)
		formats |= REPORT_JSONPLUS;
	if (c->formats & CLI_OUT_TERSE)
		formats |= REPORT_TERSE;
	ro->progress = show_progress;
	ro->progress_ctx = &prog;
	ro->stop = &cli_interrupted;
	/* c->cfg is the configuration cli_common_finish() loaded its drive from. */
	ro->model = c->model;
	cli_catch_interrupts();
	rc = runner_run(w, &c->cfg, ro, &res, &e);
	if (prog.shown)
		fprintf(stderr, "\r\033[K");
	if (rc) {
		cli_error("%s", e.msg);
		outfile_abort(out);
		/* A drive or knob the system refuses is bad input; the rest a failed run. */
		return rc == RUNNER_REFUSED ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	interrupted = res.report.interrupted;
	/* What fio says on stderr when a job ends on a limit of its own (rate_min, max_latency). */
	for (i = 0; i < res.report.njobs; i++)
		if (res.report.jobs[i].error_note[0])
			fprintf(stderr, "%s\n", res.report.jobs[i].error_note);
	if (interrupted)
		cli_error("%s: interrupted by signal %d after %.1f s simulated: the report covers "
			  "the time until then", cmd, (int)cli_interrupted, res.sim_seconds);
	failed_job = report_first_failed_job(&res.report);
	io_failed = failed_job != NULL;
	if (failed_job)
		/* As fio, which exits 1 when a job ends with an error. */
		cli_error("%s: job '%s' ended with error %d (%s)", cmd, failed_job->name,
			  failed_job->error, strerror(failed_job->error));
	if (formats & REPORT_NORMAL)
		report_write_header(out->f, &res.report);
	rc = report_write(out->f, &res.report, formats);
	runner_result_free(&res);
	if (rc) {
		outfile_abort(out);
		cli_error("out of memory while writing the report");
		return EXIT_RUN_FAILED;
	}
	if (outfile_commit(out, &e)) {
		cli_error("%s", e.msg);
		return EXIT_RUN_FAILED;
	}
	/* A report, but not of the run asked for, or of a run whose I/O failed. */
	return interrupted || io_failed ? EXIT_RUN_FAILED : 0;
}
