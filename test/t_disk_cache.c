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

static void ref_extend(struct ref *r, unsigned seg, uint64_t end, uint64_t seg_size)
{
	if (end <= r->end[seg])
		return;
	r->end[seg] = end;
	if (end - r->start[seg] > seg_size)
		r->start[seg] = end - seg_size;
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
	unsigned i, pass, bad_hit = 0, bad_victim = 0, hits = 0, invalidations = 0;

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

	/*
	 * Against the reference: 16 segments over a small span, so hits and
	 * overlaps are common; then over spans and lengths that put segments
	 * across blocks of the hit filter (DISK_CACHE_BLOCK_SHIFT), over more
	 * than DISK_CACHE_SPAN_MAX of them, and onto counters that alias
	 * (DISK_CACHE_FILTER), with read-ahead extending the last fill.
	 */
	for (pass = 0; pass < 3; pass++) {
		static const uint64_t span[] = { 1024, 1ull << 21, 1ull << 30 };
		static const uint64_t len[] = { 64, 40000, 300000 };
		unsigned wides = 0;

		memset(&r, 0, sizeof(r));
		r.nseg = 16;
		disk_cache_init(&c, 16, 1 << 20);
		rng_seed(&rng, 3 + pass, "t_disk_cache");
		hits = invalidations = 0;
		for (i = 0; i < 200000; i++) {
			uint64_t lba = rng_below(&rng, span[pass]), n = 1 + rng_below(&rng, len[pass]);
			unsigned op = (unsigned)rng_below(&rng, 12);

			/* Reads near the segments, so that some hit. */
			if (pass && op < 6 && r.valid[op] && rng_below(&rng, 2))
				lba = r.start[op] + rng_below(&rng, r.end[op] - r.start[op] + 1);
			if (op < 6) {
				bool a = disk_cache_read_hit(&c, lba, n), b = ref_hit(&r, lba, n);

				bad_hit += a != b;
				hits += a;
			} else if (op < 9) {
				unsigned want = ref_fill(&r, lba, n);

				disk_cache_fill(&c, lba, n);
				bad_victim += c.last_filled != (int)want;
			} else if (op < 11) {
				if (c.last_filled >= 0) {
					unsigned seg = (unsigned)c.last_filled;
					uint64_t end = r.end[seg] + rng_below(&rng, len[pass]);

					disk_cache_extend(&c, seg, end, 4 * len[pass]);
					ref_extend(&r, seg, end, 4 * len[pass]);
				}
			} else {
				disk_cache_invalidate(&c, lba, n);
				ref_invalidate(&r, lba, n);
				invalidations++;
			}
			wides += c.wide > 0;
		}
		CHECK_EQ_INT(bad_hit, 0);
		CHECK_EQ_INT(bad_victim, 0);
		CHECK_MSG(hits > 5000, "pass %u: only %u hits: the comparison proves little", pass,
			  hits);
		CHECK(invalidations > 10000);
		if (pass == 2)
			CHECK_MSG(wides > 1000, "the filter was never off (%u)", wides);
	}
	return test_done();
}
