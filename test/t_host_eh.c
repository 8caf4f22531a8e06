/*
 * libata's timeouts and error handling, and the flush machinery, against a
 * scripted drive whose every answer the test decides: a command it holds
 * times out after device/timeout (at a whole second, as blk_add_timer()
 * rounds), the link is reset only once every other command has finished,
 * the drive is revalidated (IDENTIFY) and the command sent again, five
 * times at most, then -EIO; a completion after the timeout but before
 * error handling is honoured. FLUSH CACHE EXT waits for the NCQ queue to
 * drain and holds back NCQ commands behind it (ata_std_qc_defer); a FUA
 * write goes out with FUA from 6.2, as a write and a post-flush before.
 */
#include "testlib.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/log.h"
#include "host/blk.h"
#include "host/ioprio.h"
#include "host/kernel.h"
#include "host/libata.h"

#include <errno.h>

#define SEC 1000000000LL
#define MS 1000000LL

struct drive {
	struct sim sim;
	struct libata *la;
	struct blk_queue *q;
	bool write_cache;
	/* Script: how long the drive takes for the n-th NCQ command (0: hold it forever). */
	int64_t delay[16];
	unsigned ncq_seen;
	char log[1024];			/* the commands, in order: R W F S(rst) I(dentify) */
	size_t loglen;
	bool probing;
	uint8_t id_page[ATA_ID_BYTES];
	int error_on;			/* the n-th NCQ command fails (NCQ error), or -1 */
	uint8_t error_tag;
	uint8_t log_page[ATA_LOG_PAGE_BYTES];
};

struct answer {
	struct drive *d;
	unsigned tag;
	bool nonqueued;
	unsigned epoch;
};

static unsigned epoch;			/* bumped by a reset: older answers are dropped */
static struct answer answers[64];
static unsigned nanswers;

static void logc(struct drive *d, char c)
{
	if (d->loglen + 1 < sizeof(d->log))
		d->log[d->loglen++] = c;
	d->log[d->loglen] = '\0';
}

static void d2h(struct drive *d, const uint8_t *data, size_t len)
{
	struct ata_d2h r = { .status = ATA_STAT_DRDY, .interrupt = true, .device = 0x40 };
	uint8_t fis[ATA_FIS_D2H_LEN];

	ata_d2h_encode(&r, fis);
	libata_receive_d2h(d->la, fis, sizeof(fis), data, len);
}

static void answer_now(struct sim *sim, void *arg)
{
	struct answer *a = arg;

	(void)sim;
	if (a->epoch != epoch)
		return;
	if (a->nonqueued) {
		d2h(a->d, NULL, 0);
	} else {
		struct ata_sdb s = { .status = ATA_STAT_DRDY, .interrupt = true,
			.sactive = 1u << a->tag };
		uint8_t fis[ATA_FIS_SDB_LEN];

		ata_sdb_encode(&s, fis);
		libata_receive_sdb(a->d->la, fis, sizeof(fis));
	}
}

static void answer_later(struct drive *d, int64_t delay, unsigned tag, bool nonqueued)
{
	struct answer *a = &answers[nanswers++ % 64];

	a->d = d;
	a->tag = tag;
	a->nonqueued = nonqueued;
	a->epoch = epoch;
	sim_after(&d->sim, delay, answer_now, a);
}

static void ncq_error_now(struct sim *sim, void *arg)
{
	struct drive *d = arg;
	struct ata_sdb f = { .status = ATA_STAT_DRDY | ATA_STAT_ERR, .error = 0x10,
		.interrupt = true };
	uint8_t out[ATA_FIS_SDB_LEN];

	(void)sim;
	ata_sdb_encode(&f, out);
	libata_receive_sdb(d->la, out, sizeof(out));
}

