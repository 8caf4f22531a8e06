/*
 * cache — the drive's buffer, kept simple and honest:
 *
 *  - Read segments: `segments` LRU ranges of logical sectors. A media read
 *    fills one; while the drive then stays idle it keeps reading the
 *    following sectors into the same segment (read-ahead), up to
 *    read_ahead_max, stopping the moment another command is dispatched. A
 *    read wholly inside a segment is a hit, served at interface speed
 *    without moving the actuator.
 *  - Write cache: with it enabled, a write (not FUA) completes once its data
 *    is in the buffer, if the dirty data stays within write_buffer; it is
 *    destaged later as an internal command that the firmware schedules like
 *    any other (normal priority, same aging). Otherwise the write goes to the
 *    media before it completes.
 *
 * Not modelled: reads served from dirty write data (they go to the media),
 * segment sizes limiting a read-ahead below read_ahead_max, adaptive
 * segmentation, write coalescing.
 */
#ifndef NCQSIM_DISK_CACHE_H
#define NCQSIM_DISK_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/ilist.h"

#define DISK_CACHE_MAX_SEGMENTS 256	/* <= ILIST_MAX; a multiple of 4 (the hit test reads 4 at a time) */

/*
 * Segment i holds logical sectors [start[i], end[i]); an empty one has
 * start = end = 0, so no read falls in it. Arrays rather than an array of
 * structs: every read scans them all, and the scan is then a few
 * instructions a segment.
 */
struct disk_cache {
	unsigned nseg;
	uint64_t use_clock;
	uint64_t start[DISK_CACHE_MAX_SEGMENTS], end[DISK_CACHE_MAX_SEGMENTS];
	uint64_t last_use[DISK_CACHE_MAX_SEGMENTS];	/* 0: empty, reused first */
	/*
	 * The segments least recently used first — empty ones at the front in
	 * index order — so that a fill takes the first without a scan.
	 */
	struct ilist lru;
	int last_filled;	/* segment the last media read filled, -1 none */
	uint64_t dirty_bytes, write_buffer;
};

void disk_cache_init(struct disk_cache *c, unsigned segments, uint64_t write_buffer);
/* Whether [lba, lba + n) is wholly in a read segment (marks it used). */
bool disk_cache_read_hit(struct disk_cache *c, uint64_t lba, uint64_t n);
/* A media read of [lba, lba + n) has filled a segment. */
void disk_cache_fill(struct disk_cache *c, uint64_t lba, uint64_t n);
/* Extend the last-filled segment by n sectors (read-ahead), up to `max` total beyond its read. */
void disk_cache_read_ahead(struct disk_cache *c, uint64_t n, uint64_t max, uint64_t capacity);
/* Drop read segments overlapping a write. */
void disk_cache_invalidate(struct disk_cache *c, uint64_t lba, uint64_t n);

#endif
