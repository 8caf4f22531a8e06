#include "disk/layout.h"

#include <math.h>
#include <string.h>

static uint32_t skew_sectors(int64_t switch_ns, int64_t rev_ns, uint32_t spt)
{
	/* ceil(switch / sector time): the next track's first sector must not
	 * have passed when the switch is done. */
	uint64_t s = ((uint64_t)switch_ns * spt + (uint64_t)rev_ns - 1) / (uint64_t)rev_ns;

	return s >= spt ? spt - 1 : (uint32_t)s;
}

/*
 * Sectors per track for a sustained rate (bytes/s): per cylinder (cylinder
 * order) or per surface pass (serpentine), the media time is one
 * revolution per track plus the switches between tracks.
 */
static uint32_t spt_for_rate(double rate_bps, const struct disk_model *m, int64_t rev_ns)
{
	double switch_ns;

	if (m->layout == DISK_LAYOUT_CYLINDER)
		switch_ns = ((double)(m->heads - 1) * (double)m->head_switch +
			     (double)m->seek_track_read) / m->heads;
	else
		switch_ns = (double)m->seek_track_read;
	return (uint32_t)llround(rate_bps * ((double)rev_ns + switch_ns) * 1e-9 /
				 m->physical_sector_size);
}

int disk_layout_build(struct disk_layout *l, const struct disk_model *m, struct err *e)
{
	uint64_t spt_sum = 0, placed = 0, cpz;
	uint32_t cyl = 0;
	unsigned z;

	memset(l, 0, sizeof(*l));
	l->order = m->layout;
	l->heads = m->heads;
	l->lpp = m->physical_sector_size / m->logical_sector_size;
	l->logical_size = m->logical_sector_size;
	l->logical_sectors = (uint64_t)m->sectors;
	l->physical_sectors = ((uint64_t)m->sectors + l->lpp - 1) / l->lpp;
	l->rev_ns = (int64_t)llround(60e9 / m->rpm);

	for (z = 0; z < m->zones; z++) {
		double frac = m->zones > 1 ? (double)z / (m->zones - 1) : 0.0;
		double rate = (m->rate_od_mbs + (m->rate_id_mbs - m->rate_od_mbs) * frac) * 1e6;
		uint32_t spt = spt_for_rate(rate, m, l->rev_ns);

		if (spt < 8)
			return err_set(e, "drive '%s': %g MB/s at %u rpm gives only %u sectors a track",
				       m->name, rate / 1e6, m->rpm, spt);
		l->zone[z].spt = spt;
		spt_sum += spt;
	}
	/* Equal cylinders per zone, enough for the capacity. */
	cpz = (l->physical_sectors + spt_sum * m->heads - 1) / (spt_sum * m->heads);
	for (z = 0; z < m->zones && placed < l->physical_sectors; z++) {
		struct disk_zone *zn = &l->zone[z];
		uint64_t per_cyl = (uint64_t)zn->spt * m->heads;
		uint64_t want = l->physical_sectors - placed;
		uint64_t cyls = cpz;

		if (want < cyls * per_cyl)
			cyls = (want + per_cyl - 1) / per_cyl;
		zn->first_ps = placed;
		zn->first_cyl = cyl;
		zn->cyls = (uint32_t)cyls;
		zn->nsect = cyls * per_cyl;
		if (zn->nsect > want)
			zn->nsect = want;
		zn->head_skew = skew_sectors(m->head_switch, l->rev_ns, zn->spt);
		zn->cyl_skew = skew_sectors(m->seek_track_read, l->rev_ns, zn->spt);
		placed += zn->nsect;
		cyl += zn->cyls;
	}
	l->nzones = z;
	l->cylinders = cyl;
	if (l->cylinders < 2)
		return err_set(e, "drive '%s': geometry gives fewer than 2 cylinders", m->name);
	return 0;
}

unsigned disk_layout_zone(const struct disk_layout *l, uint64_t ps)
{
	unsigned base = 0, len = l->nzones;

	/* The last zone starting at or before ps; a select, not a branch, at each step. */
	while (len > 1) {
		unsigned half = len / 2;

		base = l->zone[base + half].first_ps <= ps ? base + half : base;
		len -= half;
	}
	return base;
}

uint32_t disk_layout_track_offset(const struct disk_layout *l, const struct disk_zone *z,
				  uint32_t cyl, uint32_t head)
{
	uint64_t rel_cyl = cyl - z->first_cyl, off;

	if (l->order == DISK_LAYOUT_CYLINDER) {
		off = rel_cyl * ((uint64_t)(l->heads - 1) * z->head_skew + z->cyl_skew) +
			(uint64_t)head * z->head_skew;
	} else {
		/* Surface `head` runs forwards when even, backwards when odd. */
		uint64_t t = head % 2 ? z->cyls - 1 - rel_cyl : rel_cyl;

		off = (uint64_t)head * ((uint64_t)(z->cyls - 1) * z->cyl_skew + z->head_skew) +
			t * z->cyl_skew;
	}
	return (uint32_t)(off >> 32 ? off % z->spt : (uint32_t)off % z->spt);
}

void disk_layout_locate(const struct disk_layout *l, uint64_t ps, struct disk_chs *c)
{
	unsigned zi = disk_layout_zone(l, ps);
	const struct disk_zone *z = &l->zone[zi];
	uint64_t rel = ps - z->first_ps, track, pos;

	c->zone = zi;
	/* A 32-bit division is several times cheaper, and zones rarely hold 2^32 sectors. */
	if (rel >> 32) {
		c->sector = (uint32_t)(rel % z->spt);
		track = rel / z->spt;
	} else {
		c->sector = (uint32_t)rel % z->spt;
		track = (uint32_t)rel / z->spt;
	}
	if (l->order == DISK_LAYOUT_CYLINDER) {
		c->cyl = z->first_cyl + (uint32_t)(track / l->heads);
		c->head = (uint32_t)(track % l->heads);
	} else {
		uint64_t t = track % z->cyls;

		c->head = (uint32_t)(track / z->cyls);
		c->cyl = z->first_cyl + (uint32_t)(c->head % 2 ? z->cyls - 1 - t : t);
	}
	pos = (c->sector + disk_layout_track_offset(l, z, c->cyl, c->head)) % z->spt;
	c->angle = (int64_t)(pos * (uint64_t)l->rev_ns / z->spt);
}
