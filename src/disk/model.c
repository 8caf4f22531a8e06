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
	{ .name = "zones", .type = OPT_UINT, .offset = F(zones), .min = 1, .max = DISK_MAX_DATASHEET_ZONES,
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
	{ .name = "trim", .type = OPT_BOOL, .offset = F(trim), .def = "0",
	  .help = "DATA SET MANAGEMENT TRIM (IDENTIFY word 169 bit 0): Linux sends discards as "
		  "DSM TRIM; without it a discard fails with EOPNOTSUPP" },
	{ .name = "trim_time", .type = OPT_TIME, .offset = F(trim_time), .def = "1ms", .min = 0,
	  .max = 10LL * 1000000000, .unit = "ms",
	  .help = "the drive's time for a DSM TRIM after command_overhead, per 512-byte block of "
		  "ranges (an assumption: no data sheet gives one)" },
	OPT_END,
};

const struct opt_def *disk_model_options(void)
{
	return model_options;
}

/* ---- the measured form ---- */

/* Datasheet keys a measured file does not have: its tables replace them. */
static const char *const datasheet_only[] = {
	"zones", "layout", "rate_od_mbs", "rate_id_mbs", "seek_track_read", "seek_avg_read",
	"seek_full_read", "seek_track_write", "seek_avg_write", "seek_full_write",
	"command_overhead", "interface_mbs", NULL,
};

/*
 * Keys newer than the model format: a file without one gets its default,
 * so that model files written before it still load.
 */
static const char *const later_keys[] = { "trim", "trim_time", NULL };

static bool key_later(const struct opt_def *o)
{
	unsigned i;

	for (i = 0; later_keys[i]; i++)
		if (!strcmp(o->name, later_keys[i]))
			return true;
	return false;
}

bool disk_model_key_shared(const struct opt_def *o)
{
	unsigned i;

	for (i = 0; datasheet_only[i]; i++)
		if (!strcmp(o->name, datasheet_only[i]))
			return false;
	return true;
}