static void send(void *link, const uint8_t *fis, size_t len)
{
	struct drive *d = link;
	struct ata_taskfile tf = { 0 };
	struct ata_rw rw;

	CHECK(ata_h2d_decode(fis, len, &tf) == ATA_OK);
	if (!tf.c_bit) {
		if (tf.control & ATA_CTL_SRST) {
			logc(d, 'S');
			epoch++;		/* every command aborted */
		} else {
			answer_later(d, 10 * MS, 0, true);
		}
		return;
	}
	switch (tf.command) {
	case ATA_CMD_IDENTIFY:
		logc(d, 'I');
		if (d->probing)
			d2h(d, d->id_page, sizeof(d->id_page));
		else
			answer_later(d, MS, 0, true);
		return;
	case ATA_CMD_FLUSH_EXT:
		logc(d, 'F');
		answer_later(d, 5 * MS, 0, true);
		return;
	case ATA_CMD_READ_LOG_EXT:
	case ATA_CMD_READ_LOG_DMA_EXT: {
		struct ata_ncq_error ne = { .tag = d->error_tag, .status = 0x41, .error = 0x10 };

		logc(d, 'L');
		ata_ncq_error_build(&ne, d->log_page);
		d2h(d, d->log_page, sizeof(d->log_page));
		return;
	}
	}
	CHECK(ata_rw_parse(&tf, &rw) == ATA_OK);
	logc(d, rw.write ? (rw.fua ? 'U' : 'W') : 'R');
	if (rw.ncq && (int)d->ncq_seen == d->error_on) {
		/* An NCQ error: ERR, nothing completed, every queued command aborted. */
		d->ncq_seen++;
		d->error_tag = rw.tag;
		epoch++;
		sim_after(&d->sim, 0, ncq_error_now, d);
		return;
	}
	if (!rw.ncq) {
		answer_later(d, 5 * MS, 0, true);
		return;
	}
	if (d->ncq_seen < 16 && d->delay[d->ncq_seen] == 0) {
		d->ncq_seen++;
		return;			/* held: never answered */
	}
	answer_later(d, d->ncq_seen < 16 ? d->delay[d->ncq_seen] : MS, rw.tag, false);
	d->ncq_seen++;
}

static const struct libata_link_ops link = { send, NULL };	/* no DSM: the drive here has no TRIM */

static void probed(void *ctx, int error)
{
	(void)ctx;
	CHECK_EQ_INT(error, 0);
}

static void setup_sched(struct drive *d, int kernel, bool write_cache, const char *sched,
			unsigned queue_depth);

static void setup(struct drive *d, int kernel, bool write_cache)
{
	setup_sched(d, kernel, write_cache, "none", 32);
}

static void setup_sched(struct drive *d, int kernel, bool write_cache, const char *sched,
			unsigned queue_depth)
{
	char set[64];
	struct host_config c;
	struct ata_identify id;
	struct err e;

	memset(d, 0, sizeof(*d));
	d->error_on = -1;
	epoch = 0;
	nanswers = 0;
	memset(&id, 0, sizeof(id));
	snprintf(id.model, sizeof(id.model), "scripted");
	id.sectors = 1ULL << 30;
	id.lba48 = true;
	id.logical_sector_size = 512;
	id.physical_sector_size = 512;
	id.ncq = true;
	id.queue_depth = 32;
	id.write_cache = true;
	id.write_cache_enabled = write_cache;
	ata_identify_build(&id, d->id_page);
	sim_init(&d->sim);
	d->la = libata_new(&d->sim, &link, d);
	d->probing = true;
	libata_probe(d->la, probed, d);
	d->probing = false;
	host_config_init(&c);
	c.k.kernel = kernel;
	snprintf(set, sizeof(set), "queue/scheduler=%s", sched);
	CHECK(host_config_set(&c, set, &e) == 0);
	if (strcmp(sched, "none"))
		CHECK(host_config_set(&c, "queue/iosched/fifo_batch=1", &e) == 0);
	c.k.queue_depth = queue_depth;
	c.k.timeout = 1 * SEC;
	CHECK(libata_configure(d->la, &c.k, &e) == 0);
	d->q = blk_queue_new(&d->sim, &c.k, &e);
	CHECK(d->q != NULL);
	libata_attach(d->la, d->q);
	blk_queue_attach(d->q, d->la);
	d->loglen = 0;
	d->log[0] = '\0';
}

static void teardown(struct drive *d)
{
	blk_queue_free(d->q);
	libata_free(d->la);
	sim_destroy(&d->sim);
}

static void done(void *owner, struct blk_bio *bio)
{
	(void)owner;
	(void)bio;
}

static void bio(struct blk_bio *b, uint64_t lba, bool write, uint8_t flags)
{
	blk_bio_prep(b, lba, 8, write, ioprio_value(IOPRIO_CLASS_BE, 0, 4),
		     done, done, NULL);
	b->flags = flags;
}

static void flush_bio(struct blk_bio *b)
{
	blk_bio_prep(b, 0, 0, true, ioprio_value(IOPRIO_CLASS_BE, 0, 4), done, done, NULL);
	b->flags = BLK_PREFLUSH;
}

