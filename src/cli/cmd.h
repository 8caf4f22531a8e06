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

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

const struct cmd *cmd_table(size_t *n);
void cmd_usage(FILE *out);
int cmd_help(int argc, char **argv);
int cmd_identify(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_drives(int argc, char **argv);
int cmd_knobs(int argc, char **argv);
int cmd_ata(int argc, char **argv);

#endif
