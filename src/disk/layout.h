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
 *
 * A measured drive (model form = measured) brings its own zone table: the
 * zones' cylinders (gaps between zones allowed), sectors per track, skews
 * and the angle of each zone's first sector, as DiskSim's dm_layout_g1
 * places them (track order: every head of a cylinder, then the next
 * cylinder, the heads descending on odd cylinders for track_order
 * alternate*). Its LBNs skip what holds no data — the zone's front_empty
 * slots, the spares of its sparing scheme and slipped sectors — as
 * DiskSim's layout_g1 maps them (model.h enum disk_sparing):
 *
 *   sparing unit     the sectors that share spares: a track, a cylinder, a
 *                    range of cylinders or the whole zone; the first
 *                    `front` are spares (cylinder_front*), then `data`
 *                    data sectors, then the rest spares
 *   a slip           in a unit: the LBNs after it in the unit move one
 *                    sector on, into the unit's spares; shift: every later
 *                    LBN of the zone moves one data sector on; tracks:
 *                    every later LBN moves one track on
 *
 * In the schemes whose spares sit in every track or cylinder (track_sectors,
 * cylinder*), DiskSim also turns each track's first sector one sector
 * further for every slip before its track (track_sectors) or cylinder, and
 * so does the layout here. A defect is remapped to a spare by the drive;
 * the layout times it where it was (one sector's detour is not modelled).
 * Physical sector numbers (`ps`) count every sector of every zone's
 * tracks, used or not, in track order, so the mechanics see the holes as
 * media passing under the head.
 */
#ifndef NCQSIM_DISK_LAYOUT_H
#define NCQSIM_DISK_LAYOUT_H

#include <stdbool.h>
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
	uint32_t first_offset;	/* sectors from the index to the zone's first sector */
	/* measured layouts: the zone's LBNs and what they skip */
	uint64_t first_lbn, nlbn;
	uint64_t front_empty;
	uint64_t unit;			/* physical sectors of a sparing unit */
	uint64_t data_per_unit;		/* data sectors in a unit, after `unit_front` spares */
	uint64_t unit_front;
	uint64_t full_units;		/* units of `unit` sectors; the sectors after them all data */
	int slip_rule;			/* enum disk_slip_rule */
	bool skew_slips;		/* each slip before a track turns its first sector one on */
	uint32_t slip0, nslips;		/* sorted zone-relative slips in disk_layout.marks */
	uint64_t data_end_ps;		/* the physical sector of the zone's last LBN */
	uint32_t data_tracks;		/* tracks up to it; 0: every track (datasheet) */
	/* serpentine: the skew from one surface's start to the next's, (cyls - 1) * cyl_skew + head_skew */
	uint64_t surface_skew;
	uint32_t number;	/* its index in disk_layout.zone (kept: a pointer difference divides) */
	/*
	 * spt / 2: disk_layout_sectors_ns()'s rounding, found once. Last, in
	 * what was padding: the struct stays 144 bytes, indexed in one multiply.
	 */
	uint32_t spt_half;
};

/* What a slip does in a measured zone (see the header comment). */
enum disk_slip_rule {
	DISK_SLIPS_NONE,	/* no slips */
	DISK_SLIPS_IN_UNIT,	/* into the spares of its unit */
	DISK_SLIPS_SHIFT,	/* the rest of the zone, one data sector on */
	DISK_SLIPS_TRACKS,	/* slips are whole tracks */
};

/* Where a physical sector is. */
struct disk_chs {
	uint32_t zone, cyl, head, sector;
	int64_t angle;		/* ns after the index mark at which it starts */
};

#define DISK_LAYOUT_ZONE_INDEX	4096

struct disk_layout {
	int order;		/* enum disk_layout_order */
	unsigned heads, nzones;
	unsigned lpp;		/* logical sectors per physical sector */
	unsigned lpp_shift;	/* lpp = 1 << lpp_shift (sector sizes are 512 or 4096) */
	unsigned logical_size;
	uint64_t logical_sectors, physical_sectors;
	uint32_t cylinders;
	int64_t rev_ns;		/* one revolution */
	bool mapped;		/* measured: LBNs go through disk_layout_map() */
	bool plain;		/* not mapped, serpentine: disk_layout_place()'s one test */
	/*
	 * The zones, then a sentinel whose first_ps (UINT64_MAX) no sector
	 * reaches: disk_layout_zone_of() steps on without counting the zones.
	 */
	struct disk_zone zone[DISK_MAX_ZONES + 1];
	uint32_t marks[DISK_MAX_MARKS];		/* slips: zone-relative sectors (tracks) */
	uint32_t slip_index[DISK_MAX_MARKS];	/* DISK_SLIPS_SHIFT: the data sectors before each */
	/*
	 * The zone of physical sector i << zone_shift, for disk_layout_zone_of():
	 * a load and, where a zone boundary falls inside that stretch, a step
	 * or two on, instead of a binary search over the zones.
	 */
	unsigned zone_shift;
	uint16_t zone_at[DISK_LAYOUT_ZONE_INDEX];	/* as zone[z]'s byte offset: no multiply */
};

