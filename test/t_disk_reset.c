/*
 * A soft reset aborts every command, those still being decoded with the
 * rest: 31 random reads kept queued on he8, and now and then an SRST right
 * after the host has refilled the queue (the new commands' decoding not
 * over). After each reset the host sends new commands on every tag, as
 * libata does; the drive must never answer a command from before the
 * reset (an SDB names only tags sent since), and the run goes on to its
 * end with every reset answered.
 */
#include "testlib.h"

#include "ata/cmd.h"
#include "ata/fis.h"
#include "disk/disk.h"
#include "disk/model.h"
#include "sim/sim.h"

#include <string.h>

#define TAGS 0x7fffffffu	/* 31 tags, as libata gave 4.10 */

struct host {
	struct sim sim;
	struct disk *disk;
	uint32_t free_tags;
	uint64_t rng, issued, completed, stray;
	bool in_reset;
	unsigned resets, answers;
};

static uint64_t next_random(struct host *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return h->rng;
}

static void refill(struct host *h)
{
	while (!h->in_reset && h->free_tags) {
		struct ata_rw rw = { .ncq = true, .sectors = 8 };
		struct ata_taskfile tf;
		uint8_t fis[ATA_FIS_H2D_LEN];
		unsigned tag = (unsigned)__builtin_ctz(h->free_tags);

		rw.lba = next_random(h) % (15000000000ull / 8) * 8;
		rw.tag = (uint8_t)tag;
		h->free_tags &= ~(1u << tag);
		h->issued++;
		ata_rw_build(&rw, &tf);
		ata_h2d_encode(&tf, fis);
		disk_submit(h->disk, fis, sizeof(fis));
	}
}

static void control(struct host *h, uint8_t ctl)
{
	struct ata_taskfile tf;
	uint8_t fis[ATA_FIS_H2D_LEN];

	memset(&tf, 0, sizeof(tf));
	tf.control = ctl;
	ata_h2d_encode(&tf, fis);
	disk_submit(h->disk, fis, sizeof(fis));
}

static void srst_clear(struct sim *sim, void *arg)
{
	(void)sim;
	control(arg, 0);
}

static void on_sdb(void *host, const uint8_t *fis, size_t len)
{
	struct host *h = host;
	struct ata_sdb s = { 0 };

	CHECK(ata_sdb_decode(fis, len, &s) == ATA_OK);
	/* Only tags the host has outstanding: none from before a reset. */
	h->stray += (uint64_t)__builtin_popcount(s.sactive & h->free_tags);
	h->completed += (uint64_t)__builtin_popcount(s.sactive & ~h->free_tags);
	h->free_tags |= s.sactive;
	refill(h);
	if (!h->in_reset && h->completed % 500 == 0) {
		/* The refill's commands are being decoded: reset now. */
		h->in_reset = true;
		h->resets++;
		control(h, ATA_CTL_SRST);
		sim_at(&h->sim, sim_now(&h->sim) + 5000, srst_clear, h);
	}
}

static void on_d2h(void *host, const uint8_t *fis, size_t len, const uint8_t *data, size_t dlen)
{
	struct host *h = host;

	(void)fis;
	(void)len;
	(void)data;
	(void)dlen;
	CHECK(h->in_reset);
	h->answers++;
	h->in_reset = false;
	h->free_tags = TAGS;	/* every command was aborted */
	refill(h);
}

int main(void)
{
	static const struct disk_host_ops ops = { .sdb = on_sdb, .d2h = on_d2h };
	static struct host h;
	struct disk_model m;
	struct err e;

	CHECK(sim_init(&h.sim) == 0);
	CHECK(disk_model_load("he8", &m, &e) == 0);
	h.disk = disk_new(&h.sim, &m, &ops, &h, &e);
	CHECK(h.disk != NULL);
	if (!h.disk)
		return test_done();
	h.free_tags = TAGS;
	h.rng = 88172645463325252ull;
	refill(&h);
	sim_run(&h.sim, 20 * SIM_SEC);
	CHECK_MSG(h.resets >= 5, "%u resets", h.resets);
	CHECK_EQ_INT(h.answers + h.in_reset, h.resets);
	CHECK_EQ_U64(disk_get_stats(h.disk)->resets, h.resets);
	CHECK_EQ_U64(h.stray, 0);
	CHECK(h.completed > 2000);
	disk_free(h.disk);
	sim_destroy(&h.sim);
	return test_done();
}
