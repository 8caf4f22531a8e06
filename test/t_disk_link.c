/*
 * The SATA link carries one data transfer at a time, either direction
 * (docs/DRIVES.md, "The link"). At QD32, with every command served from
 * the buffer (read hits over a region the cache holds, cached writes over
 * a region they rewrite in place, and the two mixed):
 *
 *  - no two transfers overlap: each of these commands completes when its
 *    data has crossed the link, so consecutive completions are at least
 *    one transfer (4 KiB at interface_mbs) apart, and the data moved never
 *    exceeds interface_mbs over the run — while the link is the bound: the
 *    rate is within 1 % of it;
 *  - the per-command bound: a command takes at least command_overhead and
 *    its own transfer, and at most command_overhead and a transfer for
 *    each of the QD commands outstanding (the link serves them in order,
 *    so at most the other 31 go first);
 *
 * a 16 MiB write to the media writes no sector before its data is in, and
 * over SATA (faster than the head) loses no revolution waiting for the
 * rest of it; after an NCQ error the aborted writes' data no longer holds
 * the link; and through the whole stack, the report's job (4 KiB cached writes at
 * QD32, 1.2 GB/s before the link was modelled) and cached sequential reads
 * at QD32 stay under interface_mbs.
 */
#include "testlib.h"
#include "runlab.h"

#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/log.h"
#include "disk/disk.h"
#include "run/runner.h"

#include <string.h>

#define NLB 8				/* 4 KiB commands */
#define READ_LBA 0			/* reads cycle over 64 KiB from here */
#define READ_SPAN 128
#define WRITE_LBA 1000000		/* writes cycle over 16 KiB from here */
#define WRITE_SPAN 32

struct host {
	struct sim sim;
	struct disk *disk;
	unsigned write_every;		/* 0: reads only; 1: writes only; N: one in N a write */
	uint64_t issued, target, completed, next_read, next_write;
	int64_t issue_time[32];
	uint32_t free_tags;
	bool measuring;
	int64_t first_done, last_done, min_gap, min_lat, max_lat;
	uint64_t bytes, done_in_order;
	bool answered, error_expected;
	unsigned errors;		/* SDBs with ERR */
};

static void issue(struct host *h)
{
	struct ata_rw rw = { .ncq = true, .sectors = NLB };
	struct ata_taskfile tf;
	uint8_t fis[20];
	unsigned tag = (unsigned)__builtin_ctz(h->free_tags);

	rw.write = h->write_every && h->issued % h->write_every == 0;
	if (rw.write) {
		rw.lba = WRITE_LBA + h->next_write;
		h->next_write = (h->next_write + NLB) % WRITE_SPAN;
	} else {
		rw.lba = READ_LBA + h->next_read;
		h->next_read = (h->next_read + NLB) % READ_SPAN;
	}
	rw.tag = (uint8_t)tag;
	h->free_tags &= ~(1u << tag);
	h->issue_time[tag] = sim_now(&h->sim);
	h->issued++;
	ata_rw_build(&rw, &tf);
	ata_h2d_encode(&tf, fis);
	disk_submit(h->disk, fis, sizeof(fis));
}

static void on_sdb(void *host, const uint8_t *fis, size_t len)
{
	struct host *h = host;
	struct ata_sdb s;
	int64_t now = sim_now(&h->sim);

	if (ata_sdb_decode(fis, len, &s) != ATA_OK) {
		CHECK_MSG(0, "SDB FIS does not decode");
		return;
	}
	CHECK_MSG(!(s.status & ATA_STAT_ERR) || h->error_expected, "SDB with ERR");
	h->errors += (s.status & ATA_STAT_ERR) != 0;
	while (s.sactive) {
		unsigned tag = (unsigned)__builtin_ctz(s.sactive);
		int64_t lat = now - h->issue_time[tag];

		s.sactive &= s.sactive - 1;
		h->free_tags |= 1u << tag;
		h->completed++;
		if (!h->measuring)
			continue;
		if (h->done_in_order++) {
			if (now - h->last_done < h->min_gap)
				h->min_gap = now - h->last_done;
		} else {
			h->first_done = now;
		}
		h->last_done = now;
		h->bytes += NLB * 512;
		h->min_lat = lat < h->min_lat ? lat : h->min_lat;
		h->max_lat = lat > h->max_lat ? lat : h->max_lat;
	}
	while (h->free_tags && h->issued < h->target)
		issue(h);
}

static void on_d2h(void *host, const uint8_t *fis, size_t len, const uint8_t *data, size_t dlen)
{
	struct host *h = host;

	(void)fis;
	(void)len;
	(void)data;
	(void)dlen;
	h->answered = true;
}

static const struct disk_host_ops ops = { on_sdb, on_d2h };

/* A drive of model *m on a new simulation; false (and a failed check) if it cannot be made. */
static bool start(struct host *h, const struct disk_model *m)
{
	struct err e;

	memset(h, 0, sizeof(*h));
	sim_init(&h->sim);
	h->disk = disk_new(&h->sim, m, &ops, h, &e);
	CHECK_MSG(h->disk != NULL, "%s", e.msg);
	return h->disk != NULL;
}

