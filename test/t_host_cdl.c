/*
 * CDL on the host, as Linux 6.5: libata's probe finds CDL only through
 * IDENTIFY (word 80 ACS-5, word 78 NCQ autosense), log 30h pages 03h/04h
 * and log 18h; device/cdl_enable sends SET FEATURES 0Dh and from then the
 * ioprio hint 1..7 goes out in AUXILIARY 2:0 (NCQ) or FEATURE 2:0 (DMA
 * EXT), never otherwise; cdl_enable and ncq_prio_enable refuse each other
 * with the kernel's messages, whichever is written last; cdl_enable on a
 * drive without CDL fails with EOPNOTSUPP.
 */
#include "testlib.h"
#include "ata/cdl.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "host/ioprio.h"
#include "run/system.h"

struct seen {
	unsigned rw, with_cdl, right_cdl, prio_high;
	uint64_t drive_cdl;		/* commands the drive ran under a descriptor */
	uint16_t last_prio;
};

static void observe(void *ctx, const uint8_t *fis, size_t len)
{
	struct seen *s = ctx;
	struct ata_taskfile tf = { 0 };
	struct ata_rw rw;

	CHECK(ata_h2d_decode(fis, len, &tf) == ATA_OK);
	if (ata_rw_parse(&tf, &rw))
		return;
	s->rw++;
	s->prio_high += rw.prio == ATA_PRIO_HIGH;
	if (rw.cdl) {
		s->with_cdl++;
		/* The raw field, as libata laid it out: AUXILIARY for NCQ, FEATURE for DMA EXT. */
		s->right_cdl += rw.ncq ? (tf.auxiliary & 7) == ioprio_hint(s->last_prio) :
			(tf.features & 7) == ioprio_hint(s->last_prio);
	}
}

static void nop(void *owner, struct blk_bio *bio)
{
	(void)owner;
	(void)bio;
}

/* 40 reads one at a time, hints cycling 0..9 (8 and 9 are no CDL index). */
static int run(const struct disk_model *m, const char *const *sets, struct seen *s,
	       struct host_knobs *k, struct err *e)
{
	struct host_config cfg;
	struct system sys;
	struct blk_bio bio;
	unsigned i;

	memset(s, 0, sizeof(*s));
	host_config_init(&cfg);
	for (; *sets; sets++)
		CHECK(host_config_set(&cfg, *sets, e) == 0);
	if (system_init(&sys, &cfg, m, 0, NULL, e))
		return -1;
	sys.fis_observer = observe;
	sys.fis_ctx = s;
	for (i = 0; i < 40; i++) {
		blk_bio_prep(&bio, 1000 + 256 * i * 100003, 256, false,
			     ioprio_value(IOPRIO_CLASS_BE, i % 10, 4), nop, nop, NULL);
		s->last_prio = bio.ioprio;
		CHECK(blk_submit(sys.q, &bio));
		sim_run(&sys.sim, SIM_FOREVER);
	}
	*k = sys.knobs;
	s->drive_cdl = disk_get_stats(sys.disk)->cdl_commands;
	system_destroy(&sys);
	return 0;
}

int main(void)
{
	static const char *const none[] = { NULL };
	static const char *const on[] = { "device/cdl_enable=1", NULL };
	static const char *const on_dma[] = { "device/cdl_enable=1", "device/queue_depth=1", NULL };
	static const char *const prio_then_cdl[] = { "device/ncq_prio_enable=1",
		"device/cdl_enable=1", NULL };
	static const char *const cdl_then_prio[] = { "device/cdl_enable=1",
		"device/ncq_prio_enable=1", NULL };
	static const char *const prio_on_cdl_off[] = { "device/cdl_enable=1",
		"device/cdl_enable=0", "device/ncq_prio_enable=1", NULL };
	struct disk_model hc570, he8, m;
	struct host_knobs k;
	struct seen s;
	struct err e;

	CHECK(disk_model_load("hc570", &hc570, &e) == 0);
	CHECK(disk_model_load("he8", &he8, &e) == 0);

	/* Probed, not enabled: no index goes out, nothing is sent to the drive. */
	CHECK(run(&hc570, none, &s, &k, &e) == 0);
	CHECK(k.cdl_supported);
	CHECK_EQ_INT(s.rw, 40);
	CHECK_EQ_INT(s.with_cdl, 0);
	CHECK_EQ_INT(s.drive_cdl, 0);

	/*
	 * Enabled: hints 1..7 (28 of 40) in AUXILIARY, and the drive — which
	 * takes an index only after SET FEATURES 0Dh enabled CDL — ran 28.
	 */
	CHECK(run(&hc570, on, &s, &k, &e) == 0);
	CHECK_EQ_INT(s.drive_cdl, 28);
	CHECK_EQ_INT(s.with_cdl, 28);
	CHECK_EQ_INT(s.right_cdl, 28);
	CHECK_EQ_INT(s.prio_high, 0);

	/* NCQ off: the index goes in FEATURE 2:0 of READ DMA EXT. */
	CHECK(run(&hc570, on_dma, &s, &k, &e) == 0);
	CHECK_EQ_INT(s.with_cdl, 28);
	CHECK_EQ_INT(s.right_cdl, 28);

	/* Mutual refusal, the later write refused, with the kernel's words. */
	CHECK(run(&hc570, prio_then_cdl, &s, &k, &e) != 0);
	CHECK(strstr(e.msg, "knob 'device/cdl_enable': writing 1 failed with EINVAL: NCQ "
		     "priority must be disabled to enable CDL") != NULL);
	CHECK(run(&hc570, cdl_then_prio, &s, &k, &e) != 0);
	CHECK(strstr(e.msg, "knob 'device/ncq_prio_enable': writing 1 failed with EINVAL: CDL "
		     "must be disabled to enable NCQ priority") != NULL);
	CHECK(run(&hc570, prio_on_cdl_off, &s, &k, &e) == 0);
	CHECK_EQ_INT(s.with_cdl, 0);

	/* No CDL on he8: cdl_supported 0, enabling fails with EOPNOTSUPP. */
	CHECK(run(&he8, none, &s, &k, &e) == 0);
	CHECK(!k.cdl_supported);
	CHECK(run(&he8, on, &s, &k, &e) != 0);
	CHECK(strstr(e.msg, "EOPNOTSUPP") != NULL);

	/* Each of the probe's conditions, as ata_dev_config_cdl() has them. */
	m = hc570;
	m.cdl = false;
	snprintf(m.cdl_t2a, sizeof(m.cdl_t2a), "none");
	snprintf(m.cdl_t2b, sizeof(m.cdl_t2b), "none");
	CHECK(run(&m, none, &s, &k, &e) == 0);
	CHECK(!k.cdl_supported);
	m = hc570;
	m.id_data_log = false;
	CHECK(run(&m, none, &s, &k, &e) == 0);
	CHECK(!k.cdl_supported);
	return test_done();
}
