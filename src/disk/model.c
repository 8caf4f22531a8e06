#include "disk/model.h"

#include "disk/fwq.h"
#include "disk/cdlpage.h"
#include "disk/layout.h"
#include "disk/mech.h"
#include "util/input.h"
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define F(field) offsetof(struct disk_model, field)
#define MS 1000000LL

static const struct opt_choice layouts[] = {
	{ "cylinder", DISK_LAYOUT_CYLINDER, "every head of a cylinder, then the next cylinder" },
	{ "serpentine", DISK_LAYOUT_SERPENTINE, "per zone, one surface after another, direction alternating" },
	{ NULL, 0, NULL },
};

/* cdl_t2a, cdl_t2b: a page by name ("none", built-in, or a file), kept as the log's descriptors. */
static int cdl_page_parse(const struct opt_def *o, void *base, const char *value, struct err *e)
{
	struct disk_model *m = base;
	bool t2a = !strcmp(o->name, "cdl_t2a");
	char *name = t2a ? m->cdl_t2a : m->cdl_t2b;

	if (strlen(value) >= DISK_CDL_NAME_MAX)
		return err_set(e, "a page name or path of at most %d characters", DISK_CDL_NAME_MAX - 1);
	if (disk_cdl_page_load(value, t2a, &m->cdl_log, e))
		return -1;
	snprintf(name, DISK_CDL_NAME_MAX, "%s", value);
	return 0;
}

static void cdl_page_format(const struct opt_def *o, const void *base, char *buf, size_t len)
{
	const struct disk_model *m = base;

	snprintf(buf, len, "%s", !strcmp(o->name, "cdl_t2a") ? m->cdl_t2a : m->cdl_t2b);
}