/* A read the drive never answers: six timeouts, five retries, then -EIO. */
static void test_give_up(void)
{
	struct drive d;
	struct blk_bio b;
	const struct libata_stats *st;
	int64_t t0;
	unsigned i;

	setup(&d, HOST_KERNEL_6_12, true);
	t0 = sim_now(&d.sim);
	bio(&b, 100, false, 0);
	CHECK(blk_submit(d.q, &b));
	sim_run(&d.sim, SIM_FOREVER);
	st = libata_get_stats(d.la);
	CHECK_EQ_U64(st->timeouts, 6);
	CHECK_EQ_U64(st->resets, 6);
	CHECK_EQ_U64(st->retries, 5);
	CHECK_EQ_INT(b.error, -EIO);
	/* Each try: to the next whole second past the deadline, then reset and IDENTIFY. */
	CHECK(b.t_completed - t0 >= 6 * SEC);
	CHECK(b.t_completed - t0 <= 6 * 2 * SEC);
	CHECK_EQ_STR(d.log, "RSIRSIRSIRSIRSIRSI");
	for (i = 0; i < 6; i++)
		CHECK(d.log[3 * i] == 'R');
	teardown(&d);
}

/* Held once, answered on the retry: the latency includes the recovery. */
static void test_retry_succeeds(void)
{
	struct drive d;
	struct blk_bio b;
	int64_t t0;

	setup(&d, HOST_KERNEL_6_12, true);
	d.delay[0] = 0;
	d.delay[1] = 8 * MS;
	t0 = sim_now(&d.sim);
	bio(&b, 100, false, 0);
	CHECK(blk_submit(d.q, &b));
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_INT(b.error, 0);
	CHECK_EQ_U64(libata_get_stats(d.la)->timeouts, 1);
	CHECK_EQ_U64(libata_get_stats(d.la)->retries, 1);
	CHECK(b.t_completed - t0 > 1 * SEC);
	CHECK(b.t_completed - t0 < 2 * SEC + 100 * MS);
	CHECK_EQ_STR(d.log, "RSIR");
	teardown(&d);
}

/*
 * Reads a and b at 0 s, c at 0.5 s; the timer goes off at 1 s with a and
 * b past their deadline, c not. a is held; b is answered at 1.2 s (after
 * its timeout, before error handling: honoured); c at 1.3 s. Nothing new
 * goes out meanwhile (d, submitted at 1.1 s, waits); the reset comes once
 * c is done, then a's retry, then d.
 */
static void test_waits_for_others(void)
{
	struct drive d;
	struct blk_bio b[4];

	setup(&d, HOST_KERNEL_6_12, true);
	CHECK_EQ_INT(sim_now(&d.sim), 0);
	d.delay[0] = 0;
	d.delay[1] = 1200 * MS;
	d.delay[2] = 800 * MS;
	d.delay[3] = MS;
	d.delay[4] = MS;
	bio(&b[0], 100, false, 0);
	bio(&b[1], 200, false, 0);
	bio(&b[2], 300, false, 0);
	bio(&b[3], 400, false, 0);
	CHECK(blk_submit(d.q, &b[0]));
	CHECK(blk_submit(d.q, &b[1]));
	sim_run(&d.sim, 500 * MS);
	CHECK(blk_submit(d.q, &b[2]));
	sim_run(&d.sim, 1100 * MS);
	CHECK(blk_submit(d.q, &b[3]));	/* during recovery: held back */
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_U64(libata_get_stats(d.la)->timeouts, 2);
	CHECK_EQ_U64(libata_get_stats(d.la)->resets, 1);
	CHECK_EQ_U64(libata_get_stats(d.la)->retries, 1);
	CHECK_EQ_INT(b[1].error, 0);
	CHECK_EQ_INT(b[1].t_completed, 1200 * MS);
	CHECK_EQ_INT(b[2].t_completed, 1300 * MS);
	CHECK_EQ_STR(d.log, "RRRSIRR");
	CHECK(b[0].t_completed > 1300 * MS && b[0].error == 0);
	CHECK(b[3].t_dispatched > 1300 * MS && b[3].t_completed > b[3].t_dispatched);
	teardown(&d);
}

/* FLUSH CACHE EXT waits for the NCQ writes, and the read behind it for the flush. */
static void test_flush_drains(void)
{
	struct drive d;
	struct blk_bio w[2], f, r;

	setup(&d, HOST_KERNEL_6_12, true);
	d.delay[0] = 30 * MS;
	d.delay[1] = 40 * MS;
	d.delay[2] = MS;
	bio(&w[0], 100, true, 0);
	bio(&w[1], 200, true, 0);
	flush_bio(&f);
	bio(&r, 300, false, 0);
	CHECK(blk_submit(d.q, &w[0]));
	CHECK(blk_submit(d.q, &w[1]));
	CHECK(blk_submit(d.q, &f));
	CHECK(blk_submit(d.q, &r));
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_STR(d.log, "WWFR");
	CHECK_EQ_INT(f.t_dispatched, w[1].t_completed);
	CHECK(r.t_dispatched >= f.t_completed);
	CHECK_EQ_U64(libata_get_stats(d.la)->flushes, 1);
	CHECK(blk_get_stats(d.q)->deferred >= 1);
	teardown(&d);

	/* No volatile cache: a flush is done at once and sends nothing. */
	setup(&d, HOST_KERNEL_6_12, false);
	flush_bio(&f);
	CHECK(blk_submit(d.q, &f));
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_STR(d.log, "");
	CHECK_EQ_U64(libata_get_stats(d.la)->flushes, 0);
	teardown(&d);
}

