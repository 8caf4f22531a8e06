/*
 * The write cache (docs/DRIVES.md, "Cache") under patterns that stress it.
 *
 *  - Rewriting the same few blocks over and over: the data is rewritten in
 *    the buffer in place, so it never fills and every write completes from
 *    it — at QD1 in command_overhead plus its transfer, each one (before
 *    the fix, the buffer filled with 2048 copies of 16 KiB and one write
 *    waited 17 s for all of them to reach the media).
 *  - The dirty data itself (disk/dirty.c) against the rule written the
 *    plain way, over random writes, rewrites and drops: the same ranges in
 *    the same age order, none overlapping another.
 *  - At the drive, adversarial loads — rewrites of a small region, reads
 *    of dirty data between the writes, writes larger than a segment and
 *    as large as the whole buffer, FUA writes, random writes that fill the
 *    buffer, at QD 1 and 32 — and the bounds that follow from the rules:
 *    every command completes; the buffer never holds (or takes in) more
 *    than write_buffer; no command waits longer than command_overhead +
 *    age_limit + the access in progress, its own, and one for each aged
 *    command that may go before it (a write waits for room at most
 *    age_limit, then goes to the media aged), + its transfer and one for
 *    each other command outstanding (the link); a FLUSH is answered only
 *    once every dirty sector is on the media.
 */
#include "testlib.h"
#include "drivelab.h"
#include "runlab.h"

#include "ata/cmd.h"
#include "ata/fis.h"

#include "disk/dirty.h"
#include "disk/disk.h"
#include "disk/layout.h"
#include "run/runner.h"
#include "sim/rng.h"

#include <stdio.h>

/* A cached write at QD1 with room in the buffer: the front end's time, nothing more. */
static int64_t front_ns(const struct disk_model *m, uint64_t bytes)
{
	return m->command_overhead + (int64_t)((double)bytes * 1000.0 / m->interface_mbs);
}

static void check_rewrites(const char *what, const char *job)
{
	struct runner_result res;
	const struct report_dir *w;
	int64_t bound;

	if (runlab_run(job, NULL, 1, &res))
		return;
	w = &res.report.jobs[0].dir[1];
	bound = front_ns(&res.model, 4096);
	CHECK_MSG(res.model.write_cache, "%s: he8's write cache is on", what);
	CHECK_MSG(w->total_ios > 10000, "%s: %llu writes", what, (unsigned long long)w->total_ios);
	CHECK_MSG((int64_t)w->clat.sum.max <= bound + 1000,
		  "%s: a write took %.3f ms; a cached write takes %.3f ms", what,
		  (double)w->clat.sum.max / 1e6, (double)bound / 1e6);
	CHECK_EQ_U64(res.disk.write_cached, w->total_ios);
	/* Rewrites land on dirty data far more often than they go to the media. */
	CHECK_MSG(res.disk.dirty_overwrites > w->total_ios / 2, "%s: %llu of %llu writes over "
		  "dirty data", what, (unsigned long long)res.disk.dirty_overwrites,
		  (unsigned long long)w->total_ios);
	CHECK_MSG(res.disk.destages < w->total_ios / 4, "%s: %llu destages for %llu writes", what,
		  (unsigned long long)res.disk.destages, (unsigned long long)w->total_ios);
	runner_result_free(&res);
}

/* ---- the dirty ranges against the plain rule ---- */

#define REF_MAX 256

/* The rule of dirty.h the plain way: ranges oldest first in an array, every one scanned. */
struct ref {
	unsigned n;
	uint64_t lba[REF_MAX], nlb[REF_MAX];
	int64_t arrival[REF_MAX];
};

static void ref_delete(struct ref *r, unsigned i)
{
	memmove(&r->lba[i], &r->lba[i + 1], (r->n - i - 1) * sizeof(r->lba[0]));
	memmove(&r->nlb[i], &r->nlb[i + 1], (r->n - i - 1) * sizeof(r->nlb[0]));
	memmove(&r->arrival[i], &r->arrival[i + 1], (r->n - i - 1) * sizeof(r->arrival[0]));
	r->n--;
}

static bool ref_inside(const struct ref *r, uint64_t lba, uint64_t n)
{
	unsigned i;

	for (i = 0; i < r->n; i++)
		if (lba >= r->lba[i] && lba + n <= r->lba[i] + r->nlb[i])
			return true;
	return false;
}

