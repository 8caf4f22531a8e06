/*
 * system — the composition root: builds one simulated machine (event
 * engine, drive, libata, block layer) from a host configuration, wires the
 * host's link to the drive and the drive's answers back to libata — the two
 * share nothing but ATA frames — probes the drive and applies the knobs.
 */
#ifndef NCQSIM_SYSTEM_H
#define NCQSIM_SYSTEM_H

#include <stdint.h>
#include <stdio.h>

#include "disk/disk.h"
#include "disk/model.h"
#include "host/blk.h"
#include "host/knobs.h"
#include "host/libata.h"
#include "sim/sim.h"
#include "util/err.h"

struct system {
	struct sim sim;
	struct disk_model loaded;	/* the model, when system_init() loads it */
	const struct disk_model *model;	/* the caller's, or &loaded */
	struct disk *disk;
	struct libata *ata;
	struct blk_queue *q;
	struct host_knobs knobs;	/* as the kernel would read them back */
	int64_t probe_ns;		/* time the probe took */
	/* Optional observer of every H2D FIS the host sends (tests). */
	void (*fis_observer)(void *ctx, const uint8_t *fis, size_t len);
	void *fis_ctx;
};

/* The drive cfg names, with its drive.KEY overrides applied. */
int system_load_model(const struct host_config *cfg, struct disk_model *m, struct err *e);

/*
 * Build and probe. `model` may be NULL, then cfg->drive is loaded; else
 * the system reads it in place (not copied), so it must outlive the
 * system. Errors
 * (a drive that cannot load, a knob the drive refuses) leave a message in e.
 */
int system_init(struct system *s, const struct host_config *cfg,
		const struct disk_model *model, unsigned debug_mask, FILE *debug_out,
		struct err *e);
void system_destroy(struct system *s);

#endif