int disk_layout_build(struct disk_layout *l, const struct disk_model *m, struct err *e);

/*
 * A measured zone's sparing units under `sparing` (enum disk_sparing):
 * fills unit, unit_front, data_per_unit, full_units and slip_rule of *z
 * from its cylinders (z->cyls), z->spt, the zone's spares and the heads.
 */
void disk_layout_units(struct disk_zone *z, int sparing, uint32_t sparing_range, unsigned heads,
		       uint32_t spares);
/*
 * The LBNs a measured zone holds (DiskSim's blocks in the band): its data
 * sectors, less its slips when they shift, less front_empty; 0 when those
 * take it all.
 */
uint64_t disk_layout_zone_lbns(const struct disk_zone_spec *s, int sparing, uint32_t sparing_range,
			       unsigned heads);

/* The zone of stretch i's first sector (disk_layout.zone_at). */
static inline const struct disk_zone *disk_layout_zone_at(const struct disk_layout *l, uint64_t i)
{
	return (const struct disk_zone *)(const void *)((const char *)l->zone + l->zone_at[i]);
}

/* The zone holding physical sector ps: the last one starting at or before it. */
static inline const struct disk_zone *disk_layout_zone_of(const struct disk_layout *l, uint64_t ps)
{
	uint64_t i = ps >> l->zone_shift;
	const struct disk_zone *z = disk_layout_zone_at(l, i < DISK_LAYOUT_ZONE_INDEX ? i :
							DISK_LAYOUT_ZONE_INDEX - 1);

	while (z[1].first_ps <= ps)	/* the sentinel ends it after the last zone */
		z++;
	return z;
}

/*
 * The same for ps <= l->physical_sectors, without bounding the index:
 * index_zones() (layout.c) takes the least zone_shift that brings
 * physical_sectors >> zone_shift below DISK_LAYOUT_ZONE_INDEX, so
 * ps >> zone_shift is below it too.
 */
static inline const struct disk_zone *disk_layout_zone_of_held(const struct disk_layout *l,
								uint64_t ps)
{
	const struct disk_zone *z = disk_layout_zone_at(l, ps >> l->zone_shift);

	while (z[1].first_ps <= ps)
		z++;
	return z;
}

/*
 * Sector rel of zone z as its track (counted from the zone's first) and
 * its sector on that track. A 32-bit division is several times cheaper,
 * and zones rarely hold 2^32 sectors.
 */
static inline uint64_t disk_zone_track_of(const struct disk_zone *z, uint64_t rel,
					  uint32_t *sector)
{
	if (rel >> 32) {
		*sector = (uint32_t)(rel % z->spt);
		return rel / z->spt;
	}
	*sector = (uint32_t)rel % z->spt;
	return (uint32_t)rel / z->spt;
}

/* disk_layout_locate() for the track orders other than serpentine. */
void disk_layout_locate_tracks(const struct disk_layout *l, uint64_t ps, struct disk_chs *c);

/*
 * disk_layout_find() in the serpentine order; with `held`, ps <=
 * l->physical_sectors (disk_layout_zone_of_held()).
 */
static inline __attribute__((always_inline)) const struct disk_zone *
disk_layout_serpentine(const struct disk_layout *l, uint64_t ps, struct disk_chs *c, bool held)
{
	const struct disk_zone *z;
	uint64_t rel, track, t, off, pos;

	z = held ? disk_layout_zone_of_held(l, ps) : disk_layout_zone_of(l, ps);
	rel = ps - z->first_ps;
	c->zone = z->number;
	track = disk_zone_track_of(z, rel, &c->sector);
	/*
	 * Track t of surface `head` (counted along its direction): the
	 * track's skew offset (disk_layout_track_offset()) without turning the
	 * direction back and forth.
	 */
	t = track % z->cyls;
	c->head = (uint32_t)(track / z->cyls);
	c->cyl = z->first_cyl + (uint32_t)(c->head % 2 ? z->cyls - 1 - t : t);
	off = (uint64_t)c->head * z->surface_skew + t * z->cyl_skew + z->first_offset;
	pos = (c->sector + off) % z->spt;
	c->angle = (int64_t)(pos * (uint64_t)l->rev_ns / z->spt);
	return z;
}

