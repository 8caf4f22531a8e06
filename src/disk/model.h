/*
 * model — a drive's parameters: identity, geometry, mechanics, firmware
 * policy and cache, as one struct filled from a key = value model file
 * through one option table (util/opt), so that parsing, defaults, ranges,
 * `ncqsim drives NAME` and the docs come from the same rows.
 *
 * Model file format (docs/DRIVES.md):
 *
 *   # comment
 *   name = he8
 *   rpm = 7200                    # source: HGST Ultrastar He8 data sheet
 *
 * Every key the table knows must be given (a model file is a complete
 * description; nothing falls back silently), at most once. A trailing
 * "# ..." comment on a line is kept as that parameter's source and shown
 * by `ncqsim drives NAME`.
 *
 * Two forms (a file uses one or the other, docs/DRIVES.md):
 *   datasheet  the default: zones, media rates and seek figures from a data
 *              sheet; the layout and the seek curve are derived from them.
 *   measured   `form = measured`: what an extraction tool measured on a
 *              real drive (DIXtrac, DiskSim's validation drives) — an
 *              explicit zone table with skews, spares, slips and defects,
 *              a seek table, per-command overheads and bus transfer times.
 *              `ncqsim import disksim` writes this form.
 * Keys of the other form are refused, so a file cannot mix the two.
 */
#ifndef NCQSIM_DISK_MODEL_H
#define NCQSIM_DISK_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ata/cdl.h"
#include "util/err.h"
#include "util/opt.h"

enum disk_layout_order {
	DISK_LAYOUT_CYLINDER,	/* all heads of a cylinder, then the next cylinder */
	DISK_LAYOUT_SERPENTINE,	/* per zone: surface by surface, direction alternating */
	/* measured drives only (enum disk_track_order): heads descending on odd cylinders */
	DISK_LAYOUT_ALTERNATE_ZONE,	/* counted from the zone's first cylinder */
	DISK_LAYOUT_ALTERNATE,		/* odd cylinder numbers */
};

#define DISK_NAME_MAX	32
#define DISK_SOURCE_MAX	160
#define DISK_CDL_NAME_MAX	128
#define DISK_MAX_KEYS	128	/* room for the option tables' rows */
#define DISK_MAX_ZONES	256	/* a measured zone table; extracted drives have up to ~60 */
#define DISK_MAX_DATASHEET_ZONES 64
#define DISK_MAX_HEADS	64
#define DISK_MAX_SEEK_POINTS	1024
#define DISK_MAX_MARKS	4096	/* slips and defects, all zones together */

enum disk_form {
	DISK_FORM_DATASHEET,
	DISK_FORM_MEASURED,
};

/*
 * Where a measured drive keeps its spare sectors, and what a slip does
 * (DiskSim's sparing schemes 0-10, docs/DRIVES.md): spares hold no LBN, so
 * the LBNs of a zone skip over them. A slipped sector holds no LBN either:
 * in the schemes marked "shift" it moves every later LBN of its zone one
 * data sector on (DiskSim's "slip to end"), costing the zone one LBN; in
 * the others it takes one spare of its own track, cylinder, range or zone,
 * moving only the LBNs after it in that unit. Under `tracks` a zone slips
 * and remaps whole tracks.
 */
enum disk_sparing {
	DISK_SPARE_NONE,		/* 0: no spares; no slips */
	DISK_SPARE_TRACKS,		/* 1: `spares` tracks at the end of each zone */
	DISK_SPARE_TRACK_SECTORS,	/* 3: `spares` sectors at the end of every track */
	DISK_SPARE_DISK_END,		/* 7: none in the zones (at the disk's end); shift */
	DISK_SPARE_RANGE,		/* 8: `spares` sectors at the end of every sparing_range cylinders */
	DISK_SPARE_ZONE,		/* 9: `spares` sectors at the end of each zone */
	DISK_SPARE_CYLINDER,		/* 2: `spares` sectors at the end of every cylinder */
	DISK_SPARE_CYLINDER_SHIFT,	/* 4: the same; shift */
	DISK_SPARE_CYLINDER_FRONT,	/* 5: `spares` sectors at the front of every cylinder; no slips */
	DISK_SPARE_CYLINDER_FRONT_SHIFT,	/* 6: the same; shift */
	DISK_SPARE_ZONE_SHIFT,		/* 10: `spares` sectors at the end of each zone; shift */
};

