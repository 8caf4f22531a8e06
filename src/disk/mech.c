#include "disk/mech.h"

#include <math.h>
#include <string.h>

/*
 * Closed-form continuous average of the two-piece curve under the weight
 * w(x) = 2 (M − x) / M² on [0, M] — the continuum limit of hdd.md's sum.
 */
static double curve_average(const struct disk_seek_curve *s)
{
	double M = (double)s->max_distance, d0 = s->d0, k = 2.0 / (M * M);
	double i_const = s->a * k * (M * d0 - d0 * d0 / 2);
	double i_sqrt = s->b * k * (M * (2.0 / 3.0) * pow(d0, 1.5) - (2.0 / 5.0) * pow(d0, 2.5));
	double i_lin_c = s->c * (M - d0) * (M - d0) / (M * M);
	double i_lin_e = s->e * k * (M * M * M / 6 - M * d0 * d0 / 2 + d0 * d0 * d0 / 3);

	return i_const + i_sqrt + i_lin_c + i_lin_e;
}

/* Given d0: the curve through t(1) = t1 and t(M) = tfull, smooth at d0. */
static void curve_for(struct disk_seek_curve *s, double t1, double tfull, double d0)
{
	double M = (double)s->max_distance, r = sqrt(d0);

	s->d0 = d0;
	/* Integer distances d have d <= d0 exactly when d <= floor(d0). */
	s->d0_floor = d0 >= 4294967295.0 ? UINT32_MAX : (uint32_t)d0;
	s->b = (tfull - t1) / (r / 2 + M / (2 * r) - 1);
	s->a = t1 - s->b;
	s->e = s->b / (2 * r);
	s->c = s->a + s->b * r / 2;
}

int disk_seek_fit(struct disk_seek_curve *s, int64_t t1, int64_t tavg, int64_t tfull,
		  int64_t max_distance, const char *what, struct err *e)
{
	double lo = 1.0, hi, lo_avg, hi_avg, mid = 1.0;
	int i;

	/*
	 * The curve runs from a one-cylinder seek to the full stroke through a
	 * knee between them: over a stroke of one cylinder there is no knee to
	 * place (curve_for() would divide by zero and every seek be NaN).
	 */
	if (max_distance < 2)
		return err_set(e, "a seek curve from single track to full stroke needs at least "
			       "3 cylinders; this drive's layout has %lld", (long long)max_distance + 1);
	s->max_distance = max_distance;
	hi = (double)max_distance;
	curve_for(s, (double)t1, (double)tfull, lo);
	lo_avg = curve_average(s);
	curve_for(s, (double)t1, (double)tfull, hi);
	hi_avg = curve_average(s);
	/* The average grows with d0: more of the stroke on the concave √ part. */
	if ((double)tavg < lo_avg || (double)tavg > hi_avg)
		return err_set(e, "seek_avg_%s %.3f ms cannot be met by a seek curve from %.3f ms "
			       "(single track) to %.3f ms (full stroke) over %lld cylinders: "
			       "reachable averages are %.3f..%.3f ms", what, tavg / 1e6,
			       t1 / 1e6, tfull / 1e6, (long long)max_distance, lo_avg / 1e6,
			       hi_avg / 1e6);
	for (i = 0; i < 200; i++) {
		mid = sqrt(lo * hi);	/* bisection in log space: d0 spans decades */
		curve_for(s, (double)t1, (double)tfull, mid);
		if (curve_average(s) < (double)tavg)
			lo = mid;
		else
			hi = mid;
		if (hi / lo < 1.0 + 1e-12)
			break;
	}
	curve_for(s, (double)t1, (double)tfull, mid);
	return 0;
}

int disk_mech_fit_curves(struct disk_seek_curve *read, struct disk_seek_curve *write,
			 const struct disk_model *m, int64_t max_distance, struct err *e)
{
	if (disk_seek_fit(read, m->seek_track_read, m->seek_avg_read, m->seek_full_read,
			  max_distance, "read", e) ||
	    disk_seek_fit(write, m->seek_track_write, m->seek_avg_write, m->seek_full_write,
			  max_distance, "write", e))
		return err_prefix(e, "drive '%s': ", m->name);
	return 0;
}

