/*
 * Drive mechanics and layout: the seek curve meets its three data-sheet
 * figures; a full track takes one revolution; sequential reads cross head
 * and cylinder switches without a lost revolution and sustain the stated
 * rates at OD and ID; LBA → CHS is consistent; a stream (read-ahead, a
 * continued destage) takes the time a media access's transfer takes, and
 * stops at whole sectors, checked one sector at a time.
 */
#include "testlib.h"
#include "sim/rng.h"

#include <stdlib.h>
#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"

static void check_curve(const char *drive, const struct disk_seek_curve *s, int64_t t1,
			int64_t tavg, int64_t tfull)
{
	double avg = disk_seek_weighted_average(s);
	uint32_t d, max = (uint32_t)s->max_distance;
	int64_t prev = 0;

	CHECK_MSG(llabs(disk_seek_ns(s, 1) - t1) <= 1, "%s: t(1) %lld vs %lld", drive,
		  (long long)disk_seek_ns(s, 1), (long long)t1);
	CHECK_MSG(llabs(disk_seek_ns(s, max) - tfull) <= 1, "%s: t(max) %lld vs %lld", drive,
		  (long long)disk_seek_ns(s, max), (long long)tfull);
	CHECK_REL(avg, (double)tavg, 0.03);
	CHECK_EQ_INT(disk_seek_ns(s, 0), 0);
	/* Monotonic and continuous: no jump at the √/linear join. */
	for (d = 1; d <= max; d += 97) {
		int64_t t = disk_seek_ns(s, d);

		CHECK(t >= prev);
		prev = t;
	}
	CHECK(llabs(disk_seek_ns(s, (uint32_t)s->d0 + 1) - disk_seek_ns(s, (uint32_t)s->d0)) < 1000);
}

static void test_seek_curves(void)
{
	static const char *drives[] = { "he8", "hc570", "desktop1t" };
	size_t i;

	for (i = 0; i < 3; i++) {
		struct disk_model m;
		struct disk_layout l;
		struct disk_mech mc;
		struct err e;

		CHECK(disk_model_load(drives[i], &m, &e) == 0);
		CHECK(disk_layout_build(&l, &m, &e) == 0);
		CHECK(disk_mech_init(&mc, &l, &m, &e) == 0);
		check_curve(drives[i], &mc.read, m.seek_track_read, m.seek_avg_read, m.seek_full_read);
		check_curve(drives[i], &mc.write, m.seek_track_write, m.seek_avg_write, m.seek_full_write);
	}
	/* A figure set no curve can meet is refused with the reachable range. */
	{
		struct disk_seek_curve s;
		struct err e;

		CHECK(disk_seek_fit(&s, 200000, 12000000, 15000000, 400000, "read", &e) != 0);
		CHECK(strstr(e.msg, "reachable averages") != NULL);
		CHECK(disk_seek_fit(&s, 200000, 3000000, 15000000, 400000, "read", &e) != 0);
	}
}

static void load(const char *drive, int layout, struct disk_model *m, struct disk_layout *l,
		 struct disk_mech *mc)
{
	struct err e;

	CHECK(disk_model_load(drive, m, &e) == 0);
	if (layout >= 0)
		m->layout = layout;
	CHECK(disk_layout_build(l, m, &e) == 0);
	CHECK(disk_mech_init(mc, l, m, &e) == 0);
}

