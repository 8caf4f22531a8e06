/*
 * drivelab — drives a simulated disk directly through its ATA interface
 * (no host stack): a closed loop of `qd` outstanding READ/WRITE FPDMA
 * QUEUED commands, for the drive's tests and bench/drive.
 */
#ifndef NCQSIM_DRIVELAB_H
#define NCQSIM_DRIVELAB_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/disk.h"
#include "sim/rng.h"
#include "sim/sim.h"
#include "stats/hist.h"

struct drivelab {
	struct sim sim;
	struct disk *disk;
	struct rng rng;
	unsigned qd;
	uint32_t nlb;			/* sectors per command */
	uint64_t span;			/* random LBAs in [0, span) */
	bool sequential, write, ncq;
	uint64_t next_lba;
	unsigned high_every;		/* every Nth command is PRIO high (0: none) */
	unsigned write_every;		/* every Nth command is a write, the rest reads (0: `write`) */
	unsigned fua_every;		/* every Nth write is FUA (0: none) */
	bool no_drain;			/* drivelab_run() returns with destages still to go */
	uint64_t issued, completed, target, writes;
	int64_t issue_time[32];
	bool tag_high[32];
	uint32_t free_tags;
	struct hist lat, lat_high;
	bool identify_done;
	uint8_t identify[512];
};

/* Set up on a built-in drive or model file; returns -1 with a message on stderr. */
int drivelab_init(struct drivelab *lab, const char *drive, uint64_t seed);
/* The same with a model in hand (tests change its firmware policy). */
int drivelab_init_model(struct drivelab *lab, const struct disk_model *m, uint64_t seed);
void drivelab_destroy(struct drivelab *lab);
/* Run until `ios` commands completed. Returns simulated seconds. */
double drivelab_run(struct drivelab *lab, uint64_t ios);
/* Send one H2D FIS and run until its answer arrives (non-queued commands). */
void drivelab_command(struct drivelab *lab, const uint8_t fis[20]);
extern uint8_t drivelab_last_d2h[20];
extern uint8_t drivelab_last_data[8192];
extern size_t drivelab_last_data_len;

#endif
