#include "disk/cache.h"

#include <string.h>

#define LRU_NONE 0xffff

static void lru_unlink(struct disk_cache *c, unsigned i)
{
	unsigned p = c->lru_prev[i], n = c->lru_next[i];

	if (p == LRU_NONE)
		c->lru_head = (uint16_t)n;
	else
		c->lru_next[p] = (uint16_t)n;
	if (n == LRU_NONE)
		c->lru_tail = (uint16_t)p;
	else
		c->lru_prev[n] = (uint16_t)p;
}

/* Put i after `after` (LRU_NONE: at the front). */
static void lru_insert_after(struct disk_cache *c, unsigned i, unsigned after)
{
	unsigned n = after == LRU_NONE ? c->lru_head : c->lru_next[after];

	c->lru_prev[i] = (uint16_t)after;
	c->lru_next[i] = (uint16_t)n;
	if (after == LRU_NONE)
		c->lru_head = (uint16_t)i;
	else
		c->lru_next[after] = (uint16_t)i;
	if (n == LRU_NONE)
		c->lru_tail = (uint16_t)i;
	else
		c->lru_prev[n] = (uint16_t)i;
}

/* i was just used: to the back. */
static void lru_touch(struct disk_cache *c, unsigned i)
{
	if (c->lru_tail == i)
		return;
	lru_unlink(c, i);
	lru_insert_after(c, i, c->lru_tail);
}

void disk_cache_init(struct disk_cache *c, unsigned segments, uint64_t write_buffer)
{
	unsigned i;

	memset(c, 0, sizeof(*c));
	c->nseg = segments > DISK_CACHE_MAX_SEGMENTS ? DISK_CACHE_MAX_SEGMENTS : segments;
	c->last_filled = -1;
	c->write_buffer = write_buffer;
	c->lru_head = c->lru_tail = LRU_NONE;
	for (i = 0; i < c->nseg; i++)
		lru_insert_after(c, i, c->lru_tail);
}

bool disk_cache_read_hit(struct disk_cache *c, uint64_t lba, uint64_t n)
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
	lru_touch(c, i);
	return true;
}

void disk_cache_fill(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	/* The least recently used segment; an empty one (last_use 0) first. */
	unsigned victim = c->lru_head;

	c->start[victim] = lba;
	c->end[victim] = lba + n;
	c->last_use[victim] = ++c->use_clock;
	lru_touch(c, victim);
	c->last_filled = (int)victim;
}

void disk_cache_read_ahead(struct disk_cache *c, uint64_t n, uint64_t max, uint64_t capacity)
{
	unsigned i;

	if (c->last_filled < 0 || !n)
		return;
	i = (unsigned)c->last_filled;
	if (n > max)
		n = max;
	c->end[i] = c->end[i] + n > capacity ? capacity : c->end[i] + n;
	c->last_filled = -1;	/* read-ahead stops at the next command */
}

void disk_cache_invalidate(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < c->nseg; i++) {
		if (c->last_use[i] && lba < c->end[i] && lba + n > c->start[i]) {
			unsigned after = LRU_NONE, k;

			c->start[i] = c->end[i] = 0;
			c->last_use[i] = 0;
			if (c->last_filled == (int)i)
				c->last_filled = -1;
			/* First to be reused: among the empty ones at the front, by index. */
			lru_unlink(c, i);
			for (k = c->lru_head; k != LRU_NONE && !c->last_use[k] && k < i; k = c->lru_next[k])
				after = k;
			lru_insert_after(c, i, after);
		}
	}
}