static const struct opt_choice sparings[] = {
	{ "none", DISK_SPARE_NONE, "no spare sectors (DiskSim scheme 0)" },
	{ "tracks", DISK_SPARE_TRACKS, "`spares` tracks at the end of each zone; slips and defects are tracks (scheme 1)" },
	{ "cylinder", DISK_SPARE_CYLINDER, "`spares` sectors at the end of every cylinder; a slip takes one (scheme 2)" },
	{ "track_sectors", DISK_SPARE_TRACK_SECTORS, "`spares` sectors at the end of every track; a slip takes one (scheme 3)" },
	{ "cylinder_shift", DISK_SPARE_CYLINDER_SHIFT, "`spares` sectors at the end of every cylinder; a slip shifts the rest of its zone (scheme 4)" },
	{ "cylinder_front", DISK_SPARE_CYLINDER_FRONT, "`spares` sectors at the front of every cylinder; no slips (scheme 5)" },
	{ "cylinder_front_shift", DISK_SPARE_CYLINDER_FRONT_SHIFT, "`spares` sectors at the front of every cylinder; a slip shifts the rest of its zone (scheme 6)" },
	{ "disk_end", DISK_SPARE_DISK_END, "spares at the end of the disk, none in the zones; a slip shifts the rest of its zone (scheme 7)" },
	{ "range", DISK_SPARE_RANGE, "`spares` sectors at the end of every sparing_range cylinders; a slip takes one (scheme 8)" },
	{ "zone", DISK_SPARE_ZONE, "`spares` sectors at the end of each zone; a slip takes one (scheme 9)" },
	{ "zone_shift", DISK_SPARE_ZONE_SHIFT, "`spares` sectors at the end of each zone; a slip shifts the rest of it (scheme 10)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice track_orders[] = {
	{ "cylinder", DISK_TRACKS_CYLINDER, "every head of a cylinder in order, then the next cylinder (DiskSim mapping scheme 0)" },
	{ "alternate_zone", DISK_TRACKS_ALTERNATE_ZONE, "the same, heads descending on the odd cylinders counted from the zone's first (scheme 1)" },
	{ "alternate", DISK_TRACKS_ALTERNATE, "the same, heads descending on odd-numbered cylinders (scheme 2)" },
	{ NULL, 0, NULL },
};

/* A time that may be negative (DiskSim's write settle may shorten a write's seek). */
static int parse_signed_time(const struct opt_def *o, void *base, const char *value, struct err *e)
{
	int64_t v;
	bool neg = value[0] == '-';

	if (parse_time(value + neg, MS, &v) || v > o->max)
		return err_set(e, "key '%s': expected a time such as 0.5ms or -0.25ms, no longer "
			       "than 100ms either way, got '%s'", o->name, value);
	*(int64_t *)((char *)base + o->offset) = neg ? -v : v;
	return 0;
}

static void format_signed_time(const struct opt_def *o, const void *base, char *buf, size_t len)
{
	int64_t v = *(const int64_t *)((const char *)base + o->offset);
	char t[48];

	opt_format_time(v < 0 ? -v : v, t, sizeof(t));
	snprintf(buf, len, "%s%s", v < 0 ? "-" : "", t);
}

static const struct opt_choice ra_rules[] = {
	{ "segment", DISK_RA_SEGMENT, "until the segment is full (DiskSim Buffer continuous read 3)" },
	{ "track", DISK_RA_TRACK, "to the end of the track holding the read's last sector (1)" },
	{ "cylinder", DISK_RA_CYLINDER, "to the end of its cylinder (2)" },
	{ "sequential", DISK_RA_SEQUENTIAL, "to the end of the next track, only when the previous read ended on the track before (4)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice ra_stops[] = {
	{ "now", DISK_RA_STOP_NOW, "at once; a track switch under way ends first (DiskSim Disconnect write if seek 0)" },
	{ "sector", DISK_RA_STOP_SECTOR, "at the end of the sector or switch under way (Disconnect write if seek 1, Stop prefetch in sector 0)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice read_datas[] = {
	{ "overwrite", DISK_READ_DATA_OVERWRITE, "the read-ahead may push it out of the segment (DiskSim Read-ahead over requested 0)" },
	{ "keep", DISK_READ_DATA_KEEP, "the read-ahead stops before it would (1, with no Maximum read-ahead)" },
	{ "drop", DISK_READ_DATA_DROP, "it leaves the segment as the read completes (-1)" },
	{ NULL, 0, NULL },
};

#define BUS(key, field, what) \
	{ .name = key, .type = OPT_TIME, .offset = F(field), .min = 0, .max = 100 * MS, \
	  .time_unit = MS, .unit = "ms", .help = what }

#define OVH(key, w, m, a, what) \
	{ .name = key, .type = OPT_TIME, .offset = F(overhead[w][m][a]), .min = 0, .max = 100 * MS, \
	  .time_unit = MS, .unit = "ms", .help = what }

static const struct opt_def measured_options[] = {
	{ .name = "cylinders", .type = OPT_UINT, .offset = F(cylinders), .min = 2, .max = 100000000,
	  .help = "physical cylinders (zones may leave some unused)" },
	{ .name = "sparing", .type = OPT_ENUM, .offset = F(sparing), .choices = sparings,
	  .help = "where the spare sectors are" },
	{ .name = "sparing_range", .type = OPT_UINT, .offset = F(sparing_range), .min = 1,
	  .max = 100000000, .unit = "cylinders", .help = "sparing = range: cylinders per range" },
	{ .name = "track_order", .type = OPT_ENUM, .offset = F(track_order), .choices = track_orders,
	  .help = "the order of a cylinder's tracks" },
	{ .name = "write_settle", .type = OPT_CUSTOM, .offset = F(write_settle), .max = 100 * MS,
	  .parse = parse_signed_time, .format = format_signed_time, .unit = "ms",
	  .help = "added to a write's seek or head switch (may be negative)" },
	{ .name = "min_seek", .type = OPT_TIME, .offset = F(min_seek), .min = 0, .max = 100 * MS,
	  .time_unit = MS, .unit = "ms", .help = "a media access's positioning takes at least this (DiskSim's Minimum seek delay)" },
	{ .name = "bus_read_sector", .type = OPT_TIME, .offset = F(bus_read_sector), .min = 0,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "host transfer of 512 bytes read" },
	{ .name = "bus_write_sector", .type = OPT_TIME, .offset = F(bus_write_sector), .min = 0,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "host transfer of 512 bytes written" },
	OVH("overhead_read_hit_after_read", 0, 0, 0, "command overhead: read served from the cache, previous command a read"),
	OVH("overhead_read_hit_after_write", 0, 0, 1, "... read hit, previous command a write"),
	OVH("overhead_read_miss_after_read", 0, 1, 0, "... read from the media, previous command a read"),
	OVH("overhead_read_miss_after_write", 0, 1, 1, "... read miss, previous command a write"),
	OVH("overhead_write_hit_after_read", 1, 0, 0, "... write absorbed by the write cache, previous a read"),
	OVH("overhead_write_hit_after_write", 1, 0, 1, "... write hit, previous a write"),
	OVH("overhead_write_miss_after_read", 1, 1, 0, "... write to the media, previous a read"),
	OVH("overhead_write_miss_after_write", 1, 1, 1, "... write miss, previous a write"),
	{ .name = "completion_read", .type = OPT_TIME, .offset = F(completion_read), .min = 0,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "after a read's data, before it completes" },
	{ .name = "completion_write", .type = OPT_TIME, .offset = F(completion_write), .min = 0,
	  .max = 100 * MS, .time_unit = MS, .unit = "ms", .help = "after a write's data, before it completes" },
	{ .name = "segment_size", .type = OPT_SIZE, .offset = F(segment_size), .min = 512,
	  .max = 1LL << 34, .unit = "bytes", .help = "one cache segment; bounds a fill and its read-ahead" },
	{ .name = "read_hits_on_writes", .type = OPT_BOOL, .offset = F(read_hits_on_writes),
	  .help = "a read of data just written is served from the buffer" },
	{ .name = "read_ahead_rule", .type = OPT_ENUM, .offset = F(read_ahead_rule), .choices = ra_rules,
	  .help = "how far a read reads ahead (within read_ahead_max and its segment)" },
	{ .name = "read_ahead_on_hit", .type = OPT_BOOL, .offset = F(read_ahead_on_hit),
	  .help = "a read served from the buffer on an idle drive reads ahead from its segment's end" },
	{ .name = "partial_hits", .type = OPT_BOOL, .offset = F(partial_hits),
	  .help = "a read whose first sectors are buffered sends them at once and reads only the rest" },
	{ .name = "read_watermark", .type = OPT_DOUBLE, .offset = F(read_watermark), .dmin = 0,
	  .dmax = 1, .help = "a read from the media reconnects to send once this fraction is buffered" },
	{ .name = "write_watermark", .type = OPT_DOUBLE, .offset = F(write_watermark), .dmin = 0,
	  .dmax = 1, .help = "a write with its segment full reconnects for more once its dirty data falls to this fraction" },
	{ .name = "watermark_by_request", .type = OPT_BOOL, .offset = F(watermark_by_request),
	  .help = "the watermarks are fractions of the request (else of segment_size)" },
	{ .name = "write_segment", .type = OPT_BOOL, .offset = F(write_segment),
	  .help = "one of the cache_segments holds writes alone: reads never hit written data" },
	{ .name = "combine_writes", .type = OPT_BOOL, .offset = F(combine_writes),
	  .help = "a cached write that continues dirty data joins its segment" },
	{ .name = "almost_read_hits", .type = OPT_BOOL, .offset = F(almost_read_hits),
	  .help = "a read starting at the sector being read ahead is served by the read-ahead" },
	{ .name = "sneaky_full_hits", .type = OPT_BOOL, .offset = F(sneaky_full_hits),
	  .help = "a read wholly in the buffer is served while the mechanism destages writes" },
	{ .name = "sneaky_partial_hits", .type = OPT_BOOL, .offset = F(sneaky_partial_hits),
	  .help = "the buffered start of a read is sent while the mechanism destages writes" },
	{ .name = "write_prebuffering", .type = OPT_BOOL, .offset = F(write_prebuffering),
	  .help = "a cached write's data is taken while the mechanism destages other writes" },
	{ .name = "read_ahead_min", .type = OPT_SIZE, .offset = F(read_ahead_min), .min = 0,
	  .max = 1LL << 34, .unit = "bytes", .help = "read ahead at least this much before the next command may stop it" },
	{ .name = "write_hit_stops_read_ahead", .type = OPT_BOOL,
	  .offset = F(write_hit_stops_read_ahead),
	  .help = "a write overlapping the read-ahead's segment stops it before read_ahead_min" },
	{ .name = "zero_latency_read", .type = OPT_BOOL, .offset = F(zero_latency_read),
	  .help = "a read takes a track's sectors in the order they pass under the head" },
	{ .name = "zero_latency_write", .type = OPT_BOOL, .offset = F(zero_latency_write),
	  .help = "a write puts a track's sectors down in the order they pass under the head" },
	{ .name = "read_ahead_stop", .type = OPT_ENUM, .offset = F(read_ahead_stop),
	  .choices = ra_stops, .help = "when a command may take the head from the read-ahead" },
	{ .name = "read_data", .type = OPT_ENUM, .offset = F(read_data), .choices = read_datas,
	  .help = "what becomes of a read's own data in its segment" },
	BUS("request_overhead", bus.request, "before anything else, per command"),
	BUS("bus_arbitration", bus.arbitration, "winning the bus: for the command and every reselection"),
	BUS("controller_delay", bus.controller, "a message crossing the controllers to the host, each way"),
	BUS("data_prep", bus.data_prep, "before data moves over the bus: a hit, a write's data, a reselection with data"),
	BUS("reselect_first", bus.reselect_first, "the drive reconnects to the bus to send data or status"),
	BUS("reselect_other", bus.reselect_other, "... the second time (after an extra write disconnect)"),
	BUS("disconnect_read_after_read", bus.disconnect_read[0], "a read leaves the bus, previous command a read"),
	BUS("disconnect_read_after_write", bus.disconnect_read[1], "... previous command a write"),
	BUS("disconnect_write", bus.disconnect_write, "a write leaves the bus after its data"),
	{ .name = "hold_bus_read", .type = OPT_BOOL, .offset = F(bus.hold_read),
	  .help = "a read sending faster than the media waits on the bus instead of disconnecting" },
	{ .name = "hold_bus_write", .type = OPT_BOOL, .offset = F(bus.hold_write),
	  .help = "a write with its segment full waits on the bus instead of disconnecting" },
	{ .name = "never_disconnect", .type = OPT_BOOL, .offset = F(bus.never_disconnect),
	  .help = "the drive keeps the bus from a command to its completion" },
	{ .name = "extra_write_disconnect", .type = OPT_BOOL, .offset = F(bus.extra_write_disconnect),
	  .help = "a write after a write it does not follow disconnects before taking its data" },
	BUS("extradisc_command", bus.xd_command, "such a write's command overhead"),
	BUS("extradisc_seek_delta", bus.xd_seek_delta, "... and this more before its mechanics start"),
	BUS("extradisc_disconnect", bus.xd_disconnect, "... then it leaves the bus, after this"),
	BUS("extradisc_inter_disconnect", bus.xd_inter_disconnect, "... and asks for its data this long after"),
	BUS("extradisc_disconnect2", bus.xd_disconnect2, "... it leaves the bus after the data (instead of disconnect_write)"),
	OPT_END,
};

#define NMAIN (sizeof(model_options) / sizeof(model_options[0]) - 1)
#define NMEASURED (sizeof(measured_options) / sizeof(measured_options[0]) - 1)
_Static_assert(NMAIN + NMEASURED <= DISK_MAX_KEYS, "more drive-model keys than DISK_MAX_KEYS");

const struct opt_def *disk_model_measured_options(void)
{
	return measured_options;
}

/* Index of a key in sources[] / seen[]: the main table, then the measured one. */
static unsigned key_index(const struct opt_def *o)
{
	if (o >= measured_options && o < measured_options + NMEASURED)
		return (unsigned)(NMAIN + (size_t)(o - measured_options));
	return (unsigned)(o - model_options);
}

/* The datasheet form's own checks. */
static int validate_datasheet(const struct disk_model *m, const char *file, struct err *e)
{
	if (m->rate_id_mbs > m->rate_od_mbs)
		return err_set(e, "%s: key 'rate_id_mbs': %g MB/s is above rate_od_mbs %g MB/s", file,
			       m->rate_id_mbs, m->rate_od_mbs);
	if (!(m->seek_track_read < m->seek_avg_read && m->seek_avg_read < m->seek_full_read))
		return err_set(e, "%s: key 'seek_avg_read': expected seek_track_read < seek_avg_read "
			       "< seek_full_read", file);
	if (!(m->seek_track_write < m->seek_avg_write && m->seek_avg_write < m->seek_full_write))
		return err_set(e, "%s: key 'seek_avg_write': expected seek_track_write < "
			       "seek_avg_write < seek_full_write", file);
	if (m->interface_mbs < m->rate_od_mbs)
		return err_set(e, "%s: key 'interface_mbs': %g MB/s is slower than the media (%g MB/s)",
			       file, m->interface_mbs, m->rate_od_mbs);
	return 0;
}

static uint64_t zone_physical(const struct disk_model *m, const struct disk_zone_spec *z)
{
	return (uint64_t)(z->last_cyl - z->first_cyl + 1) * m->heads * z->spt;
}

/*
 * Where a zone's slips may go under its sparing scheme: never into another
 * unit's sectors (DiskSim's layout would put two LBNs on one sector).
 */
static int validate_sparing(const struct disk_model *m, const struct disk_zone_spec *s,
			    const char *file, struct err *e)
{
	const uint32_t *slips = &m->geo.marks[s->slip0];
	struct disk_zone z = { .spt = s->spt, .cyls = s->last_cyl - s->first_cyl + 1 };
	uint64_t all = zone_physical(m, s);
	unsigned k, run = 0;

	if (m->sparing == DISK_SPARE_TRACKS ? (s->nslips || s->ndefects) && !s->track_marks :
	    s->track_marks)
		return err_set(e, "%s:%d: zone: under sparing = tracks a zone's slips and defects "
			       "are whole tracks, given as slip_tracks and defect_tracks rows; "
			       "otherwise they are sectors, slips and defects", file, s->line);
	if (m->sparing == DISK_SPARE_NONE && (s->nslips || s->ndefects))
		return err_set(e, "%s:%d: zone: sparing = none has no spares for slips or defects "
			       "(disk_end shifts the LBNs past a slip)", file, s->line);
	if (m->sparing == DISK_SPARE_DISK_END && s->spares)
		return err_set(e, "%s:%d: zone: sparing = disk_end keeps no spares in the zones, "
			       "got %u", file, s->line, s->spares);
	if (m->sparing == DISK_SPARE_CYLINDER_FRONT && s->nslips)
		return err_set(e, "%s:%d: zone: sparing = cylinder_front takes no slips (DiskSim's "
			       "scheme 5 has no place for the LBNs a slip moves; cylinder_front_shift "
			       "shifts them along the zone)", file, s->line);
	if (m->sparing == DISK_SPARE_TRACKS && s->nslips + s->ndefects > s->spares)
		return err_set(e, "%s:%d: zone: %u slipped and %u remapped tracks outnumber its %u "
			       "spare tracks", file, s->line, s->nslips, s->ndefects, s->spares);
	disk_layout_units(&z, m->sparing, m->sparing_range, m->heads, s->spares);
	if (z.full_units && !z.data_per_unit)
		return err_set(e, "%s:%d: zone: %u spares leave none of the %llu sectors of its "
			       "sparing unit for data", file, s->line, s->spares,
			       (unsigned long long)z.unit);
	if (z.slip_rule != DISK_SLIPS_IN_UNIT)
		return 0;
	/* Slips in one unit take its spares: no more of them than it has. */
	for (k = 0; k < s->nslips; k++) {
		uint64_t u = slips[k] / z.unit;

		run = k && slips[k - 1] / z.unit == u ? run + 1 : 1;
		if (u >= z.full_units)
			return err_set(e, "%s:%d: zone: slip %u is in the last %llu cylinders, which "
				       "have no spares (shorter than sparing_range)", file, s->line,
				       slips[k], (unsigned long long)((all - z.full_units * z.unit) /
								       ((uint64_t)m->heads * s->spt)));
		if (run > z.unit - z.data_per_unit)
			return err_set(e, "%s:%d: zone: %u slips in the %llu sectors from %llu, more "
				       "than the %llu spares there", file, s->line, run,
				       (unsigned long long)z.unit, (unsigned long long)(u * z.unit),
				       (unsigned long long)(z.unit - z.data_per_unit));
	}
	return 0;
}

/* The measured form's own checks; each row's message names its line. */
static int validate_measured(const struct disk_model *m, const char *file, struct err *e)
{
	const struct disk_measured *g = &m->geo;
	unsigned i, k;

	if (!g->nzones)
		return err_set(e, "%s: no 'zone' rows (a measured drive lists its zones)", file);
	if (!g->nseek)
		return err_set(e, "%s: no 'seek' rows (a measured drive gives its seek table)", file);
	if (g->seek_formula == DISK_SEEK_CURVE3) {
		double b, c;

		disk_seek_curve3((double)g->seek_f[0], (double)g->seek_f[1], (double)g->seek_f[2],
				 (double)m->cylinders, &b, &c);
		if (!(g->seek_f[0] < g->seek_f[1] && b >= 0 && c >= 0))
			return err_set(e, "%s:%d: seek_formula: no rising three-point curve from %.6g "
				       "ms (single cylinder) to %.6g ms (full stroke) averages %.6g ms "
				       "over %u cylinders (its linear and root terms are %.3g and %.3g "
				       "ms)", file, g->seek_formula_line, g->seek_f[0] / 1e6,
				       g->seek_f[2] / 1e6, g->seek_f[1] / 1e6, m->cylinders,
				       b / 1e6, c / 1e6);
	}
	if (m->physical_sector_size != m->logical_sector_size)
		return err_set(e, "%s: key 'physical_sector_size': a measured drive's zone table "
			       "counts logical sectors, so it must equal logical_sector_size", file);
	if (strcmp(m->fw_sched->name, "fifo"))
		return err_set(e, "%s: key 'fw_sched': a measured drive takes fifo (the SATF "
			       "pricing uses the datasheet seek curve)", file);
	for (i = 0; i < g->nzones; i++) {
		const struct disk_zone_spec *z = &g->zone[i];
		uint64_t phys = zone_physical(m, z), limit;
		const char *unit;

		if (z->last_cyl >= m->cylinders)
			return err_set(e, "%s:%d: zone: last cylinder %u is beyond the drive's %u "
				       "cylinders", file, z->line, z->last_cyl, m->cylinders);
		if (m->sparing == DISK_SPARE_TRACK_SECTORS && z->spares >= z->spt)
			return err_set(e, "%s:%d: zone: %u spare sectors per track leave none of its "
				       "%u for data", file, z->line, z->spares, z->spt);
		limit = z->track_marks ? phys / z->spt : phys;
		unit = z->track_marks ? "track" : "sector";
		for (k = 0; k < z->nslips + 2 * z->ndefects; k++) {
			uint32_t v = g->marks[z->slip0 + k];

			if (v >= limit)
				return err_set(e, "%s:%d: zone: %s%s %u is beyond the zone's %llu %ss",
					       file, z->line, k < z->nslips ? "slip" : "defect",
					       z->track_marks ? " track" : "", v,
					       (unsigned long long)limit, unit);
		}
		if (validate_sparing(m, z, file, e))
			return -1;
	}
	return 0;
}

/*
 * Whether disk_mech_init() would succeed on this layout and model, without
 * its tables (the seek floors and their turns: most of its cost, and they
 * cannot fail): its only failures are a datasheet drive's two seek curve
 * fits, with its messages. A measured drive's curves come from its rows,
 * which the row readers and validate_measured() have checked.
 */
static int seek_curves_buildable(const struct disk_layout *l, const struct disk_model *m,
				 struct err *e)
{
	struct disk_seek_curve c;
	int64_t max = (int64_t)l->cylinders - 1;

	if (m->form == DISK_FORM_MEASURED)
		return 0;
	/* disk_mech_init()'s npts = 0, and the curve's figures; not the 12 KB of table rows. */
	memset(&c, 0, offsetof(struct disk_seek_curve, pd));
	return disk_mech_fit_curves(&c, &c, m, max, e);
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
	if (m->form == DISK_FORM_MEASURED ? validate_measured(m, file, e) :
	    validate_datasheet(m, file, e))
		return -1;
	if (m->read_ahead_max > m->cache_size)
		return err_set(e, "%s: key 'read_ahead_max': larger than cache_size", file);
	if (m->write_buffer > m->cache_size)
		return err_set(e, "%s: key 'write_buffer': larger than cache_size", file);
	if (m->segment_size > m->cache_size)
		return err_set(e, "%s: key 'segment_size': larger than cache_size", file);
	/* The geometry and the seek curves must be buildable from these figures. */
	{
		static __thread struct disk_layout l;

		if (disk_layout_build(&l, m, e) || seek_curves_buildable(&l, m, e))
			return err_prefix(e, "%s: ", file);
	}
	return 0;
}

/*
 * What a datasheet model means in the measured form's terms, so that the
 * mechanics and the cache read one set of fields whatever the form.
 */
static void datasheet_equivalents(struct disk_model *m)
{
	unsigned w, x, a;

	for (w = 0; w < 2; w++)
		for (x = 0; x < 2; x++)
			for (a = 0; a < 2; a++)
				m->overhead[w][x][a] = m->command_overhead;
	m->bus_read_sector = m->bus_write_sector =
		(int64_t)(512.0 * 1000.0 / m->interface_mbs);
	m->write_settle = 0;
	m->min_seek = 0;
	m->completion_read = m->completion_write = 0;
	m->segment_size = m->cache_segments ? m->cache_size / m->cache_segments : m->cache_size;
	m->read_hits_on_writes = false;
	m->read_ahead_rule = DISK_RA_SEGMENT;
	m->read_ahead_on_hit = false;
	m->partial_hits = false;
	m->read_watermark = 0;
	m->write_watermark = 0;
	m->watermark_by_request = true;
	m->write_segment = false;
	m->combine_writes = true;
	m->almost_read_hits = true;
	m->sneaky_full_hits = m->sneaky_partial_hits = true;
	m->write_prebuffering = true;
	m->read_ahead_min = 0;
	m->write_hit_stops_read_ahead = true;
	m->zero_latency_read = m->zero_latency_write = false;
	m->read_ahead_stop = DISK_RA_STOP_NOW;
	m->read_data = DISK_READ_DATA_OVERWRITE;
	memset(&m->bus, 0, sizeof(m->bus));
	m->bus.hold_read = m->bus.hold_write = m->bus.never_disconnect = true;
	m->sparing = DISK_SPARE_NONE;
	m->track_order = DISK_TRACKS_CYLINDER;
}

/*
 * The datasheet fields the NCQ path still reads (the command overhead, the
 * interface rate for cache hits), from a measured model's own figures.
 */
static void measured_equivalents(struct disk_model *m)
{
	m->command_overhead = m->overhead[DISK_OVH_READ][DISK_OVH_MISS][DISK_OVH_AFTER_READ];
	m->interface_mbs = m->bus_read_sector > 0 ? 512.0 * 1000.0 / (double)m->bus_read_sector :
		100000.0;
	m->zones = m->geo.nzones;
	m->layout = DISK_LAYOUT_CYLINDER;
}

struct model_reader {
	struct disk_model *m;
	bool seen[DISK_MAX_KEYS];
	bool any_key;
};

/* Whitespace-separated unsigned integers of a row; returns how many, -1 on a bad one. */
static int row_numbers(const char *value, uint64_t *out, int max)
{
	char buf[1024], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", value);
	for (tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		if (n == max || parse_u64(tok, &out[n]))
			return -1;
		n++;
	}
	return n;
}

static int zone_row(struct disk_model *m, const char *value, int line, struct err *e)
{
	struct disk_measured *g = &m->geo;
	struct disk_zone_spec *z;
	uint64_t v[8];
	int n = row_numbers(value, v, 8), i;

	if (n != 8)
		return err_set(e, "zone: expected 8 numbers 'FIRST_CYL LAST_CYL SECTORS_PER_TRACK "
			       "FIRST_OFFSET TRACK_SKEW CYL_SKEW SPARES FRONT_EMPTY', got '%s'", value);
	for (i = 0; i < 7; i++)
		if (v[i] > UINT32_MAX)
			return err_set(e, "zone: %llu is too large", (unsigned long long)v[i]);
	if (g->nzones == DISK_MAX_ZONES)
		return err_set(e, "zone: more than %d zones", DISK_MAX_ZONES);
	if (v[0] > v[1])
		return err_set(e, "zone: first cylinder %llu is after the last %llu",
			       (unsigned long long)v[0], (unsigned long long)v[1]);
	if (g->nzones && v[0] <= g->zone[g->nzones - 1].last_cyl)
		return err_set(e, "zone: first cylinder %llu is not after the previous zone's last "
			       "cylinder %u (zones go outward in, without overlap)",
			       (unsigned long long)v[0], g->zone[g->nzones - 1].last_cyl);
	if (v[2] < 1 || v[2] > 100000)
		return err_set(e, "zone: expected 1..100000 sectors per track, got %llu",
			       (unsigned long long)v[2]);
	z = &g->zone[g->nzones++];
	memset(z, 0, sizeof(*z));
	z->first_cyl = (uint32_t)v[0];
	z->last_cyl = (uint32_t)v[1];
	z->spt = (uint32_t)v[2];
	/* Skews and the first offset are angles: a whole revolution more is the same place. */
	z->first_offset = (uint32_t)(v[3] % v[2]);
	z->track_skew = (uint32_t)(v[4] % v[2]);
	z->cyl_skew = (uint32_t)(v[5] % v[2]);
	z->spares = (uint32_t)v[6];
	z->front_empty = v[7];
	z->slip0 = z->defect0 = g->nmarks;
	z->line = line;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * `slips = ...` / `defects = DEFECT SPARE ...`: sectors of the zone above,
 * zone-relative; `slip_tracks` / `defect_tracks`: the same in tracks
 * (sparing = tracks). A zone's slips come before its defects.
 */
static int marks_row(struct disk_model *m, const char *key, const char *value, struct err *e)
{
	struct disk_measured *g = &m->geo;
	struct disk_zone_spec *z;
	bool tracks = strstr(key, "_tracks") != NULL, slips = !strncmp(key, "slip", 4);
	const char *what = tracks ? "track numbers" : "sector numbers";
	uint64_t v[128];
	int n = row_numbers(value, v, 128), i;

	if (!g->nzones)
		return err_set(e, "%s: expected after a 'zone' row (they belong to it)", key);
	z = &g->zone[g->nzones - 1];
	if (n < 0)
		return err_set(e, "%s: expected up to 128 %s, got '%s'", key, what, value);
	if ((z->nslips || z->ndefects) && z->track_marks != tracks)
		return err_set(e, "%s: the zone's slips and defects are all sectors or all tracks "
			       "(slip_tracks, defect_tracks)", key);
	z->track_marks = tracks;
	if (slips && z->ndefects)
		return err_set(e, "%s: expected before the zone's defect rows", key);
	if (!slips && n % 2)
		return err_set(e, "%s: expected pairs 'DEFECT SPARE' (the spare the defect is "
			       "remapped to), got %d numbers", key, n);
	if (g->nmarks + (unsigned)n > DISK_MAX_MARKS)
		return err_set(e, "%s: more than %d slips and defects in the drive", key,
			       DISK_MAX_MARKS);
	for (i = 0; i < n; i++) {
		if (v[i] > UINT32_MAX)
			return err_set(e, "%s: %llu is too large", key, (unsigned long long)v[i]);
		g->marks[g->nmarks++] = (uint32_t)v[i];
	}
	if (slips) {
		z->nslips += (uint32_t)n;
		z->defect0 = z->slip0 + z->nslips;
		/* Extraction tools list them in the order found; the layout wants them in order. */
		qsort(&g->marks[z->slip0], z->nslips, sizeof(g->marks[0]), cmp_u32);
	} else {
		z->ndefects += (uint32_t)n / 2;
	}
	return 0;
}

static int seek_row(struct disk_model *m, const char *value, struct err *e)
{
	struct disk_measured *g = &m->geo;
	char buf[128], *sp;
	uint64_t d;
	int64_t t;

	snprintf(buf, sizeof(buf), "%s", value);
	sp = strpbrk(buf, " \t");
	if (!sp)
		return err_set(e, "seek: expected 'DISTANCE TIME' such as '10 2.35ms', got '%s'", value);
	*sp++ = '\0';
	sp = parse_trim(sp);
	if (parse_u64(buf, &d) || d < 1 || d > UINT32_MAX)
		return err_set(e, "seek: expected a distance of 1 or more cylinders, got '%s'", buf);
	if (parse_time(sp, MS, &t) || t > 1000 * MS)
		return err_set(e, "seek: expected a time such as 2.35ms, got '%s'", sp);
	if (g->nseek && d <= g->seek[g->nseek - 1].distance)
		return err_set(e, "seek: distance %llu is not above the previous row's %u",
			       (unsigned long long)d, g->seek[g->nseek - 1].distance);
	if (g->nseek == DISK_MAX_SEEK_POINTS)
		return err_set(e, "seek: more than %d rows", DISK_MAX_SEEK_POINTS);
	g->seek[g->nseek].distance = (uint32_t)d;
	g->seek[g->nseek].ns = t;
	g->nseek++;
	return 0;
}

/* `seek_formula = hpl SPLIT A B C E` | `curve3 ONE AVG FULL` | `constant T`. */
static int seek_formula_row(struct disk_model *m, const char *value, int line, struct err *e)
{
	static const struct { const char *name; int kind, times; const char *form; } forms[] = {
		{ "hpl", DISK_SEEK_HPL, 4, "'hpl SPLIT_CYLINDERS A B C E' (d < SPLIT: A + B*sqrt(d), "
		  "else C + E*d)" },
		{ "curve3", DISK_SEEK_CURVE3, 3, "'curve3 SINGLE AVERAGE FULL'" },
		{ "constant", DISK_SEEK_CONSTANT, 1, "'constant TIME'" },
	};
	struct disk_measured *g = &m->geo;
	char buf[256], *tok, *save = NULL;
	unsigned f;

	if (g->seek_formula != DISK_SEEK_TABLE)
		return err_set(e, "seek_formula: given twice (first at line %d)", g->seek_formula_line);
	snprintf(buf, sizeof(buf), "%s", value);
	tok = strtok_r(buf, " \t", &save);
	for (f = 0; tok && f < 3 && strcmp(tok, forms[f].name); f++)
		;
	if (!tok || f == 3)
		return err_set(e, "seek_formula: expected hpl, curve3 or constant, got '%s'", value);
	{
		bool hpl = forms[f].kind == DISK_SEEK_HPL;
		unsigned want = (unsigned)forms[f].times + hpl, k = 0;

		while ((tok = strtok_r(NULL, " \t", &save))) {
			uint64_t split;

			if (k == want)
				return err_set(e, "seek_formula: expected %s, got '%s'", forms[f].form,
					       value);
			if (hpl && k == 0) {
				if (parse_u64(tok, &split) || split > UINT32_MAX)
					return err_set(e, "seek_formula: expected %s, got '%s' for "
						       "SPLIT", forms[f].form, tok);
				g->seek_split = (uint32_t)split;
			} else if (parse_time(tok, MS, &g->seek_f[k - hpl]) ||
				   g->seek_f[k - hpl] > 1000 * MS) {
				return err_set(e, "seek_formula: expected %s with times such as "
					       "1.2ms, got '%s'", forms[f].form, tok);
			}
			k++;
		}
		if (k != want)
			return err_set(e, "seek_formula: expected %s, got '%s'", forms[f].form, value);
	}
	g->seek_formula = forms[f].kind;
	g->seek_formula_line = line;
	return 0;
}

static int model_line(void *ctx, const char *key, const char *value, const char *comment,
		      int line, struct err *e)
{
	struct model_reader *r = ctx;
	bool measured = r->m->form == DISK_FORM_MEASURED;
	const struct opt_def *o;
	unsigned i;

	if (!strcmp(key, "form")) {
		if (r->any_key)
			return err_set(e, "key 'form' must come before every other key");
		if (!strcmp(value, "measured"))
			r->m->form = DISK_FORM_MEASURED;
		else if (strcmp(value, "datasheet"))
			return err_set(e, "key 'form': expected datasheet or measured, got '%s'", value);
		r->any_key = true;
		return 0;
	}
	r->any_key = true;
	if (!strcmp(key, "zone") || !strcmp(key, "slips") || !strcmp(key, "defects") ||
	    !strcmp(key, "slip_tracks") || !strcmp(key, "defect_tracks") || !strcmp(key, "seek") ||
	    !strcmp(key, "seek_formula")) {
		if (!measured)
			return err_set(e, "key '%s' belongs to the measured form (put 'form = "
				       "measured' first)", key);
		if (!strcmp(key, "zone"))
			return zone_row(r->m, value, line, e);
		if (!strcmp(key, "seek"))
			return seek_row(r->m, value, e);
		if (!strcmp(key, "seek_formula"))
			return seek_formula_row(r->m, value, line, e);
		return marks_row(r->m, key, value, e);
	}
	o = opt_find(measured_options, key);
	if (o && !measured)
		return err_set(e, "key '%s' belongs to the measured form (put 'form = measured' "
			       "first)", key);
	if (!o)
		o = opt_find(model_options, key);
	if (!o)
		return err_set(e, "unknown key '%s' (see 'ncqsim drives he8' for the keys)", key);
	if (measured && !(o >= measured_options && o < measured_options + NMEASURED) &&
	    !disk_model_key_shared(o))
		return err_set(e, "key '%s' belongs to the datasheet form (a measured drive gives "
			       "its zone table, seek table and overheads instead)", key);
	i = key_index(o);
	if (r->seen[i])
		return err_set(e, "key '%s' given twice", key);
	r->seen[i] = true;
	if (!*value)
		return err_set(e, "key '%s' has no value", key);
	if (opt_set(o, r->m, value, "key", 1024, e))
		return -1;
	parse_copy(r->m->sources[i], DISK_SOURCE_MAX, comment ? comment : "");
	return 0;
}

/*
 * A model's rows and sources are read only below the tables' counts and
 * up to each source's NUL (zone_row() zeroes each zone it adds): clear()
 * and disk_model_copy() leave the rest alone. What they do touch, in the
 * order of struct disk_measured and struct disk_model:
 */
_Static_assert(offsetof(struct disk_measured, nzones) < offsetof(struct disk_measured, zone) &&
	       offsetof(struct disk_measured, zone) < offsetof(struct disk_measured, nmarks) &&
	       offsetof(struct disk_measured, nmarks) < offsetof(struct disk_measured, marks) &&
	       offsetof(struct disk_measured, marks) < offsetof(struct disk_measured, nseek) &&
	       offsetof(struct disk_measured, nseek) < offsetof(struct disk_measured, seek) &&
	       offsetof(struct disk_measured, seek) < offsetof(struct disk_measured, seek_formula) &&
	       offsetof(struct disk_measured, seek_formula) ==
	       offsetof(struct disk_measured, seek) + sizeof(((struct disk_measured *)0)->seek),
	       "struct disk_measured: each table after its count, the seek formula after the last");
_Static_assert(offsetof(struct disk_model, sources) ==
	       offsetof(struct disk_model, geo) + sizeof(struct disk_measured) &&
	       sizeof(struct disk_model) ==
	       offsetof(struct disk_model, sources) + sizeof(((struct disk_model *)0)->sources),
	       "struct disk_model: geo, then sources, last");

/* Everything before the zone rows, then the seek formula to the end of geo. */
#define MODEL_HEAD	offsetof(struct disk_model, geo.zone)
#define MODEL_GEO_TAIL	offsetof(struct disk_model, geo.seek_formula)

/* A model of zeros, as a reader sees it: no rows, every source empty. */
static void clear(struct disk_model *m)
{
	unsigned i;

	memset(m, 0, MODEL_HEAD);
	m->geo.nmarks = 0;
	m->geo.nseek = 0;
	memset(&m->geo.seek_formula, 0, offsetof(struct disk_model, sources) - MODEL_GEO_TAIL);
	for (i = 0; i < DISK_MAX_KEYS; i++)
		m->sources[i][0] = '\0';
}

void disk_model_copy(struct disk_model *dst, const struct disk_model *src)
{
	const struct disk_measured *g = &src->geo;
	unsigned i;

	if (dst == src)
		return;
	memcpy(dst, src, MODEL_HEAD);
	memcpy(dst->geo.zone, g->zone, g->nzones * sizeof(g->zone[0]));
	dst->geo.nmarks = g->nmarks;
	memcpy(dst->geo.marks, g->marks, g->nmarks * sizeof(g->marks[0]));
	dst->geo.nseek = g->nseek;
	memcpy(dst->geo.seek, g->seek, g->nseek * sizeof(g->seek[0]));
	memcpy(&dst->geo.seek_formula, &g->seek_formula,
	       offsetof(struct disk_model, sources) - MODEL_GEO_TAIL);
	for (i = 0; i < DISK_MAX_KEYS; i++)
		parse_copy(dst->sources[i], DISK_SOURCE_MAX, src->sources[i]);
}

int disk_model_parse(const char *text, const char *file, struct disk_model *m, struct err *e)
{
	struct model_reader *r;
	unsigned i;
	int rc = -1;

	clear(m);
	r = calloc(1, sizeof(*r));
	if (!r)
		return err_set(e, "%s: out of memory", file);
	r->m = m;
	if (parse_key_lines(text, file, "model file", model_line, r, e))
		goto out;
	for (i = 0; i < NMAIN; i++) {
		if (r->seen[i] || !key_later(&model_options[i]))
			continue;
		if (opt_set(&model_options[i], m, model_options[i].def, "key", 1024, e))
			goto out;
		r->seen[i] = true;
	}
	for (i = 0; i < NMAIN; i++)
		if (!r->seen[i] && (m->form == DISK_FORM_DATASHEET ||
				    disk_model_key_shared(&model_options[i]))) {
			err_set(e, "%s: key '%s' is missing (a model file gives every key; "
				"'ncqsim drives he8 --file' prints a complete one)", file,
				model_options[i].name);
			goto out;
		}
	for (i = 0; m->form == DISK_FORM_MEASURED && i < NMEASURED; i++)
		if (!r->seen[NMAIN + i]) {
			err_set(e, "%s: key '%s' is missing (a measured drive gives every key of "
				"docs/DRIVES.md's measured form)", file, measured_options[i].name);
			goto out;
		}
	if (m->form == DISK_FORM_DATASHEET)
		datasheet_equivalents(m);
	else
		measured_equivalents(m);
	rc = validate(m, file, e);
out:
	free(r);
	return rc;
}

int disk_model_set(struct disk_model *m, const char *key, const char *value, struct err *e)
{
	const struct opt_def *o = NULL;
	char label[64];

	if (m->form == DISK_FORM_MEASURED)
		o = opt_find(measured_options, key);
	if (!o) {
		o = opt_find(model_options, key);
		if (o && m->form == DISK_FORM_MEASURED && !disk_model_key_shared(o))
			o = NULL;
	}
	if (!o)
		return err_set(e, "drive '%s': unknown key 'drive.%s' (see 'ncqsim drives %s')",
			       m->name, key, m->name);
	if (opt_set(o, m, value, "key", 1024, e))
		return err_prefix(e, "drive '%s': ", m->name);
	snprintf(m->sources[key_index(o)], DISK_SOURCE_MAX, "set on the command line");
	if (m->form == DISK_FORM_DATASHEET)
		datasheet_equivalents(m);
	else
		measured_equivalents(m);
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

static void write_key(const struct disk_model *m, const struct opt_def *o, FILE *out)
{
	char value[128], line[200];
	const char *src = m->sources[key_index(o)];

	opt_format(o, m, value, sizeof(value));
	snprintf(line, sizeof(line), "%s = %s", o->name, value);
	if (src[0])
		fprintf(out, "%-36s # %s\n", line, src);
	else
		fprintf(out, "%s\n", line);
}

static void write_marks(const char *key, const uint32_t *v, unsigned n, FILE *out)
{
	unsigned i;

	for (i = 0; i < n; i++)
		fprintf(out, "%s%u%s", i % 12 ? " " : key, v[i], i % 12 == 11 || i + 1 == n ? "\n" : "");
}

/* The measured form's tables, as rows. */
static void write_tables(const struct disk_model *m, FILE *out)
{
	const struct disk_measured *g = &m->geo;
	unsigned i;

	fprintf(out, "# zone = FIRST_CYL LAST_CYL SECTORS_PER_TRACK FIRST_OFFSET TRACK_SKEW "
		"CYL_SKEW SPARES FRONT_EMPTY\n");
	for (i = 0; i < g->nzones; i++) {
		const struct disk_zone_spec *z = &g->zone[i];

		fprintf(out, "zone = %u %u %u %u %u %u %u %llu\n", z->first_cyl, z->last_cyl, z->spt,
			z->first_offset, z->track_skew, z->cyl_skew, z->spares,
			(unsigned long long)z->front_empty);
		write_marks(z->track_marks ? "slip_tracks = " : "slips = ", &g->marks[z->slip0],
			    z->nslips, out);
		write_marks(z->track_marks ? "defect_tracks = " : "defects = ", &g->marks[z->defect0],
			    2 * z->ndefects, out);
	}
	fprintf(out, "# seek = DISTANCE_CYLINDERS TIME\n");
	for (i = 0; i < g->nseek; i++) {
		char t[48];

		opt_format_time(g->seek[i].ns, t, sizeof(t));
		fprintf(out, "seek = %u %s\n", g->seek[i].distance, t);
	}
	if (g->seek_formula != DISK_SEEK_TABLE) {
		static const char *const names[] = { "", "hpl", "curve3", "constant" };
		static const unsigned times[] = { 0, 4, 3, 1 };
		unsigned k;

		fprintf(out, "seek_formula = %s", names[g->seek_formula]);
		if (g->seek_formula == DISK_SEEK_HPL)
			fprintf(out, " %u", g->seek_split);
		for (k = 0; k < times[g->seek_formula]; k++) {
			char t[48];

			opt_format_time(g->seek_f[k], t, sizeof(t));
			fprintf(out, " %s", t);
		}
		fputc('\n', out);
	}
}

void disk_model_write(const struct disk_model *m, FILE *out)
{
	const struct opt_def *o;

	fprintf(out, "# ncqsim drive model '%s': %s\n", m->name, m->description);
	fprintf(out, "# Format: key = value, '#' starts a comment; a comment after a value\n"
		"# is that value's source. Every key must be given. See docs/DRIVES.md.\n");
	if (m->form == DISK_FORM_MEASURED)
		fprintf(out, "form = measured\n");
	for (o = model_options; o->name; o++)
		if (m->form == DISK_FORM_DATASHEET || disk_model_key_shared(o))
			write_key(m, o, out);
	if (m->form == DISK_FORM_MEASURED) {
		for (o = measured_options; o->name; o++)
			write_key(m, o, out);
		write_tables(m, out);
	}
}

const char *disk_model_source(const struct disk_model *m, const struct opt_def *o)
{
	return m->sources[key_index(o)];
}
