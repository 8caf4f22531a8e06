/*
 * Sub-commands of the ncqsim binary. Each takes (argc, argv) with argv[0]
 * the command's name and returns the exit status: 0 success, 1 a run that
 * failed, 2 bad usage or bad input.
 */
#ifndef NCQSIM_CMD_H
#define NCQSIM_CMD_H

#include <stddef.h>
#include <stdio.h>

#define NCQSIM_VERSION "0.1"

enum { EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2 };

struct option;

/* One option as --help and the man page show it. */
struct cmd_opt {
	const char *name;	/* "--drive" */
	const char *arg;	/* "NAME|FILE"; "=F" is shown joined: --output-format=F */
	const char *help;	/* lines separated by '\n' */
};
#define CMD_OPT_END { NULL, NULL, NULL }

/*
 * A command's documentation. Its --help, its man page ncqsim-NAME(1) and
 * its part of the bash completion are all printed from this (cmd_doc.c),
 * and t_cli_docs checks `options` against the getopt table `longopts`, so
 * none of them can drift from what the command accepts.
 *
 * Text is plain: lines end in '\n', a blank line ends a paragraph, and a
 * line starting with two spaces is shown as it is (an example).
 */
struct cmd_doc {
	const char *const *usage;	/* each form after "ncqsim NAME "; NULL-terminated */
	const char *text;		/* what the command does */
	const struct cmd_opt *const *options;	/* groups of rows, NULL-terminated */
	const char *after;		/* after the options, or NULL */
	const struct option *longopts;	/* what getopt_long() is given */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	/* NULL for a command that prints its own --help: its man page and
	 * completion are then taken from that text. */
	const struct cmd_doc *doc;
};

/* Each command's doc, as the command table lists them. */
extern const struct cmd_doc cmd_run_doc, cmd_compare_doc, cmd_drives_doc, cmd_knobs_doc,
	cmd_identify_doc, cmd_ata_doc, cmd_probe_doc, cmd_replay_doc,
	cmd_merge_doc, cmd_import_doc, cmd_validate_doc;
/* "a simulator of ...": ncqsim's one line, for help and ncqsim(1). */
extern const char cmd_tagline[];

/* The --help row every command has. */
extern const struct cmd_opt cmd_help_opt[];

/* --help from a command's doc. */
void cmd_doc_help(const char *name, const struct cmd_doc *doc, FILE *out);
/* Every man page (ncqsim.1, ncqsim-NAME.1, ncqsim-drive.5) into `dir`. */
int cmd_doc_man(const char *dir);
/* One command's page, ncqsim-NAME.1, into `dir`. */
int cmd_doc_man_command(const char *dir, const struct cmd *c);
/* The bash completion script. */
void cmd_doc_bash(FILE *out);
/* A command's option names as the completion offers them (" --a --b"). */
void cmd_doc_bash_options(FILE *out, const struct cmd *c);

const struct cmd *cmd_table(size_t *n);
void cmd_usage(FILE *out);
int cmd_help(int argc, char **argv);
int cmd_identify(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_drives(int argc, char **argv);
int cmd_knobs(int argc, char **argv);
int cmd_ata(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* The replay options `replay` and `compare --trace` share (cmd_replay.c). */
struct replay_opts;
enum {
	CMD_REPLAY_FORMAT = 0x300, CMD_REPLAY_CLOSED, CMD_REPLAY_SPEED, CMD_REPLAY_AT,
	CMD_REPLAY_PRIO, CMD_REPLAY_SKIP_BAD,
};

#define CMD_REPLAY_LONGOPTS \
	{ "format", required_argument, NULL, CMD_REPLAY_FORMAT }, \
	{ "closed", required_argument, NULL, CMD_REPLAY_CLOSED }, \
	{ "speed", required_argument, NULL, CMD_REPLAY_SPEED }, \
	{ "at", required_argument, NULL, CMD_REPLAY_AT }, \
	{ "prio", required_argument, NULL, CMD_REPLAY_PRIO }, \
	{ "skip-bad", no_argument, NULL, CMD_REPLAY_SKIP_BAD }

/* Their --help and man page rows. */
extern const struct cmd_opt cmd_replay_opts[];

/* 1 the option was one of them, 0 not, -1 a bad value (the error is printed). */
int cmd_replay_option(struct replay_opts *o, const char *cmd, int opt, const char *arg);

#endif