static void ref_give_way(struct ref *r, uint64_t lba, uint64_t n)
{
	unsigned i = 0;

	while (i < r->n) {
		uint64_t s = r->lba[i], e = s + r->nlb[i];

		if (e <= lba || s >= lba + n) {
			i++;
		} else if (s >= lba && e <= lba + n) {
			ref_delete(r, i);
		} else if (s < lba) {
			r->nlb[i] = lba - s;
			i++;
		} else {
			r->lba[i] = lba + n;
			r->nlb[i] = e - (lba + n);
			i++;
		}
	}
}

static enum disk_dirty_put ref_put(struct ref *r, uint64_t lba, uint64_t n, int64_t arrival,
				   uint64_t coalesce_max)
{
	if (ref_inside(r, lba, n))
		return DISK_DIRTY_IN_PLACE;
	ref_give_way(r, lba, n);
	if (r->n && r->lba[r->n - 1] + r->nlb[r->n - 1] == lba && r->nlb[r->n - 1] + n <= coalesce_max) {
		r->nlb[r->n - 1] += n;
		return DISK_DIRTY_COALESCED;
	}
	r->lba[r->n] = lba;
	r->nlb[r->n] = n;
	r->arrival[r->n] = arrival;
	r->n++;
	return DISK_DIRTY_ADDED;
}

static unsigned ref_same(const struct ref *r, const struct disk_dirty *d,
			 const struct disk_layout *l)
{
	const struct disk_dirty_range *x = disk_dirty_oldest(d);
	uint64_t sectors = 0, ps, nps;
	unsigned i, j, bad = 0;

	for (i = 0; i < r->n; i++, x = disk_dirty_newer(d, x)) {
		if (!x)
			return bad + 1;
		disk_layout_physical(l, x->cmd.lba, x->cmd.nlb, &ps, &nps);
		bad += x->cmd.lba != r->lba[i] || x->cmd.nlb != r->nlb[i] ||
			x->cmd.arrival != r->arrival[i] || !x->cmd.destage || x->cmd.ps != ps ||
			x->cmd.nps != nps;
		sectors += r->nlb[i];
	}
	bad += x != NULL;
	bad += d->count != r->n || d->sectors != sectors;
	/* No sector held twice. */
	for (i = 0; i < r->n; i++)
		for (j = i + 1; j < r->n; j++)
			bad += r->lba[i] < r->lba[j] + r->nlb[j] && r->lba[j] < r->lba[i] + r->nlb[i];
	return bad;
}

static void test_dirty_ranges(void)
{
	struct disk_model m;
	struct disk_layout l;
	struct disk_dirty d;
	struct ref r = { 0 };
	struct rng g;
	struct err e;
	unsigned op, bad = 0, kinds[3] = { 0 }, drops = 0;
	uint64_t maxsec = 0;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(disk_layout_build(&l, &m, &e) == 0);
	CHECK(disk_dirty_init(&d, REF_MAX, &l) == 0);
	rng_seed(&g, 1, "t_disk_wcache/dirty");
	for (op = 0; op < 100000; op++) {
		/* A small region (1024 sectors), so writes keep landing on dirty data. */
		uint64_t lba = rng_below(&g, 1024), n = 1 + rng_below(&g, 64);
		unsigned what = (unsigned)rng_below(&g, 10);

		if (what == 0 && d.count) {
			/* The oldest goes to the media (a destage was chosen). */
			disk_dirty_remove(&d, disk_dirty_oldest(&d));
			ref_delete(&r, 0);
		} else if (what == 1) {
			disk_dirty_drop(&d, lba, n);
			if (!ref_inside(&r, lba, n))
				ref_give_way(&r, lba, n);
			drops++;
		} else if (d.count < d.cap) {
			struct fwq_cmd w;
			enum disk_dirty_put got, want;

			memset(&w, 0, sizeof(w));
			w.lba = lba;
			w.nlb = n;
			w.write = true;
			w.arrival = op;
			disk_layout_physical(&l, lba, n, &w.ps, &w.nps);
			disk_layout_locate(&l, w.ps, &w.where);
			got = disk_dirty_put(&d, &w, 96);
			want = ref_put(&r, lba, n, op, 96);
			bad += got != want;
			kinds[got]++;
		}
		bad += ref_same(&r, &d, &l) != 0;
		/* However often it is rewritten, a sector is held once. */
		maxsec = d.sectors > maxsec ? d.sectors : maxsec;
	}
	CHECK_MSG(bad == 0, "%u of 100000 operations left the dirty ranges unlike the plain rule's",
		  bad);
	CHECK_MSG(maxsec <= 1024 + 64, "%llu sectors held in a region of 1088",
		  (unsigned long long)maxsec);
	CHECK_MSG(kinds[DISK_DIRTY_ADDED] > 10000 && kinds[DISK_DIRTY_COALESCED] > 1000 &&
		  kinds[DISK_DIRTY_IN_PLACE] > 10000 && drops > 5000,
		  "added %u, coalesced %u, in place %u, drops %u", kinds[DISK_DIRTY_ADDED],
		  kinds[DISK_DIRTY_COALESCED], kinds[DISK_DIRTY_IN_PLACE], drops);
	disk_dirty_destroy(&d);
}

