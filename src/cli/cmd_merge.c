/*
 * ncqsim merge SHARD.json... — the shards of one `compare --shard I/N`
 * sweep, merged: the table, JSON and plot the unsharded compare prints.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "run/compare.h"
#include "util/outfile.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { O_PLOT = 0x200 };

static const struct option longopts[] = {
	{ "output-format", required_argument, NULL, CLI_OPT_FORMAT },
	{ "output", required_argument, NULL, CLI_OPT_OUTPUT },
	{ "quiet", no_argument, NULL, CLI_OPT_QUIET },
	{ "plot", required_argument, NULL, O_PLOT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct cmd_opt merge_opts[] = {
	{ "--output-format", "=F", "normal, json, json+ (a comma list) as compare's; json\n"
	  "and json+ need shards written with the same" },
	{ "--output", "FILE", "write the report there" },
	{ "--plot", "FILE.svg", "latency exceedance plot, as compare's --plot" },
	{ "--quiet", NULL, "no closing line on stderr" },
	CMD_OPT_END,
};

const struct cmd_doc cmd_merge_doc = {
	.usage = (const char *const[]){ "[OPTIONS] SHARD.json...", NULL },
	.text =
		"Merges the files written by 'ncqsim compare ... --shard I/N' for every I\n"
		"from 1 to N, in any order, and prints exactly what the same compare without\n"
		"--shard prints (text, JSON, plot), apart from the CPU and wall time line on\n"
		"stderr. Refuses files of different sweeps (job file, system file, --set,\n"
		"--drive, seed, --repeat, --percentiles, --runtime, variants), a shard or a\n"
		"run given twice, and a missing one, each with a message naming the files.\n"
		"\n"
		"example:\n"
		"  for i in 1 2 3; do ncqsim compare examples/seed.fio \\\n"
		"      --system examples/seed.system --vary device/ncq_prio_enable=0,1 \\\n"
		"      --repeat 4 --shard $i/3 --output s$i.json; done\n"
		"  ncqsim merge s3.json s1.json s2.json\n",
	.options = (const struct cmd_opt *const[]){ merge_opts, cmd_help_opt, NULL },
	.longopts = longopts,
};

int cmd_merge(int argc, char **argv)
{
	struct cli_common common;
	struct compare *c;
	struct outfile out;
	const char *plot = NULL;
	struct err e;
	bool plus = false;
	int opt, rc = EXIT_BAD_INPUT;

	c = calloc(1, sizeof(*c));
	if (!c) {
		cli_error("merge: out of memory");
		return EXIT_RUN_FAILED;
	}
	cli_common_init(&common);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			cmd_doc_help("merge", &cmd_merge_doc, stdout);
			free(c);
			return 0;
		case O_PLOT:
			plot = optarg;
			continue;
		case CLI_OPT_FORMAT:
		case CLI_OPT_OUTPUT:
		case CLI_OPT_QUIET:
			if (cli_common_option(&common, "merge", opt, optarg) < 0)
				goto out_free;
			continue;
		}
		cli_bad_option("merge", "merge", opt, argv[optind - 1]);
		goto out_free;
	}
	if (optind == argc) {
		cli_error("merge: expected the shard files (see 'ncqsim merge --help')");
		goto out_free;
	}
	if (compare_merge(c, (const char *const *)argv + optind, (unsigned)(argc - optind), &plus,
			  &e)) {
		cli_error("merge: %s", e.msg);
		goto out_compare;
	}
	if ((common.formats & (CLI_OUT_JSON | CLI_OUT_JSONPLUS)) &&
	    ((common.formats & CLI_OUT_JSONPLUS) != 0) != plus) {
		cli_error("merge: the shards hold the runs' reports as %s, not %s: write them with "
			  "compare's --output-format=%s", plus ? "json+" : "json",
			  plus ? "json" : "json+", plus ? "json" : "json+");
		goto out_compare;
	}
	c->keep_reports = (common.formats & (CLI_OUT_JSON | CLI_OUT_JSONPLUS)) != 0;
	if (plot && common.output_path && outfile_same_target(plot, common.output_path)) {
		cli_error("merge: options '--plot' and '--output' name the same file, %s", plot);
		goto out_compare;
	}
	if (outfile_open(&out, common.output_path, "option '--output'", &e)) {
		cli_error("merge: %s", e.msg);
		goto out_compare;
	}
	rc = EXIT_RUN_FAILED;
	if (common.formats & CLI_OUT_NORMAL)
		compare_print_table(c, out.f);
	if ((common.formats & (CLI_OUT_JSON | CLI_OUT_JSONPLUS)) &&
	    compare_write_json(c, out.f, plus)) {
		cli_error("merge: out of memory while writing the JSON report");
		outfile_abort(&out);
		goto out_compare;
	}
	if (plot && compare_plot(c, plot, &e)) {
		cli_error("merge: %s", e.msg);
		outfile_abort(&out);
		goto out_compare;
	}
	if (outfile_commit(&out, &e)) {
		cli_error("merge: %s", e.msg);
		goto out_compare;
	}
	if (!common.quiet)
		fprintf(stderr, "ncqsim: %u runs from %d shard files; %.0f s simulated in %.1f CPU-s\n",
			c->runs_done, argc - optind, c->sim_seconds, c->cpu_seconds);
	rc = 0;
out_compare:
	compare_free(c);
out_free:
	free(c);
	return rc;
}
