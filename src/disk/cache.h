/*
 * cache — the drive's buffer: read segments kept here; the rules that move
 * data in and out (read-ahead, the write cache and its destaging) are the
 * firmware's, in disk.c, and docs/DRIVES.md says where each comes from.
 *
 *  - Read segments: `segments` LRU ranges of logical sectors, each at most
 *    a segment's size (cache_size / cache_segments). A media read fills
 *    one; read-ahead extends it while the drive is otherwise idle, the
 *    oldest data giving way at the segment's size. A read wholly inside a
 *    segment is a hit, served at interface speed without the actuator.
 *  - Dirty data: the bytes the write cache holds, bounded by write_buffer
 *    (the ranges themselves, and their destages, are in disk/dirty.h).
 *
 * Not modelled: reads served from dirty write data (they go to the media),
 * adaptive segmentation.
 */
#ifndef NCQSIM_DISK_CACHE_H
#define NCQSIM_DISK_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#define DISK_CACHE_MAX_SEGMENTS 256	/* a multiple of 4 (the hit test reads 4 at a time) */
/*
 * The hit filter: the logical sectors in blocks of 2^DISK_CACHE_BLOCK_SHIFT,
 * DISK_CACHE_FILTER counters (block number modulo the count), each the
 * number of segments holding a sector of a block that lands there. A read
 * whose first sector's counter is 0 is in no segment — almost every random
 * read, told with one load instead of a pass over every segment.
 */
#define DISK_CACHE_BLOCK_SHIFT	14
#define DISK_CACHE_FILTER	4096
#define DISK_CACHE_SPAN_MAX	8	/* blocks a segment may mark; a longer one turns the filter off */

/*
 * Segment i holds logical sectors [start[i], end[i]); an empty one has
 * start = end = 0, so no read falls in it. Arrays rather than an array of
 * structs: every read scans them all, and the scan is then a few
 * instructions a segment.
 */
struct disk_cache {
	unsigned nseg;
	uint64_t start[DISK_CACHE_MAX_SEGMENTS], end[DISK_CACHE_MAX_SEGMENTS];
	bool held[DISK_CACHE_MAX_SEGMENTS];	/* holds data (false: empty, reused first) */
	/*
	 * The segments least recently used first — empty ones at the front in
	 * index order — as a ring: lru_next[] leads from the least recently
	 * used (lru_head) to the most (lru_prev[lru_head], disk_cache_mru())
	 * and round again. A fill takes the head without a scan, and the
	 * segment it fills, now the most recently used, is where it was: the
	 * ring only turns (lru_head moves on one).
	 */
	uint16_t lru_head;
	uint16_t lru_prev[DISK_CACHE_MAX_SEGMENTS], lru_next[DISK_CACHE_MAX_SEGMENTS];
	int last_filled;	/* segment the last media read filled; -1 none or dropped */
	uint64_t dirty_bytes, write_buffer;
	uint16_t filter[DISK_CACHE_FILTER];
	/*
	 * Segment i's two counters in the filter when it spans one block or
	 * two; spread[i]: it spans more, or none, counted from its sectors
	 * (disk_cache_mark()).
	 */
	uint16_t mark[DISK_CACHE_MAX_SEGMENTS][2];
	bool spread[DISK_CACHE_MAX_SEGMENTS];
	unsigned wide;		/* segments over DISK_CACHE_SPAN_MAX blocks: every read scans */
};

void disk_cache_init(struct disk_cache *c, unsigned segments, uint64_t write_buffer);
bool disk_cache_read_hit_scan(struct disk_cache *c, uint64_t lba, uint64_t n);
/* Whether [lba, lba + n) is wholly in a read segment (marks it used). */
static inline bool disk_cache_read_hit(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	/* A hit's first sector is in a segment: its block is counted. */
	if (!c->wide && !c->filter[(lba >> DISK_CACHE_BLOCK_SHIFT) % DISK_CACHE_FILTER])
		return false;
	return disk_cache_read_hit_scan(c, lba, n);
}
/*
 * Count segment `seg`'s blocks in the filter (`by` +1) or take them out
 * (-1), block by block from its sectors: the general form, for a segment
 * of three blocks or more (disk_cache_mark(), disk_cache_unmark()).
 */