/* ---- adversarial loads at the drive ---- */

struct load {
	const char *name;
	unsigned qd;
	uint32_t nlb;			/* sectors per command */
	uint64_t span;			/* 0: the whole drive */
	bool sequential;
	unsigned write_every;		/* 0: every command a write */
	unsigned fua_every;
	uint64_t ios;
	int fills;			/* writes wait for room: 1 some must, 0 none may */
};

struct service_watch {
	int64_t max_service;
	uint64_t aged, picks, destages;
};

static void watch_picks(void *ctx, const struct disk_pick_event *ev)
{
	struct service_watch *w = ctx;

	if (ev->acc->total > w->max_service)
		w->max_service = ev->acc->total;
	w->aged += ev->reason == FWQ_PICK_AGED;
	w->destages += ev->cands[ev->chosen]->destage;
	w->picks++;
}

static void check_load(const struct disk_model *m, const struct load *ld)
{
	struct drivelab lab;
	struct service_watch w = { 0 };
	const struct disk_stats *st;
	int64_t bound, lat_max;
	uint64_t aged_ahead;

	if (drivelab_init_model(&lab, m, 3))
		return;
	lab.qd = ld->qd;
	lab.nlb = ld->nlb;
	lab.span = ld->span ? ld->span : lab.span;
	lab.sequential = ld->sequential;
	lab.write = true;
	lab.write_every = ld->write_every;
	lab.fua_every = ld->fua_every;
	disk_set_pick_observer(lab.disk, watch_picks, &w);
	drivelab_run(&lab, ld->ios);
	st = disk_get_stats(lab.disk);
	CHECK_MSG(lab.completed == ld->ios, "%s: %llu of %llu commands completed", ld->name,
		  (unsigned long long)lab.completed, (unsigned long long)ld->ios);
	CHECK_MSG(st->dirty_bytes_max <= m->write_buffer, "%s: %llu bytes dirty, write_buffer %llu",
		  ld->name, (unsigned long long)st->dirty_bytes_max,
		  (unsigned long long)m->write_buffer);
	/* Everything it took is on the media once it has drained. */
	CHECK_MSG(st->destages > 0 || !st->write_cached, "%s: nothing destaged", ld->name);
	aged_ahead = w.aged < ld->qd ? w.aged : ld->qd - 1;
	/* The link serves transfers in order: at most the other qd - 1 commands' go first. */
	bound = front_ns(m, (uint64_t)ld->nlb * 512) + m->age_limit +
		(int64_t)(ld->qd - 1) * (front_ns(m, (uint64_t)ld->nlb * 512) - m->command_overhead) +
		(int64_t)(2 + aged_ahead) * w.max_service;
	lat_max = (int64_t)(lab.lat.sum.max > lab.lat_high.sum.max ? lab.lat.sum.max :
			    lab.lat_high.sum.max);
	CHECK_MSG(lat_max <= bound, "%s: a command took %.1f ms; bound %.1f ms (age limit %.0f ms, "
		  "%llu aged choices, services up to %.1f ms)", ld->name, lat_max / 1e6,
		  bound / 1e6, m->age_limit / 1e6, (unsigned long long)w.aged,
		  w.max_service / 1e6);
	/* The load does what it is there for: fills the buffer, or never does. */
	CHECK_MSG(ld->fills ? st->room_waits > 0 : st->room_waits == 0 &&
		  st->dirty_bytes_max < m->write_buffer / 4, "%s: %llu writes waited for room, "
		  "%.1f MiB dirty at most", ld->name, (unsigned long long)st->room_waits,
		  (double)st->dirty_bytes_max / 1048576.0);
	if (ld->fua_every)
		CHECK_MSG(st->media_writes > st->destages, "%s: %llu media writes, %llu destages",
			  ld->name, (unsigned long long)st->media_writes,
			  (unsigned long long)st->destages);
	drivelab_destroy(&lab);
}