/* Run until `ios` more commands completed, QD32. */
static void run(struct host *h, uint64_t ios)
{
	unsigned i;

	h->target = h->issued + ios;
	for (i = 0; i < 32 && h->free_tags && h->issued < h->target; i++)
		issue(h);
	while (h->completed < h->target && sim_step(&h->sim))
		;
}

static void check_cached(const char *what, unsigned write_every)
{
	struct disk_model m;
	struct err e;
	struct host h;
	const struct disk_stats *st;
	int64_t xfer, front;
	double mbs, link_mbs;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(m.write_cache && m.read_ahead);
	if (!start(&h, &m))
		return;
	h.write_every = write_every;
	h.free_tags = 0xffffffffu;
	/* The reads' region into the cache: a pass at QD1, from the media. */
	if (write_every != 1) {
		struct ata_rw rw = { .ncq = true, .sectors = READ_SPAN, .lba = READ_LBA };
		struct ata_taskfile tf;
		uint8_t fis[20];

		h.free_tags &= ~1u;
		h.target = 0;	/* nothing issued behind it */
		ata_rw_build(&rw, &tf);
		ata_h2d_encode(&tf, fis);
		disk_submit(h.disk, fis, sizeof(fis));
		while (!h.completed && sim_step(&h.sim))
			;
		h.completed = 0;
	}
	/* Settle, then measure 20 000 commands with the queue full. */
	run(&h, 1000);
	h.measuring = true;
	h.min_gap = h.min_lat = INT64_MAX;
	run(&h, 20000);
	st = disk_get_stats(h.disk);
	/* In whole ns, truncated, as every interface time of the model (4 KiB: 6 826 ns). */
	xfer = (int64_t)(NLB * 512 * 1000.0 / m.interface_mbs);
	front = m.command_overhead + xfer;
	mbs = (double)(h.bytes - NLB * 512) * 1e3 / (double)(h.last_done - h.first_done);
	/* Every command after the first pass was served from the buffer. */
	CHECK_MSG(st->cache_hits + st->write_cached == 21000,
		  "%s: %llu hits, %llu cached writes", what, (unsigned long long)st->cache_hits,
		  (unsigned long long)st->write_cached);
	CHECK_MSG(h.min_gap >= xfer, "%s: two completions %lld ns apart; a transfer takes %lld ns",
		  what, (long long)h.min_gap, (long long)xfer);
	link_mbs = NLB * 512 * 1e3 / (double)xfer;
	CHECK_MSG(mbs <= link_mbs && mbs >= 0.99 * link_mbs,
		  "%s: %.3f MB/s over a %.3f MB/s link", what, mbs, link_mbs);
	CHECK_MSG(h.min_lat >= front, "%s: a command took %lld ns; overhead and transfer %lld",
		  what, (long long)h.min_lat, (long long)front);
	CHECK_MSG(h.max_lat <= m.command_overhead + 32 * xfer, "%s: a command took %lld ns; "
		  "overhead and 32 transfers %lld", what, (long long)h.max_lat,
		  (long long)(m.command_overhead + 32 * xfer));
	disk_free(h.disk);
	sim_destroy(&h.sim);
}

/* ---- a write to the media and its data ---- */

static struct disk_access big_acc;
static unsigned big_picks;

static void watch_big(void *ctx, const struct disk_pick_event *ev)
{
	(void)ctx;
	big_acc = *ev->acc;
	big_picks++;
}

/*
 * One 16 MiB write to the media (write cache off) on an idle drive over a
 * link of `mbs` MB/s: it writes no sector before that sector's data is in.
 * Over SATA (faster than the media) it starts once positioned — no
 * revolution lost waiting for the last of its data; over a link slower
 * than the media it ends within a revolution of its data being in, and
 * never before.
 */
static void check_big_write(double mbs)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_rw rw = { .ncq = true, .write = true, .sectors = 32768, .lba = 1u << 30 };
	struct ata_taskfile tf;
	uint8_t fis[20];
	int64_t link, took, rev;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	m.write_cache = false;
	m.interface_mbs = mbs;
	if (!start(&h, &m))
		return;
	big_picks = 0;
	disk_set_pick_observer(h.disk, watch_big, NULL);
	h.free_tags = 0xfffffffeu;
	ata_rw_build(&rw, &tf);
	ata_h2d_encode(&tf, fis);
	disk_submit(h.disk, fis, sizeof(fis));
	sim_run(&h.sim, SIM_FOREVER);
	took = sim_now(&h.sim);
	link = (int64_t)(32768 * 512 * 1000.0 / mbs);
	rev = (int64_t)(60e9 / m.rpm);
	CHECK_EQ_INT(h.completed, 1);
	CHECK_EQ_INT(big_picks, 1);
	CHECK_MSG(took >= m.command_overhead + link, "%.0f MB/s: the write ended at %.3f ms, before "
		  "its data was in (%.3f ms)", mbs, took / 1e6, (m.command_overhead + link) / 1e6);
	if (link < big_acc.transfer)
		CHECK_MSG(big_acc.rotate < rev, "%.0f MB/s: %.3f ms of rotation for a write whose "
			  "data stays ahead of the head", mbs, big_acc.rotate / 1e6);
	else
		CHECK_MSG(took <= m.command_overhead + link + rev, "%.0f MB/s: the write ended at "
			  "%.3f ms; its data was in at %.3f ms", mbs, took / 1e6,
			  (m.command_overhead + link) / 1e6);
	disk_free(h.disk);
	sim_destroy(&h.sim);
}

