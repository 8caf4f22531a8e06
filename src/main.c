/*
 * ncqsim — command-line entry. Each sub-command lives in its own
 * src/cmd_*.c and is registered in the table below.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

static const struct cmd commands[] = {
	{ "run",      cmd_run,      "run a fio job file on the simulated drive; fio's text or JSON out" },
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

int main(int argc, char **argv)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);

	if (argc < 2)
		return cmd_usage(stdout), 0;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_usage(stdout), 0;
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ncqsim %s\n", NCQSIM_VERSION);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(argv[1], table[i].name))
			return table[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ncqsim: unknown command '%s' (try 'ncqsim help')\n", argv[1]);
	return 2;
}