/* A FUA write: FUA from 6.2 (6.6 here); before, the write and a post-flush. */
static void test_fua(void)
{
	struct drive d;
	struct blk_bio w;

	setup(&d, HOST_KERNEL_6_6, true);
	d.delay[0] = MS;
	bio(&w, 100, true, BLK_FUA);
	CHECK(blk_submit(d.q, &w));
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_STR(d.log, "U");
	CHECK_EQ_U64(libata_get_stats(d.la)->fua_cmds, 1);
	teardown(&d);

	setup(&d, HOST_KERNEL_6_1, true);
	d.delay[0] = MS;
	bio(&w, 100, true, BLK_FUA);
	CHECK(blk_submit(d.q, &w));
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_STR(d.log, "WF");
	CHECK_EQ_INT(w.error, 0);
	teardown(&d);

	/* A barrier write (PREFLUSH | FUA) on 4.10: flush, write, flush. */
	setup(&d, HOST_KERNEL_4_10, true);
	d.delay[0] = MS;
	bio(&w, 100, true, BLK_PREFLUSH | BLK_FUA);
	CHECK(blk_submit(d.q, &w));
	sim_run(&d.sim, SIM_FOREVER);
	CHECK_EQ_STR(d.log, "FWF");
	teardown(&d);
}

/*
 * Three reads; the drive fails the third (IDNF) and aborts the two before
 * it. libata reads log 10h, fails that one with -EIO and sends the other
 * two again — no reset, no retry used up.
 */
static void test_ncq_error(void)
{
	struct drive d;
	struct blk_bio b[3];
	const struct libata_stats *st;
	unsigned i;

	setup(&d, HOST_KERNEL_6_12, true);
	d.delay[0] = d.delay[1] = 50 * MS;
	d.delay[3] = d.delay[4] = MS;
	d.error_on = 2;
	for (i = 0; i < 3; i++) {
		bio(&b[i], 100 * (i + 1), false, 0);
		CHECK(blk_submit(d.q, &b[i]));
	}
	sim_run(&d.sim, SIM_FOREVER);
	st = libata_get_stats(d.la);
	CHECK_EQ_STR(d.log, "RRRLRR");
	CHECK_EQ_U64(st->ncq_errors, 1);
	CHECK_EQ_U64(st->resets, 0);
	CHECK_EQ_U64(st->retries, 2);
	CHECK_EQ_INT(b[2].error, -EIO);
	CHECK_EQ_INT(b[0].error, 0);
	CHECK_EQ_INT(b[1].error, 0);
	CHECK(b[0].t_completed < 10 * MS && b[1].t_completed < 10 * MS);
	teardown(&d);
}

/*
 * When the scheduler chooses. Queue depth 1, fifo_batch 1: W1 goes out,
 * W2 waits; then a read arrives. 4.10's request function has already
 * peeked W2 (the device was full), so W2 goes next; blk-mq (5.15, whose
 * mq-deadline is the same single-class engine) asks the scheduler only
 * when W1 is done, and it prefers the read.
 */
static void test_peek(void)
{
	static const struct { int kernel; const char *sched, *order; } cases[] = {
		{ HOST_KERNEL_4_10, "deadline", "WWR" },
		{ HOST_KERNEL_5_15, "mq-deadline", "WRW" },
	};
	unsigned i;

	for (i = 0; i < 2; i++) {
		struct drive d;
		struct blk_bio b[3];

		setup_sched(&d, cases[i].kernel, false, cases[i].sched, 1);
		bio(&b[0], 100, true, 0);
		bio(&b[1], 300, true, 0);
		bio(&b[2], 200, false, 0);
		CHECK(blk_submit(d.q, &b[0]));
		CHECK(blk_submit(d.q, &b[1]));
		CHECK(blk_submit(d.q, &b[2]));
		sim_run(&d.sim, SIM_FOREVER);
		CHECK_EQ_STR(d.log, cases[i].order);
		teardown(&d);
	}
}

int main(void)
{
	test_give_up();
	test_retry_succeeds();
	test_waits_for_others();
	test_flush_drains();
	test_fua();
	test_ncq_error();
	test_peek();
	return test_done();
}
