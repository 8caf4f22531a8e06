/*
 * Sequential and cached I/O on he8, as a drive does it (docs/DRIVES.md,
 * "Cache"):
 *
 *  - through the whole stack, one fio job at QD1 (libaio, direct=1, 10 s,
 *    offset 0): 1 MiB sequential reads reach 90 % of the OD media rate;
 *    4 KiB sequential reads and 4 KiB sequential writes with the write
 *    cache on do 5 000 IOPS or more; with the write cache off a write waits
 *    for the platter (about one a revolution), and random reads are not
 *    helped by any of it; queued (QD32) 4 KiB sequential reads continue
 *    each other at the media rate;
 *  - at the drive: read-ahead stops where the head has got to when another
 *    command needs the head, checked against sector arithmetic; a read that
 *    continues read-ahead in progress ends when the head reaches its last
 *    sector; read-ahead stopped at its limit resumes, on a hit, when its
 *    next sector comes round; cached writes coalesce only with the newest
 *    dirty range.
 */
#include "testlib.h"
#include "runlab.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "disk/disk.h"
#include "disk/layout.h"
#include "drivelab.h"
#include "run/runner.h"

static int run(const char *jobtext, const char *set, struct runner_result *res)
{
	return runlab_run(jobtext, set, 1, res);
}

/* One QD1 job as the issue states it; IOPS and MB/s of direction `dir` (0 read, 1 write). */
static int qd1(const char *rw, const char *bs, const char *set, unsigned dir, double *iops,
	       double *mbs, struct runner_result *res)
{
	char job[512];
	const struct report_dir *d;

	snprintf(job, sizeof(job), "[seq]\nfilename=/dev/sdX\nioengine=libaio\ndirect=1\n"
		 "iodepth=1\nrw=%s\nbs=%s\noffset=0\ntime_based\nruntime=10\n", rw, bs);
	if (run(job, set, res))
		return -1;
	d = &res->report.jobs[0].dir[dir];
	*iops = (double)d->total_ios * 1000.0 / (double)d->runtime_ms;
	*mbs = (double)d->io_bytes / 1e3 / (double)d->runtime_ms;
	return 0;
}

static void test_whole_stack(void)
{
	struct runner_result res;
	double iops, mbs, rev_per_s;

	if (!qd1("read", "1m", NULL, 0, &iops, &mbs, &res)) {
		CHECK_MSG(mbs >= 0.9 * res.model.rate_od_mbs, "1 MiB sequential reads: %.1f MB/s, "
			  "OD media rate %.0f", mbs, res.model.rate_od_mbs);
		CHECK(res.disk.stream_reads > 1000);
		runner_result_free(&res);
	}
	if (!qd1("read", "4k", NULL, 0, &iops, &mbs, &res)) {
		CHECK_MSG(iops >= 5000, "4 KiB sequential reads: %.0f IOPS", iops);
		CHECK(res.disk.cache_hits > 0.99 * (double)res.report.jobs[0].dir[0].total_ios);
		runner_result_free(&res);
	}
	if (!qd1("write", "4k", NULL, 1, &iops, &mbs, &res)) {
		CHECK(res.model.write_cache);
		CHECK_MSG(iops >= 5000, "4 KiB sequential writes, write cache on: %.0f IOPS", iops);
		CHECK(res.disk.coalesced_writes > 0.9 * (double)res.disk.write_cached);
		CHECK(res.disk.stream_writes > 0);
		CHECK_EQ_U64(res.disk.destages + res.disk.coalesced_writes, res.disk.write_cached);
		runner_result_free(&res);
	}
	/* Queued: 4 KiB sequential reads at QD32 continue each other at the media rate. */
	if (!run("[seq]\nioengine=libaio\ndirect=1\niodepth=32\nrw=read\nbs=4k\noffset=0\n"
		 "time_based\nruntime=10\n", NULL, &res)) {
		mbs = (double)res.report.jobs[0].dir[0].io_bytes / 1e3 /
			(double)res.report.jobs[0].dir[0].runtime_ms;
		CHECK_MSG(mbs >= 0.9 * res.model.rate_od_mbs, "4 KiB sequential reads at QD32: "
			  "%.1f MB/s, OD media rate %.0f", mbs, res.model.rate_od_mbs);
		CHECK(res.disk.stream_reads > 0.9 * (double)res.disk.media_reads);
		runner_result_free(&res);
	}
	/* Write cache off: every write waits for its sector to come round. */
	if (!qd1("write", "4k", "drive.write_cache=0", 1, &iops, &mbs, &res)) {
		rev_per_s = res.model.rpm / 60.0;
		CHECK_MSG(iops > 0.8 * rev_per_s && iops < 1.2 * rev_per_s,
			  "4 KiB sequential writes, write cache off: %.0f IOPS, %.0f revolutions/s",
			  iops, rev_per_s);
		CHECK_EQ_U64(res.disk.write_cached, 0);
		runner_result_free(&res);
	}
	/* Random reads gain nothing: seek and rotation for every one. */
	if (!qd1("randread", "4k", NULL, 0, &iops, &mbs, &res)) {
		CHECK_MSG(iops > 60 && iops < 100, "4 KiB random reads: %.0f IOPS", iops);
		CHECK(res.disk.cache_hits < 10);
		runner_result_free(&res);
	}
}