/* Send one queued write of `sectors` at `lba` on `tag` (write cache off: it goes to the media). */
static void send_write(struct host *h, uint8_t tag, uint64_t lba, uint32_t sectors)
{
	struct ata_rw rw = { .ncq = true, .write = true, .tag = tag, .lba = lba, .sectors = sectors };
	struct ata_taskfile tf;
	uint8_t fis[20];

	h->free_tags &= ~(1u << tag);
	ata_rw_build(&rw, &tf);
	ata_h2d_encode(&tf, fis);
	disk_submit(h->disk, fis, sizeof(fis));
}

/*
 * An NCQ error while writes' data is still queued for the link aborts
 * them, and the link with them: after the error log is read, a new write's
 * data crosses at once, so it loses no revolution waiting behind data the
 * aborted writes will never send.
 */
static void check_abort_frees_link(void)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_taskfile tf;
	uint8_t fis[20];
	unsigned tag;
	int64_t rev;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	m.write_cache = false;
	if (!start(&h, &m))
		return;
	h.free_tags = 0xffffffffu;
	/* 16 writes of 1 MiB: 29 ms of data for the link, asked for as each is decoded. */
	for (tag = 0; tag < 16; tag++)
		send_write(&h, (uint8_t)tag, (uint64_t)tag << 24, 2048);
	sim_run(&h.sim, 2 * SIM_MSEC);
	/* Beyond the capacity: an NCQ error, every queued command aborted. */
	h.error_expected = true;
	send_write(&h, 16, (uint64_t)m.sectors, 8);
	sim_run(&h.sim, 3 * SIM_MSEC);
	CHECK_EQ_INT(h.errors, 1);
	ata_cmd_read_log(&tf, true, ATA_LOG_NCQ_ERROR, 0, 1);
	ata_h2d_encode(&tf, fis);
	h.answered = false;
	disk_submit(h.disk, fis, sizeof(fis));
	while (!h.answered && sim_step(&h.sim))
		;
	CHECK_MSG(h.answered && sim_now(&h.sim) < 25 * SIM_MSEC, "the log was answered at %.3f ms",
		  sim_now(&h.sim) / 1e6);
	CHECK_EQ_INT(h.completed, 0);
	h.free_tags = 0xffffffffu;
	big_picks = 0;
	disk_set_pick_observer(h.disk, watch_big, NULL);
	send_write(&h, 0, 1u << 20, 8);
	sim_run(&h.sim, SIM_FOREVER);
	rev = (int64_t)(60e9 / m.rpm);
	CHECK_EQ_INT(h.completed, 1);
	CHECK_EQ_INT(big_picks, 1);
	CHECK_MSG(big_acc.rotate < rev, "the write after the error waited %.3f ms for the platter",
		  big_acc.rotate / 1e6);
	disk_free(h.disk);
	sim_destroy(&h.sim);
}

/* Through the stack: MB/s of direction `dir` of a job, never above the link. */
static void check_job(const char *what, const char *job, unsigned dir)
{
	struct runner_result res;
	const struct report_dir *d;
	double mbs;

	if (runlab_run(job, NULL, 1, &res))
		return;
	d = &res.report.jobs[0].dir[dir];
	/* The runtime is in whole ms: a ms more, so rounding cannot pass for a faster link. */
	mbs = (double)d->io_bytes / 1e3 / (double)(d->runtime_ms + 1);
	CHECK_MSG(d->total_ios > 50000, "%s: %llu I/Os", what, (unsigned long long)d->total_ios);
	CHECK_MSG(mbs <= res.model.interface_mbs, "%s: %.1f MB/s over a %.0f MB/s link", what, mbs,
		  res.model.interface_mbs);
	runner_result_free(&res);
}

int main(void)
{
	check_cached("read hits", 0);
	check_cached("cached writes", 1);
	check_cached("read hits and cached writes", 3);
	check_big_write(600);
	check_big_write(50);
	check_abort_frees_link();
	check_job("cached writes, QD32", "[w]\nioengine=libaio\ndirect=1\nrw=write\nbs=4k\n"
		  "size=16k\ntime_based\nruntime=1\niodepth=32\n", 1);
	check_job("cached sequential reads, QD32", "[r]\nioengine=libaio\ndirect=1\nrw=read\n"
		  "bs=4k\nsize=64k\ntime_based\nruntime=1\niodepth=32\n", 0);
	return test_done();
}
