/*
 * cli — helpers shared by the sub-commands: errors in ncqsim's one-line
 * form, reading input files with a size limit, output formats.
 */
#ifndef NCQSIM_CLI_H
#define NCQSIM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>

/* "ncqsim: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read a whole file (at most `limit` bytes) into a malloc'd, NUL-terminated
 * buffer. On failure prints "ncqsim: FILE: why" and returns NULL.
 */
uint8_t *cli_read_file(const char *path, size_t limit, size_t *len);

enum {
	CLI_OUT_NORMAL	= 1 << 0,
	CLI_OUT_JSON	= 1 << 1,
	CLI_OUT_JSONPLUS = 1 << 2,
	CLI_OUT_TERSE	= 1 << 3,	/* fio's terse version 3 (run and replay) */
};
/*
 * Parse --output-format's comma list ("normal,json+") into CLI_OUT_* bits,
 * allowing only those in `allowed`. Prints the error itself.
 */
int cli_output_formats(const char *list, unsigned allowed, unsigned *formats);

#include "cli/cmd.h"
#include "host/knobs.h"

/*
 * The options every simulating command shares: --drive, --set, --system,
 * --seed, --output-format, --output, --debug, --quiet. A command puts
 * CLI_COMMON_LONGOPTS in its getopt_long table and passes each option it
 * does not know to cli_common_option().
 */
#define CLI_MAX_SETS 128

struct disk_model;

struct cli_common {
	struct host_config cfg;
	const char *system_file;
	char system_path[HOST_DRIVE_MAX];	/* system_file when found in the data directory */
	const char *sets[CLI_MAX_SETS];
	unsigned nsets;
	const char *drive;
	uint64_t seed;
	bool seed_set;
	unsigned formats;
	const char *output_path;
	unsigned debug_mask;
	bool quiet;
	int eta;			/* 0 auto, 1 always, 2 never */
	double eta_interval;		/* seconds between progress lines (--eta-interval) */
	const struct disk_model *model;	/* cfg's drive, loaded by cli_common_finish() */
};

enum {
	CLI_OPT_DRIVE = 0x100, CLI_OPT_SET, CLI_OPT_SYSTEM, CLI_OPT_SEED, CLI_OPT_FORMAT,
	CLI_OPT_OUTPUT, CLI_OPT_DEBUG, CLI_OPT_QUIET, CLI_OPT_ETA, CLI_OPT_ETA_INTERVAL,
	CLI_OPT_TERSE_VERSION, CLI_OPT_MINIMAL,
};

/* How progress is shown on stderr (--eta, as fio's). */
enum cli_progress {
	CLI_PROGRESS_NONE,
	CLI_PROGRESS_TERMINAL,		/* one line, rewritten in place */
	CLI_PROGRESS_LINES,		/* a line every --eta-interval: --eta=always, not a terminal */
};
#define CLI_PROGRESS_EVERY 10.0		/* --eta-interval's default, seconds */

#define CLI_COMMON_LONGOPTS \
	{ "drive", required_argument, NULL, CLI_OPT_DRIVE }, \
	{ "set", required_argument, NULL, CLI_OPT_SET }, \
	{ "system", required_argument, NULL, CLI_OPT_SYSTEM }, \
	{ "seed", required_argument, NULL, CLI_OPT_SEED }, \
	{ "output-format", required_argument, NULL, CLI_OPT_FORMAT }, \
	{ "output", required_argument, NULL, CLI_OPT_OUTPUT }, \
	{ "debug", required_argument, NULL, CLI_OPT_DEBUG }, \
	{ "quiet", no_argument, NULL, CLI_OPT_QUIET }, \
	{ "eta", required_argument, NULL, CLI_OPT_ETA }, \
	{ "eta-interval", required_argument, NULL, CLI_OPT_ETA_INTERVAL }, \
	{ "terse-version", required_argument, NULL, CLI_OPT_TERSE_VERSION }, \
	{ "minimal", no_argument, NULL, CLI_OPT_MINIMAL }

/* Their rows for --help and the man pages (cmd.h struct cmd_opt). */
extern const struct cmd_opt cli_common_opts[];

void cli_common_init(struct cli_common *c);
/* 1 when `opt` was one of the common options, 0 when not, -1 on error (printed). */
int cli_common_option(struct cli_common *c, const char *cmd, int opt, const char *arg);
/* The progress style --eta, --quiet and stderr call for. */
enum cli_progress cli_progress_style(const struct cli_common *c);

/*
 * SIGINT and SIGTERM set cli_interrupted (the signal's number): a run stops
 * at the simulated time it has reached and reports what it has, marked as
 * interrupted. A second signal ends the process at once. The one global a
 * signal handler needs; simulations only read it.
 */
extern volatile sig_atomic_t cli_interrupted;
void cli_catch_interrupts(void);

struct workload;
struct runner_opts;
struct outfile;

/*
 * What `run` and `replay` share once the workload is loaded and the output
 * open: the progress line (with `total_ios` > 0 it counts the trace's
 * I/Os), interrupts, the run, and the report in --output-format written to
 * `out` whole. `cmd` names the command in messages. `ro` comes filled but
 * for progress and stop. Returns the exit status; `out` is closed.
 */
int cli_run_report(const char *cmd, const struct cli_common *c, const struct workload *w,
		   struct runner_opts *ro, uint64_t total_ios, struct outfile *out);

/* Apply --system, then every --set, then --drive. Errors printed; -1. */
int cli_common_finish(struct cli_common *c);

/*
 * The one message for an option getopt_long() did not take: `opt` is what
 * it returned (':' for a missing value), `arg` the word on the command
 * line. `cmd` names the command in the message ("ata encode"), `help` the
 * one whose --help to suggest ("ata"). Returns EXIT_BAD_INPUT's value, 2.
 */
int cli_bad_option(const char *cmd, const char *help, int opt, const char *arg);

/*
 * A drive as --drive names it: a built-in name as it is, else a file that
 * exists as given, else DATADIR/drives/NAME.drive when there is one
 * (cli/datadir.h); `buf` holds the path found there.
 */
const char *cli_drive_path(const char *drive, char *buf, size_t len);

/* --runtime TIME (run, compare): a positive time, bare numbers in seconds. */
int cli_runtime_option(const char *cmd, const char *arg, int64_t *cap);

struct workload;

/*
 * The files a run reads besides the job file and its includes: the system
 * file and a drive model given as a file. Fills `files` (room for 2).
 */
unsigned cli_protected(const struct cli_common *c, const char *files[2]);
/*
 * Refuse an output (`option` names it: "--output", "--plot") that is one
 * of the run's inputs (the workload's files, cli_protected's). Prints the
 * error; -1.
 */
int cli_check_output(const char *option, const char *path, const struct workload *w,
		     const struct cli_common *c);

#endif
