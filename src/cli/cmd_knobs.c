/*
 * ncqsim knobs — the sysfs knobs: defaults, ranges, help; with --drive,
 * --system or --set, the values the kernel would read back on that drive.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "host/kernel.h"
#include "run/system.h"

#include <getopt.h>
#include <string.h>

static const struct option longopts[] = {
	{ "drive", required_argument, NULL, CLI_OPT_DRIVE },
	{ "set", required_argument, NULL, CLI_OPT_SET },
	{ "system", required_argument, NULL, CLI_OPT_SYSTEM },
	{ "kernels", no_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_knobs_doc = {
	.usage = (const char *const[]){
		"[--drive NAME|FILE] [--system FILE] [--set KEY=VALUE]...", "--kernels", NULL },
	.text =
		"Lists the host knobs, named as in sysfs under /sys/block/sdX/, with their\n"
		"defaults, the kernel version that introduced them and what they do. With\n"
		"--drive, --system or --set, probes the drive and prints the value of each\n"
		"knob as the kernel would read it back (queue_depth capped by the drive,\n"
		"ncq_prio_supported as probed), or the error the kernel would give.\n"
		"With --kernels, prints what each kernel version (the `kernel` knob)\n"
		"changes, as a Markdown table with the kernel functions it follows.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--kernels", NULL, "the kernel-version table" },
			{ "--drive", "NAME|FILE", "drive model (default he8)" },
			{ "--set", "KEY=VALUE", "a knob (repeatable)" },
			{ "--system", "FILE", "knobs and drive from a file" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = longopts,
};

static void print_knob(void *out, const char *name, const char *value)
{
	fprintf(out, "%-34s %s\n", name, value);
}

int cmd_knobs(int argc, char **argv)
{
	struct cli_common common;
	struct system sys;
	struct err e;
	int c, rc;

	cli_common_init(&common);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'h') {
			cmd_doc_help("knobs", &cmd_knobs_doc, stdout);
			return 0;
		}
		if (c == 'K') {
			host_kernel_print(stdout);
			return 0;
		}
		rc = cli_common_option(&common, "knobs", c, optarg);
		if (rc < 0)
			return EXIT_BAD_INPUT;
		if (rc == 0)
			return cli_bad_option("knobs", "knobs", c, argv[optind - 1]);
	}
	if (optind != argc) {
		cli_error("knobs: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (!common.drive && !common.system_file && !common.nsets) {
		host_knobs_print(stdout);
		return 0;
	}
	if (cli_common_finish(&common))
		return EXIT_BAD_INPUT;
	if (system_init(&sys, &common.cfg, NULL, 0, NULL, &e)) {
		cli_error("%s", e.msg);
		return EXIT_BAD_INPUT;
	}
	printf("drive %s (%s), probed in %.3f ms\n", sys.model->name,
	       libata_identify(sys.ata)->model, sys.probe_ns / 1e6);
	host_knobs_readback(&sys.knobs, print_knob, stdout);
	system_destroy(&sys);
	return 0;
}
