#include "disk/layout.h"

#include <math.h>
#include <stddef.h>
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

void disk_layout_units(struct disk_zone *z, int sparing, uint32_t sparing_range, unsigned heads,
		       uint32_t spares)
{
	uint64_t track = z->spt, cyl = track * heads, all = cyl * z->cyls, spare = spares;

	z->unit = all;
	z->unit_front = 0;
	z->full_units = 1;
	z->slip_rule = DISK_SLIPS_IN_UNIT;
	switch (sparing) {
	case DISK_SPARE_NONE:
		z->slip_rule = DISK_SLIPS_NONE;
		spare = 0;
		break;
	case DISK_SPARE_TRACKS:
		/* The zone's last `spares` tracks; slips and remaps are whole tracks. */
		z->slip_rule = DISK_SLIPS_TRACKS;
		spare = spare * track < all ? spare * track : all;
		break;
	case DISK_SPARE_TRACK_SECTORS:
		z->unit = track;
		z->full_units = all / track;
		break;
	case DISK_SPARE_CYLINDER:
	case DISK_SPARE_CYLINDER_SHIFT:
	case DISK_SPARE_CYLINDER_FRONT:
	case DISK_SPARE_CYLINDER_FRONT_SHIFT:
		z->unit = cyl;
		z->full_units = z->cyls;
		if (sparing == DISK_SPARE_CYLINDER_FRONT || sparing == DISK_SPARE_CYLINDER_FRONT_SHIFT)
			z->unit_front = spare < cyl ? spare : cyl;
		if (sparing == DISK_SPARE_CYLINDER_SHIFT || sparing == DISK_SPARE_CYLINDER_FRONT_SHIFT)
			z->slip_rule = DISK_SLIPS_SHIFT;
		break;
	case DISK_SPARE_RANGE:
		/* A last range shorter than sparing_range has no spares (DiskSim counts none). */
		z->unit = cyl * (sparing_range ? sparing_range : 1);
		z->full_units = all / z->unit;
		break;
	case DISK_SPARE_DISK_END:
		z->slip_rule = DISK_SLIPS_SHIFT;
		spare = 0;
		break;
	case DISK_SPARE_ZONE_SHIFT:
		z->slip_rule = DISK_SLIPS_SHIFT;
		break;
	default:	/* DISK_SPARE_ZONE */
		break;
	}
	z->data_per_unit = spare < z->unit ? z->unit - spare : 0;
}

uint64_t disk_layout_zone_lbns(const struct disk_zone_spec *s, int sparing, uint32_t sparing_range,
			       unsigned heads)
{
	struct disk_zone z = { .spt = s->spt, .cyls = s->last_cyl - s->first_cyl + 1 };
	uint64_t all = (uint64_t)z.cyls * heads * s->spt, data, lose;

	disk_layout_units(&z, sparing, sparing_range, heads, s->spares);
	data = z.full_units * z.data_per_unit + (all - z.full_units * z.unit);
	lose = s->front_empty + (z.slip_rule == DISK_SLIPS_SHIFT ? s->nslips : 0);
	return data > lose ? data - lose : 0;
}

/* The zone-relative sector of data sector `j` of a zone whose slips shift (or that has none). */
static uint64_t data_sector(const struct disk_zone *z, uint64_t j)
{
	uint64_t u = j / z->data_per_unit;

	if (u >= z->full_units)
		return z->full_units * z->unit + (j - z->full_units * z->data_per_unit);
	return u * z->unit + z->unit_front + j % z->data_per_unit;
}

/* The data sectors before zone-relative sector q: where a slip there sits among them. */
static uint64_t data_before(const struct disk_zone *z, uint64_t q)
{
	uint64_t u = q / z->unit, r = q % z->unit;

	if (u >= z->full_units)
		return z->full_units * z->data_per_unit + (q - z->full_units * z->unit);
	r = r < z->unit_front ? 0 : r - z->unit_front;
	return u * z->data_per_unit + (r < z->data_per_unit ? r : z->data_per_unit);
}

/*
 * A measured zone table (model.h's disk_zone_spec rows): zones where the
 * table puts them, LBNs counted per the sparing scheme, the last zone
 * holding LBNs cut at the model's capacity.
 */