double disk_seek_weighted_average(const struct disk_seek_curve *s)
{
	uint64_t n, M = (uint64_t)s->max_distance;
	long double sum = 0;

	for (n = 1; n <= M; n++)
		sum += (long double)(M + 1 - n) * 2.0L * (long double)disk_seek_ns(s, (uint32_t)n);
	return (double)(sum / ((long double)(M + 1) * (long double)M));
}

/* A measured curve's formula over d cylinders (mech.h), write settle included. */
static int64_t formula_ns(const struct disk_seek_curve *s, uint32_t d)
{
	double t, x = (double)d;

	switch (s->formula) {
	case DISK_SEEK_HPL:
		t = x < s->f_split ? s->f_a + s->f_b * sqrt(x) : s->f_c + s->f_e * x;
		break;
	case DISK_SEEK_CURVE3:
		t = s->f_a + s->f_b * (x - 1) + s->f_c * sqrt(x - 1);
		break;
	default:
		t = s->f_a;
		break;
	}
	t += (double)s->f_settle;
	return t < 0 ? 0 : (int64_t)t;
}

int64_t disk_seek_table_ns(const struct disk_seek_curve *s, uint32_t d)
{
	unsigned lo = 0, hi = s->npts - 1;
	int64_t t;

	if (s->formula && d > s->pd[hi])
		return formula_ns(s, d);
	if (d <= s->pd[0])
		return s->pt[0];
	if (d >= s->pd[hi]) {
		if (hi == 0)
			return s->pt[0];
		lo = hi - 1;
	} else {
		/* pd[lo] < d <= pd[hi] */
		while (hi - lo > 1) {
			unsigned mid = (lo + hi) / 2;

			if (s->pd[mid] < d)
				lo = mid;
			else
				hi = mid;
		}
	}
	t = s->pt[lo] + (int64_t)((double)(s->pt[hi] - s->pt[lo]) * (double)(d - s->pd[lo]) /
				  (double)(s->pd[hi] - s->pd[lo]));
	return t < 0 ? 0 : t;
}

/*
 * DiskSim's three-point curve one + B·x + C·√x (x = d − 1) through one at
 * x = 0 and full at x = n, averaging avg over random seeks (a seek's
 * distance weighted 2(n − x)/n², whose mean is n/3 and mean √ (8/15)√n).
 */
void disk_seek_curve3(double one, double avg, double full, double n, double *b, double *c)
{
	*b = (7 * one - 15 * avg + 8 * full) / (3 * n);
	*c = (-10 * one + 15 * avg - 5 * full) / (3 * sqrt(n));
}

/* A measured table, for reads (settle 0) or writes, and its formula. */
static void table_curve(struct disk_seek_curve *s, const struct disk_model *m, int64_t settle,
			int64_t max_distance)
{
	const struct disk_measured *g = &m->geo;
	unsigned i;

	memset(s, 0, sizeof(*s));
	s->max_distance = max_distance;
	s->npts = g->nseek;
	for (i = 0; i < g->nseek; i++) {
		s->pd[i] = g->seek[i].distance;
		s->pt[i] = g->seek[i].ns + settle < 0 ? 0 : g->seek[i].ns + settle;
	}
	s->formula = g->seek_formula;
	s->f_settle = settle;
	s->f_split = g->seek_split;
	s->f_a = (double)g->seek_f[0];
	switch (g->seek_formula) {
	case DISK_SEEK_HPL:
		s->f_b = (double)g->seek_f[1];
		s->f_c = (double)g->seek_f[2];
		s->f_e = (double)g->seek_f[3];
		break;
	case DISK_SEEK_CURVE3:
		disk_seek_curve3((double)g->seek_f[0], (double)g->seek_f[1], (double)g->seek_f[2],
				 (double)m->cylinders, &s->f_b, &s->f_c);
		break;
	default:
		break;
	}
}

