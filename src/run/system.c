#include "run/system.h"

#include <stddef.h>
#include <string.h>

static __attribute__((noinline)) void link_send_observed(struct system *s, const uint8_t *fis,
							 size_t len)
{
	s->fis_observer(s->fis_ctx, fis, len);
	disk_submit(s->disk, fis, len);
}

/* Every command crosses here: without an observer, straight on to the drive (a tail call). */
static void link_send(void *ctx, const uint8_t *fis, size_t len)
{
	struct system *s = ctx;

	if (s->fis_observer) {
		link_send_observed(s, fis, len);
		return;
	}
	disk_submit(s->disk, fis, len);
}

static void drive_sdb(void *ctx, const uint8_t *fis, size_t len)
{
	struct system *s = ctx;

	libata_receive_sdb(s->ata, fis, len);
}

static void drive_d2h(void *ctx, const uint8_t *fis, size_t len, const uint8_t *data,
		      size_t dlen)
{
	struct system *s = ctx;

	libata_receive_d2h(s->ata, fis, len, data, dlen);
}

static void link_send_data(void *link, const uint8_t *fis, size_t len, const uint8_t *data,
			   size_t data_len)
{
	struct system *s = link;

	if (s->fis_observer)
		s->fis_observer(s->fis_ctx, fis, len);
	disk_submit_data(s->disk, fis, len, data, data_len);
}

static const struct libata_link_ops link_ops = { link_send, link_send_data };
static const struct disk_host_ops drive_ops = { drive_sdb, drive_d2h };

struct probe_wait {
	int done, error;
};

static void probe_done(void *ctx, int error)
{
	struct probe_wait *w = ctx;

	w->done = 1;
	w->error = error;
}

int system_load_model(const struct host_config *cfg, struct disk_model *m, struct err *e)
{
	unsigned i;

	if (disk_model_load(cfg->drive, m, e))
		return -1;
	/* Only now, with the model in hand, can a drive.KEY be checked: say where it came from. */
	for (i = 0; i < cfg->ndrive_sets; i++)
		if (disk_model_set(m, cfg->drive_sets[i].key, cfg->drive_sets[i].value, e))
			return err_prefix(e, "%s: ", cfg->drive_sets[i].origin);
	return 0;
}

/* system_init() zeroes the members before the loaded model and from model on: nothing between. */
_Static_assert(offsetof(struct system, model) ==
	       offsetof(struct system, loaded) + sizeof(((struct system *)0)->loaded),
	       "struct system: model right after loaded");

int system_init(struct system *s, const struct host_config *cfg,
		const struct disk_model *model, unsigned debug_mask, FILE *debug_out,
		struct err *e)
{
	struct probe_wait w = { 0, 0 };

	/*
	 * All but the loaded model zeroed: only a load writes and reads it
	 * (disk_model_parse() zeroes it first); a caller's model is read in place.
	 */
	memset(s, 0, offsetof(struct system, loaded));
	memset(&s->model, 0, sizeof(*s) - offsetof(struct system, model));
	if (host_config_check(cfg, e))
		return -1;
	sim_init(&s->sim);
	sim_set_debug(&s->sim, debug_mask, debug_out);
	if (!model) {
		if (system_load_model(cfg, &s->loaded, e))
			goto fail;
		model = &s->loaded;
	}
	s->model = model;
	s->disk = disk_new(&s->sim, model, &drive_ops, s, e);
	if (!s->disk)
		goto fail;
	s->ata = libata_new(&s->sim, &link_ops, s);
	if (!s->ata) {
		err_set(e, "out of memory");
		goto fail;
	}
	libata_probe(s->ata, probe_done, &w);
	while (!w.done && sim_step(&s->sim))
		;
	if (!w.done || w.error) {
		err_set(e, "drive '%s': probe failed: %s", s->model->name,
			w.done ? libata_probe_error(s->ata) : "no answer");
		goto fail;
	}
	s->probe_ns = sim_now(&s->sim);
	s->knobs = cfg->k;
	if (host_config_resolve(cfg, &s->knobs, e))
		goto fail;
	if (libata_configure(s->ata, &s->knobs, e))
		goto fail;
	/* device/cdl_enable as the kernel applies it: SET FEATURES 0Dh to the drive. */
	w.done = 0;
	if (libata_cdl_sync(s->ata, probe_done, &w)) {
		while (!w.done && sim_step(&s->sim))
			;
		if (!w.done || w.error) {
			err_set(e, "drive '%s': enabling CDL failed: %s", s->model->name,
				w.done ? libata_probe_error(s->ata) : "no answer");
			goto fail;
		}
	}
	s->q = blk_queue_new(&s->sim, &s->knobs, e);
	if (!s->q)
		goto fail;
	libata_attach(s->ata, s->q);
	blk_queue_attach(s->q, s->ata);
	return 0;
fail:
	system_destroy(s);
	return -1;
}

void system_destroy(struct system *s)
{
	blk_queue_free(s->q);
	libata_free(s->ata);
	disk_free(s->disk);
	sim_destroy(&s->sim);
	s->q = NULL;
	s->ata = NULL;
	s->disk = NULL;
}