/* disk_layout_find() and disk_layout_find_held(). */
static inline __attribute__((always_inline)) const struct disk_zone *
disk_layout_find_in(const struct disk_layout *l, uint64_t ps, struct disk_chs *c, bool held)
{
	if (l->order != DISK_LAYOUT_SERPENTINE) {
		disk_layout_locate_tracks(l, ps, c);
		return &l->zone[c->zone];
	}
	return disk_layout_serpentine(l, ps, c, held);
}

/*
 * Where physical sector ps is, and its zone. Inline for the serpentine
 * order (every datasheet drive's default), which every command runs once.
 */
static inline const struct disk_zone *disk_layout_find(const struct disk_layout *l, uint64_t ps,
						       struct disk_chs *c)
{
	return disk_layout_find_in(l, ps, c, false);
}

/* The same for a sector the drive holds (ps < l->physical_sectors), as a command's first. */
static inline const struct disk_zone *disk_layout_find_held(const struct disk_layout *l,
							     uint64_t ps, struct disk_chs *c)
{
	return disk_layout_find_in(l, ps, c, true);
}

/* Where physical sector ps is. */
static inline void disk_layout_locate(const struct disk_layout *l, uint64_t ps, struct disk_chs *c)
{
	(void)disk_layout_find(l, ps, c);
}

/* Skew offset (in sectors) of a track within its zone. */
uint32_t disk_layout_track_offset(const struct disk_layout *l, const struct disk_zone *z,
				  uint32_t cyl, uint32_t head);

/*
 * Whether a measured track order takes cylinder `cyl` of zone z from its
 * last head down.
 */
static inline bool disk_layout_reversed(const struct disk_layout *l, const struct disk_zone *z,
					uint32_t cyl)
{
	return (l->order == DISK_LAYOUT_ALTERNATE_ZONE && ((cyl - z->first_cyl) & 1)) ||
		(l->order == DISK_LAYOUT_ALTERNATE && (cyl & 1));
}

/* Where a track comes in its cylinder's track order (the head, but for descending cylinders). */
static inline uint32_t disk_layout_track_slot(const struct disk_layout *l, const struct disk_zone *z,
					      uint32_t cyl, uint32_t head)
{
	return disk_layout_reversed(l, z, cyl) ? l->heads - 1 - head : head;
}

/* Time to pass n sectors of zone z under the head. */
static inline int64_t disk_layout_sectors_ns(const struct disk_layout *l,
					     const struct disk_zone *z, uint64_t n)
{
	return (int64_t)((n * (uint64_t)l->rev_ns + z->spt_half) / z->spt);
}

/* A measured layout's physical sector holding LBN lbn (< logical_sectors). */
uint64_t disk_layout_map(const struct disk_layout *l, uint64_t lbn);

/* disk_layout_physical() of a layout not mapped: logical sectors by the shift. */
static inline void disk_layout_physical_unmapped(const struct disk_layout *l, uint64_t lba,
						 uint64_t n, uint64_t *first, uint64_t *count)
{
	*first = lba >> l->lpp_shift;
	*count = ((lba + n + l->lpp - 1) >> l->lpp_shift) - *first;
}

/* Physical sectors [first, first + count) covering logical [lba, lba + n). */
static inline void disk_layout_physical(const struct disk_layout *l, uint64_t lba, uint64_t n,
					uint64_t *first, uint64_t *count)
{
	if (l->mapped && n) {
		/*
		 * lpp is 1: the holes inside the range pass under the head too,
		 * but not the spares after a zone's last LBN — an access goes from
		 * there to the next zone's first track (disk_mech_access_at).
		 */
		uint64_t last = disk_layout_map(l, lba + n - 1);
		const struct disk_zone *fz;

		*first = disk_layout_map(l, lba);
		fz = disk_layout_zone_of(l, *first);
		if (last <= fz->data_end_ps)
			*count = last + 1 - *first;
		else
			*count = fz->data_end_ps + 1 - *first +
				(last + 1 - disk_layout_zone_of(l, last)->first_ps);
		return;
	}
	disk_layout_physical_unmapped(l, lba, n, first, count);
}

/*
 * Where a command's sectors [lba, lba + n) lie (within logical_sectors):
 * disk_layout_physical() then disk_layout_find_held() of the first. A
 * plain layout (every datasheet drive's default) takes one test for
 * the two theirs make, and the rest as they do.
 */
static inline __attribute__((always_inline)) const struct disk_zone *
disk_layout_place(const struct disk_layout *l, uint64_t lba, uint64_t n, uint64_t *first,
		  uint64_t *count, struct disk_chs *c)
{
	if (!l->plain) {
		disk_layout_physical(l, lba, n, first, count);
		return disk_layout_find_held(l, *first, c);
	}
	disk_layout_physical_unmapped(l, lba, n, first, count);
	/* *first < physical_sectors, as lba < logical_sectors. */
	return disk_layout_serpentine(l, *first, c, true);
}

#endif