/* The least a curve's formula gives from distance d0 to max (its pieces rise). */
static int64_t formula_floor(const struct disk_seek_curve *s, uint32_t d0, int64_t max)
{
	int64_t low = formula_ns(s, d0);

	if (s->formula == DISK_SEEK_HPL && s->f_split > d0 && s->f_split <= (double)max) {
		int64_t at = formula_ns(s, (uint32_t)s->f_split);

		low = at < low ? at : low;
	}
	return low;
}

static void measured_init(struct disk_mech *mc, const struct disk_model *m, int64_t max)
{
	int64_t hsw = m->head_switch + m->write_settle;
	int64_t low;
	unsigned q;

	mc->measured = true;
	memcpy(mc->overhead_tab, m->overhead, sizeof(mc->overhead_tab));
	mc->head_switch_write = hsw < 0 ? 0 : hsw;
	mc->min_seek = m->min_seek;
	table_curve(&mc->read, m, 0, max);
	table_curve(&mc->write, m, m->write_settle, max);
	if (m->geo.seek_formula == DISK_SEEK_CONSTANT) {
		/* Every access positions for the constant, on its cylinder too (a write settles). */
		int64_t r = m->geo.seek_f[0], w = r + m->write_settle < 0 ? 0 : r + m->write_settle;

		mc->const_seek[0] = r;
		mc->const_seek[1] = w;
		mc->pos_floor[0] = r > mc->min_seek ? r : mc->min_seek;
		mc->pos_floor[1] = w > mc->min_seek ? w : mc->min_seek;
	}
	/*
	 * A measured table need not rise everywhere: each floor is the least
	 * seek from its distance on. The curve is linear between rows, so that
	 * least is at the range's start, at a row beyond it, or at the full
	 * stroke: a handful of values per entry, not one per cylinder.
	 */
	mc->seek_floor_shift = 0;
	while ((max >> mc->seek_floor_shift) >= DISK_SEEK_FLOOR_ENTRIES)
		mc->seek_floor_shift++;
	{
		const struct disk_seek_curve *c[2] = { &mc->read, &mc->write };
		int64_t tail[2][DISK_MAX_SEEK_POINTS + 1];
		unsigned k, i, n = mc->read.npts;

		/* tail[k][i]: the least row time from row i on, and beyond the rows. */
		for (k = 0; k < 2; k++) {
			tail[k][n] = c[k]->formula && c[k]->pd[n - 1] < (uint64_t)max ?
				formula_floor(c[k], c[k]->pd[n - 1] + 1, max) :
				disk_seek_ns(c[k], (uint32_t)max);
			for (i = n; i-- > 0;)
				tail[k][i] = c[k]->pt[i] < tail[k][i + 1] ? c[k]->pt[i] : tail[k][i + 1];
		}
		for (q = 0; q < DISK_SEEK_FLOOR_ENTRIES; q++) {
			uint64_t start = (uint64_t)q << mc->seek_floor_shift;

			low = INT64_MAX;
			if (start <= (uint64_t)max) {
				for (k = 0; k < 2; k++) {
					int64_t v = disk_seek_ns(c[k], (uint32_t)(start ? start : 1));

					for (i = 0; i < n && c[k]->pd[i] < start; i++)
						;
					v = v < tail[k][i] ? v : tail[k][i];
					low = v < low ? v : low;
				}
			}
			mc->seek_floor[q] = low;
		}
	}
	mc->seek_floor[0] = 0;
}

