/*
 * libata: PRIO high exactly for RT requests when ncq_prio_enable is on and
 * the drive supports it — never otherwise, and not at queue_depth 1; the
 * host learns support only from IDENTIFY and READ LOG (word 76 bit 12
 * without page 08h is not enough); enabling it on a drive without support
 * fails with EINVAL. SG_IO's VERIFY and the CDBs libata refuses.
 */
#include "testlib.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "host/ioprio.h"
#include "run/system.h"

#include <errno.h>

#define RT ioprio_value(IOPRIO_CLASS_RT, 0, 3)
#define BE ioprio_value(IOPRIO_CLASS_BE, 0, 4)

struct seen {
	unsigned ncq, dma, high, high_be, high_rt, rt, be;
	uint16_t last_prio;		/* of the bio being submitted */
};

static void observe(void *ctx, const uint8_t *fis, size_t len)
{
	struct seen *s = ctx;
	struct ata_taskfile tf = { 0 };
	struct ata_rw rw;

	CHECK(ata_h2d_decode(fis, len, &tf) == ATA_OK);
	if (ata_rw_parse(&tf, &rw))
		return;
	if (rw.ncq)
		s->ncq++;
	else
		s->dma++;
	if (ioprio_class(s->last_prio) == IOPRIO_CLASS_RT)
		s->rt++;
	else
		s->be++;
	if (rw.prio == ATA_PRIO_HIGH) {
		s->high++;
		if (ioprio_class(s->last_prio) == IOPRIO_CLASS_RT)
			s->high_rt++;
		else
			s->high_be++;
	}
}

static void nop(void *owner, struct blk_bio *bio)
{
	(void)owner;
	(void)bio;
}

/* Submit 40 reads, alternating RT and BE, one at a time (so each dispatches at once). */
static int run(const struct disk_model *m, int enable, unsigned qd, struct seen *s,
	       struct err *e)
{
	struct host_config cfg;
	struct system sys;
	struct blk_bio bio;
	unsigned i;

	memset(s, 0, sizeof(*s));
	host_config_init(&cfg);
	cfg.k.ncq_prio_enable = enable;
	cfg.k.queue_depth = qd;
	cfg.k.scheduler = host_scheduler("deadline");
	if (system_init(&sys, &cfg, m, 0, NULL, e))
		return -1;
	sys.fis_observer = observe;
	sys.fis_ctx = s;
	for (i = 0; i < 40; i++) {
		blk_bio_prep(&bio, 1000 + 8 * i * 100003, 8, false, i % 2 ? RT : BE, nop, nop, NULL);
		s->last_prio = bio.ioprio;
		CHECK(blk_submit(sys.q, &bio));
		sim_run(&sys.sim, SIM_FOREVER);
	}
	CHECK_EQ_INT(sys.knobs.ncq_prio_supported, libata_ncq_prio_supported(sys.ata));
	system_destroy(&sys);
	return 0;
}

/*
 * SCSI commands through SG_IO other than READ/WRITE (fio's sg_write_mode):
 * a VERIFY becomes READ VERIFY SECTORS, non-queued, so it waits for the NCQ
 * reads ahead of it to finish (ata_std_qc_defer()); a CDB libata has no
 * translation for fails at once with -EIO, beside the queued reads, and
 * sends nothing; a VERIFY of no blocks is done at once without a command.
 */
struct cdb_run {
	struct system *sys;
	unsigned verify_fis, other_fis, reads_done;
	int64_t verify_sent, last_read_done, cdb_done;
	int cdb_error;
};

static void cdb_observe(void *ctx, const uint8_t *fis, size_t len)
{
	struct cdb_run *r = ctx;
	struct ata_taskfile tf = { 0 };

	CHECK(ata_h2d_decode(fis, len, &tf) == ATA_OK);
	if (tf.command == ATA_CMD_READ_VERIFY || tf.command == ATA_CMD_READ_VERIFY_EXT) {
		r->verify_fis++;
		r->verify_sent = sim_now(&r->sys->sim);
	} else if (!ata_is_ncq(tf.command)) {
		r->other_fis++;
	}
}

static void cdb_read_done(void *owner, struct blk_bio *bio)
{
	struct cdb_run *r = owner;

	CHECK_EQ_INT(bio->error, 0);
	r->reads_done++;
	r->last_read_done = sim_now(&r->sys->sim);
}

static void cdb_done(void *owner, struct blk_bio *bio)
{
	struct cdb_run *r = owner;

	r->cdb_error = bio->error;
	r->cdb_done = sim_now(&r->sys->sim);
}

