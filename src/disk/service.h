/*
 * service — the drive serving one command at a time, as a SCSI drive
 * without command queueing does (DiskSim's validation drives). The timing
 * is the drive model's own — layout (zones, skews, spares, slips), mech
 * (seek table, head switch, write settle, rotation, per-command overheads,
 * bus time per sector) and cache (LRU segments) — the same modules the NCQ
 * drive (disk.c) is built from; what this module adds is the order of a
 * lone command's phases, DiskSim 4.0's (disksim_diskctlr.c), bus phases
 * included (docs/DRIVES.md, "One command at a time"):
 *
 *   every command      arbitration + controller_delay (the command reaches
 *                      the drive) ─ request_overhead ─ ...
 *   read, full hit     overhead(read, hit) ─ data_prep ─ bus(n) ─ completion
 *   read, miss         overhead(read, miss) ─ seek ─ rotate ─ media ...
 *                      │ bus: the drive disconnects (disconnect_read) and
 *                      │ reselects (arbitration, reselect_first, data_prep)
 *                      │ once read_watermark is buffered, then sends at the
 *                      │ bus's pace: held (hold_bus_read) while the media is
 *                      │ behind, else disconnecting and reselecting again
 *                      └ completion
 *   read, stream or partial hit
 *                      overhead(read, hit) ─ data_prep ─ the buffered part,
 *                      then the rest as the read-ahead or a media read of
 *                      it (overhead(read, miss) ─ seek ...) delivers it
 *   write, write cache off
 *                      overhead(write, miss) ─ seek (at least min_seek) ─
 *                      rotate ─ media │ bus: data_prep ─ bus(n) ─
 *                      disconnect_write; after the media, reselect_first ─
 *                      completion. A sector goes down only if its data is
 *                      in when it comes under the head, else a revolution
 *                      later. A write after a write it does not follow, on
 *                      a drive with extra_write_disconnect, disconnects at
 *                      once (extradisc_command + extradisc_disconnect),
 *                      starts its mechanics after extradisc_command +
 *                      extradisc_seek_delta, reselects for the data
 *                      extradisc_inter_disconnect later, leaves again after
 *                      it (extradisc_disconnect2) and reselects for status
 *                      with reselect_other.
 *   write, write cache on
 *                      overhead(write, hit) ─ data_prep ─ bus(n) ─
 *                      completion; the media write follows the earlier ones
 *                      (DiskSim's fast write); while they are being written a
 *                      write waits (disconnected) for the mechanism, unless
 *                      it continues them or write_prebuffering takes its
 *                      data at once into a free write segment
 *
 * The messages between drive and host each cross the controllers
 * (controller_delay each way: a disconnect or reselection is a message up
 * and its acknowledgement down). A never_disconnect drive keeps the bus
 * from command to completion: no disconnects, reselections or watermark.
 *
 * Read-ahead: after a media read the head goes on reading the following
 * LBNs into the read's segment while nothing else needs it, at the zone's
 * rate with its track skews, as far as read_ahead_rule says, never past
 * read_ahead_max beyond the request (the sequential rule excepted, as in
 * DiskSim); the segment wraps (it keeps the last segment_size read into
 * it). A command stops it (read_ahead_stop: at once, or at the end of the
 * sector under way; a track switch under way ends first), but not before
 * read_ahead_min past the read's end (unless a write overlapping the
 * segment arrives and write_hit_stops_read_ahead). A read that starts in
 * the segment while it runs (at the sector being read only with
 * almost_read_hits) moves the limit to its own end + read_ahead_max and is
 * served by the same pass; with read_ahead_on_hit, a hit on an idle drive
 * sends the head back to the segment's end to read ahead from there. A
 * read whose first sectors are buffered reads only the rest (sending the
 * buffered part at once with partial_hits, else once read_watermark is
 * buffered). With write_segment, writes go through a segment of their own
 * and reads never hit written data. zero_latency_read (and _write) takes a
 * request lying on one track in the order its sectors pass the head.
 * `after read / after write` in the overheads is the previous command.
 *
 * Not modelled: a read larger than its segment is not slowed by the host
 * emptying it (DiskSim's Read directly to buffer); zero latency for
 * requests crossing a track.
 */
#ifndef NCQSIM_DISK_SERVICE_H
#define NCQSIM_DISK_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/cache.h"
#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"
#include "util/err.h"

enum disk_service_kind {
	DISK_SERVED_HIT,	/* wholly from the buffer */
	DISK_SERVED_STREAM,	/* from the running read-ahead */
	DISK_SERVED_MEDIA,	/* read or written on the media before completing */
	DISK_SERVED_CACHED,	/* write into the write cache */
};

#define DISK_SERVICE_DESTAGES 1024	/* dirty write segments held at once, at most */
#define DISK_SERVICE_MAX_SECTORS 65536	/* a write beyond its segment is timed sector by sector up to this */

struct disk_service_dirty {
	uint64_t start, end;	/* the LBNs it holds */
	int64_t done;		/* its media write ends: the segment is clean */
};

struct disk_service {
	struct disk_layout layout;
	struct disk_mech mech;
	struct disk_cache cache;	/* the read segments */
	struct disk_head head;
	struct disk_bus_phases bus;
	bool read_ahead, write_cache, read_hits_on_writes, ra_on_hit, partial_hits;
	bool write_segment, combine_writes, almost_read_hits, sneaky_full, sneaky_partial;
	bool write_prebuffering, write_hit_stops_ra, zero_latency_read, zero_latency_write;
	int ra_rule, ra_stop, read_data;
	double watermark, write_watermark;
	bool watermark_by_request;
	int64_t min_seek;		/* a write's positioning, at least */
	uint64_t last_write_end;	/* the LBN after the last write */
	uint64_t last_read_ps;		/* the last sector of the last media read, +1; 0 none */
	uint64_t ra_max, ra_min, seg_sectors;	/* in LBNs */
	int64_t busy_until;		/* the mechanism, after cached writes' media writes */
	unsigned write_segments;	/* dirty segments the write cache may hold */
	unsigned dirty_head, ndirty;
	struct disk_service_dirty dirty[DISK_SERVICE_DESTAGES];
	/* the read-ahead stream */
	bool streaming;
	int seg;			/* its cache segment */
	uint64_t seg_start, ra_from, ra_limit, ra_floor;	/* ra_floor: read_ahead_min's end */
	int64_t ra_t0;			/* when the head was at ra_from */
	int64_t ra_sector_ns;		/* per LBN, track skews included */
	int64_t down[DISK_SERVICE_MAX_SECTORS];	/* a long write: when each sector is on the media */
};

int disk_service_init(struct disk_service *s, const struct disk_model *m, struct err *e);

/*
 * A command arriving at `now` (the host has nothing else outstanding):
 * returns when it completes; *kind says how it was served.
 */
int64_t disk_service_command(struct disk_service *s, int64_t now, bool write, uint64_t lba,
			     uint64_t n, enum disk_service_kind *kind);

#endif
