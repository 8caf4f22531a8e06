#include "disk/cache.h"

#include <string.h>

void disk_cache_init(struct disk_cache *c, unsigned segments, uint64_t write_buffer)
{
	memset(c, 0, sizeof(*c));
	c->nseg = segments > DISK_CACHE_MAX_SEGMENTS ? DISK_CACHE_MAX_SEGMENTS : segments;
	c->last_filled = -1;
	c->write_buffer = write_buffer;
}

bool disk_cache_read_hit(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < c->nseg; i++) {
		struct disk_segment *s = &c->seg[i];

		/* '&', not '&&': random LBAs make each comparison a coin toss for the branch predictor. */
		if (s->valid & (lba >= s->start) & (lba + n <= s->end)) {
			s->last_use = ++c->use_clock;
			return true;
		}
	}
	return false;
}

void disk_cache_fill(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i, victim = 0;

	uint64_t oldest = c->seg[0].last_use;

	/* The least recently used segment; an invalid one (last_use 0) first. */
	for (i = 1; i < c->nseg; i++) {
		bool older = c->seg[i].last_use < oldest;

		victim = older ? i : victim;
		oldest = older ? c->seg[i].last_use : oldest;
	}
	c->seg[victim].start = lba;
	c->seg[victim].end = lba + n;
	c->seg[victim].valid = true;
	c->seg[victim].last_use = ++c->use_clock;
	c->last_filled = (int)victim;
}

void disk_cache_read_ahead(struct disk_cache *c, uint64_t n, uint64_t max, uint64_t capacity)
{
	struct disk_segment *s;

	if (c->last_filled < 0 || !n)
		return;
	s = &c->seg[c->last_filled];
	if (n > max)
		n = max;
	s->end = s->end + n > capacity ? capacity : s->end + n;
	c->last_filled = -1;	/* read-ahead stops at the next command */
}

void disk_cache_invalidate(struct disk_cache *c, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < c->nseg; i++) {
		struct disk_segment *s = &c->seg[i];

		if (s->valid && lba < s->end && lba + n > s->start) {
			s->valid = false;
			s->last_use = 0;	/* first to be reused */
			if (c->last_filled == (int)i)
				c->last_filled = -1;
		}
	}
}