/*
 * The order of a measured drive's tracks (DiskSim's LBN-to-PBN mapping
 * scheme): every head of a cylinder, then the next cylinder — on some
 * cylinders from the last head down, so that a cylinder switch stays on
 * its surface.
 */
enum disk_track_order {
	DISK_TRACKS_CYLINDER,		/* 0: heads ascending on every cylinder */
	DISK_TRACKS_ALTERNATE_ZONE,	/* 1: descending on the odd cylinders counted from the zone's first */
	DISK_TRACKS_ALTERNATE,		/* 2: descending on the odd-numbered cylinders */
};

/*
 * How far a read reads ahead after its last sector (DiskSim's "Buffer
 * continuous read" 1-4), never past read_ahead_max nor its segment.
 */
enum disk_ra_rule {
	DISK_RA_SEGMENT,		/* until the segment is full (3) */
	DISK_RA_TRACK,			/* to the end of the track of the last sector (1) */
	DISK_RA_CYLINDER,		/* to the end of its cylinder (2) */
	DISK_RA_SEQUENTIAL,		/* to the end of the next track, only when the read
					 * before ended on the track before this one (4) */
};

/*
 * When a command may take the actuator from the read-ahead (DiskSim's
 * "Disconnect write if seek" and "Stop prefetch in sector").
 */
enum disk_ra_stop {
	DISK_RA_STOP_NOW,		/* at once (a track switch under way ends first) */
	DISK_RA_STOP_SECTOR,		/* at the end of the sector under way */
};

/* What becomes of a read's own data in its segment (DiskSim's "Read-ahead over requested"). */
enum disk_read_data {
	DISK_READ_DATA_OVERWRITE,	/* the read-ahead may push it out (the segment wraps) */
	DISK_READ_DATA_KEEP,		/* the read-ahead stops before it would */
	DISK_READ_DATA_DROP,		/* it leaves the segment when the read completes */
};

/*
 * The SCSI bus phases of a lone command on a measured drive (DiskSim 4.0's
 * disk controller; docs/DRIVES.md, "Bus phases"). Every time here is
 * already scaled by DiskSim's "Time scale for overheads". A datasheet
 * drive has none (all zero, the bus held throughout).
 */
struct disk_bus_phases {
	int64_t request;		/* before anything else, per command */
	int64_t arbitration;		/* to win the bus: for the command, for every reselection */
	int64_t controller;		/* a message crossing the controllers, each way */
	int64_t data_prep;		/* before data moves: a hit, a write's data, a reselection */
	int64_t reselect_first;		/* the drive reconnects to the bus */
	int64_t reselect_other;		/* ... a second time (after an extra write disconnect) */
	int64_t disconnect_read[2];	/* a read leaves the bus: [previous command a write] */
	int64_t disconnect_write;	/* a write leaves the bus after its data */
	bool hold_read;			/* a read short of data waits on the bus */
	bool hold_write;		/* a write short of room waits on the bus */
	bool never_disconnect;		/* the drive keeps the bus from command to completion */
	bool extra_write_disconnect;	/* a write after a write it does not follow disconnects
					 * before taking its data: */
	int64_t xd_command;		/* ... its command overhead, */
	int64_t xd_seek_delta;		/* ... and this more before its mechanics start; */
	int64_t xd_disconnect;		/* ... with this, it leaves the bus; */
	int64_t xd_inter_disconnect;	/* ... it asks for the data this long after; */
	int64_t xd_disconnect2;		/* ... and leaves again after the data */
};

/* Per-command overheads of a measured drive: [write][miss][after_write]. */
enum {
	DISK_OVH_READ = 0, DISK_OVH_WRITE = 1,
	DISK_OVH_HIT = 0, DISK_OVH_MISS = 1,
	DISK_OVH_AFTER_READ = 0, DISK_OVH_AFTER_WRITE = 1,
};

