/*
 * service — the drive serving one command at a time, as a SCSI drive
 * without command queueing does (DiskSim's validation drives). The timing
 * is the drive model's own — layout (zones, skews, spares, slips), mech
 * (seek table, head switch, write settle, rotation, per-command and
 * completion overheads, bus time per sector) and cache (LRU segments) —
 * the same modules the NCQ drive (disk.c) is built from; what this module
 * adds is the order of a lone command's phases:
 *
 *   read, full hit     overhead(read, hit) ─ bus(n) ─ completion
 *   read, in the read-ahead stream
 *                      overhead(read, hit) ─ wait for the stream to pass the
 *                      last sector ─ bus(1) ─ completion
 *   read, miss         overhead(read, miss) ─ seek ─ rotate ─ media ─┐ bus overlaps the media:
 *                      done at max(media end + bus(1), first sector + bus(n)) ─ completion
 *   write, write cache on
 *                      overhead(write, hit) ─ [room in write_buffer] ─ bus(n) ─
 *                      completion; the media write (seek ─ rotate ─ media)
 *                      follows the earlier ones, and a later command's
 *                      mechanics wait for them all (DiskSim's fast write level
 *                      2: dirty data is flushed before another command)
 *   write, write cache off
 *                      overhead(write, miss) ─ seek (+ settle) ─ rotate ─ media,
 *                      the first sector written once write_watermark's share
 *                      of the data is in (DiskSim's "Low (write) water mark")
 *                      and late enough for the rest to keep ahead of the
 *                      head, else on its next pass ─ completion
 *
 * A read miss sends nothing until read_watermark of the request (or of a
 * segment) is buffered, then sends at the bus's pace (DiskSim's "High
 * (read) water mark": the drive reconnects to the bus at that fill).
 *
 * Read-ahead: after a media read the head goes on reading the following
 * LBNs into the read's segment while nothing else needs it, at the zone's
 * rate with its track skews, as far as read_ahead_rule says (segment,
 * track, cylinder, or the next track when the reads are sequential), never
 * past read_ahead_max beyond the request; the segment wraps (it keeps the
 * last segment_size read into it). A miss or a write stops it where it is
 * (the head is then on that track). A read that starts in the segment
 * while it runs moves the limit to its own end + read_ahead_max and is
 * served by the same pass; with read_ahead_on_hit, a hit on an idle drive
 * sends the head back to the segment's end to read ahead from there. With
 * partial_hits, a read whose first sectors are buffered sends them at once
 * and reads only the rest. A write after a write it does not follow takes
 * overhead_write_after_random_write when that is set (DiskSim's extra
 * write disconnect). `after read / after write` in the overheads is the
 * previous command.
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

#define DISK_SERVICE_DESTAGES 1024	/* dirty writes held at once */

struct disk_service_dirty {
	int64_t end;		/* its media write ends: it leaves the buffer */
	uint64_t bytes;
};

struct disk_service {
	struct disk_layout layout;
	struct disk_mech mech;
	struct disk_cache cache;
	struct disk_head head;
	bool read_ahead, write_cache, read_hits_on_writes, ra_on_hit, partial_hits;
	int ra_rule;
	double watermark, write_watermark;
	bool watermark_by_request;
	int64_t write_after_random_write;	/* overhead; 0 none */
	uint64_t last_write_end;	/* the LBN after the last write */
	uint64_t last_read_ps;		/* the last sector of the last media read, +1; 0 none */
	uint64_t ra_max, seg_sectors;	/* in LBNs */
	int64_t busy_until;		/* the mechanism, after cached writes' media writes */
	uint64_t write_buffer, dirty_bytes;
	unsigned dirty_head, ndirty;
	struct disk_service_dirty dirty[DISK_SERVICE_DESTAGES];
	/* the read-ahead stream */
	bool streaming;
	int seg;			/* its cache segment */
	uint64_t seg_start, ra_from, ra_limit;
	int64_t ra_t0;			/* when the head was at ra_from */
	int64_t ra_sector_ns;		/* per LBN, track skews included */
};

int disk_service_init(struct disk_service *s, const struct disk_model *m, struct err *e);

/*
 * A command arriving at `now` (the host has nothing else outstanding):
 * returns when it completes; *kind says how it was served.
 */
int64_t disk_service_command(struct disk_service *s, int64_t now, bool write, uint64_t lba,
			     uint64_t n, enum disk_service_kind *kind);

#endif
