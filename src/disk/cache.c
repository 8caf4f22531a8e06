#include "disk/cache.h"

#include <string.h>

_Static_assert(DISK_CACHE_MAX_SEGMENTS <= ILIST_MAX, "the LRU list indexes segments");

void disk_cache_init(struct disk_cache *c, unsigned segments, uint64_t write_buffer)
{
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->nseg = segments > DISK_CACHE_MAX_SEGMENTS ? DISK_CACHE_MAX_SEGMENTS : segments;
	c->last_filled = -1;
	c->write_buffer = write_buffer;
	ilist_init(&c->lru);
	for (i = 0; i < c->nseg; i++)
		ilist_insert_after(&c->lru, i, c->lru.tail);
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
	c->last_use[i] = ++c->use_clock;
	ilist_move_last(&c->lru, i);
	return true;
}

void disk_cache_extend(struct disk_cache *c, unsigned seg, uint64_t end, uint64_t seg_size)
{
	if (end <= c->end[seg])
		return;
	disk_cache_filter_mark(c, seg, -1);
	c->end[seg] = end;
	if (end - c->start[seg] > seg_size)
		c->start[seg] = end - seg_size;
	disk_cache_filter_mark(c, seg, 1);
}

void disk_cache_invalidate(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < c->nseg; i++) {
		if (c->last_use[i] && lba < c->end[i] && lba + n > c->start[i]) {
			unsigned after = ILIST_NONE, k;

			disk_cache_filter_mark(c, i, -1);
			c->start[i] = c->end[i] = 0;
			c->last_use[i] = 0;
			if (c->last_filled == (int)i)
				c->last_filled = -1;
			/* First to be reused: among the empty ones at the front, by index. */
			ilist_unlink(&c->lru, i);
			for (k = c->lru.head; k != ILIST_NONE && !c->last_use[k] && k < i;
			     k = c->lru.next[k])
				after = k;
			ilist_insert_after(&c->lru, i, after);
		}
	}
}