static void test_layout(int order)
{
	struct disk_model m;
	struct disk_layout l;
	struct disk_mech mc;
	uint64_t ps, total = 0;
	unsigned z;

	load("he8", order, &m, &l, &mc);
	for (z = 0; z < l.nzones; z++) {
		total += l.zone[z].nsect;
		if (z)
			CHECK(l.zone[z].spt <= l.zone[z - 1].spt);
	}
	CHECK_EQ_U64(total, l.physical_sectors);
	CHECK(l.nzones >= 16 && l.nzones <= 32);
	CHECK_EQ_INT(l.lpp, 8);
	/* Sample sectors: the inverse of locate, and every track fully used. */
	for (ps = 0; ps < l.physical_sectors; ps += 99991) {
		struct disk_chs c;
		const struct disk_zone *zn;

		disk_layout_locate(&l, ps, &c);
		zn = &l.zone[c.zone];
		CHECK(c.cyl >= zn->first_cyl && c.cyl < zn->first_cyl + zn->cyls);
		CHECK(c.head < l.heads && c.sector < zn->spt);
		CHECK(c.angle >= 0 && c.angle < l.rev_ns);
		CHECK(ps >= zn->first_ps && ps < zn->first_ps + zn->nsect);
	}
	{
		struct disk_chs first, last;

		disk_layout_locate(&l, 0, &first);
		disk_layout_locate(&l, l.physical_sectors - 1, &last);
		CHECK_EQ_INT(first.cyl, 0);
		CHECK(last.cyl > l.cylinders / 2);
		CHECK(last.cyl < l.cylinders);
	}
}

/* disk_layout_find_held() against disk_layout_find() at ps, which the layout holds. */
static void check_held(const struct disk_layout *l, uint64_t ps)
{
	struct disk_chs a, b;
	const struct disk_zone *za = disk_layout_find(l, ps, &a);

	CHECK(disk_layout_find_held(l, ps, &b) == za);
	CHECK(disk_layout_zone_of_held(l, ps) == disk_layout_zone_of(l, ps));
	CHECK(a.zone == b.zone && a.cyl == b.cyl && a.head == b.head && a.sector == b.sector &&
	      a.angle == b.angle);
}

/*
 * The unbounded zone index (disk_layout_zone_of_held()) up to
 * physical_sectors: zone_shift keeps every such sector's stretch inside
 * zone_at[] (fails when index_zones() takes one shift too few), and the
 * zone found is the bounded lookup's, at every zone's edges and in between;
 * disk_layout_place() as the calls it stands for, plain layout or not.
 */
static void test_zone_held(const char *drive, int order)
{
	struct disk_model m;
	struct disk_layout l;
	struct disk_mech mc;
	uint64_t ps;
	unsigned z;

	load(drive, order, &m, &l, &mc);
	CHECK((l.physical_sectors >> l.zone_shift) < DISK_LAYOUT_ZONE_INDEX);
	CHECK(l.zone_shift == 0 ||
	      (l.physical_sectors >> (l.zone_shift - 1)) >= DISK_LAYOUT_ZONE_INDEX);
	CHECK(disk_layout_zone_of_held(&l, l.physical_sectors) ==
	      disk_layout_zone_of(&l, l.physical_sectors));
	for (z = 0; z < l.nzones; z++) {
		check_held(&l, l.zone[z].first_ps);
		check_held(&l, l.zone[z].first_ps + l.zone[z].nsect - 1);
		if (z)
			check_held(&l, l.zone[z].first_ps - 1);
	}
	for (ps = 0; ps < l.physical_sectors; ps += 7919 + (ps >> 20))
		check_held(&l, ps);
	check_held(&l, l.physical_sectors - 1);
	/* disk_layout_place(): disk_layout_physical(), then the first sector's place. */
	for (ps = 0; ps < l.logical_sectors; ps += 104729 + (ps >> 18)) {
		uint64_t n = 1 + ps % 300, first, count, first2, count2;
		struct disk_chs a, b;
		const struct disk_zone *za;

		if (ps + n > l.logical_sectors)
			break;
		za = disk_layout_place(&l, ps, n, &first, &count, &a);
		disk_layout_physical(&l, ps, n, &first2, &count2);
		CHECK(first == first2 && count == count2);
		CHECK(disk_layout_find(&l, first2, &b) == za);
		CHECK(a.zone == b.zone && a.cyl == b.cyl && a.head == b.head &&
		      a.sector == b.sector && a.angle == b.angle);
	}
	CHECK(l.plain == (!l.mapped && l.order == DISK_LAYOUT_SERPENTINE));
}