static const struct opt_def model_options[] = {
	{ .name = "name", .type = OPT_STRING, .offset = F(name), .size = DISK_NAME_MAX,
	  .help = "short name used with --drive" },
	{ .name = "description", .type = OPT_STRING, .offset = F(description), .size = 96,
	  .help = "one line for 'ncqsim drives'" },
	{ .name = "model", .type = OPT_STRING, .offset = F(model), .size = 41,
	  .help = "IDENTIFY model string (words 27-46)" },
	{ .name = "serial", .type = OPT_STRING, .offset = F(serial), .size = 21,
	  .help = "IDENTIFY serial number (words 10-19)" },
	{ .name = "firmware", .type = OPT_STRING, .offset = F(firmware), .size = 9,
	  .help = "IDENTIFY firmware revision (words 23-26)" },
	{ .name = "sectors", .type = OPT_INT, .offset = F(sectors), .min = 1 << 20,
	  .max = (1LL << 48) - 1, .unit = "logical sectors", .help = "user-addressable capacity" },
	{ .name = "logical_sector_size", .type = OPT_UINT, .offset = F(logical_sector_size),
	  .min = 512, .max = 4096, .unit = "bytes", .help = "512 or 4096 (4Kn)" },
	{ .name = "physical_sector_size", .type = OPT_UINT, .offset = F(physical_sector_size),
	  .min = 512, .max = 4096, .unit = "bytes", .help = "4096 for Advanced Format (512e, 4Kn)" },
	{ .name = "ncq", .type = OPT_BOOL, .offset = F(ncq),
	  .help = "Native Command Queueing (IDENTIFY word 76 bit 8)" },
	{ .name = "queue_depth", .type = OPT_UINT, .offset = F(queue_depth), .min = 1, .max = 32,
	  .unit = "commands", .help = "NCQ queue depth (word 75 + 1)" },
	{ .name = "ncq_prio", .type = OPT_BOOL, .offset = F(ncq_prio),
	  .help = "NCQ priority in IDENTIFY (word 76 bit 12)" },
	{ .name = "ncq_prio_log", .type = OPT_BOOL, .offset = F(ncq_prio_log),
	  .help = "NCQ priority in log 30h page 08h byte 9 bit 3 (Linux needs both)" },
	{ .name = "id_data_log", .type = OPT_BOOL, .offset = F(id_data_log),
	  .help = "IDENTIFY DEVICE data log (30h) listed in the GPL directory" },
	{ .name = "sata_gen", .type = OPT_UINT, .offset = F(sata_gen), .min = 1, .max = 3,
	  .help = "highest SATA generation: 1 = 1.5, 2 = 3.0, 3 = 6.0 Gb/s" },
	{ .name = "rpm", .type = OPT_UINT, .offset = F(rpm), .min = 3600, .max = 20000,
	  .unit = "rpm", .help = "spindle speed" },
	{ .name = "heads", .type = OPT_UINT, .offset = F(heads), .min = 1, .max = DISK_MAX_HEADS,
	  .unit = "surfaces", .help = "recording surfaces (2 per platter)" },
	{ .name = "zones", .type = OPT_UINT, .offset = F(zones), .min = 1, .max = DISK_MAX_ZONES,
	  .help = "recording zones, sectors per track falling linearly from OD to ID" },
	{ .name = "layout", .type = OPT_ENUM, .offset = F(layout), .choices = layouts,
	  .help = "order of tracks in the LBA space" },
	{ .name = "rate_od_mbs", .type = OPT_DOUBLE, .offset = F(rate_od_mbs), .dmin = 1,
	  .dmax = 5000, .unit = "MB/s", .help = "sustained media rate at the outer diameter (head and cylinder switches included)" },
	{ .name = "rate_id_mbs", .type = OPT_DOUBLE, .offset = F(rate_id_mbs), .dmin = 1,
	  .dmax = 5000, .unit = "MB/s", .help = "sustained media rate at the inner diameter" },
	{ .name = "seek_track_read", .type = OPT_TIME, .offset = F(seek_track_read), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "single-track seek, read" },
	{ .name = "seek_avg_read", .type = OPT_TIME, .offset = F(seek_avg_read), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "average seek, read (weighted over all distances)" },
	{ .name = "seek_full_read", .type = OPT_TIME, .offset = F(seek_full_read), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "full-stroke seek, read" },
	{ .name = "seek_track_write", .type = OPT_TIME, .offset = F(seek_track_write), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "single-track seek, write" },
	{ .name = "seek_avg_write", .type = OPT_TIME, .offset = F(seek_avg_write), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "average seek, write" },
	{ .name = "seek_full_write", .type = OPT_TIME, .offset = F(seek_full_write), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "full-stroke seek, write" },
	{ .name = "head_switch", .type = OPT_TIME, .offset = F(head_switch), .min = 1000,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "switch to another head on the same cylinder (sets the track skew)" },
	{ .name = "command_overhead", .type = OPT_TIME, .offset = F(command_overhead), .min = 0,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "firmware time per command before the mechanics start" },
	{ .name = "rpo_guard", .type = OPT_TIME, .offset = F(rpo_guard), .min = 0,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "a target reached less than this after a seek settles is taken one revolution later" },
	{ .name = "interface_mbs", .type = OPT_DOUBLE, .offset = F(interface_mbs), .dmin = 1,
	  .dmax = 100000, .unit = "MB/s", .help = "host interface rate, for cache hits and write-cache fills" },
	{ .name = "fw_sched", .type = OPT_PLUGIN, .offset = F(fw_sched), .registry = &fwq_policies,
	  .help = "firmware queue ordering" },
	{ .name = "prio_policy", .type = OPT_PLUGIN, .offset = F(prio_policy), .registry = &fwq_prio_policies,
	  .help = "how the firmware honours NCQ PRIO = high" },
	{ .name = "prio_soft_margin", .type = OPT_TIME, .offset = F(prio_soft_margin), .min = 0,
	  .max = 1000 * MS, .time_unit = MS, .unit = "ms", .help = "soft policy: a normal command goes first when it saves more than this" },
	{ .name = "age_limit", .type = OPT_TIME, .offset = F(age_limit), .min = MS,
	  .max = 3600000 * MS, .time_unit = MS, .unit = "ms", .help = "a command older than this goes next, whatever its priority or position" },
	{ .name = "cdl", .type = OPT_BOOL, .offset = F(cdl),
	  .help = "Command Duration Limits supported (log 30h page 03h, log 18h)" },
	{ .name = "cdl_t2a", .type = OPT_CUSTOM, .parse = cdl_page_parse, .format = cdl_page_format,
	  .help = "CDL read descriptors (T2A page): none, a built-in page such as hc570-t2a, or a page file" },
	{ .name = "cdl_t2b", .type = OPT_CUSTOM, .parse = cdl_page_parse, .format = cdl_page_format,
	  .help = "CDL write descriptors (T2B page): none, a built-in page such as hc570-t2b, or a page file" },
	{ .name = "cache_size", .type = OPT_SIZE, .offset = F(cache_size), .min = 0,
	  .max = 1LL << 34, .unit = "bytes", .help = "drive buffer" },
	{ .name = "cache_segments", .type = OPT_UINT, .offset = F(cache_segments), .min = 1, .max = 256,
	  .help = "read cache segments (LRU)" },
	{ .name = "read_ahead", .type = OPT_BOOL, .offset = F(read_ahead),
	  .help = "keep reading after a read while no other command is waiting" },
	{ .name = "read_ahead_max", .type = OPT_SIZE, .offset = F(read_ahead_max), .min = 0,
	  .max = 1LL << 34, .unit = "bytes", .help = "read-ahead limit per segment" },
	{ .name = "write_cache", .type = OPT_BOOL, .offset = F(write_cache),
	  .help = "write cache enabled at power-on (SET FEATURES 02h/82h changes it)" },
	{ .name = "write_buffer", .type = OPT_SIZE, .offset = F(write_buffer), .min = 0,
	  .max = 1LL << 34, .unit = "bytes", .help = "dirty data the write cache may hold" },
	OPT_END,
};