static void test_adversarial(void)
{
	struct disk_model m;
	struct err e;
	uint32_t seg;
	unsigned i;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(m.write_cache);
	seg = (uint32_t)(m.cache_size / m.cache_segments / 512);
	{
		const struct load loads[] = {
			{ "rewrites of 32 KiB, QD1", 1, 8, 64, false, 0, 0, 20000, 0 },
			{ "rewrites of 32 KiB, QD32", 32, 8, 64, false, 0, 0, 40000, 0 },
			{ "sequential rewrites of 16 KiB, QD32", 32, 8, 40, true, 0, 0, 40000, 0 },
			{ "reads of dirty data between writes, QD1", 1, 8, 1024, false, 2, 0, 20000, 0 },
			{ "reads of dirty data between writes, QD32", 32, 8, 1024, false, 2, 0, 40000, 0 },
			{ "random writes filling the buffer, QD1", 1, 8, 0, false, 0, 0, 20000, 1 },
			{ "random writes filling the buffer, QD32", 32, 8, 0, false, 0, 0, 20000, 1 },
			{ "random reads and writes, QD32", 32, 8, 0, false, 2, 0, 20000, 0 },
			{ "random reads, a write in 8, QD32", 32, 8, 0, false, 8, 0, 20000, 0 },
			{ "writes larger than a segment, QD4", 4, seg + 2048, 0, false, 0, 0, 400, 1 },
			{ "writes of a whole segment, QD32", 32, seg, 0, false, 0, 0, 400, 1 },
			{ "writes the size of the buffer, QD2", 2, 65535, 0, false, 0, 0, 60, 1 },
			{ "FUA every 4th write over 64 KiB, QD8", 8, 8, 128, false, 0, 4, 20000, 0 },
			{ "FUA every 2nd write, reads, QD32", 32, 8, 4096, false, 2, 2, 20000, 0 },
		};

		for (i = 0; i < sizeof(loads) / sizeof(loads[0]); i++)
			check_load(&m, &loads[i]);
	}
}

/* The drive answers FLUSH CACHE EXT once nothing is dirty: a full buffer takes seconds. */
static void test_flush(void)
{
	struct drivelab lab;
	struct ata_taskfile tf;
	uint8_t fis[20];
	const struct disk_stats *st;
	uint64_t destaged;
	int64_t t0, took;

	if (drivelab_init(&lab, "he8", 5))
		return;
	lab.qd = 32;
	lab.write = true;
	lab.no_drain = true;
	drivelab_run(&lab, 12000);
	st = disk_get_stats(lab.disk);
	CHECK_MSG(st->room_waits > 0, "the writes did not fill the buffer");
	ata_cmd_flush_ext(&tf);
	ata_h2d_encode(&tf, fis);
	t0 = sim_now(&lab.sim);
	drivelab_command(&lab, fis);
	took = sim_now(&lab.sim) - t0;
	destaged = st->destages;
	CHECK_MSG(!(drivelab_last_d2h[2] & ATA_STAT_ERR), "FLUSH: status %02x", drivelab_last_d2h[2]);
	/* 32 MiB of random 4 KiB ranges: thousands of destages, each a few ms. */
	CHECK_MSG(took > 1000 * SIM_MSEC, "FLUSH answered after %.1f ms", took / 1e6);
	sim_run(&lab.sim, SIM_FOREVER);
	CHECK_MSG(st->destages == destaged, "%llu destages after the FLUSH was answered",
		  (unsigned long long)(st->destages - destaged));
	CHECK_EQ_U64(st->destages, st->write_cached - st->coalesced_writes - st->in_place_writes);
	drivelab_destroy(&lab);
}

int main(void)
{
	test_dirty_ranges();
	test_adversarial();
	test_flush();
	/* The two jobs of the report: time_based over 16 KiB, and loops over it with psync. */
	check_rewrites("time_based rewrites", "[w]\nioengine=libaio\ndirect=1\nrw=write\nbs=4k\n"
		       "size=16k\ntime_based\nruntime=5\niodepth=1\n");
	check_rewrites("psync loops", "[w]\nioengine=psync\nrw=write\nbs=4k\nsize=16k\n"
		       "loops=5000\n");
	return test_done();
}
