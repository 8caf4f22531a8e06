/*
 * ncqsim probe DEVICE — read what a real SATA drive says about itself
 * (read-only: IDENTIFY DEVICE and READ LOG EXT, ata/probe.h) and the
 * kernel's view of it (sysfs), and print a drive-file skeleton: the keys
 * the drive reports filled in with where each came from, every other key
 * of the drive-model table commented out and marked "to be measured".
 */
#include "cli/cmd.h"
#include "cli/cli.h"
#include "cli/probe_dev.h"

#include "disk/model.h"

#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

static const struct option longopts[] = {
	{ "replay", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_probe_doc = {
	.usage = (const char *const[]){ "DEVICE", "--replay FILE|DIR", NULL },
	.text =
		"Reads a SATA drive's own description and prints a drive file (see\n"
		"ncqsim-drive(5)) with what the drive reports filled in: model, serial,\n"
		"firmware, capacity, sector sizes, rotation rate (IDENTIFY word 217), NCQ\n"
		"and queue depth, NCQ priority (IDENTIFY word 76 and log 30h page 08h), the\n"
		"IDENTIFY DEVICE data log, SATA speed, write cache and look-ahead. Every\n"
		"other key is commented out and marked \"to be measured\"; the kernel's view\n"
		"(sysfs queue_depth, ncq_prio_supported, ncq_prio_enable, cdl_supported,\n"
		"scheduler) and the Command Duration Limits descriptors (log 18h) are\n"
		"printed as comments.\n"
		"\n"
		"DEVICE is a block device (/dev/sda) or an sg node (/dev/sg0). probe only\n"
		"reads: it sends IDENTIFY DEVICE and READ LOG EXT (logs 00h, 30h, 18h) as\n"
		"SG_IO ATA PASS-THROUGH(16), which takes root (sudo ncqsim probe /dev/sda).\n"
		"Anything but a whole disk is refused.\n"
		"\n"
		"--replay reads recorded replies instead of a device: an IDENTIFY page in\n"
		"any form 'ncqsim identify' reads, or a folder with 'identify', log pages\n"
		"'log-XX.bin' / 'log-XX-PP.bin' (512 bytes each) and 'sysfs/' laid out as\n"
		"/sys/block/sdX/. A log with no recorded page is taken as one the drive\n"
		"does not have.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--replay", "FILE|DIR", "recorded replies instead of a device" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = longopts,
};

#define MAX_KNOWN 32

struct known {
	const char *key;
	char value[128];
	const char *source;
};

struct skeleton {
	struct known k[MAX_KNOWN];
	unsigned n;
};

static void put(struct skeleton *s, const char *key, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(struct skeleton *s, const char *key, const char *source, const char *fmt, ...)
{
	va_list ap;

	if (s->n == MAX_KNOWN)
		return;
	s->k[s->n].key = key;
	s->k[s->n].source = source;
	va_start(ap, fmt);
	vsnprintf(s->k[s->n].value, sizeof(s->k[0].value), fmt, ap);
	va_end(ap);
	s->n++;
}

static const struct known *find(const struct skeleton *s, const char *key)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->k[i].key, key))
			return &s->k[i];
	return NULL;
}

/* "WDC  WSH722880ALN604" → "wdc-wsh722880aln604": a --drive name. */
static void drive_name(const char *model, char *out, size_t len)
{
	size_t n = 0;
	bool dash = false;

	for (; *model && n + 1 < len; model++) {
		if (isalnum((unsigned char)*model)) {
			if (dash && n)
				out[n++] = '-';
			if (n + 1 < len)
				out[n++] = (char)tolower((unsigned char)*model);
			dash = false;
		} else {
			dash = true;
		}
	}
	out[n] = '\0';
	if (!n)
		snprintf(out, len, "probed");
}