static int build_measured(struct disk_layout *l, const struct disk_model *m, struct err *e)
{
	static const int orders[] = {
		[DISK_TRACKS_CYLINDER] = DISK_LAYOUT_CYLINDER,
		[DISK_TRACKS_ALTERNATE_ZONE] = DISK_LAYOUT_ALTERNATE_ZONE,
		[DISK_TRACKS_ALTERNATE] = DISK_LAYOUT_ALTERNATE,
	};
	const struct disk_measured *g = &m->geo;
	uint64_t ps = 0, lbn = 0;
	unsigned i, k;

	l->mapped = true;
	l->order = m->track_order >= 0 && m->track_order <= DISK_TRACKS_ALTERNATE ?
		orders[m->track_order] : DISK_LAYOUT_CYLINDER;
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
		disk_layout_units(z, m->sparing, m->sparing_range, m->heads, s->spares);
		/* DiskSim's g1_map_pbn_skew: slips turn the later tracks in these schemes. */
		z->skew_slips = s->nslips && (m->sparing == DISK_SPARE_TRACK_SECTORS ||
					      m->sparing == DISK_SPARE_CYLINDER ||
					      m->sparing == DISK_SPARE_CYLINDER_SHIFT ||
					      m->sparing == DISK_SPARE_CYLINDER_FRONT ||
					      m->sparing == DISK_SPARE_CYLINDER_FRONT_SHIFT);
		if (z->slip_rule == DISK_SLIPS_SHIFT)
			for (k = 0; k < s->nslips; k++)
				l->slip_index[s->slip0 + k] = (uint32_t)data_before(z, g->marks[s->slip0 + k]);
		data = disk_layout_zone_lbns(s, m->sparing, m->sparing_range, m->heads);
		if (!data)
			return err_set(e, "drive '%s': zone at cylinder %u holds no LBN (its spares, "
				       "slips and front_empty take all %llu sectors)", m->name,
				       s->first_cyl, (unsigned long long)z->nsect);
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
	unsigned base = 0, len = l->nzones, i, end;
	const struct disk_zone *z;
	const uint32_t *slips;
	uint64_t r, q;

	while (len > 1) {
		unsigned half = len / 2;

		base = l->zone[base + half].first_lbn <= lbn ? base + half : base;
		len -= half;
	}
	z = &l->zone[base];
	r = lbn - z->first_lbn + z->front_empty;
	slips = &l->marks[z->slip0];
	/* Slips in order: each at or before the place so far moves it one on. */
	switch (z->slip_rule) {
	case DISK_SLIPS_TRACKS: {
		uint64_t t = r / z->spt;

		for (i = 0; i < z->nslips && slips[i] <= t; i++)
			t++;
		q = t * z->spt + r % z->spt;
		break;
	}
	case DISK_SLIPS_SHIFT: {
		const uint32_t *k = &l->slip_index[z->slip0];

		for (i = 0; i < z->nslips && k[i] <= r; i++)
			r++;
		q = data_sector(z, r);
		break;
	}
	case DISK_SLIPS_IN_UNIT: {
		uint64_t u = r / z->data_per_unit, from;

		if (u >= z->full_units) {
			q = z->full_units * z->unit + (r - z->full_units * z->data_per_unit);
			break;
		}
		q = u * z->unit + z->unit_front + r % z->data_per_unit;
		/* The unit's own slips only: the first at or after its start. */
		from = u * z->unit;
		i = 0;
		end = z->nslips;
		while (i < end) {
			unsigned mid = (i + end) / 2;

			if (slips[mid] < from)
				i = mid + 1;
			else
				end = mid;
		}
		for (; i < z->nslips && slips[i] <= q; i++)
			q++;
		break;
	}
	default:
		q = r;
		break;
	}
	if (q >= z->nsect)	/* the model's checks keep slips within their units */
		q = z->nsect - 1;
	return z->first_ps + q;
}

_Static_assert(DISK_MAX_ZONES * sizeof(struct disk_zone) <= UINT16_MAX,
	       "disk_layout.zone_at holds zones' byte offsets in 16 bits");

/* disk_layout.zone_at: the zone of each stretch's first sector, as its offset in zone[]. */
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
		l->zone_at[i] = (uint16_t)(z * sizeof(struct disk_zone));
	}
}

static int build_datasheet(struct disk_layout *l, const struct disk_model *m, struct err *e);

/* disk_layout_build() leaves out of its zeroing just the two arrays, side by side. */
_Static_assert(offsetof(struct disk_layout, slip_index) ==
	       offsetof(struct disk_layout, marks) + sizeof(((struct disk_layout *)0)->marks) &&
	       offsetof(struct disk_layout, zone_shift) ==
	       offsetof(struct disk_layout, slip_index) +
	       sizeof(((struct disk_layout *)0)->slip_index),
	       "struct disk_layout: marks[], slip_index[], zone_shift in this order");

