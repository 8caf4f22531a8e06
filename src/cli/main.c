/*
 * ncqsim — command-line entry. Each sub-command lives in its own
 * src/cmd_*.c and is registered in the table in cmd_help.c.
 */
#include "cli/cmd.h"
#include "cli/datadir.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);

	if (argc < 2)
		return cmd_usage(stdout), 0;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_usage(stdout), 0;
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ncqsim %s\ndata directory: %s\n", NCQSIM_VERSION, datadir_path());
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(argv[1], table[i].name))
			return table[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ncqsim: unknown command '%s' (try 'ncqsim help')\n", argv[1]);
	return 2;
}
