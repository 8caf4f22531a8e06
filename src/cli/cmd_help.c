#include "cli/cmd.h"

#include <string.h>

/* Every sub-command, in the order help lists them. */
static const struct cmd commands[] = {
	{ "run",      cmd_run,      "run a fio job file on the simulated drive; fio's text or JSON out" },
	{ "compare",  cmd_compare,  "run a job file under several knob settings, repeated: percentiles ± 95% CI" },
	{ "drives",   cmd_drives,   "list the built-in drive models, or show one's parameters" },
	{ "knobs",    cmd_knobs,    "list the sysfs knobs, or their values on a drive" },
	{ "identify", cmd_identify, "decode a drive's IDENTIFY DEVICE page (hdparm -I style or JSON)" },
	{ "ata",      cmd_ata,      "encode or decode ATA frames (H2D, SDB, D2H FIS) and NCQ commands" },
	{ "help",     cmd_help,     "show help for ncqsim or one command" },
};

const struct cmd *cmd_table(size_t *n)
{
	*n = sizeof(commands) / sizeof(commands[0]);
	return commands;
}


void cmd_usage(FILE *out)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);

	fprintf(out,
		"ncqsim %s — a simulator of Linux ATA NCQ command priority on a hard disk\n"
		"\n"
		"usage: ncqsim COMMAND [OPTIONS] [ARGS]\n"
		"       ncqsim --version | --help\n"
		"\n"
		"commands:\n", NCQSIM_VERSION);
	for (i = 0; i < n; i++)
		fprintf(out, "  %-10s %s\n", table[i].name, table[i].summary);
	fprintf(out, "\nEvery command takes --help. Exit status: 0 success, 1 a run that failed,\n"
		"2 bad usage or bad input.\n");
}

int cmd_help(int argc, char **argv)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);
	char *sub[] = { NULL, "--help", NULL };

	if (argc < 2) {
		cmd_usage(stdout);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(argv[1], table[i].name) && strcmp(argv[1], "help")) {
			sub[0] = argv[1];
			return table[i].fn(2, sub);
		}
	}
	if (!strcmp(argv[1], "help")) {
		cmd_usage(stdout);
		return 0;
	}
	fprintf(stderr, "ncqsim: help: unknown command '%s'\n", argv[1]);
	return EXIT_BAD_INPUT;
}