/* Time to read `tracks` whole tracks from the start of zone z, head already there. */
static double sequential_rate(const char *drive, int order, unsigned zi, unsigned tracks,
			      double *one_rev_error)
{
	struct disk_model m;
	struct disk_layout l;
	struct disk_mech mc;
	struct disk_access acc;
	struct disk_chs c;
	const struct disk_zone *z;
	struct disk_head h = { 0, 0, false };
	uint64_t n;

	load(drive, order, &m, &l, &mc);
	disk_mech_set_overhead(&mc, 0);
	z = &l.zone[zi];
	disk_layout_locate(&l, z->first_ps, &c);
	h.cyl = c.cyl;
	h.head = c.head;
	/* One full track from its first sector: exactly one revolution of transfer. */
	disk_mech_access(&mc, &h, c.angle, z->first_ps, z->spt, false, 0, &acc);
	*one_rev_error = (double)llabs(acc.transfer - l.rev_ns);
	CHECK_EQ_INT(acc.seek, 0);
	CHECK_EQ_INT(acc.rotate, 0);
	h.cyl = c.cyl;
	h.head = c.head;
	n = (uint64_t)z->spt * tracks;
	disk_mech_access(&mc, &h, c.angle, z->first_ps, n, false, 0, &acc);
	/* No lost revolution: each switch costs the skew, less than a revolution. */
	CHECK(acc.transfer < (int64_t)tracks * l.rev_ns + (int64_t)tracks * l.rev_ns / 4);
	return (double)n * m.physical_sector_size / (acc.transfer / 1e9) / 1e6;
}

static void test_rates(void)
{
	static const char *drives[] = { "he8", "hc570", "desktop1t" };
	size_t i;
	int order;

	for (i = 0; i < 3; i++) {
		for (order = DISK_LAYOUT_CYLINDER; order <= DISK_LAYOUT_SERPENTINE; order++) {
			struct disk_model m;
			struct disk_layout l;
			struct disk_mech mc;
			double err_od, err_id, od, idr;

			load(drives[i], order, &m, &l, &mc);
			/* Enough tracks to cross many head and cylinder switches. */
			od = sequential_rate(drives[i], order, 0, 3 * l.heads, &err_od);
			idr = sequential_rate(drives[i], order, l.nzones - 2, 3 * l.heads, &err_id);
			CHECK(err_od <= 1.0 && err_id <= 1.0);
			CHECK_REL(od, m.rate_od_mbs, 0.05);
			/* The last full zone is one zone short of the ID rate. */
			CHECK_REL(idr, m.rate_id_mbs + (m.rate_od_mbs - m.rate_id_mbs) /
				  (m.zones - 1) * (m.zones - 1 - (l.nzones - 2)), 0.05);
		}
	}
}

static void test_positioning(void)
{
	struct disk_model m;
	struct disk_layout l;
	struct disk_mech mc;
	struct disk_head h = { 0, 0, false };
	struct disk_access acc;
	struct disk_chs c;

	load("he8", -1, &m, &l, &mc);
	/* A target on the same track just missed costs (almost) a revolution. */
	disk_layout_locate(&l, 100, &c);
	h.cyl = c.cyl;
	h.head = c.head;
	disk_mech_access(&mc, &h, c.angle + 1 - disk_mech_overhead_ns(&mc, false, true, false), 100, 1,
			 false, 0, &acc);
	CHECK_EQ_INT(acc.rotate, l.rev_ns - 1);
	/* A far seek: the breakdown adds up. */
	h.cyl = 0;
	h.head = 0;
	disk_mech_access(&mc, &h, 0, l.physical_sectors - 1, 1, false, 0, &acc);
	CHECK(acc.seek > m.seek_avg_read && acc.seek <= m.seek_full_read);
	CHECK(acc.rotate >= 0 && acc.rotate < 2 * l.rev_ns);
	CHECK_EQ_INT(acc.total, acc.overhead + acc.seek + acc.rotate + acc.transfer + acc.extra);
	CHECK(h.cyl > l.cylinders / 2);
	/* The rpo guard: a seek landing just before the target waits a revolution. */
	CHECK(mc.rpo_guard > 0);
	CHECK_EQ_INT(disk_mech_target_wait(&mc, 0, mc.rpo_guard - 1, true),
		     mc.rpo_guard - 1 + l.rev_ns);
	CHECK_EQ_INT(disk_mech_target_wait(&mc, 0, mc.rpo_guard - 1, false), mc.rpo_guard - 1);
	CHECK_EQ_INT(disk_mech_target_wait(&mc, 0, mc.rpo_guard, true), mc.rpo_guard);
}