static inline void disk_cache_filter_mark(struct disk_cache *c, unsigned seg, int by)
{
	uint64_t first, last, b;

	if (c->end[seg] <= c->start[seg])
		return;
	first = c->start[seg] >> DISK_CACHE_BLOCK_SHIFT;
	last = (c->end[seg] - 1) >> DISK_CACHE_BLOCK_SHIFT;
	if (last - first >= DISK_CACHE_SPAN_MAX) {
		c->wide += (unsigned)by;
		return;
	}
	for (b = first; b <= last; b++)
		c->filter[b % DISK_CACHE_FILTER] += (uint16_t)by;
}

/*
 * Count segment `seg`, just given its sectors, in the filter. The usual
 * segment (almost every read's) spans one block or two: their counters
 * are kept in mark[seg] — the same one twice for a single block, which
 * only counts it twice: a counter is still 0 exactly when no segment
 * holds a sector there — so that taking the segment out is two
 * decrements, without its sectors. Any other, an empty one too (its last
 * block wraps below its first), is counted from its sectors by
 * disk_cache_filter_mark() and marked `spread`.
 */
static inline void disk_cache_mark(struct disk_cache *c, unsigned seg)
{
	uint64_t first = c->start[seg] >> DISK_CACHE_BLOCK_SHIFT;
	uint64_t last = (c->end[seg] - 1) >> DISK_CACHE_BLOCK_SHIFT;

	if (__builtin_expect(last - first <= 1, 1)) {
		unsigned a = (unsigned)(first % DISK_CACHE_FILTER), b = (unsigned)(last % DISK_CACHE_FILTER);

		c->filter[a]++;
		c->filter[b]++;
		c->mark[seg][0] = (uint16_t)a;
		c->mark[seg][1] = (uint16_t)b;
		return;
	}
	c->spread[seg] = true;
	disk_cache_filter_mark(c, seg, 1);
}

/*
 * Take segment `seg` out of the filter, before its sectors change (they
 * are then counted again by disk_cache_mark(), even when none).
 */
static inline void disk_cache_unmark(struct disk_cache *c, unsigned seg)
{
	if (__builtin_expect(c->spread[seg], 0)) {
		c->spread[seg] = false;
		disk_cache_filter_mark(c, seg, -1);
		return;
	}
	c->filter[c->mark[seg][0]]--;
	c->filter[c->mark[seg][1]]--;
}

/* A media read of [lba, lba + n) has filled a segment (inline: every media read does). */
static inline void disk_cache_fill(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	/* The least recently used segment; an empty one first. */
	unsigned victim = c->lru_head;

	disk_cache_unmark(c, victim);
	c->start[victim] = lba;
	c->end[victim] = lba + n;
	disk_cache_mark(c, victim);
	c->held[victim] = true;
	c->lru_head = c->lru_next[victim];	/* the victim, behind the new head, is the most recent */
	c->last_filled = (int)victim;
}
/* The most recently used segment (the one a hit or a fill has just used). */
static inline unsigned disk_cache_mru(const struct disk_cache *c)
{
	return c->lru_prev[c->lru_head];
}
/*
 * Read-ahead has brought segment `seg` up to `end` (exclusive); its oldest
 * sectors give way so that it holds at most `seg_size`.
 */
void disk_cache_extend(struct disk_cache *c, unsigned seg, uint64_t end, uint64_t seg_size);
/* Drop read segments overlapping a write. */
void disk_cache_invalidate(struct disk_cache *c, uint64_t lba, uint64_t n);

#endif