/* The tables derived from seek_floor (mech.h), once it is filled. */
static void floor_turns(struct disk_mech *mc)
{
	int64_t rev = mc->layout->rev_ns;
	uint64_t max = mc->layout->cylinders - 1;
	unsigned q;

	mc->guard_eff = mc->rpo_guard < rev ? mc->rpo_guard : rev;
	for (q = 0; q < DISK_SEEK_FLOOR_ENTRIES; q++) {
		bool past = mc->seek_floor[q] == INT64_MAX;

		uint64_t first = (uint64_t)q << mc->seek_floor_shift;
		uint64_t last = first + ((uint64_t)1 << mc->seek_floor_shift) - 1;

		mc->floors[q].guarded = past ? INT64_MAX : mc->seek_floor[q] + mc->guard_eff;
		mc->floors[q].turn = past ? 0 : mc->floors[q].guarded % rev;
		mc->floors[q].ceil_guarded = INT64_MAX;
		if (first > max)
			continue;
		/* The curves rise with distance; both ends count, should a piece not. */
		first = first ? first : 1;
		last = last < max ? last : max;
		{
			const struct disk_seek_curve *c[2] = { &mc->read, &mc->write };
			int64_t most = 0;
			unsigned k;

			for (k = 0; k < 2; k++) {
				int64_t a = disk_mech_choice_seek_ns(c[k], (uint32_t)first);
				int64_t b = disk_mech_choice_seek_ns(c[k], (uint32_t)last);

				most = a > most ? a : most;
				most = b > most ? b : most;
			}
			mc->floors[q].ceil_guarded = most + mc->guard_eff;
		}
	}
}

int disk_mech_init(struct disk_mech *mc, const struct disk_layout *l,
		   const struct disk_model *m, struct err *e)
{
	int64_t max = (int64_t)l->cylinders - 1;
	unsigned q;

	mc->layout = l;
	mc->head_switch = mc->head_switch_write = m->head_switch;
	mc->measured = false;
	disk_mech_set_overhead(mc, m->command_overhead);
	mc->min_seek = 0;
	/* A datasheet drive keeps these (and npts) 0: disk_mech_access_track() counts on it. */
	mc->pos_floor[0] = mc->pos_floor[1] = 0;
	mc->const_seek[0] = mc->const_seek[1] = 0;
	mc->completion[0] = m->completion_read;
	mc->completion[1] = m->completion_write;
	mc->bus_sector[0] = m->bus_read_sector;
	mc->bus_sector[1] = m->bus_write_sector;
	mc->rpo_guard = m->rpo_guard;
	mc->inv_rev = 1.0 / (double)l->rev_ns;
	if (m->form == DISK_FORM_MEASURED) {
		mc->pos_floor[0] = mc->pos_floor[1] = m->min_seek;
		measured_init(mc, m, max);
		floor_turns(mc);
		return 0;
	}
	mc->read.npts = mc->write.npts = 0;
	if (disk_mech_fit_curves(&mc->read, &mc->write, m, max, e))
		return -1;
	mc->seek_floor_shift = 0;
	while ((max >> mc->seek_floor_shift) >= DISK_SEEK_FLOOR_ENTRIES)
		mc->seek_floor_shift++;
	mc->seek_floor[0] = 0;
	for (q = 1; q < DISK_SEEK_FLOOR_ENTRIES; q++) {
		uint32_t d = (uint32_t)q << mc->seek_floor_shift;
		int64_t r = disk_seek_ns(&mc->read, d), w = disk_seek_ns(&mc->write, d);

		mc->seek_floor[q] = r < w ? r : w;
	}
	floor_turns(mc);
	return 0;
}

/* The track after (cyl, head) in layout order within zone z; false at the zone's end. */
static bool next_track(const struct disk_layout *l, const struct disk_zone *z,
		       uint32_t *cyl, uint32_t *head, bool *head_switch)
{
	uint32_t rel = *cyl - z->first_cyl;

	if (l->order != DISK_LAYOUT_SERPENTINE) {
		uint32_t slot = disk_layout_track_slot(l, z, *cyl, *head);

		if (slot + 1 < l->heads) {
			*head = disk_layout_reversed(l, z, *cyl) ? l->heads - 2 - slot : slot + 1;
			*head_switch = true;
			return true;
		}
		if (rel + 1 >= z->cyls)
			return false;
		(*cyl)++;
		*head = disk_layout_reversed(l, z, *cyl) ? l->heads - 1 : 0;
		*head_switch = false;
		return true;
	}
	/* Serpentine: along the surface, then onto the next surface. */
	if (*head % 2 == 0 ? rel + 1 < z->cyls : rel > 0) {
		*cyl = *head % 2 == 0 ? *cyl + 1 : *cyl - 1;
		*head_switch = false;
		return true;
	}
	if (*head + 1 >= l->heads)
		return false;
	(*head)++;
	*head_switch = true;
	return true;
}