const struct opt_def *disk_model_options(void)
{
	return model_options;
}

_Static_assert(sizeof(model_options) / sizeof(model_options[0]) - 1 <= DISK_MAX_KEYS,
	       "more drive-model keys than DISK_MAX_KEYS");

unsigned disk_model_option_count(void)
{
	return (unsigned)(sizeof(model_options) / sizeof(model_options[0]) - 1);
}

static int validate(const struct disk_model *m, const char *file, struct err *e)
{
	if (m->logical_sector_size != 512 && m->logical_sector_size != 4096)
		return err_set(e, "%s: key 'logical_sector_size': expected 512 or 4096, got %u",
			       file, m->logical_sector_size);
	if (m->physical_sector_size != 512 && m->physical_sector_size != 4096)
		return err_set(e, "%s: key 'physical_sector_size': expected 512 or 4096, got %u",
			       file, m->physical_sector_size);
	if (m->physical_sector_size < m->logical_sector_size)
		return err_set(e, "%s: key 'physical_sector_size': %u is smaller than the logical "
			       "sector size %u", file, m->physical_sector_size, m->logical_sector_size);
	if (!m->ncq && m->queue_depth != 1)
		return err_set(e, "%s: key 'queue_depth': a drive without NCQ has queue depth 1, got %u",
			       file, m->queue_depth);
	if (!m->ncq && (m->ncq_prio || m->ncq_prio_log))
		return err_set(e, "%s: key 'ncq_prio': NCQ priority needs ncq = 1", file);
	if (!m->cdl && (strcmp(m->cdl_t2a, "none") || strcmp(m->cdl_t2b, "none")))
		return err_set(e, "%s: key 'cdl_t2a': descriptor pages need cdl = 1 (else 'none')", file);
	if (m->rate_id_mbs > m->rate_od_mbs)
		return err_set(e, "%s: key 'rate_id_mbs': %g MB/s is above rate_od_mbs %g MB/s", file,
			       m->rate_id_mbs, m->rate_od_mbs);
	if (!(m->seek_track_read < m->seek_avg_read && m->seek_avg_read < m->seek_full_read))
		return err_set(e, "%s: key 'seek_avg_read': expected seek_track_read < seek_avg_read "
			       "< seek_full_read", file);
	if (!(m->seek_track_write < m->seek_avg_write && m->seek_avg_write < m->seek_full_write))
		return err_set(e, "%s: key 'seek_avg_write': expected seek_track_write < "
			       "seek_avg_write < seek_full_write", file);
	if (m->read_ahead_max > m->cache_size)
		return err_set(e, "%s: key 'read_ahead_max': larger than cache_size", file);
	if (m->write_buffer > m->cache_size)
		return err_set(e, "%s: key 'write_buffer': larger than cache_size", file);
	if (m->interface_mbs < m->rate_od_mbs)
		return err_set(e, "%s: key 'interface_mbs': %g MB/s is slower than the media (%g MB/s)",
			       file, m->interface_mbs, m->rate_od_mbs);
	/* The geometry and the seek curves must be buildable from these figures. */
	{
		static __thread struct disk_layout l;
		struct disk_mech mc;

		if (disk_layout_build(&l, m, e) || disk_mech_init(&mc, &l, m, e))
			return err_prefix(e, "%s: ", file);
	}
	return 0;
}

struct model_reader {
	struct disk_model *m;
	bool seen[DISK_MAX_KEYS];
};

