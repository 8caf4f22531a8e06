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

/*
 * A measured zone table (model.h's disk_zone_spec rows): zones where the
 * table puts them, LBNs counted per the sparing scheme, the last zone
 * holding LBNs cut at the model's capacity.
 */
static int build_measured(struct disk_layout *l, const struct disk_model *m, struct err *e)
{
	const struct disk_measured *g = &m->geo;
	uint64_t ps = 0, lbn = 0;
	unsigned i;

	l->mapped = true;
	l->slips_per_track = m->sparing == DISK_SPARE_TRACK_SECTORS;
	l->cylinders = m->cylinders;
	memcpy(l->marks, g->marks, g->nmarks * sizeof(g->marks[0]));
	for (i = 0; i < g->nzones && lbn < l->logical_sectors; i++) {
		const struct disk_zone_spec *s = &g->zone[i];
		struct disk_zone *z = &l->zone[i];
		uint64_t cyls = s->last_cyl - s->first_cyl + 1, data;

		z->first_ps = ps;
		z->spt = s->spt;
		z->first_cyl = s->first_cyl;
		z->cyls = (uint32_t)cyls;
		z->nsect = cyls * m->heads * s->spt;
		z->head_skew = s->track_skew;
		z->cyl_skew = s->cyl_skew;
		z->first_offset = s->first_offset;
		z->front_empty = s->front_empty;
		z->slip0 = s->slip0;
		z->nslips = s->nslips;
		z->unit = s->spt;
		z->data_per_unit = s->spt;
		data = z->nsect;
		switch (m->sparing) {
		case DISK_SPARE_TRACKS:
			data -= (uint64_t)s->spares * s->spt;
			break;
		case DISK_SPARE_TRACK_SECTORS:
			z->data_per_unit = s->spt - s->spares;
			data = cyls * m->heads * z->data_per_unit;
			break;
		case DISK_SPARE_RANGE: {
			uint64_t unit = (uint64_t)m->sparing_range * m->heads * s->spt;

			if (unit > UINT32_MAX || s->spares >= unit)
				return err_set(e, "drive '%s': zone at cylinder %u: %u spares per range of "
					       "%u cylinders leave no data", m->name, s->first_cyl,
					       s->spares, m->sparing_range);
			z->unit = (uint32_t)unit;
			z->data_per_unit = (uint32_t)(unit - s->spares);
			data -= cyls / m->sparing_range * s->spares;
			break;
		}
		case DISK_SPARE_ZONE:
			data = data > s->spares ? data - s->spares : 0;
			break;
		default:
			break;
		}
		if (data <= s->front_empty)
			return err_set(e, "drive '%s': zone at cylinder %u holds no LBN (its spares and "
				       "front_empty take all %llu sectors)", m->name, s->first_cyl,
				       (unsigned long long)z->nsect);
		data -= s->front_empty;
		z->first_lbn = lbn;
		z->nlbn = data < l->logical_sectors - lbn ? data : l->logical_sectors - lbn;
		lbn += z->nlbn;
		ps += z->nsect;
		l->nzones = i + 1;
		z->data_end_ps = disk_layout_map(l, lbn - 1);
		z->data_tracks = (uint32_t)((z->data_end_ps - z->first_ps) / z->spt + 1);
	}
	l->nzones = i;
	l->physical_sectors = ps;
	if (lbn < l->logical_sectors)
		return err_set(e, "drive '%s': the zone table holds %llu LBNs, fewer than sectors = "
			       "%llu", m->name, (unsigned long long)lbn,
			       (unsigned long long)l->logical_sectors);
	return 0;
}

uint64_t disk_layout_map(const struct disk_layout *l, uint64_t lbn)
{
	unsigned base = 0, len = l->nzones, i;
	const struct disk_zone *z;
	uint64_t r, p;

	while (len > 1) {
		unsigned half = len / 2;

		base = l->zone[base + half].first_lbn <= lbn ? base + half : base;
		len -= half;
	}
	z = &l->zone[base];
	r = lbn - z->first_lbn + z->front_empty;
	p = r / z->data_per_unit * z->unit + r % z->data_per_unit;
	/* Slips in order: each at or before the sector so far pushes it one on. */
	for (i = 0; i < z->nslips; i++) {
		uint32_t s = l->marks[z->slip0 + i];

		if (s > p)
			break;
		if (!l->slips_per_track || s / z->spt == p / z->spt)
			p++;
	}
	if (p >= z->nsect)	/* slips past the zone's last track: stay in the zone */
		p = z->nsect - 1;
	return z->first_ps + p;
}

_Static_assert(DISK_MAX_ZONES <= 256, "disk_layout.zone_at holds zone numbers in a byte");

/* disk_layout.zone_at: the zone of each stretch's first sector. */
static void index_zones(struct disk_layout *l)
{
	unsigned i, z = 0;

	l->zone_shift = 0;
	while ((l->physical_sectors >> l->zone_shift) >= DISK_LAYOUT_ZONE_INDEX)
		l->zone_shift++;
	for (i = 0; i < DISK_LAYOUT_ZONE_INDEX; i++) {
		uint64_t ps = (uint64_t)i << l->zone_shift;

		while (z + 1 < l->nzones && l->zone[z + 1].first_ps <= ps)
			z++;
		l->zone_at[i] = (uint8_t)z;
	}
}

static int build_datasheet(struct disk_layout *l, const struct disk_model *m, struct err *e);

int disk_layout_build(struct disk_layout *l, const struct disk_model *m, struct err *e)
{
	int rc;

	memset(l, 0, sizeof(*l));
	l->order = m->layout;
	l->heads = m->heads;
	l->lpp = m->physical_sector_size / m->logical_sector_size;
	l->logical_size = m->logical_sector_size;
	l->logical_sectors = (uint64_t)m->sectors;
	l->physical_sectors = ((uint64_t)m->sectors + l->lpp - 1) / l->lpp;
	l->rev_ns = (int64_t)llround(60e9 / m->rpm);
	rc = m->form == DISK_FORM_MEASURED ? build_measured(l, m, e) : build_datasheet(l, m, e);
	if (!rc)
		index_zones(l);
	return rc;
}

static int build_datasheet(struct disk_layout *l, const struct disk_model *m, struct err *e)
{
	uint64_t spt_sum = 0, placed = 0, cpz;
	uint32_t cyl = 0;
	unsigned z;

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

static inline uint32_t track_offset(const struct disk_layout *l, const struct disk_zone *z,
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
	off += z->first_offset;
	return (uint32_t)(off >> 32 ? off % z->spt : (uint32_t)off % z->spt);
}

uint32_t disk_layout_track_offset(const struct disk_layout *l, const struct disk_zone *z,
				  uint32_t cyl, uint32_t head)
{
	return track_offset(l, z, cyl, head);
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
	pos = (c->sector + track_offset(l, z, c->cyl, c->head)) % z->spt;
	c->angle = (int64_t)(pos * (uint64_t)l->rev_ns / z->spt);
}