/* ---- at the drive, through its ATA interface ---- */

struct host {
	struct sim sim;
	struct disk *disk;
	int64_t done_at[32];
};

static void on_sdb(void *h_, const uint8_t *fis, size_t len)
{
	struct host *h = h_;
	struct ata_sdb s = { 0 };
	unsigned t;

	CHECK(ata_sdb_decode(fis, len, &s) == ATA_OK);
	CHECK(!(s.status & ATA_STAT_ERR));
	for (t = 0; t < 32; t++)
		if (s.sactive & (1u << t))
			h->done_at[t] = sim_now(&h->sim);
}

static void on_d2h(void *h_, const uint8_t *fis, size_t len, const uint8_t *data, size_t dlen)
{
	(void)h_;
	(void)fis;
	(void)len;
	(void)data;
	(void)dlen;
}

static const struct disk_host_ops ops = { on_sdb, on_d2h };

/* Queue tag `tag`: a read or write of [lba, lba + n), now. */
static void submit(struct host *h, unsigned tag, bool write, uint64_t lba, uint32_t n)
{
	struct ata_rw rw = { .ncq = true, .write = write, .tag = (uint8_t)tag, .lba = lba,
		.sectors = n };
	struct ata_taskfile tf;
	uint8_t fis[20];

	h->done_at[tag] = -1;
	ata_rw_build(&rw, &tf);
	CHECK(ata_h2d_encode(&tf, fis) == ATA_OK);
	disk_submit(h->disk, fis, sizeof(fis));
}

struct timed_read {
	struct host *h;
	unsigned tag;
	uint64_t lba;
	uint32_t n;
};

static void submit_later(struct sim *sim, void *arg)
{
	struct timed_read *r = arg;

	(void)sim;
	submit(r->h, r->tag, false, r->lba, r->n);
}

static void start(struct host *h, const struct disk_model *m, struct disk_layout *l)
{
	struct err e;

	memset(h, 0, sizeof(*h));
	sim_init(&h->sim);
	h->disk = disk_new(&h->sim, m, &ops, h, &e);
	CHECK_MSG(h->disk != NULL, "%s", e.msg);
	CHECK(disk_layout_build(l, m, &e) == 0);
}

static void stop(struct host *h)
{
	disk_free(h->disk);
	sim_destroy(&h->sim);
}

/*
 * Sectors of zone z that pass under the head in `dt` from a sector's
 * start, the plain way: one more while the next one has passed in time.
 */
static uint64_t passed(const struct disk_layout *l, const struct disk_zone *z, int64_t dt)
{
	uint64_t m = 0;

	while (disk_layout_sectors_ns(l, z, m + 1) <= dt)
		m++;
	return m;
}

/*
 * Read LBA 0 (the first physical sector of the first track), stay idle
 * for `idle`, then send `next` at that instant. Returns when the drive is
 * idle again; *t1 is when the first read completed.
 */
static void after_first_read(struct host *h, int64_t idle, struct timed_read *next, int64_t *t1)
{
	submit(h, 0, false, 0, 8);
	sim_run(&h->sim, SIM_FOREVER);
	*t1 = h->done_at[0];
	next->h = h;
	sim_at(&h->sim, *t1 + idle, submit_later, next);
	sim_run(&h->sim, SIM_FOREVER);
}