/*
 * Sectors that pass from the end of one track to the first sector of the
 * next (cyl, head): the skew, and in a zone whose slips turn the later
 * tracks (layout.h), what they add.
 */
static uint32_t switch_gap(const struct disk_layout *l, const struct disk_zone *z, uint32_t cyl0,
			   uint32_t head0, uint32_t cyl, uint32_t head, bool hs)
{
	if (!z->skew_slips)
		return hs ? z->head_skew : z->cyl_skew;
	return (disk_layout_track_offset(l, z, cyl, head) + z->spt -
		disk_layout_track_offset(l, z, cyl0, head0)) % z->spt;
}

void disk_mech_access(const struct disk_mech *mc, struct disk_head *head, int64_t t0,
		      uint64_t ps, uint64_t n, bool write, unsigned extra_revs,
		      struct disk_access *acc)
{
	struct disk_chs where;

	disk_layout_locate(mc->layout, ps, &where);
	disk_mech_access_at(mc, head, t0, &where, n, write, extra_revs, acc);
}

void disk_mech_access_after(const struct disk_mech *mc, struct disk_head *head, int64_t t0,
			    int64_t not_before, const struct disk_chs *where, uint64_t n,
			    bool write, unsigned extra_revs, struct disk_access *acc)
{
	const struct disk_layout *l = mc->layout;
	const struct disk_chs c = *where;
	const struct disk_zone *z;
	int64_t t;
	uint64_t left = n;
	uint32_t cyl, hd, sector;

	acc->overhead = disk_mech_overhead_ns(mc, write, true, head->last_write);
	acc->seek = disk_mech_move_ns(mc, head, c.cyl, c.head, write);
	if (acc->seek < mc->pos_floor[write])
		acc->seek = mc->pos_floor[write];
	t = t0 + acc->overhead + acc->seek;
	/* Waiting in place until not_before (a write's data), then for the sector. */
	acc->rotate = (not_before > t ? not_before - t : 0);
	acc->rotate += disk_mech_target_wait(mc, t + acc->rotate, c.angle, c.cyl != head->cyl);
	t += acc->rotate;
	acc->transfer = 0;
	acc->extra = (int64_t)extra_revs * l->rev_ns;

	z = &l->zone[c.zone];
	cyl = c.cyl;
	hd = c.head;
	sector = c.sector;
	for (;;) {
		uint64_t take = z->spt - sector;
		uint32_t cyl0 = cyl, hd0 = hd;
		bool hs;

		if (take > left)
			take = left;
		acc->transfer += disk_layout_sectors_ns(l, z, take);
		left -= take;
		if (!left)
			break;
		sector = 0;
		if (next_track(l, z, &cyl, &hd, &hs) &&
		    (!z->data_tracks ||
		     (cyl - z->first_cyl) * l->heads + disk_layout_track_slot(l, z, cyl, hd) <
		     z->data_tracks)) {
			/* Skew makes the next track's first sector arrive just in time. */
			int64_t skew = disk_layout_sectors_ns(l, z, switch_gap(l, z, cyl0, hd0, cyl, hd, hs));

			if (mc->measured) {
				/*
				 * A measured skew need not cover the switch (a write's
				 * settle, say): the sector is then taken on a later pass.
				 */
				int64_t hsw = write ? mc->head_switch_write : mc->head_switch;
				int64_t sw = hs ? hsw : disk_seek_ns(write ? &mc->write : &mc->read, 1);

				/*
				 * As DiskSim times each track of an access: the longer of
				 * the seek and a head switch (a cylinder switch that
				 * changes head), at least a constant seek form's time.
				 */
				if (!hs && hd != hd0 && hsw > sw)
					sw = hsw;
				if (sw < mc->const_seek[write])
					sw = mc->const_seek[write];

				if (sw > skew)
					skew += (sw - skew + l->rev_ns - 1) / l->rev_ns * l->rev_ns;
			}
			acc->transfer += skew;
		} else {
			/* Into the next zone: no common skew, so seek and wait for real. */
			struct disk_head at = { cyl, hd, write };
			struct disk_chs nc;
			int64_t tt;

			disk_layout_locate(l, z->first_ps + z->nsect, &nc);
			z = &l->zone[nc.zone];
			tt = t + acc->transfer + disk_mech_move_ns(mc, &at, nc.cyl, nc.head, write);
			acc->transfer += (tt - t - acc->transfer) + disk_mech_rot_wait(mc, tt, nc.angle);
			cyl = nc.cyl;
			hd = nc.head;
		}
	}
	head->cyl = cyl;
	head->head = hd;
	head->last_write = write;
	acc->completion = mc->completion[write];
	acc->total = acc->overhead + acc->seek + acc->rotate + acc->transfer + acc->extra +
		acc->completion;
}