static void fill(struct skeleton *s, const struct probe_info *p)
{
	const struct ata_identify *id = &p->id;
	uint64_t bytes = id->sectors * id->logical_sector_size;
	char name[DISK_NAME_MAX];

	drive_name(id->model, name, sizeof(name));
	put(s, "name", "from the model string; rename at will", "%s", name);
	if (id->rotation_rpm > 1)
		put(s, "description", "probed", "%.40s, %" PRIu64 " GB, %u rpm", id->model,
		    bytes / 1000000000, id->rotation_rpm);
	else
		put(s, "description", "probed", "%.40s, %" PRIu64 " GB", id->model,
		    bytes / 1000000000);
	put(s, "model", "IDENTIFY words 27-46", "%s", id->model);
	put(s, "serial", "IDENTIFY words 10-19", "%s", id->serial);
	put(s, "firmware", "IDENTIFY words 23-26", "%s", id->firmware);
	put(s, "sectors", id->lba48 ? "IDENTIFY words 100-103" : "IDENTIFY words 60-61",
	    "%" PRIu64, id->sectors);
	put(s, "logical_sector_size", "IDENTIFY words 106, 117-118", "%u", id->logical_sector_size);
	put(s, "physical_sector_size", "IDENTIFY word 106", "%u", id->physical_sector_size);
	put(s, "ncq", "IDENTIFY word 76 bit 8", "%d", id->ncq);
	put(s, "queue_depth", "IDENTIFY word 75 + 1", "%u", id->queue_depth);
	put(s, "ncq_prio", "IDENTIFY word 76 bit 12", "%d", id->ncq_prio);
	if (p->ncq_prio_log_known)
		put(s, "ncq_prio_log", p->ncq_prio_log || p->id_data_log ?
		    "log 30h page 08h byte 9 bit 3" : "no log 30h page 08h", "%d", p->ncq_prio_log);
	if (p->id_data_log_known)
		put(s, "id_data_log", p->gpl_read ? "GPL directory (log 00h)" :
		    "the drive refused READ LOG EXT: no GPL logs", "%d", p->id_data_log);
	if (id->sata_speeds)
		put(s, "sata_gen", "IDENTIFY word 76 bits 3:1", "%d",
		    id->sata_speeds & ATA_SATA_GEN3 ? 3 : id->sata_speeds & ATA_SATA_GEN2 ? 2 : 1);
	if (id->rotation_rpm > 1)
		put(s, "rpm", "IDENTIFY word 217", "%u", id->rotation_rpm);
	/* The link rate after 8b/10b coding: 150, 300, 600 MB/s. */
	if (id->sata_speeds)
		put(s, "interface_mbs", "the SATA link rate of word 76 after 8b/10b coding", "%d",
		    id->sata_speeds & ATA_SATA_GEN3 ? 600 : id->sata_speeds & ATA_SATA_GEN2 ? 300 : 150);
	if (id->write_cache)
		put(s, "write_cache", "IDENTIFY word 85 bit 5, as set now", "%d",
		    id->write_cache_enabled);
	if (id->read_ahead)
		put(s, "read_ahead", "IDENTIFY word 85 bit 6, as set now", "%d",
		    id->read_ahead_enabled);
	put(s, "trim", "IDENTIFY word 169 bit 0", "%d", id->trim);
	/* A drive without CDL needs no descriptor pages; one with CDL lists them above. */
	if (p->cdl_known) {
		put(s, "cdl", p->gpl_read && p->id_data_log ? "log 30h page 03h (Supported "
		    "Capabilities)" : "no IDENTIFY DEVICE data log (30h): no CDL", "%d",
		    p->cdl_supported);
		if (!p->cdl_supported) {
			put(s, "cdl_t2a", "no CDL, so no descriptor pages", "none");
			put(s, "cdl_t2b", "no CDL, so no descriptor pages", "none");
		}
	}
}

static const char *or_absent(const char *v)
{
	return *v ? v : "(absent)";
}

static void print_cdl(FILE *out, const char *what, const struct ata_cdl_desc *d)
{
	unsigned i;

	fprintf(out, "#   %s descriptors:\n", what);
	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++)
		fprintf(out, "#     %u: duration guideline %" PRIu32 " us (policy %Xh), max active "
			"%" PRIu32 " us (policy %Xh), max inactive %" PRIu32 " us (policy %Xh)\n",
			i + 1, d[i].guideline_us, d[i].guideline_policy, d[i].max_active_us,
			d[i].active_policy, d[i].max_inactive_us, d[i].inactive_policy);
}