static void test_read_ahead(void)
{
	struct disk_model m;
	struct disk_layout l;
	struct host h;
	struct err e;
	const struct disk_zone *z;
	int64_t t1, idle, front;
	uint64_t k, kp, lpp, hits, reads;
	struct timed_read far = { .tag = 1, .lba = 4000000000ULL, .n = 8 };

	CHECK(disk_model_load("he8", &m, &e) == 0);
	start(&h, &m, &l);
	z = &l.zone[0];
	lpp = l.lpp;
	idle = l.rev_ns / 3;		/* well inside the first track */
	k = passed(&l, z, idle);
	CHECK(k > 10 && k + 2 < z->spt);

	/*
	 * Preempted: a far read sent at t1 + idle needs the head once the
	 * firmware has taken it in (command_overhead later, beside the
	 * actuator): read-ahead stops after the kp physical sectors that
	 * passed by then. The last of them hits; the next misses.
	 */
	kp = passed(&l, z, idle + m.command_overhead);
	after_first_read(&h, idle, &far, &t1);
	hits = disk_get_stats(h.disk)->cache_hits;
	reads = disk_get_stats(h.disk)->media_reads;
	CHECK_EQ_U64(reads, 2);
	submit(&h, 2, false, kp * lpp, (uint32_t)lpp);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK_EQ_U64(disk_get_stats(h.disk)->cache_hits, hits + 1);
	submit(&h, 3, false, (kp + 1) * lpp, (uint32_t)lpp);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK_EQ_U64(disk_get_stats(h.disk)->cache_hits, hits + 1);
	CHECK_EQ_U64(disk_get_stats(h.disk)->media_reads, reads + 1);
	stop(&h);

	/*
	 * Continued: a read of 2k sectors right after the first, at t1 + idle,
	 * takes over read-ahead. It ends when the head has read its last sector
	 * (t1 + the time of 2k sectors), as the interface is faster.
	 */
	start(&h, &m, &l);
	{
		struct timed_read cont = { .tag = 1, .lba = lpp, .n = (uint32_t)(2 * k * lpp) };

		after_first_read(&h, idle, &cont, &t1);
		front = m.command_overhead +
			(int64_t)((double)cont.n * m.logical_sector_size * 1000.0 / m.interface_mbs);
		CHECK(t1 + idle + front < t1 + disk_layout_sectors_ns(&l, z, 2 * k));
		CHECK_EQ_INT(h.done_at[1], t1 + disk_layout_sectors_ns(&l, z, 2 * k));
		CHECK_EQ_U64(disk_get_stats(h.disk)->stream_reads, 1);
		CHECK_EQ_U64(disk_get_stats(h.disk)->media_reads, 2);
	}
	stop(&h);

	/* A hit inside what was read ahead: command overhead and interface only. */
	start(&h, &m, &l);
	{
		struct timed_read hit = { .tag = 1, .lba = (k - 1) * lpp, .n = (uint32_t)lpp };

		after_first_read(&h, idle, &hit, &t1);
		front = m.command_overhead +
			(int64_t)((double)lpp * m.logical_sector_size * 1000.0 / m.interface_mbs);
		CHECK_EQ_INT(h.done_at[1], t1 + idle + front);
		CHECK_EQ_U64(disk_get_stats(h.disk)->cache_hits, 1);
	}
	stop(&h);

	/*
	 * Stopped at its limit (64 KiB: 16 physical sectors past the read),
	 * read-ahead resumes on a hit that moves the limit on, when its next
	 * sector comes round; a read at that sector, sent at the same instant,
	 * continues it and ends 10 sectors later.
	 */
	m.read_ahead_max = 64 << 10;
	start(&h, &m, &l);
	{
		struct timed_read hit = { &h, 1, 10 * lpp, (uint32_t)lpp };
		struct timed_read cont = { &h, 2, 17 * lpp, (uint32_t)(10 * lpp) };
		struct disk_chs next;
		int64_t t_hit, resume;

		submit(&h, 0, false, 0, 8);
		sim_run(&h.sim, SIM_FOREVER);
		t1 = h.done_at[0];
		t_hit = t1 + l.rev_ns / 2;	/* long after read-ahead reached sector 17 */
		sim_at(&h.sim, t_hit, submit_later, &hit);
		sim_at(&h.sim, t_hit, submit_later, &cont);
		sim_run(&h.sim, SIM_FOREVER);
		disk_layout_locate(&l, 17, &next);
		resume = t_hit + (next.angle - t_hit % l.rev_ns + l.rev_ns) % l.rev_ns;
		CHECK_EQ_U64(disk_get_stats(h.disk)->cache_hits, 1);
		CHECK_EQ_U64(disk_get_stats(h.disk)->stream_reads, 1);
		CHECK_EQ_INT(h.done_at[2], resume + disk_layout_sectors_ns(&l, z, 10));
	}
	stop(&h);
	m.read_ahead_max = 1 << 20;

	/* Read look-ahead off (SET FEATURES 55h as the model's power-on state): a miss. */
	m.read_ahead = false;
	start(&h, &m, &l);
	{
		struct timed_read next = { .tag = 1, .lba = lpp, .n = (uint32_t)lpp };

		after_first_read(&h, idle, &next, &t1);
		CHECK_EQ_U64(disk_get_stats(h.disk)->cache_hits, 0);
		CHECK_EQ_U64(disk_get_stats(h.disk)->media_reads, 2);
		CHECK(h.done_at[1] - (t1 + idle) > l.rev_ns / 2);
	}
	stop(&h);
}

