/*
 * layout — where each sector lives: LBA → (zone, cylinder, head, sector)
 * and its angle on the track (DiskSim's "layout" half of diskmodel).
 *
 * Zoned recording: `zones` zones of equal cylinder count, sectors per track
 * falling linearly from the outer zone to the inner one, chosen so that a
 * sequential read sustains the model's rate at OD and at ID with the head
 * and cylinder switches included (the sustained-rate definition of hdd.md).
 * The last zone used may be partial: capacity is what the model says.
 *
 * Track order within a zone:
 *   cylinder    every head of a cylinder, then the next cylinder
 *   serpentine  surface 0 from the zone's outer to inner cylinder, surface 1
 *               back outwards, and so on (direction alternates per surface)
 *
 * Skew: each track's first sector is placed `skew` sectors after where the
 * previous track ended — enough sectors to cover the head switch (or the
 * single-track seek of a cylinder switch) — so a sequential transfer
 * crosses tracks without losing a revolution.
 *
 * Logical sectors map onto physical sectors of physical_sector_size (512e:
 * eight 512-byte logical sectors in one 4096-byte physical sector).
 */
#ifndef NCQSIM_DISK_LAYOUT_H
#define NCQSIM_DISK_LAYOUT_H

#include <stdint.h>

#include "disk/model.h"
#include "util/err.h"

struct disk_zone {
	uint64_t first_ps;	/* first physical sector */
	uint64_t nsect;		/* physical sectors in the zone */
	uint32_t spt;		/* physical sectors per track */
	uint32_t first_cyl, cyls;
	uint32_t head_skew;	/* sectors skipped across a head switch */
	uint32_t cyl_skew;	/* ... across a cylinder switch */
};

/* Where a physical sector is. */
struct disk_chs {
	uint32_t zone, cyl, head, sector;
	int64_t angle;		/* ns after the index mark at which it starts */
};

struct disk_layout {
	int order;		/* enum disk_layout_order */
	unsigned heads, nzones;
	unsigned lpp;		/* logical sectors per physical sector */
	unsigned logical_size;
	uint64_t logical_sectors, physical_sectors;
	uint32_t cylinders;
	int64_t rev_ns;		/* one revolution */
	struct disk_zone zone[DISK_MAX_ZONES];
};

int disk_layout_build(struct disk_layout *l, const struct disk_model *m, struct err *e);

/* The zone holding physical sector ps (binary search). */
unsigned disk_layout_zone(const struct disk_layout *l, uint64_t ps);
void disk_layout_locate(const struct disk_layout *l, uint64_t ps, struct disk_chs *c);

/* Skew offset (in sectors) of a track within its zone. */
uint32_t disk_layout_track_offset(const struct disk_layout *l, const struct disk_zone *z,
				  uint32_t cyl, uint32_t head);

/* Time to pass n sectors of zone z under the head. */
static inline int64_t disk_layout_sectors_ns(const struct disk_layout *l,
					     const struct disk_zone *z, uint64_t n)
{
	return (int64_t)((n * (uint64_t)l->rev_ns + z->spt / 2) / z->spt);
}

/* Physical sectors [first, first + count) covering logical [lba, lba + n). */
static inline void disk_layout_physical(const struct disk_layout *l, uint64_t lba, uint64_t n,
					uint64_t *first, uint64_t *count)
{
	*first = lba / l->lpp;
	*count = (lba + n + l->lpp - 1) / l->lpp - *first;
}

#endif