void disk_mech_stream_after(const struct disk_mech *mc, struct disk_stream *s, uint64_t last_ps,
			    int64_t t)
{
	struct disk_chs c;

	disk_layout_locate(mc->layout, last_ps, &c);
	s->ps = last_ps + 1;
	s->t = t;
	s->zone = c.zone;
	s->cyl = c.cyl;
	s->head = c.head;
	s->sector = c.sector + 1;
	s->from_sector = s->sector;
	s->from_t = t;
}

void disk_mech_stream_run(const struct disk_mech *mc, struct disk_stream *s, uint64_t limit,
			  int64_t until, bool write)
{
	const struct disk_layout *l = mc->layout;

	if (limit > l->physical_sectors)
		limit = l->physical_sectors;
	while (s->ps < limit && s->t <= until) {
		const struct disk_zone *z = &l->zone[s->zone];
		uint64_t take = z->spt - s->sector, done = s->sector - s->from_sector;
		__int128 room;

		if (!take) {
			/* The track's end: on to the next, as disk_mech_access_at does. */
			uint32_t cyl0 = s->cyl, hd0 = s->head;
			bool hs;

			if (next_track(l, z, &s->cyl, &s->head, &hs)) {
				s->t += disk_layout_sectors_ns(l, z, switch_gap(l, z, cyl0, hd0, s->cyl,
									       s->head, hs));
			} else {
				struct disk_head at = { s->cyl, s->head, false };
				struct disk_chs nc;

				disk_layout_locate(l, s->ps, &nc);
				s->t += disk_mech_move_ns(mc, &at, nc.cyl, nc.head, write);
				s->t += disk_mech_rot_wait(mc, s->t, nc.angle);
				s->zone = nc.zone;
				s->cyl = nc.cyl;
				s->head = nc.head;
			}
			s->sector = 0;
			s->from_sector = 0;
			s->from_t = s->t;
			continue;
		}
		if (take > limit - s->ps)
			take = limit - s->ps;
		/*
		 * Whole sectors only: the largest m with from_t + sectors_ns(m) <=
		 * until, sectors_ns(m) being (m·rev + spt/2) / spt rounded down.
		 */
		room = ((__int128)(until - s->from_t) + 1) * z->spt - 1 - z->spt / 2;
		if (room < 0)
			break;
		room /= l->rev_ns;
		if ((__int128)(done + take) > room)
			take = room > (__int128)done ? (uint64_t)(room - done) : 0;
		if (!take)
			break;
		s->ps += take;
		s->sector += (uint32_t)take;
		s->t = s->from_t + disk_layout_sectors_ns(l, z, s->sector - s->from_sector);
	}
}

void disk_mech_stream_resume(const struct disk_mech *mc, struct disk_stream *s, int64_t t)
{
	struct disk_head at = { s->cyl, s->head, false };
	struct disk_chs nc;

	disk_layout_locate(mc->layout, s->ps, &nc);
	t += disk_mech_move_ns(mc, &at, nc.cyl, nc.head, false);
	t += disk_mech_rot_wait(mc, t, nc.angle);
	s->t = t;
	s->zone = nc.zone;
	s->cyl = nc.cyl;
	s->head = nc.head;
	s->sector = nc.sector;
	s->from_sector = nc.sector;
	s->from_t = t;
}
