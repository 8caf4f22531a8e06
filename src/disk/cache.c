#include "disk/cache.h"

#include <string.h>

_Static_assert(DISK_CACHE_MAX_SEGMENTS <= UINT16_MAX, "the LRU ring indexes segments");

/* Take segment i out of the LRU ring (which holds another: nseg > 1). */
static void lru_unlink(struct disk_cache *c, unsigned i)
{
	unsigned p = c->lru_prev[i], n = c->lru_next[i];

	c->lru_next[p] = (uint16_t)n;
	c->lru_prev[n] = (uint16_t)p;
	if (c->lru_head == i)
		c->lru_head = (uint16_t)n;
}

/* Put segment i into the ring just before segment at (after the one before it). */
static void lru_insert_before(struct disk_cache *c, unsigned i, unsigned at)
{
	unsigned p = c->lru_prev[at];

	c->lru_next[p] = (uint16_t)i;
	c->lru_prev[i] = (uint16_t)p;
	c->lru_next[i] = (uint16_t)at;
	c->lru_prev[at] = (uint16_t)i;
}

/* Segment i is the most recently used. */
static void lru_move_last(struct disk_cache *c, unsigned i)
{
	if (disk_cache_mru(c) == i)
		return;
	if (c->lru_head == i) {
		c->lru_head = c->lru_next[i];	/* the ring turns: i is the last */
		return;
	}
	lru_unlink(c, i);
	lru_insert_before(c, i, c->lru_head);
}

void disk_cache_init(struct disk_cache *c, unsigned segments, uint64_t write_buffer)
{
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->nseg = segments > DISK_CACHE_MAX_SEGMENTS ? DISK_CACHE_MAX_SEGMENTS : segments;
	c->last_filled = -1;
	c->write_buffer = write_buffer;
	/* In index order (the model has at least one segment). */
	for (i = 0; i < c->nseg; i++) {
		c->lru_next[i] = (uint16_t)(i + 1 < c->nseg ? i + 1 : 0);
		c->lru_prev[i] = (uint16_t)(i ? i - 1 : c->nseg - 1);
	}
	c->lru_head = 0;
	for (i = 0; i < DISK_CACHE_MAX_SEGMENTS; i++)
		c->spread[i] = true;	/* empty: no counter to take back */
}

/* disk_cache_read_hit() past its filter: the segments themselves. */
bool disk_cache_read_hit_scan(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i, end = (c->nseg + 3) & ~3u;
	bool any = false;

	/*
	 * Every read asks, and almost none hits: first a pass with no branch
	 * per segment, four at a time over the empty padding (start = end = 0
	 * holds nothing), then find the hit only when there is one.
	 */
	for (i = 0; i < end; i += 4)
		any |= ((lba >= c->start[i]) & (lba + n <= c->end[i])) |
			((lba >= c->start[i + 1]) & (lba + n <= c->end[i + 1])) |
			((lba >= c->start[i + 2]) & (lba + n <= c->end[i + 2])) |
			((lba >= c->start[i + 3]) & (lba + n <= c->end[i + 3]));
	if (!any || !n)
		return false;
	for (i = 0; !((lba >= c->start[i]) & (lba + n <= c->end[i])); i++)
		;
	lru_move_last(c, i);
	return true;
}

void disk_cache_extend(struct disk_cache *c, unsigned seg, uint64_t end, uint64_t seg_size)
{
	if (end <= c->end[seg])
		return;
	disk_cache_unmark(c, seg);
	c->end[seg] = end;
	if (end - c->start[seg] > seg_size)
		c->start[seg] = end - seg_size;
	disk_cache_mark(c, seg);
}

void disk_cache_invalidate(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < c->nseg; i++) {
		if (c->held[i] && lba < c->end[i] && lba + n > c->start[i]) {
			unsigned k, steps;

			disk_cache_unmark(c, i);
			c->start[i] = c->end[i] = 0;
			disk_cache_mark(c, i);	/* spread: none */
			c->held[i] = false;
			if (c->last_filled == (int)i)
				c->last_filled = -1;
			if (c->nseg == 1)
				continue;	/* alone in the ring: first and last */
			/*
			 * First to be reused: among the empty ones at the front, by
			 * index — before the first of the others that is not an
			 * empty one of a lower index (after them all, should every
			 * other be one).
			 */
			lru_unlink(c, i);
			for (k = c->lru_head, steps = 0; steps < c->nseg - 1 && !c->held[k] && k < i;
			     k = c->lru_next[k], steps++)
				;
			lru_insert_before(c, i, k);
			if (!steps)
				c->lru_head = (uint16_t)i;
		}
	}
}