static void test_write_coalescing(void)
{
	struct disk_model m;
	struct disk_layout l;
	struct host h;
	struct err e;
	const struct disk_stats *st;
	const uint64_t a = 1000000;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(m.write_cache);
	start(&h, &m, &l);
	st = disk_get_stats(h.disk);
	/*
	 * The first write goes to the media at once; behind it, A and A+8
	 * and A+16 make one range; A+32 leaves a gap; A+24 fills it but does
	 * not continue the newest range (A+32..A+40): two coalesced.
	 */
	submit(&h, 0, true, 3000000000ULL, 8);
	submit(&h, 1, true, a, 8);
	submit(&h, 2, true, a + 8, 8);
	submit(&h, 3, true, a + 16, 8);
	submit(&h, 4, true, a + 32, 8);
	submit(&h, 5, true, a + 24, 8);
	/* Their data is in once transferred (and the first one's destage has begun). */
	sim_run(&h.sim, m.command_overhead + 1000000);
	CHECK_EQ_U64(st->write_cached, 6);
	CHECK_EQ_U64(st->coalesced_writes, 2);
	sim_run(&h.sim, SIM_FOREVER);
	st = disk_get_stats(h.disk);	/* the media counts are summed when asked for */
	CHECK_EQ_U64(st->destages, 4);
	CHECK_EQ_U64(st->media_writes, 4);
	stop(&h);

	/*
	 * At the drive, QD1 sequential and random 4 KiB writes: the stream
	 * coalesces and destages in passes that continue each other; random
	 * writes never coalesce. Every cached write is destaged once, alone or
	 * as part of a range.
	 */
	{
		struct drivelab lab;
		const unsigned ios = 20000;
		double secs;

		if (drivelab_init(&lab, "he8", 1))
			return;
		lab.write = true;
		lab.sequential = true;
		secs = drivelab_run(&lab, ios);
		st = disk_get_stats(lab.disk);
		CHECK_MSG(ios / secs >= 5000, "drive-level sequential writes: %.0f IOPS", ios / secs);
		CHECK_EQ_U64(st->write_cached, ios);
		CHECK_EQ_U64(st->destages + st->coalesced_writes, ios);
		CHECK(st->coalesced_writes > ios * 9 / 10);
		CHECK(st->stream_writes > 0);
		drivelab_destroy(&lab);

		if (drivelab_init(&lab, "he8", 1))
			return;
		lab.write = true;
		lab.qd = 8;
		drivelab_run(&lab, 2000);
		st = disk_get_stats(lab.disk);
		CHECK_EQ_U64(st->coalesced_writes, 0);
		CHECK_EQ_U64(st->stream_writes, 0);
		CHECK_EQ_U64(st->destages, st->write_cached);
		drivelab_destroy(&lab);
	}
}

int main(void)
{
	test_whole_stack();
	test_read_ahead();
	test_write_coalescing();
	return test_done();
}