/* One row of a measured zone table (all counts in physical sectors). */
struct disk_zone_spec {
	uint32_t first_cyl, last_cyl;
	uint32_t spt;			/* sectors per track */
	uint32_t first_offset;		/* sectors from the index mark to the zone's first sector */
	uint32_t track_skew, cyl_skew;	/* sectors skipped across a head / cylinder switch */
	uint32_t spares;		/* per the sparing scheme */
	uint64_t front_empty;		/* LBN slots left unused at the zone's start */
	/*
	 * Slips: zone-relative physical sectors (tracks under sparing =
	 * tracks), ascending, marks[slip0 ..]. Defects: pairs DEFECT SPARE,
	 * marks[defect0 ..], 2 * ndefects numbers.
	 */
	uint32_t slip0, nslips, defect0, ndefects;
	bool track_marks;		/* given as slip_tracks / defect_tracks rows */
	int line;			/* in the model file, for messages */
};

struct disk_seek_point {
	uint32_t distance;		/* cylinders */
	int64_t ns;
};

/*
 * A seek formula for the distances past the last seek row (DiskSim's
 * formula seek types; docs/DRIVES.md):
 *   hpl       d < split: a + b·√d, else c + e·d      (Lee's, Ruemmler & Wilkes')
 *   curve3    one + B·(d−1) + C·√(d−1), B and C such that the curve runs from
 *             one (a single cylinder) to full (the full stroke) and averages
 *             avg over random seeks (DiskSim's three-point curve)
 *   constant  t at every distance, and for an access that stays on its cylinder
 */
enum disk_seek_formula {
	DISK_SEEK_TABLE,	/* none: the table's last two rows' slope */
	DISK_SEEK_HPL,
	DISK_SEEK_CURVE3,
	DISK_SEEK_CONSTANT,
};

/* The measured form's tables. */
struct disk_measured {
	unsigned nzones;
	struct disk_zone_spec zone[DISK_MAX_ZONES];
	unsigned nmarks;
	uint32_t marks[DISK_MAX_MARKS];
	unsigned nseek;
	struct disk_seek_point seek[DISK_MAX_SEEK_POINTS];
	int seek_formula;		/* enum disk_seek_formula, from a `seek_formula` row */
	uint32_t seek_split;		/* hpl: cylinders */
	int64_t seek_f[4];		/* hpl a b c e; curve3 one avg full; constant t (ns) */
	int seek_formula_line;
};

struct disk_model {
	/* identity */
	char name[DISK_NAME_MAX];
	char description[96];
	char model[41], serial[21], firmware[9];
	int64_t sectors;		/* logical sectors */
	unsigned logical_sector_size, physical_sector_size;
	/* ATA features the drive reports */
	bool ncq;
	unsigned queue_depth;
	bool ncq_prio;			/* IDENTIFY word 76 bit 12 */
	bool ncq_prio_log;		/* log 30h page 08h byte 9 bit 3 */
	bool id_data_log;		/* log 30h present in the GPL directory */
	unsigned sata_gen;		/* highest SATA generation, 1..3 */
	/* geometry */
	unsigned rpm;
	unsigned heads;
	unsigned zones;
	int layout;			/* enum disk_layout_order */
	double rate_od_mbs, rate_id_mbs;	/* sustained MB/s (10^6) */
	/* mechanics */
	int64_t seek_track_read, seek_avg_read, seek_full_read;
	int64_t seek_track_write, seek_avg_write, seek_full_write;
	int64_t head_switch;
	int64_t command_overhead;
	int64_t rpo_guard;
	double interface_mbs;
	/* firmware */
	/* Rows of fwq_policies and fwq_prio_policies (disk/fwq.h). */
	const struct plugin *fw_sched;
	const struct plugin *prio_policy;
	int64_t prio_soft_margin;
	int64_t age_limit;
	/* Command Duration Limits */
	bool cdl;			/* log 30h page 03h: CDL supported */
	char cdl_t2a[DISK_CDL_NAME_MAX], cdl_t2b[DISK_CDL_NAME_MAX];	/* page names */
	struct ata_cdl_log cdl_log;	/* the pages, as log 18h holds them */
	/* cache */
	uint64_t cache_size;
	unsigned cache_segments;
	bool read_ahead;
	uint64_t read_ahead_max;
	bool write_cache;		/* enabled at power-on */
	uint64_t write_buffer;
	/* DATA SET MANAGEMENT TRIM (IDENTIFY word 169 bit 0): SMR drives have it, CMR ones not */
	bool trim;
	int64_t trim_time;		/* what a TRIM costs once taken in, per 512-byte block of ranges */