static int model_line(void *ctx, const char *key, const char *value, const char *comment,
		      int line, struct err *e)
{
	struct model_reader *r = ctx;
	const struct opt_def *o = opt_find(model_options, key);
	unsigned i;

	(void)line;
	if (!o)
		return err_set(e, "unknown key '%s' (see 'ncqsim drives he8' for the keys)", key);
	i = (unsigned)(o - model_options);
	if (r->seen[i])
		return err_set(e, "key '%s' given twice", key);
	r->seen[i] = true;
	if (!*value)
		return err_set(e, "key '%s' has no value", key);
	if (opt_set(o, r->m, value, "key", 1024, e))
		return -1;
	snprintf(r->m->sources[i], DISK_SOURCE_MAX, "%s", comment ? comment : "");
	return 0;
}

int disk_model_parse(const char *text, const char *file, struct disk_model *m, struct err *e)
{
	struct model_reader r = { .m = m };
	unsigned nopts = disk_model_option_count(), i;

	memset(m, 0, sizeof(*m));
	if (parse_key_lines(text, file, "model file", model_line, &r, e))
		return -1;
	for (i = 0; i < nopts; i++)
		if (!r.seen[i])
			return err_set(e, "%s: key '%s' is missing (a model file gives every key; "
				       "'ncqsim drives he8 --file' prints a complete one)", file,
				       model_options[i].name);
	return validate(m, file, e);
}

int disk_model_set(struct disk_model *m, const char *key, const char *value, struct err *e)
{
	const struct opt_def *o = opt_find(model_options, key);
	char label[64];

	if (!o)
		return err_set(e, "drive '%s': unknown key 'drive.%s' (see 'ncqsim drives %s')",
			       m->name, key, m->name);
	if (opt_set(o, m, value, "key", 1024, e))
		return err_prefix(e, "drive '%s': ", m->name);
	snprintf(m->sources[o - model_options], DISK_SOURCE_MAX, "set on the command line");
	snprintf(label, sizeof(label), "drive '%s' with drive.%s=%s", m->name, key, value);
	return validate(m, label, e);
}

/* ---- built-in models ---- */

static const struct {
	const char *name;
	const char *text;
} builtins[] = {
	{ "he8",
#include "he8.inc"
	},
	{ "hc570",
#include "hc570.inc"
	},
	{ "desktop1t",
#include "desktop1t.inc"
	},
};

unsigned disk_model_builtin_count(void)
{
	return (unsigned)(sizeof(builtins) / sizeof(builtins[0]));
}

const char *disk_model_builtin_name(unsigned i)
{
	return i < disk_model_builtin_count() ? builtins[i].name : NULL;
}

const char *disk_model_builtin_text(unsigned i)
{
	return i < disk_model_builtin_count() ? builtins[i].text : NULL;
}

int disk_model_load(const char *name_or_path, struct disk_model *m, struct err *e)
{
	unsigned i;
	char *text;
	size_t len;
	int rc;

	for (i = 0; i < disk_model_builtin_count(); i++)
		if (!strcmp(name_or_path, builtins[i].name)) {
			char label[64];

			snprintf(label, sizeof(label), "built-in drive '%s'", builtins[i].name);
			return disk_model_parse(builtins[i].text, label, m, e);
		}
	if (access(name_or_path, F_OK) && !strchr(name_or_path, '/') && !strchr(name_or_path, '.'))
		return err_set(e, "drive '%s': not a built-in drive (see 'ncqsim drives') "
			       "nor a model file", name_or_path);
	if (input_read(name_or_path, "drive model", 1 << 20, true, &text, &len, e))
		return -1;
	rc = disk_model_parse(text, name_or_path, m, e);
	free(text);
	return rc;
}

void disk_model_write(const struct disk_model *m, FILE *out)
{
	unsigned i, n = disk_model_option_count();

	fprintf(out, "# ncqsim drive model '%s': %s\n", m->name, m->description);
	fprintf(out, "# Format: key = value, '#' starts a comment; a comment after a value\n"
		"# is that value's source. Every key must be given. See docs/DRIVES.md.\n");
	for (i = 0; i < n; i++) {
		const struct opt_def *o = &model_options[i];
		char value[128], line[200];

		opt_format(o, m, value, sizeof(value));
		snprintf(line, sizeof(line), "%s = %s", o->name, value);
		if (m->sources[i][0])
			fprintf(out, "%-36s # %s\n", line, m->sources[i]);
		else
			fprintf(out, "%s\n", line);
	}
}

const char *disk_model_source(const struct disk_model *m, const struct opt_def *o)
{
	return m->sources[o - model_options];
}
