#include "drivelab.h"

#include "ata/cmd.h"
#include "ata/fis.h"

#include <stdio.h>
#include <string.h>

uint8_t drivelab_last_d2h[20];
uint8_t drivelab_last_data[8192];
size_t drivelab_last_data_len;
static int d2h_seen;

static void issue(struct drivelab *lab);

static void on_sdb(void *host, const uint8_t *fis, size_t len)
{
	struct drivelab *lab = host;
	struct ata_sdb s;
	int64_t now = sim_now(&lab->sim);

	if (ata_sdb_decode(fis, len, &s))
		return;
	while (s.sactive) {
		unsigned tag = (unsigned)__builtin_ctz(s.sactive);

		s.sactive &= s.sactive - 1;
		hist_add(lab->tag_high[tag] ? &lab->lat_high : &lab->lat,
			 (uint64_t)(now - lab->issue_time[tag]));
		lab->free_tags |= 1u << tag;
		lab->completed++;
	}
	while (lab->free_tags && lab->issued < lab->target)
		issue(lab);
}

static void on_d2h(void *host, const uint8_t *fis, size_t len, const uint8_t *data, size_t dlen)
{
	struct drivelab *lab = host;

	(void)lab;
	memcpy(drivelab_last_d2h, fis, len < 20 ? len : 20);
	drivelab_last_data_len = dlen < sizeof(drivelab_last_data) ? dlen : sizeof(drivelab_last_data);
	if (data)
		memcpy(drivelab_last_data, data, drivelab_last_data_len);
	d2h_seen = 1;
	if (!lab->ncq) {
		lab->completed++;
		if (lab->issued < lab->target)
			issue(lab);
	}
}

static const struct disk_host_ops lab_ops = { on_sdb, on_d2h };

static void issue(struct drivelab *lab)
{
	struct ata_rw rw = { .ncq = lab->ncq, .sectors = lab->nlb,
		.write = lab->write_every ? lab->issued % lab->write_every == 0 : lab->write };
	struct ata_taskfile tf;
	uint8_t fis[20];
	unsigned tag = lab->ncq ? (unsigned)__builtin_ctz(lab->free_tags) : 0;

	if (lab->sequential) {
		rw.lba = lab->next_lba;
		lab->next_lba = (lab->next_lba + lab->nlb) % (lab->span - lab->nlb);
	} else {
		/* Aligned to the command size, as fio aligns to the block size. */
		rw.lba = rng_below(&lab->rng, lab->span / lab->nlb) * lab->nlb;
	}
	if (lab->ncq) {
		rw.tag = (uint8_t)tag;
		lab->tag_high[tag] = lab->high_every && lab->issued % lab->high_every == 0;
		rw.prio = lab->tag_high[tag] ? ATA_PRIO_HIGH : ATA_PRIO_NORMAL;
		lab->free_tags &= ~(1u << tag);
	} else {
		lab->tag_high[0] = false;
	}
	if (rw.write)
		rw.fua = lab->fua_every && lab->writes++ % lab->fua_every == 0;
	lab->issue_time[tag] = sim_now(&lab->sim);
	lab->issued++;
	ata_rw_build(&rw, &tf);
	ata_h2d_encode(&tf, fis);
	disk_submit(lab->disk, fis, sizeof(fis));
}

int drivelab_init(struct drivelab *lab, const char *drive, uint64_t seed)
{
	static struct disk_model m;
	struct err e;

	if (disk_model_load(drive, &m, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	return drivelab_init_model(lab, &m, seed);
}

int drivelab_init_model(struct drivelab *lab, const struct disk_model *mp, uint64_t seed)
{
	const struct disk_model m = *mp;
	struct err e;

	memset(lab, 0, sizeof(*lab));
	sim_init(&lab->sim);
	lab->disk = disk_new(&lab->sim, &m, &lab_ops, lab, &e);
	if (!lab->disk) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	rng_seed(&lab->rng, seed, "drivelab");
	lab->qd = 1;
	lab->nlb = 8;
	lab->ncq = true;
	lab->span = (uint64_t)m.sectors;
	hist_init(&lab->lat);
	hist_init(&lab->lat_high);
	return 0;
}

void drivelab_destroy(struct drivelab *lab)
{
	disk_free(lab->disk);
	sim_destroy(&lab->sim);
}

double drivelab_run(struct drivelab *lab, uint64_t ios)
{
	int64_t t0 = sim_now(&lab->sim);
	unsigned i;

	lab->target = lab->issued + ios;
	lab->free_tags = lab->qd >= 32 ? 0xffffffffu : (1u << lab->qd) - 1;
	for (i = 0; i < (lab->ncq ? lab->qd : 1) && lab->issued < lab->target; i++)
		issue(lab);
	while (lab->completed < lab->target && sim_step(&lab->sim))
		;
	if (!lab->no_drain)
		sim_run(&lab->sim, SIM_FOREVER);	/* drain write-cache destages */
	return (double)(sim_now(&lab->sim) - t0) / 1e9;
}

void drivelab_command(struct drivelab *lab, const uint8_t fis[20])
{
	d2h_seen = 0;
	lab->target = lab->issued;	/* no reissue from on_d2h */
	disk_submit(lab->disk, fis, 20);
	while (!d2h_seen && sim_step(&lab->sim))
		;
}
