/*
 * The drive's read segments: a read wholly inside a segment hits and marks
 * it used; a fill takes the least recently used segment, an empty one
 * first (lowest index among the empty); a write drops the segments it
 * overlaps; read-ahead extends a segment, its oldest sectors giving way at
 * the segment's size. Checked on hand-made cases and against a plain
 * reference (scan for the minimum) over random operations.
 */
#include "testlib.h"

#include "disk/cache.h"
#include "sim/rng.h"

/* The reference: the rule, written the plain way. */
struct ref {
	unsigned nseg;
	uint64_t start[64], end[64], last_use[64], clock;
	bool valid[64];
};

static bool ref_hit(struct ref *r, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < r->nseg; i++)
		if (r->valid[i] && lba >= r->start[i] && lba + n <= r->end[i]) {
			r->last_use[i] = ++r->clock;
			return true;
		}
	return false;
}

static unsigned ref_fill(struct ref *r, uint64_t lba, uint64_t n)
{
	unsigned i, victim = 0;

	for (i = 0; i < r->nseg; i++) {
		if (!r->valid[i]) {
			victim = i;
			break;
		}
		if (r->last_use[i] < r->last_use[victim])
			victim = i;
	}
	r->valid[victim] = true;
	r->start[victim] = lba;
	r->end[victim] = lba + n;
	r->last_use[victim] = ++r->clock;
	return victim;
}

static void ref_invalidate(struct ref *r, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < r->nseg; i++)
		if (r->valid[i] && lba < r->end[i] && lba + n > r->start[i])
			r->valid[i] = false;
}

int main(void)
{
	static struct disk_cache c;
	struct ref r;
	struct rng rng;
	unsigned i, bad_hit = 0, bad_victim = 0, hits = 0, invalidations = 0;

	/* By hand: 3 segments. */
	disk_cache_init(&c, 3, 1 << 20);
	CHECK(!disk_cache_read_hit(&c, 0, 8));		/* empty segments hold nothing */
	disk_cache_fill(&c, 100, 8);			/* seg 0 */
	CHECK(disk_cache_read_hit(&c, 100, 8));
	CHECK(disk_cache_read_hit(&c, 104, 4));
	CHECK(!disk_cache_read_hit(&c, 104, 8));	/* not wholly inside */
	CHECK(!disk_cache_read_hit(&c, 96, 8));
	disk_cache_extend(&c, 0, 124, 64);		/* read-ahead to 124 */
	CHECK(disk_cache_read_hit(&c, 108, 16));
	CHECK(!disk_cache_read_hit(&c, 108, 17));
	disk_cache_extend(&c, 0, 120, 64);		/* never shrinks */
	CHECK(disk_cache_read_hit(&c, 100, 24));
	disk_cache_extend(&c, 0, 180, 64);		/* the oldest give way at the segment's size */
	CHECK(disk_cache_read_hit(&c, 116, 64));
	CHECK(!disk_cache_read_hit(&c, 115, 8));
	disk_cache_fill(&c, 100, 8);			/* the read fills seg 1; seg 0 keeps 116..180 */
	CHECK(disk_cache_read_hit(&c, 120, 8));
	disk_cache_init(&c, 3, 1 << 20);		/* again: seg 0 holds 100..108 */
	disk_cache_fill(&c, 100, 8);
	disk_cache_fill(&c, 200, 8);			/* seg 1 */
	disk_cache_fill(&c, 300, 8);			/* seg 2 */
	CHECK(disk_cache_read_hit(&c, 100, 8));		/* seg 0 now the newest */
	disk_cache_fill(&c, 400, 8);			/* replaces seg 1, the least recent */
	CHECK(!disk_cache_read_hit(&c, 200, 8));
	CHECK(disk_cache_read_hit(&c, 100, 8) && disk_cache_read_hit(&c, 300, 8));
	disk_cache_invalidate(&c, 302, 1);		/* a write into seg 2 */
	CHECK(!disk_cache_read_hit(&c, 300, 8));
	disk_cache_fill(&c, 500, 8);			/* the dropped one is reused first */
	CHECK(disk_cache_read_hit(&c, 100, 8) && disk_cache_read_hit(&c, 400, 8));
	CHECK(disk_cache_read_hit(&c, 500, 8));

	/* Against the reference: 16 segments over a small span, so hits and overlaps are common. */
	memset(&r, 0, sizeof(r));
	r.nseg = 16;
	disk_cache_init(&c, 16, 1 << 20);
	rng_seed(&rng, 3, "t_disk_cache");
	for (i = 0; i < 200000; i++) {
		uint64_t lba = rng_below(&rng, 1024), n = 1 + rng_below(&rng, 64);
		unsigned op = (unsigned)rng_below(&rng, 10);

		if (op < 6) {
			bool a = disk_cache_read_hit(&c, lba, n), b = ref_hit(&r, lba, n);

			bad_hit += a != b;
			hits += a;
		} else if (op < 9) {
			unsigned want = ref_fill(&r, lba, n);

			disk_cache_fill(&c, lba, n);
			bad_victim += c.last_filled != (int)want;
		} else {
			disk_cache_invalidate(&c, lba, n);
			ref_invalidate(&r, lba, n);
			invalidations++;
		}
	}
	CHECK_EQ_INT(bad_hit, 0);
	CHECK_EQ_INT(bad_victim, 0);
	CHECK_MSG(hits > 10000, "only %u hits: the comparison proves little", hits);
	CHECK(invalidations > 10000);
	return test_done();
}
