/*
 * ncqsim import disksim FILE.parv [-o FILE.drive] — a DiskSim 4.0 drive
 * as an ncqsim measured drive file (disk/import_disksim.h says what maps
 * where). Keys ncqsim does not model are listed on standard error.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "disk/import_disksim.h"
#include "disk/model.h"
#include "util/outfile.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_import_doc = {
	.usage = (const char *const[]){ "disksim FILE.parv [-o FILE.drive]", NULL },
	.text =
		"Reads a DiskSim 4.0 parameter file, the files it sources (relative to the\n"
		"file naming them) and the disk it instantiates, and writes an ncqsim drive\n"
		"file in the measured form (ncqsim-drive(5), docs/DRIVES.md) to FILE.drive,\n"
		"or to standard output. Each key ncqsim does not model is listed once on\n"
		"standard error, with its file and line. The drive file is loaded back\n"
		"before anything is written.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--output", "FILE", "write the drive file here, also -o FILE (default\n"
			  "standard output)" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = longopts,
};

int cmd_import(int argc, char **argv)
{
	const char *output = NULL;
	struct disk_model *m = NULL;
	char *buf = NULL;
	size_t len = 0;
	struct err e;
	struct outfile of;
	FILE *mem;
	int c, rc = EXIT_BAD_INPUT;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd_doc_help("import", &cmd_import_doc, stdout);
			return 0;
		case 'o':
			output = optarg;
			break;
		case ':':
			cli_error("import: option '%s' needs a value", argv[optind - 1]);
			return EXIT_BAD_INPUT;
		default:
			cli_error("import: unknown option '%s' (try 'ncqsim import --help')",
				  argv[optind - 1]);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind != 2 || strcmp(argv[optind], "disksim")) {
		cli_error("import: expected 'disksim FILE.parv' (the one format ncqsim imports)");
		return EXIT_BAD_INPUT;
	}
	mem = open_memstream(&buf, &len);
	if (!mem) {
		cli_error("import: out of memory");
		return EXIT_BAD_INPUT;
	}
	if (disk_import_disksim(argv[optind + 1], NULL, mem, stderr, &e)) {
		fclose(mem);
		cli_error("%s", e.msg);
		goto out;
	}
	fclose(mem);
	/* What import writes, run loads: check it here, not at the user's first run. */
	m = malloc(sizeof(*m));
	if (!m || disk_model_parse(buf, output ? output : "(imported drive)", m, &e)) {
		cli_error("import: %s: the drive does not load: %s", argv[optind + 1],
			  m ? e.msg : "out of memory");
		goto out;
	}
	if (outfile_open(&of, output, "option '-o'", &e)) {
		cli_error("%s", e.msg);
		goto out;
	}
	fwrite(buf, 1, len, of.f);
	if (outfile_commit(&of, &e)) {
		cli_error("%s", e.msg);
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	rc = 0;
out:
	free(m);
	free(buf);
	return rc;
}