/* Four NCQ reads, then one passthrough bio of `kind` (lba, nlb); run to the end. */
static void cdb_case(const struct disk_model *m, uint8_t kind, uint64_t lba, uint32_t nlb,
		     struct cdb_run *r)
{
	struct host_config cfg;
	struct system sys;
	struct blk_bio reads[4], cdb;
	struct err e;
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->cdb_done = -1;
	host_config_init(&cfg);
	cfg.k.queue_depth = 32;
	CHECK_MSG(system_init(&sys, &cfg, m, 0, NULL, &e) == 0, "%s", e.msg);
	r->sys = &sys;
	sys.fis_observer = cdb_observe;
	sys.fis_ctx = r;
	for (i = 0; i < 4; i++) {
		blk_bio_prep(&reads[i], 1000000 + 977777 * i, 8, false, 0, nop, cdb_read_done, r);
		CHECK(blk_submit(sys.q, &reads[i]));
	}
	blk_bio_prep(&cdb, lba, nlb, true, 0, nop, cdb_done, r);
	cdb.flags = BLK_PASSTHROUGH | kind;
	CHECK(blk_submit(sys.q, &cdb));
	sim_run(&sys.sim, SIM_FOREVER);
	CHECK_EQ_INT(r->reads_done, 4);
	system_destroy(&sys);
}

static void test_scsi_cdbs(const struct disk_model *m)
{
	struct cdb_run r;

	cdb_case(m, BLK_SCSI_VERIFY, 5000, 8, &r);
	CHECK_EQ_INT(r.cdb_error, 0);
	CHECK_EQ_INT(r.verify_fis, 1);
	CHECK_MSG(r.verify_sent >= r.last_read_done, "VERIFY sent at %lld, reads done at %lld",
		  (long long)r.verify_sent, (long long)r.last_read_done);
	CHECK(r.cdb_done > r.verify_sent);

	cdb_case(m, BLK_SCSI_REFUSED, 5000, 8, &r);
	CHECK_EQ_INT(r.cdb_error, -EIO);
	CHECK_EQ_INT(r.verify_fis, 0);
	CHECK_EQ_INT(r.other_fis, 0);
	CHECK_MSG(r.cdb_done >= 0 && r.cdb_done < r.last_read_done,
		  "refused CDB done at %lld, reads at %lld", (long long)r.cdb_done,
		  (long long)r.last_read_done);

	/* No blocks: done without a command; past the drive's end: -EIO, nothing sent. */
	cdb_case(m, BLK_SCSI_VERIFY, 5000, 0, &r);
	CHECK_EQ_INT(r.cdb_error, 0);
	CHECK_EQ_INT(r.verify_fis, 0);
	CHECK(r.cdb_done >= 0 && r.cdb_done < r.last_read_done);
	cdb_case(m, BLK_SCSI_VERIFY, (uint64_t)1 << 40, 8, &r);
	CHECK_EQ_INT(r.cdb_error, -EIO);
	CHECK_EQ_INT(r.verify_fis, 0);
}

int main(void)
{
	struct disk_model he8, m;
	struct seen s;
	struct err e;

	CHECK(disk_model_load("he8", &he8, &e) == 0);
	test_scsi_cdbs(&he8);

	CHECK(run(&he8, 1, 32, &s, &e) == 0);
	CHECK_EQ_INT(s.ncq, 40);
	CHECK_EQ_INT(s.high, 20);
	CHECK_EQ_INT(s.high_rt, 20);
	CHECK_EQ_INT(s.high_be, 0);

	CHECK(run(&he8, 0, 32, &s, &e) == 0);
	CHECK_EQ_INT(s.ncq, 40);
	CHECK_EQ_INT(s.high, 0);

	/* queue_depth 1: NCQ off, DMA EXT, no priority — silently. */
	CHECK(run(&he8, 1, 1, &s, &e) == 0);
	CHECK_EQ_INT(s.ncq, 0);
	CHECK_EQ_INT(s.dma, 40);
	CHECK_EQ_INT(s.high, 0);

	/* A drive without NCQ priority: enabling fails like the kernel (EINVAL). */
	CHECK(disk_model_load("desktop1t", &m, &e) == 0);
	CHECK(run(&m, 1, 32, &s, &e) != 0);
	CHECK(strstr(e.msg, "EINVAL") != NULL);
	CHECK(strstr(e.msg, "device/ncq_prio_enable") != NULL);
	CHECK(strstr(e.msg, "does not support NCQ priority") != NULL);
	CHECK(run(&m, 0, 32, &s, &e) == 0);
	CHECK_EQ_INT(s.high, 0);

	/* Word 76 bit 12 set but page 08h clear: not prio-capable (kernel rule). */
	m = he8;
	m.ncq_prio_log = false;
	CHECK(run(&m, 1, 32, &s, &e) != 0);
	CHECK(strstr(e.msg, "page 08h") != NULL);

	/* Page 08h set but word 76 bit 12 clear: the kernel never reads the log. */
	m = he8;
	m.ncq_prio = false;
	CHECK(run(&m, 1, 32, &s, &e) != 0);
	CHECK(strstr(e.msg, "word 76 bit 12") != NULL);

	/* No IDENTIFY DEVICE data log in the GPL directory. */
	m = he8;
	m.id_data_log = false;
	CHECK(run(&m, 1, 32, &s, &e) != 0);

	/* A drive without NCQ: queue depth 1 whatever the knob says. */
	m = he8;
	m.ncq = m.ncq_prio = m.ncq_prio_log = false;
	m.queue_depth = 1;
	CHECK(run(&m, 0, 32, &s, &e) == 0);
	CHECK_EQ_INT(s.dma, 40);
	return test_done();
}