	/*
	 * Measured form (docs/DRIVES.md). A datasheet model gets the
	 * equivalents: every overhead = command_overhead, bus times from
	 * interface_mbs, no settle, no completion overhead, the read cache not
	 * serving written data.
	 */
	int form;			/* enum disk_form */
	uint32_t cylinders;
	int sparing;			/* enum disk_sparing */
	int track_order;		/* enum disk_track_order */
	uint32_t sparing_range;		/* cylinders, DISK_SPARE_RANGE */
	int64_t write_settle;		/* added to a write's seek or head switch; may be < 0 */
	int64_t min_seek;		/* a media access positions for at least this */
	int64_t bus_read_sector, bus_write_sector;	/* host transfer per 512 bytes */
	int64_t overhead[2][2][2];	/* [write][miss][after write], DISK_OVH_* */
	int64_t completion_read, completion_write;
	uint64_t segment_size;		/* bytes one cache segment holds */
	bool read_hits_on_writes;	/* written data stays in the buffer for reads */
	int read_ahead_rule;		/* enum disk_ra_rule */
	bool read_ahead_on_hit;		/* a hit on an idle drive reads ahead from its segment's end */
	bool partial_hits;		/* a read whose start is buffered sends that part at once */
	double read_watermark;		/* a read miss reconnects when this fraction is buffered */
	bool watermark_by_request;	/* ... of the request (else of segment_size) */
	double write_watermark;		/* a write out of room reconnects when dirty data falls to this */
	bool write_segment;		/* one segment holds writes alone; reads never hit it */
	bool combine_writes;		/* a write continuing dirty data joins its segment */
	bool almost_read_hits;		/* a read of the sector being read ahead is a hit */
	bool sneaky_full_hits, sneaky_partial_hits;	/* hits served while writes are destaged */
	bool write_prebuffering;	/* a write's data is taken while writes are destaged */
	uint64_t read_ahead_min;	/* bytes read ahead before another command may stop it */
	bool write_hit_stops_read_ahead;	/* ... unless a write overlaps the segment */
	bool zero_latency_read, zero_latency_write;	/* a track's sectors in the order they pass */
	int read_ahead_stop;		/* enum disk_ra_stop */
	int read_data;			/* enum disk_read_data */
	struct disk_bus_phases bus;
	struct disk_measured geo;

	/* the source comment of each key, parallel to the option tables */
	char sources[DISK_MAX_KEYS][DISK_SOURCE_MAX];
};

/* The datasheet form's keys (those shared by both forms included). */
const struct opt_def *disk_model_options(void);
/* The keys only the measured form has (its row keys not included). */
const struct opt_def *disk_model_measured_options(void);
/* Whether a datasheet key is also a key of the measured form. */
bool disk_model_key_shared(const struct opt_def *o);

/*
 * Parse a model file's text. `file` names it in messages:
 *   he8.drive:12: key 'rpm': expected an integer 3600..20000, got 'fast'
 */
int disk_model_parse(const char *text, const char *file, struct disk_model *m, struct err *e);

/*
 * *dst = *src in every byte a reader reads: the tables' rows below their
 * counts and the sources up to their NULs, not the unused rest (a model
 * is 70 KB, mostly room for a measured drive's rows and for comments).
 */
void disk_model_copy(struct disk_model *dst, const struct disk_model *src);

/* Built-in models. */
unsigned disk_model_builtin_count(void);
const char *disk_model_builtin_name(unsigned i);
const char *disk_model_builtin_text(unsigned i);

/* Load by built-in name, or else as a model file path. */
int disk_model_load(const char *name_or_path, struct disk_model *m, struct err *e);

/*
 * Change one parameter of a loaded model (`--set drive.age_limit=3s`) and
 * check the model again; the message names the key.
 */
int disk_model_set(struct disk_model *m, const char *key, const char *value, struct err *e);

/* Print as a model file (loadable back), with sources as comments. */
void disk_model_write(const struct disk_model *m, FILE *out);
/* The source comment given for a key ("" when none). */
const char *disk_model_source(const struct disk_model *m, const struct opt_def *o);

#endif