int disk_layout_build(struct disk_layout *l, const struct disk_model *m, struct err *e)
{
	int rc;

	/*
	 * Zeroed all but marks[] and slip_index[] (32 KB of the 70): those are
	 * read only at a zone's slip0 .. slip0 + nslips, which build_measured
	 * fills (marks from the model's, slip_index for the DISK_SLIPS_SHIFT
	 * zones that read it) and a datasheet layout, without slips, never reads.
	 */
	memset(l, 0, offsetof(struct disk_layout, marks));
	memset(&l->zone_shift, 0, sizeof(*l) - offsetof(struct disk_layout, zone_shift));
	l->order = m->layout;
	l->heads = m->heads;
	l->lpp = m->physical_sector_size / m->logical_sector_size;
	while (1u << l->lpp_shift < l->lpp)
		l->lpp_shift++;
	if (1u << l->lpp_shift != l->lpp)
		return err_set(e, "drive '%s': %u logical sectors a physical sector: not a power of two",
			       m->name, l->lpp);
	l->logical_size = m->logical_sector_size;
	l->logical_sectors = (uint64_t)m->sectors;
	l->physical_sectors = ((uint64_t)m->sectors + l->lpp - 1) / l->lpp;
	l->rev_ns = (int64_t)llround(60e9 / m->rpm);
	rc = m->form == DISK_FORM_MEASURED ? build_measured(l, m, e) : build_datasheet(l, m, e);
	if (!rc) {
		unsigned z;

		for (z = 0; z < l->nzones; z++) {
			l->zone[z].surface_skew = (uint64_t)(l->zone[z].cyls - 1) * l->zone[z].cyl_skew +
				l->zone[z].head_skew;
			l->zone[z].number = z;
			l->zone[z].spt_half = l->zone[z].spt / 2;
		}
		l->zone[l->nzones].first_ps = UINT64_MAX;
		l->plain = !l->mapped && l->order == DISK_LAYOUT_SERPENTINE;
		index_zones(l);
	}
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

/* A skew_slips zone's slips before zone-relative sector `cutoff`. */
static uint32_t slips_before(const struct disk_layout *l, const struct disk_zone *z, uint64_t cutoff)
{
	const uint32_t *s = &l->marks[z->slip0];
	unsigned lo = 0, hi = z->nslips;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (s[mid] < cutoff)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A track's skew offset in cylinder order: `slot` is its place in its cylinder's track order. */
static inline uint32_t slot_offset(const struct disk_layout *l, const struct disk_zone *z,
				   uint64_t rel_cyl, uint32_t slot)
{
	uint64_t off = rel_cyl * ((uint64_t)(l->heads - 1) * z->head_skew + z->cyl_skew) +
		(uint64_t)slot * z->head_skew;

	if (z->skew_slips) {
		/* Per track for track_sectors, per cylinder for the cylinder schemes. */
		uint64_t tracks = rel_cyl * l->heads + (z->unit == z->spt ? slot : 0);

		off += slips_before(l, z, tracks * z->spt);
	}
	off += z->first_offset;
	return (uint32_t)(off >> 32 ? off % z->spt : (uint32_t)off % z->spt);
}

static inline uint32_t track_offset(const struct disk_layout *l, const struct disk_zone *z,
				   uint32_t cyl, uint32_t head)
{
	uint64_t rel_cyl = cyl - z->first_cyl, off;

	if (l->order != DISK_LAYOUT_SERPENTINE)
		return slot_offset(l, z, rel_cyl, disk_layout_track_slot(l, z, cyl, head));
	{
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

void disk_layout_locate_tracks(const struct disk_layout *l, uint64_t ps, struct disk_chs *c)
{
	const struct disk_zone *z = disk_layout_zone_of(l, ps);
	uint64_t rel = ps - z->first_ps, track, rel_cyl, pos;
	uint32_t slot;

	c->zone = z->number;
	track = disk_zone_track_of(z, rel, &c->sector);
	rel_cyl = track / l->heads;
	slot = (uint32_t)(track % l->heads);
	c->cyl = z->first_cyl + (uint32_t)rel_cyl;
	c->head = slot;
	if (l->order != DISK_LAYOUT_CYLINDER && disk_layout_reversed(l, z, c->cyl))
		c->head = l->heads - 1 - slot;
	pos = (c->sector + slot_offset(l, z, rel_cyl, slot)) % z->spt;
	c->angle = (int64_t)(pos * (uint64_t)l->rev_ns / z->spt);
}
