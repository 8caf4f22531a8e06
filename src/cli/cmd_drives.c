/*
 * ncqsim drives [NAME|FILE] — the built-in drive models and their parameters.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"

#include <getopt.h>
#include <string.h>

static void print_cdl_side(const char *page, const struct ata_cdl_desc *d)
{
	unsigned i;

	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++)
		printf("  %s %u     guideline %8.3f ms (0x%x), active %8.3f ms (0x%x), "
		       "inactive %8.3f ms (0x%x)\n", page, i + 1, d[i].guideline_us / 1e3,
		       d[i].guideline_policy, d[i].max_active_us / 1e3, d[i].active_policy,
		       d[i].max_inactive_us / 1e3, d[i].inactive_policy);
}

/* The descriptors as the drive reports them in log 18h (0 ms: no limit; the policy in brackets). */
static void print_cdl(const struct ata_cdl_log *l)
{
	printf("\nCDL descriptors (log 18h; 0 = no limit, policy in brackets), "
	       "perf-vs-duration-guideline %.1f %%:\n",
	       ata_cdl_perf_permille(l->perf_vs_guideline) / 10.0);
	print_cdl_side("T2A", l->read);
	print_cdl_side("T2B", l->write);
}

static const struct option longopts[] = {
	{ "file", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_drives_doc = {
	.usage = (const char *const[]){ "", "NAME|FILE", "NAME --file", NULL },
	.text =
		"Without an argument, lists the built-in drive models. With a drive NAME or\n"
		"FILE, shows every parameter with its unit and source, and the geometry and\n"
		"mechanics derived from them; with --file, prints the model as a model file\n"
		"(edit it and use it with --drive FILE).\n"
		"\n"
		"A model file has one 'key = value' per line; '#' starts a comment, and a\n"
		"comment after a value is that value's source. Every key must be given.\n"
		"See docs/DRIVES.md and ncqsim-drive(5) for the meaning of each key.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--file", NULL, "the model as a model file" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = longopts,
};

static void show(const struct disk_model *m)
{
	const struct opt_def *o;
	struct disk_layout l;
	struct disk_mech mc;
	struct err e;

	printf("%s: %s\n\n", m->name, m->description);
	printf("%-22s %-24s %-8s %s\n", "key", "value", "unit", "source");
	for (o = disk_model_options(); o->name; o++) {
		char value[128];

		if (m->form == DISK_FORM_MEASURED && !disk_model_key_shared(o))
			continue;
		opt_format(o, m, value, sizeof(value));
		printf("%-22s %-24s %-8s %s\n", o->name, value, o->unit ? o->unit : "",
		       disk_model_source(m, o));
	}
	for (o = disk_model_measured_options(); m->form == DISK_FORM_MEASURED && o->name; o++) {
		char value[128];

		opt_format(o, m, value, sizeof(value));
		printf("%-22s %-24s %-8s %s\n", o->name, value, o->unit ? o->unit : "",
		       disk_model_source(m, o));
	}
	if (disk_layout_build(&l, m, &e) || disk_mech_init(&mc, &l, m, &e))
		return;
	printf("\nderived geometry and mechanics:\n");
	printf("  revolution           %.4f ms (average rotational latency %.4f ms)\n",
	       l.rev_ns / 1e6, l.rev_ns / 2e6);
	printf("  cylinders            %u over %u zones, %u surfaces\n", l.cylinders, l.nzones,
	       l.heads);
	printf("  sectors per track    %u (OD) .. %u (ID) physical sectors of %u bytes\n",
	       l.zone[0].spt, l.zone[l.nzones - 1].spt, m->physical_sector_size);
	printf("  track skew           head switch %u sectors, cylinder switch %u sectors (OD)\n",
	       l.zone[0].head_skew, l.zone[0].cyl_skew);
	if (m->form == DISK_FORM_MEASURED) {
		uint32_t last = m->geo.seek[m->geo.nseek - 1].distance, full = l.cylinders - 1;

		printf("  seek table           %u rows, %u cylinders: %.3f ms .. %.3f ms; writes %+.3f ms\n",
		       m->geo.nseek, last, m->geo.seek[0].ns / 1e6,
		       m->geo.seek[m->geo.nseek - 1].ns / 1e6, m->write_settle / 1e6);
		if (m->geo.seek_formula != DISK_SEEK_TABLE && full > last)
			printf("  seek formula         past the table (%s): %.3f ms at %u cylinders, "
			       "%.3f ms at %u (full stroke)\n",
			       m->geo.seek_formula == DISK_SEEK_HPL ? "hpl" :
			       m->geo.seek_formula == DISK_SEEK_CURVE3 ? "curve3" : "constant",
			       disk_seek_ns(&mc.read, last + 1) / 1e6, last + 1,
			       disk_seek_ns(&mc.read, full) / 1e6, full);
		return;
	}
	printf("  seek curve, read     %.4f + %.6f*sqrt(d) ms up to d = %.0f, then %.4f + "
	       "%.3e*d ms\n", mc.read.a / 1e6, mc.read.b / 1e6, mc.read.d0, mc.read.c / 1e6,
	       mc.read.e / 1e6);
	printf("  seek curve, write    %.4f + %.6f*sqrt(d) ms up to d = %.0f, then %.4f + "
	       "%.3e*d ms\n", mc.write.a / 1e6, mc.write.b / 1e6, mc.write.d0, mc.write.c / 1e6,
	       mc.write.e / 1e6);
	if (m->cdl)
		print_cdl(&m->cdl_log);
}

int cmd_drives(int argc, char **argv)
{
	bool as_file = false;
	char path[4096];
	struct disk_model m;
	struct err e;
	unsigned i;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			as_file = true;
			break;
		case 'h':
			cmd_doc_help("drives", &cmd_drives_doc, stdout);
			return 0;
		default:
			return cli_bad_option("drives", "drives", c, argv[optind - 1]);
		}
	}
	if (optind == argc) {
		if (as_file) {
			cli_error("drives: --file needs a drive NAME or FILE");
			return EXIT_BAD_INPUT;
		}
		for (i = 0; i < disk_model_builtin_count(); i++) {
			if (disk_model_parse(disk_model_builtin_text(i), disk_model_builtin_name(i),
					     &m, &e)) {
				cli_error("%s", e.msg);
				return EXIT_RUN_FAILED;
			}
			printf("%-12s %s\n", m.name, m.description);
		}
		return 0;
	}
	if (optind != argc - 1) {
		cli_error("drives: expected one drive NAME or FILE, got %d arguments", argc - optind);
		return EXIT_BAD_INPUT;
	}
	if (disk_model_load(cli_drive_path(argv[optind], path, sizeof(path)), &m, &e)) {
		cli_error("%s", e.msg);
		return EXIT_BAD_INPUT;
	}
	if (as_file)
		disk_model_write(&m, stdout);
	else
		show(&m);
	return 0;
}
