#include "cli/cmd.h"
#include "cli/cli.h"

#include <getopt.h>
#include <string.h>

static const struct option help_longopts[] = {
	{ "man", required_argument, NULL, 'm' },
	{ "bash-completion", no_argument, NULL, 'b' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct cmd_doc help_doc = {
	.usage = (const char *const[]){ "[COMMAND]", "--man DIR", "--bash-completion", NULL },
	.text =
		"Shows the list of commands, or one command's help (as COMMAND --help).\n"
		"\n"
		"--man and --bash-completion print the manual pages and the bash completion\n"
		"from the same command and option tables as --help; the Makefile runs them\n"
		"to build what 'make install' installs.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--man", "DIR", "write ncqsim.1, ncqsim-COMMAND.1 for every command and\n"
			  "ncqsim-drive.5 into DIR" },
			{ "--bash-completion", NULL, "print the bash completion script" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = help_longopts,
};

/* Every sub-command, in the order help lists them. */
static const struct cmd commands[] = {
	{ "run",      cmd_run,      "run a fio job file on the simulated drive; fio's text or JSON out",
	  &cmd_run_doc },
	{ "compare",  cmd_compare,  "run a job file under several knob settings, repeated: percentiles ± 95% CI",
	  &cmd_compare_doc },
	{ "replay",   cmd_replay,   "replay a block trace (iolog, blkparse, blktrace, MSR, SNIA, DiskSim)",
	  &cmd_replay_doc },
	{ "merge",    cmd_merge,    "merge the shards of a 'compare --shard I/N' sweep: compare's output",
	  &cmd_merge_doc },
	{ "drives",   cmd_drives,   "list the built-in drive models, or show one's parameters",
	  &cmd_drives_doc },
	{ "knobs",    cmd_knobs,    "list the sysfs knobs, or their values on a drive", &cmd_knobs_doc },
	{ "import",   cmd_import,   "import a drive from a DiskSim 4.0 parameter file as a measured drive file",
	  &cmd_import_doc },
	{ "validate", cmd_validate, "replay a measured trace on a drive file; RMS demerit, percentiles, CDF plot",
	  &cmd_validate_doc },
	{ "identify", cmd_identify, "decode a drive's IDENTIFY DEVICE page (hdparm -I style or JSON)",
	  &cmd_identify_doc },
	{ "ata",      cmd_ata,      "encode or decode ATA frames (H2D, SDB, D2H FIS) and NCQ commands",
	  &cmd_ata_doc },
	{ "probe",    cmd_probe,    "read a real drive's IDENTIFY and logs (read-only): a drive-file skeleton",
	  &cmd_probe_doc },
	{ "help",     cmd_help,     "show help for ncqsim or one command", &help_doc },
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
		"ncqsim %s — %s\n"
		"\n"
		"usage: ncqsim COMMAND [OPTIONS] [ARGS]\n"
		"       ncqsim --version | --help\n"
		"\n"
		"commands:\n", NCQSIM_VERSION, cmd_tagline);
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
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", help_longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			return cmd_doc_man(optarg) ? EXIT_RUN_FAILED : 0;
		case 'b':
			cmd_doc_bash(stdout);
			return fflush(stdout) ? EXIT_RUN_FAILED : 0;
		case 'h':
			cmd_doc_help("help", &help_doc, stdout);
			return 0;
		default:
			return cli_bad_option("help", "help", c, argv[optind - 1]);
		}
	}
	if (optind == argc) {
		cmd_usage(stdout);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!strcmp(argv[optind], table[i].name) && strcmp(argv[optind], "help")) {
			sub[0] = argv[optind];
			return table[i].fn(2, sub);
		}
	}
	if (!strcmp(argv[optind], "help")) {
		cmd_doc_help("help", &help_doc, stdout);
		return 0;
	}
	fprintf(stderr, "ncqsim: help: unknown command '%s'\n", argv[optind]);
	return EXIT_BAD_INPUT;
}