static void print_skeleton(FILE *out, const char *source, const struct probe_dev *dev,
			   const struct probe_info *p, const struct probe_sysfs *sys)
{
	const struct opt_def *o;
	struct skeleton s;
	unsigned i;

	memset(&s, 0, sizeof(s));
	fill(&s, p);
	fprintf(out, "# ncqsim drive file from 'ncqsim probe %s' (%s).\n"
		"# Read-only: IDENTIFY DEVICE and READ LOG EXT. What the drive reports is\n"
		"# filled in, with where it came from.\n"
		"# Keys marked \"to be measured\" are commented out: measure them (docs/DRIVES.md\n"
		"# says how each is found) and fill them in; until then --drive refuses this file\n"
		"# and names the first missing key.\n", source, dev->t.ops->name);
	if (p->id.rotation_rpm == 1)
		fprintf(out, "#\n# The drive reports non-rotating media (a solid-state drive): ncqsim "
			"models\n# hard disks, so most of what follows has no meaning for it.\n");
	fprintf(out, "#\n# IDENTIFY checksum: %s\n", p->id.checksum == ATA_CHECKSUM_VALID ? "correct" :
		p->id.checksum == ATA_CHECKSUM_BAD ? "BAD (decoded anyway)" : "absent");
	if (dev->sysfs[0]) {
		fprintf(out, "#\n# The kernel's view (%s):\n", dev->sysfs);
		fprintf(out, "#   device/queue_depth        %s\n", or_absent(sys->queue_depth));
		fprintf(out, "#   device/ncq_prio_supported %s\n", or_absent(sys->ncq_prio_supported));
		fprintf(out, "#   device/ncq_prio_enable    %s\n", or_absent(sys->ncq_prio_enable));
		fprintf(out, "#   device/cdl_supported      %s%s\n", or_absent(sys->cdl_supported),
			sys->cdl_supported[0] ? "" : " (a kernel before 6.5, or not a libata disk)");
		fprintf(out, "#   device/cdl_enable         %s\n", or_absent(sys->cdl_enable));
		fprintf(out, "#   queue/scheduler           %s\n", or_absent(sys->scheduler));
	}
	fprintf(out, "#\n# Command Duration Limits: ");
	if (!p->cdl_known)
		fprintf(out, "not known (see below)\n");
	else if (!p->cdl_supported)
		fprintf(out, "not supported\n");
	else {
		fprintf(out, "supported, %s; limits %" PRIu32 " .. %" PRIu32 " us (0: not given)\n",
			p->cdl_enabled ? "enabled" : "disabled", p->cdl_min_us, p->cdl_max_us);
		if (p->cdl_log_read) {
			fprintf(out, "#   performance vs duration guideline: %Xh\n", p->cdl_log.perf_vs_guideline);
			print_cdl(out, "read (T2A)", p->cdl_log.read);
			print_cdl(out, "write (T2B)", p->cdl_log.write);
		}
	}
	if (p->nnotes) {
		fprintf(out, "#\n# Not read:\n");
		for (i = 0; i < p->nnotes; i++)
			fprintf(out, "#   %s\n", p->notes[i]);
	}
	fprintf(out, "\n");
	for (o = disk_model_options(); o->name; o++) {
		const struct known *k = find(&s, o->name);
		char line[200];

		if (k) {
			snprintf(line, sizeof(line), "%s = %s", o->name, k->value);
			fprintf(out, "%-36s # %s\n", line, k->source);
		} else {
			snprintf(line, sizeof(line), "#%s =", o->name);
			fprintf(out, "%-36s # to be measured: %s%s%s%s\n", line, o->help ? o->help : "",
				o->unit ? " (" : "", o->unit ? o->unit : "", o->unit ? ")" : "");
		}
	}
}

int cmd_probe(int argc, char **argv)
{
	const char *replay = NULL;
	struct probe_dev dev;
	struct probe_info info;
	struct probe_sysfs sys;
	struct err e;
	char why[512] = "";
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			replay = optarg;
			break;
		case 'h':
			cmd_doc_help("probe", &cmd_probe_doc, stdout);
			return 0;
		default:
			return cli_bad_option("probe", "probe", c, argv[optind - 1]);
		}
	}
	if (optind != argc - (replay ? 0 : 1)) {
		cli_error("probe: expected %s, got %d arguments (see 'ncqsim probe --help')",
			  replay ? "no DEVICE with --replay" : "one DEVICE", argc - optind);
		return EXIT_BAD_INPUT;
	}
	rc = replay ? probe_replay_open(&dev, replay, &e) : probe_dev_open(&dev, argv[optind], &e);
	if (rc) {
		cli_error("probe: %s", e.msg);
		return rc == -2 ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
	}
	rc = probe_drive(&dev.t, &info, why, sizeof(why));
	if (rc) {
		cli_error("probe: %s: %s", replay ? replay : argv[optind], why);
		probe_dev_close(&dev);
		return EXIT_RUN_FAILED;
	}
	probe_sysfs_read(&dev, &sys);
	probe_dev_close(&dev);
	if (info.id.checksum == ATA_CHECKSUM_BAD)
		cli_warn("probe: the IDENTIFY checksum is bad; decoded anyway");
	print_skeleton(stdout, replay ? replay : argv[optind], &dev, &info, &sys);
	return fflush(stdout) ? EXIT_RUN_FAILED : 0;
}