/*
 * The stream against two plain references: a media access of the same
 * sectors (its transfer, switches and zone crossings included, must end
 * where the stream does), and the stream run one sector at a time (the
 * chunked walk must stop at the same sector and time for any `until`).
 */
static void test_stream(const char *drive, int order)
{
	struct disk_model m;
	struct disk_layout l;
	struct disk_mech mc;
	struct rng rng;
	unsigned i, bad_access = 0, bad_until = 0, crossings = 0;

	load(drive, order, &m, &l, &mc);
	rng_seed(&rng, 11, "t_disk_mech stream");
	for (i = 0; i < 3000; i++) {
		struct disk_chs c;
		struct disk_head h = { 0, 0, false };
		struct disk_access acc;
		struct disk_stream s, one;
		uint64_t p, n, spt;
		int64_t t0, start, until;

		/* Near a zone boundary one time in four, so crossings are common. */
		if (i % 4 == 0) {
			const struct disk_zone *z = &l.zone[1 + rng_below(&rng, l.nzones - 1)];

			p = z->first_ps - 1 - rng_below(&rng, 4 * (uint64_t)z->spt);
		} else {
			p = 1 + rng_below(&rng, l.physical_sectors - 1);
		}
		disk_layout_locate(&l, p, &c);
		if (c.sector == 0)
			continue;	/* the stream after p-1 would switch tracks first */
		spt = l.zone[c.zone].spt;
		n = 1 + rng_below(&rng, 3 * spt);
		if (p + n > l.physical_sectors)
			continue;
		h.cyl = c.cyl;
		h.head = c.head;
		t0 = (int64_t)rng_below(&rng, (uint64_t)l.rev_ns);
		disk_mech_access(&mc, &h, t0, p, n, false, 0, &acc);
		start = t0 + acc.total - acc.transfer;
		disk_mech_stream_after(&mc, &s, p - 1, start);
		disk_mech_stream_run(&mc, &s, p + n, INT64_MAX, false);
		bad_access += s.ps != p + n || s.t != t0 + acc.total || s.cyl != h.cyl || s.head != h.head;
		crossings += c.zone != disk_layout_zone_of(&l, p + n - 1)->number;

		/* Stopped at `until`: the same sector and time as one sector at a time. */
		until = start + (int64_t)rng_below(&rng, (uint64_t)(acc.transfer + 1));
		disk_mech_stream_after(&mc, &s, p - 1, start);
		disk_mech_stream_run(&mc, &s, p + n, until, false);
		disk_mech_stream_after(&mc, &one, p - 1, start);
		for (;;) {
			struct disk_stream next = one;

			if (next.ps >= p + n)
				break;
			disk_mech_stream_run(&mc, &next, next.ps + 1, INT64_MAX, false);
			if (next.t > until)
				break;
			one = next;
		}
		/* Run on to `until` as well, so a pending switch is taken the same way. */
		disk_mech_stream_run(&mc, &one, p + n, until, false);
		bad_until += s.ps != one.ps || s.t != one.t;
	}
	CHECK_MSG(bad_access == 0, "%s: %u streams ended away from the access", drive, bad_access);
	CHECK_MSG(bad_until == 0, "%s: %u streams stopped away from the reference", drive, bad_until);
	CHECK_MSG(crossings > 100, "%s: only %u zone crossings", drive, crossings);
}

int main(void)
{
	test_seek_curves();
	test_layout(DISK_LAYOUT_CYLINDER);
	test_layout(DISK_LAYOUT_SERPENTINE);
	test_zone_held("he8", DISK_LAYOUT_SERPENTINE);
	test_zone_held("he8", DISK_LAYOUT_CYLINDER);
	test_zone_held("desktop1t", -1);
	test_zone_held("hc570", -1);
	test_rates();
	test_positioning();
	test_stream("he8", DISK_LAYOUT_SERPENTINE);
	test_stream("he8", DISK_LAYOUT_CYLINDER);
	test_stream("desktop1t", -1);
	return test_done();
}
