#include "disk/service.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

int disk_service_init(struct disk_service *s, const struct disk_model *m, struct err *e)
{
	unsigned read_segments = m->cache_segments;

	/* The long write's scratch (down[]) is written before it is read. */
	memset(s, 0, offsetof(struct disk_service, down));
	if (disk_layout_build(&s->layout, m, e) || disk_mech_init(&s->mech, &s->layout, m, e))
		return -1;
	/* With a write segment of its own, the others are the reads'. */
	if (m->write_segment && read_segments > 1)
		read_segments--;
	disk_cache_init(&s->cache, read_segments, m->write_buffer);
	s->ra_max = m->read_ahead_max / m->logical_sector_size;
	s->ra_min = m->read_ahead_min / m->logical_sector_size;
	s->seg_sectors = m->segment_size / m->logical_sector_size;
	s->read_ahead = m->read_ahead && s->ra_max > 0;
	s->write_cache = m->write_cache;
	s->write_segments = m->segment_size ? (unsigned)(m->write_buffer / m->segment_size) : 1;
	if (s->write_segments < 1)
		s->write_segments = 1;
	if (s->write_segments > DISK_SERVICE_DESTAGES)
		s->write_segments = DISK_SERVICE_DESTAGES;
	s->read_hits_on_writes = m->read_hits_on_writes;
	s->ra_on_hit = m->read_ahead_on_hit;
	s->partial_hits = m->partial_hits;
	s->write_segment = m->write_segment;
	s->combine_writes = m->combine_writes;
	s->almost_read_hits = m->almost_read_hits;
	s->sneaky_full = m->sneaky_full_hits;
	s->sneaky_partial = m->sneaky_partial_hits;
	s->write_prebuffering = m->write_prebuffering;
	s->write_hit_stops_ra = m->write_hit_stops_read_ahead;
	s->zero_latency_read = m->zero_latency_read;
	s->zero_latency_write = m->zero_latency_write;
	s->ra_rule = m->read_ahead_rule;
	s->ra_stop = m->read_ahead_stop;
	s->read_data = m->read_data;
	s->watermark = m->read_watermark;
	s->write_watermark = m->write_watermark;
	s->watermark_by_request = m->watermark_by_request;
	s->bus = m->bus;
	/*
	 * DiskSim holds only writes to min_seek (disk_check_hda); mech would
	 * hold every access, so its floor is the constant seek form's alone
	 * and media_access() raises it for the accesses min_seek holds.
	 */
	s->min_seek = s->mech.min_seek;
	s->mech.min_seek = 0;
	s->mech.pos_floor[0] = s->mech.const_seek[0];
	s->mech.pos_floor[1] = s->mech.const_seek[1];
	s->seg = -1;
	return 0;
}

/* ---- where things are ---- */

/* One sector's media time at physical sector ps. */
static int64_t sector_ns(const struct disk_service *s, uint64_t ps)
{
	const struct disk_layout *l = &s->layout;

	return disk_layout_sectors_ns(l, disk_layout_zone_of(l, ps), 1);
}

/* The LBNs a track of lbn's zone holds. */
static uint64_t lbns_per_track(const struct disk_service *s, const struct disk_zone *z)
{
	const struct disk_layout *l = &s->layout;

	return l->mapped ? (z->unit == z->spt ? z->data_per_unit : z->spt) :
		(uint64_t)z->spt * l->lpp;
}

/*
 * Time per LBN of a sequential stream from `lbn`: a track's LBNs pass in one
 * revolution plus the track skew that the next track's first sector is
 * placed behind.
 */
static int64_t stream_sector_ns(const struct disk_service *s, uint64_t lbn)
{
	const struct disk_layout *l = &s->layout;
	uint64_t ps, nps;
	const struct disk_zone *z;

	disk_layout_physical(l, lbn, 1, &ps, &nps);
	z = disk_layout_zone_of(l, ps);
	return (l->rev_ns + disk_layout_sectors_ns(l, z, z->head_skew)) /
		(int64_t)lbns_per_track(s, z);
}

/*
 * LBNs from `lbn` to the end of its track (tracks = 1) or of the next
 * tracks, counting the track's data sectors only; *into: how far lbn is
 * into its track.
 */
static uint64_t to_track_end(const struct disk_service *s, uint64_t lbn, unsigned tracks,
			     uint64_t *into)
{
	const struct disk_layout *l = &s->layout;
	uint64_t ps, nps, per_track;
	struct disk_chs c;

	disk_layout_physical(l, lbn, 1, &ps, &nps);
	disk_layout_locate(l, ps, &c);
	per_track = lbns_per_track(s, &l->zone[c.zone]);
	if (into)
		*into = c.sector < per_track ? c.sector : per_track;
	if (c.sector >= per_track)
		return (tracks - 1) * per_track;
	return per_track - c.sector + (tracks - 1) * per_track;
}

/* The zone-relative track of a physical sector, and its zone, as one number. */
static uint64_t track_id(const struct disk_layout *l, uint64_t ps)
{
	const struct disk_zone *z = disk_layout_zone_of(l, ps);

	return ((uint64_t)z->number << 40) | ((ps - z->first_ps) / z->spt);
}

/*
 * Where the read-ahead after a read [lba, lba + n) stops.
 */
static uint64_t ra_limit(const struct disk_service *s, uint64_t lba, uint64_t n)
{
	const struct disk_layout *l = &s->layout;
	uint64_t end = lba + n, limit = end + s->ra_max;

	if (end >= l->logical_sectors)
		return l->logical_sectors;
	switch (s->ra_rule) {
	case DISK_RA_TRACK:
		limit = end + to_track_end(s, end - 1, 1, NULL) - 1;
		break;
	case DISK_RA_CYLINDER: {
		/* The rest of the track, then the cylinder's later tracks. */
		uint64_t ps, nps, per_track = to_track_end(s, end - 1, 2, NULL) -
			to_track_end(s, end - 1, 1, NULL);
		struct disk_chs c;

		disk_layout_physical(l, end - 1, 1, &ps, &nps);
		disk_layout_locate(l, ps, &c);
		limit = end + to_track_end(s, end - 1, 1, NULL) - 1 +
			(uint64_t)(l->heads - 1 -
				   disk_layout_track_slot(l, &l->zone[c.zone], c.cyl, c.head)) * per_track;
		break;
	}
	case DISK_RA_SEQUENTIAL: {
		/*
		 * DiskSim's manual for scheme 4: to the end of the track after
		 * the read's last, when the read before ended on the track
		 * before this one — a stream stays a track ahead. (DiskSim's
		 * code reads ahead to the end of the track after the read
		 * whatever came before, past Maximum read-ahead; on the Atlas
		 * III's trace that reads 0.45 ms RMS against the manual's 0.27.)
		 */
		uint64_t ps, nps;

		disk_layout_physical(l, lba, 1, &ps, &nps);
		if (!s->last_read_ps || track_id(l, s->last_read_ps - 1) + 1 != track_id(l, ps))
			return end;
		limit = end + to_track_end(s, end - 1, 2, NULL) - 1;
		break;
	}
	default:
		break;
	}
	{
		uint64_t cap = end + s->ra_max;

		/*
		 * Keeping the read's own data, the segment fills up to its size
		 * from the read's start — or by read_ahead_min, if that leaves
		 * less (DiskSim's disk_buffer_get_max_readahead).
		 */
		if (s->read_data == DISK_READ_DATA_KEEP)
			cap = n >= s->seg_sectors || s->seg_sectors - n < s->ra_min ? end + s->ra_min :
				lba + s->seg_sectors;
		if (limit > cap)
			limit = cap;
	}
	if (limit > l->logical_sectors)
		limit = l->logical_sectors;
	return limit;
}

/* Where the read-ahead has got to by `now`; the segment grows to there. */
static void stream_advance(struct disk_service *s, int64_t now)
{
	uint64_t pe;

	if (!s->streaming)
		return;
	if (s->cache.start[s->seg] != s->seg_start || !s->cache.held[s->seg]) {
		s->streaming = false;	/* its segment was reused or invalidated */
		return;
	}
	pe = now > s->ra_t0 ? s->ra_from + (uint64_t)((now - s->ra_t0) / s->ra_sector_ns) :
		s->ra_from;
	if (pe > s->ra_limit)
		pe = s->ra_limit;
	/* The segment wraps: its oldest sectors give way (DiskSim's segment wrap). */
	disk_cache_extend(&s->cache, (unsigned)s->seg, pe, s->seg_sectors);
	s->seg_start = s->cache.start[s->seg];
}

/* When the stream is at LBN p (its smeared, per-LBN clock). */
static int64_t stream_time(const struct disk_service *s, uint64_t p)
{
	return s->ra_t0 + ((int64_t)p - (int64_t)s->ra_from) * s->ra_sector_ns;
}

/* The head rests on the track of lbn. */
static void head_to(struct disk_service *s, uint64_t lbn)
{
	uint64_t ps, nps;
	struct disk_chs c;

	disk_layout_physical(&s->layout, lbn, 1, &ps, &nps);
	disk_layout_locate(&s->layout, ps, &c);
	s->head.cyl = c.cyl;
	s->head.head = c.head;
}

/*
 * A command takes the head from the read-ahead at `now`; returns when the
 * mechanism is free. The read-ahead goes on to read_ahead_min past its read
 * first (unless a write overlapping the segment stops it, with
 * write_hit_stops_read_ahead); a track switch under way ends, the head then
 * on the next track; with read_ahead_stop = sector the sector under way is
 * finished too. A stream's track is a revolution of reading and then its
 * skew's worth of switching (the same clock as stream_sector_ns).
 */
static int64_t stream_stop(struct disk_service *s, int64_t now, bool write_overlaps)
{
	const struct disk_layout *l = &s->layout;
	uint64_t last, into, per_track;
	int64_t t = now, t_track;

	stream_advance(s, now);
	if (!s->streaming)
		return now;
	if (s->cache.end[s->seg] < s->ra_floor && !(write_overlaps && s->write_hit_stops_ra)) {
		t = stream_time(s, s->ra_floor);
		stream_advance(s, t);
		if (!s->streaming)
			return now;
	}
	s->streaming = false;
	last = s->cache.end[s->seg];
	if (last >= s->ra_limit || last >= l->logical_sectors) {
		/* It has ended by itself: the head rests where it stopped. */
		if (last > s->ra_from)
			head_to(s, last - 1);
		return t;
	}
	per_track = to_track_end(s, last, 1, &into) + into;
	t_track = stream_time(s, last - into);
	if (t - t_track >= l->rev_ns && last - into + per_track <= s->ra_limit) {
		/* Switching to the next track: it gets there first. */
		head_to(s, last - into + per_track);
		return t_track + (int64_t)per_track * s->ra_sector_ns;
	}
	if (s->ra_stop == DISK_RA_STOP_SECTOR && t > stream_time(s, last)) {
		/* The sector under way is read to its end. */
		disk_cache_extend(&s->cache, (unsigned)s->seg, last + 1, s->seg_sectors);
		t = stream_time(s, last + 1);
		last++;
	}
	if (last > s->ra_from)
		head_to(s, last - 1);
	return t;
}

/* ---- the media ---- */

#define MEDIA_TRACKS 8	/* tracks timed one by one with zero latency; the rest in one */

/*
 * A media access as the buffer sees it: its sectors in pieces (one a track
 * with zero latency, else one in all), a piece's sectors passing in order
 * from `first` to `end` — or, read with zero latency, its first `wrap`
 * sectors last, from `first` at one `sector` each, after the rest.
 */
struct media_piece {
	uint64_t n, wrap;
	int64_t first, end, sector;
};

struct media {
	int64_t first;	/* the first sector comes under the head */
	int64_t end;	/* the last has passed */
	unsigned npieces;
	struct media_piece piece[MEDIA_TRACKS];
};

/*
 * Zero latency on one track: the head settles at `settle` over a request
 * of n sectors whose first comes under it at `first`. Settling inside the
 * request, it takes the sectors from the next one that comes to the
 * track's end, and the ones before after the track comes round: the
 * request's first `wrap` are the last read, and it ends a revolution after
 * settling (DiskSim's dm_latency_g1 with immed).
 */
static void zero_latency(const struct disk_service *s, int64_t settle, struct media_piece *p)
{
	int64_t rev = s->layout.rev_ns, wait = (p->first - settle) % rev;
	uint64_t under;

	if (!wait || !p->sector)
		return;
	under = (uint64_t)((rev - wait) / p->sector);	/* the sector under the head, from the first */
	if (under + 1 >= p->n)
		return;
	p->wrap = under + 1;
	p->end = p->first + (int64_t)p->wrap * p->sector;
}

/*
 * A media access whose mechanics may start at `start` (after any overhead),
 * its first sector no sooner than `not_before`. A write positions for at
 * least min_seek, unless it continues the media write under way
 * (`continues`). With zero latency the access is timed track by track, as
 * DiskSim does; a write's tracks only once all its data is in
 * (`data_in`).
 */
static void media_access(struct disk_service *s, int64_t start, int64_t not_before,
			 int64_t data_in, bool write, bool continues, uint64_t lba, uint64_t n,
			 struct media *out)
{
	const struct disk_layout *l = &s->layout;
	bool zl = write ? s->zero_latency_write : s->zero_latency_read;
	uint64_t left = n, at = lba;
	int64_t t = start;

	out->npieces = 0;
	while (left) {
		struct media_piece *p = &out->piece[out->npieces];
		struct disk_access acc;
		struct disk_chs where;
		uint64_t ps, nps, k = left;
		/* disk_mech_access_at counts the miss overhead first: start it that much earlier. */
		int64_t ovh = disk_mech_overhead_ns(&s->mech, write, true, s->head.last_write);

		if (zl && out->npieces + 1 < MEDIA_TRACKS) {
			k = to_track_end(s, at, 1, NULL);
			k = k && k < left ? k : left;
		}
		disk_layout_physical(l, at, k, &ps, &nps);
		disk_layout_locate(l, ps, &where);
		if (write && !continues && at == lba && s->min_seek > s->mech.const_seek[1])
			s->mech.pos_floor[1] = s->min_seek;
		disk_mech_access_after(&s->mech, &s->head, t - ovh, at == lba ? not_before : INT64_MIN,
				       &where, nps, write, 0, &acc);
		s->mech.pos_floor[1] = s->mech.const_seek[1];
		p->n = k;
		p->wrap = 0;
		p->first = t + acc.seek + acc.rotate;
		p->end = p->first + acc.transfer;
		p->sector = sector_ns(s, ps);
		if (zl && nps == k && where.sector + nps <= l->zone[where.zone].spt &&
		    (!write || data_in <= t + acc.seek))
			zero_latency(s, t + acc.seek, p);
		if (at == lba)
			out->first = p->first;
		t = p->end;
		at += k;
		left -= k;
		out->npieces++;
	}
	out->end = t;
}

/*
 * The share of a transfer that must be buffered before it moves on, as
 * DiskSim counts its water marks: of the request (at most a segment),
 * rounded down but at least one sector, or of a segment, rounded up; never
 * more than the request.
 */
static uint64_t watermark_sectors(const struct disk_service *s, double fraction, uint64_t n)
{
	uint64_t w;

	if (s->watermark_by_request) {
		w = (uint64_t)((double)(n < s->seg_sectors ? n : s->seg_sectors) * fraction);
		if (w < 1)
			w = 1;
	} else {
		w = (uint64_t)((double)s->seg_sectors * fraction + 0.9999999999);
	}
	return w > n ? n : w;
}

/*
 * A read's mark: DiskSim reconnects only once the segment holds a sector
 * past what was sent (disk_request_needs_bus), so a mark of none (a segment's
 * share of 0) is one sector.
 */
static uint64_t read_watermark(const struct disk_service *s, uint64_t n)
{
	uint64_t w = watermark_sectors(s, s->watermark, n);

	return w ? w : 1;
}

/* ---- the bus ---- */

/* The drive wins the bus back and reselects the host; its message crosses the controllers. */
static int64_t reselect_ns(const struct disk_service *s, bool other)
{
	const struct disk_bus_phases *b = &s->bus;

	return b->arbitration + (other ? b->reselect_other : b->reselect_first) + 2 * b->controller;
}

/*
 * When each sector of a read is in the buffer, in LBN order (the order the
 * host is sent them): the first `have` already are; the rest as the media
 * pieces deliver them (a piece read with zero latency gives the sectors it
 * read first along with the last of its `wrap`), or at the stream's pace
 * from t0.
 */
struct arrival {
	uint64_t n, have;
	const struct media *md;		/* NULL: a stream, one sector every `per` after t0 */
	int64_t t0, per;
};

static int64_t ready(const struct arrival *a, uint64_t j)
{
	const struct media_piece *p;
	uint64_t k;

	if (j < a->have)
		return INT64_MIN;
	k = j - a->have;
	if (!a->md)
		return a->t0 + (int64_t)(k + 1) * a->per;
	for (p = a->md->piece; k >= p->n; p++)
		k -= p->n;
	if (p->wrap)
		return p->first + (int64_t)((k < p->wrap ? k : p->wrap - 1) + 1) * p->sector;
	return p->first + (int64_t)(k + 1) * (p->end - p->first) / (int64_t)p->n;
}

/*
 * The host transfer of a read, connected at `start` (data prepared):
 * returns when the last sector has been sent. Out of data, the drive holds
 * the bus (hold_bus_read, never_disconnect) and sends each sector as it is
 * read, or disconnects (disconnect_read) and reselects once read_watermark
 * more are buffered, or all the rest.
 */
static int64_t send_read(const struct disk_service *s, const struct arrival *a, int64_t start,
			 bool after_write)
{
	const struct disk_bus_phases *b = &s->bus;
	bool hold = b->hold_read || b->never_disconnect;
	int64_t t = start, bus = s->mech.bus_sector[0];
	uint64_t j, wm = read_watermark(s, a->n);

	if (a->have >= a->n)
		return start + (int64_t)a->n * bus;	/* all buffered: the bus's pace */
	/* Reselecting for every sector at no cost is holding the bus. */
	if (wm <= 1 && !b->disconnect_read[after_write] && !b->controller && !b->arbitration &&
	    !b->reselect_first && !b->data_prep)
		hold = true;
	if (hold && (!a->md || (a->md->npieces == 1 && !a->md->piece[0].wrap))) {
		/*
		 * Sector j goes at max(its arrival, the one before's end): the last
		 * ends at the largest of start + n x bus and arrival(j) + (n - j) x
		 * bus, and the arrivals are evenly spaced, so that is at the first
		 * sector still to come or the last.
		 */
		int64_t n = (int64_t)a->n, h = (int64_t)a->have;

		return max64(start + n * bus, max64(ready(a, a->have) + (n - h) * bus,
						    ready(a, a->n - 1) + bus));
	}

	for (j = 0; j < a->n; j++) {
		int64_t r = ready(a, j);

		if (r > t) {
			if (hold) {
				t = r;
			} else {
				uint64_t upto = j + wm < a->n ? j + wm : a->n;

				t += b->disconnect_read[after_write] + 2 * b->controller;
				t = max64(t, ready(a, upto - 1)) + reselect_ns(s, false) + b->data_prep;
			}
		}
		t += bus;
	}
	return t;
}

/* ---- reads ---- */

/*
 * After a read served wholly from a segment, an idle drive goes back to the
 * segment's end and reads ahead from there, as far as the rules allow for
 * this read (DiskSim's "Read-ahead on idle hit"): its mechanics start
 * after the read's miss overhead, beside the hit's transfer.
 */
static void read_ahead_after_hit(struct disk_service *s, int64_t at, uint64_t lba, uint64_t n)
{
	int seg = (int)disk_cache_mru(&s->cache);	/* the segment that served the hit */
	uint64_t from = s->cache.end[seg], limit;
	struct media md;

	limit = ra_limit(s, lba, n);
	if (limit <= from || from >= s->layout.logical_sectors)
		return;
	media_access(s, max64(at, s->busy_until), INT64_MIN, INT64_MIN, false, false, from, 1, &md);
	s->head.last_write = false;
	s->seg = seg;
	s->seg_start = s->cache.start[seg];
	s->ra_from = from;
	s->ra_limit = limit;
	s->ra_floor = lba + n + s->ra_min;
	s->ra_t0 = md.first;
	s->ra_sector_ns = stream_sector_ns(s, from);
	s->streaming = true;
}

/*
 * A read served by the running read-ahead moves its limit to where this
 * read's own read-ahead would stop (DiskSim keeps the larger of the two:
 * each read that uses the segment sets its maximum read-ahead anew).
 */
static void extend_read_ahead(struct disk_service *s, uint64_t lba, uint64_t n)
{
	uint64_t limit = ra_limit(s, lba, n);

	if (limit > s->ra_limit)
		s->ra_limit = limit;
	if (lba + n + s->ra_min > s->ra_floor)
		s->ra_floor = lba + n + s->ra_min;
}

/*
 * How many sectors from lba on a segment already holds, when it holds the
 * first but not all (a partial hit); 0 otherwise.
 */
static uint64_t buffered_prefix(const struct disk_service *s, uint64_t lba, uint64_t n)
{
	const struct disk_cache *c = &s->cache;
	uint64_t best = 0;
	unsigned i;

	for (i = 0; i < c->nseg; i++)
		if (c->held[i] && lba >= c->start[i] && lba < c->end[i] &&
		    c->end[i] - lba > best)
			best = c->end[i] - lba;
	return best < n ? best : 0;
}

enum hit_type { HIT_WHOLE, HIT_PARTIAL, HIT_NONE };

static int64_t read_command(struct disk_service *s, int64_t now, uint64_t lba, uint64_t n,
			    enum disk_service_kind *kind)
{
	const struct disk_mech *mc = &s->mech;
	const struct disk_bus_phases *b = &s->bus;
	bool after_write = s->head.last_write, destaging = s->busy_until > now, immediate;
	int64_t miss_ovh = disk_mech_overhead_ns(mc, false, true, after_write), start;
	enum hit_type hit = HIT_NONE;
	struct arrival a = { .n = n, .have = n };
	struct media md;
	uint64_t wm = read_watermark(s, n);

	stream_advance(s, now);
	if (disk_cache_read_hit(&s->cache, lba, n)) {
		hit = HIT_WHOLE;
		*kind = DISK_SERVED_HIT;
		s->head.last_write = false;
		if (s->streaming && disk_cache_mru(&s->cache) == (unsigned)s->seg &&
		    s->cache.end[s->seg] < s->ra_limit)
			extend_read_ahead(s, lba, n);	/* its read-ahead still runs */
		if (s->streaming && s->cache.end[s->seg] >= s->ra_limit)
			stream_stop(s, now, false);	/* finished: the head rests where it ended */
		if (s->ra_on_hit && s->read_ahead && !s->streaming)
			read_ahead_after_hit(s, now + miss_ovh, lba, n);
	} else if (s->streaming && lba >= s->seg_start &&
		   (lba < s->cache.end[s->seg] ||
		    (lba == s->cache.end[s->seg] && s->almost_read_hits))) {
		/*
		 * A read that starts in the segment while its read-ahead runs
		 * sets the read-ahead's limit from its own end, so a read
		 * reaching past the old limit is served by the same pass.
		 */
		if (s->cache.end[s->seg] < s->ra_limit)
			extend_read_ahead(s, lba, n);
		if (lba + n <= s->ra_limit) {
			hit = HIT_PARTIAL;
			*kind = DISK_SERVED_STREAM;
			s->head.last_write = false;
			a.have = s->cache.end[s->seg] - lba;
			a.t0 = stream_time(s, s->cache.end[s->seg]);
			a.per = s->ra_sector_ns;
		}
	}
	if (hit == HIT_NONE) {
		/* From the media: what no segment holds, after what one holds (a partial hit). */
		int64_t free_at = stream_stop(s, now, false);
		uint64_t prefix = buffered_prefix(s, lba, n);
		int seg;

		start = max64(max64(now + miss_ovh, s->busy_until), free_at);
		media_access(s, start, INT64_MIN, INT64_MIN, false, false, lba + prefix, n - prefix,
			     &md);
		a.have = prefix;
		a.md = &md;
		hit = prefix ? HIT_PARTIAL : HIT_NONE;
		if (prefix) {
			/* Marks the segment used (it is then the LRU list's last) and grows it. */
			disk_cache_read_hit(&s->cache, lba, prefix);
			seg = (int)disk_cache_mru(&s->cache);
			disk_cache_extend(&s->cache, (unsigned)seg, lba + n, s->seg_sectors);
		} else {
			disk_cache_fill(&s->cache, lba, n);
			seg = s->cache.last_filled;
		}
		if (s->read_ahead) {
			s->seg = seg;
			s->seg_start = s->cache.start[seg];
			s->ra_from = lba + n;
			s->ra_limit = ra_limit(s, lba, n);
			s->ra_floor = lba + n + s->ra_min;
			/* After a zero-latency track the head comes to the read's end again only later. */
			s->ra_t0 = md.end;
			if (md.piece[md.npieces - 1].wrap) {
				const struct media_piece *p = &md.piece[md.npieces - 1];

				s->ra_t0 += (int64_t)(p->n - p->wrap) * p->sector;
			}
			s->streaming = s->ra_limit > s->ra_from;
			if (s->streaming)
				s->ra_sector_ns = stream_sector_ns(s, s->ra_from);
		}
		{
			uint64_t ps, nps;

			disk_layout_physical(&s->layout, lba + n - 1, 1, &ps, &nps);
			s->last_read_ps = ps + 1;
		}
		if (s->read_data == DISK_READ_DATA_DROP) {
			/* The read's own data leaves the segment as it completes. */
			s->cache.start[seg] = lba + n;
			s->seg_start = lba + n;
		}
		*kind = DISK_SERVED_MEDIA;
	}
	/*
	 * The bus (DiskSim's disk_read_arrive): the data goes at once, after
	 * the hit overhead and data preparation, when the drive never
	 * disconnects, when all of it is buffered, or when part is and
	 * partial_hits allows (or the watermark's worth is there) — and, while
	 * the mechanism destages writes, only if that kind of hit may sneak
	 * past them. Otherwise the drive disconnects after the miss overhead
	 * and reselects when the watermark's worth is in (and the mechanism
	 * is its own).
	 */
	immediate = b->never_disconnect || hit == HIT_WHOLE ||
		(hit == HIT_PARTIAL && (s->partial_hits || a.have >= wm));
	if (immediate && destaging && !b->never_disconnect &&
	    !(hit == HIT_WHOLE ? s->sneaky_full : s->sneaky_partial))
		immediate = false;
	if (immediate) {
		start = now + disk_mech_overhead_ns(mc, false, hit == HIT_NONE, after_write) +
			b->data_prep + 2 * b->controller;
	} else {
		int64_t back = now + miss_ovh + b->disconnect_read[after_write] + 2 * b->controller;

		back = max64(back, ready(&a, wm - 1));
		if (destaging)
			back = max64(back, s->busy_until);
		start = back + reselect_ns(s, false) + b->data_prep;
	}
	return send_read(s, &a, start, after_write) + mc->completion[0] + b->controller;
}

/* ---- writes ---- */

/*
 * When a write's first sector may go down, its data arriving from data0 at
 * the bus's pace: each sector goes down only if its data is in when it
 * comes under the head (DiskSim's disk_buffer_block_available), so the
 * first waits for one sector, or for enough that the rest keep ahead of
 * the head when the bus is slower than the media. A drive with
 * extra_write_disconnect also wants the first min(n, 10) sectors in (15 of
 * a write of 45 or more) before it starts, as DiskSim has it for the one
 * drive that showed that behaviour.
 */
static int64_t write_first_sector(const struct disk_service *s, int64_t data0, uint64_t lba,
				  uint64_t n)
{
	int64_t bus = s->mech.bus_sector[1], sect, behind;
	uint64_t ps, nps, need = 1;

	disk_layout_physical(&s->layout, lba, 1, &ps, &nps);
	sect = sector_ns(s, ps);
	if (s->bus.extra_write_disconnect)
		need = n < 45 ? (n < 10 ? n : 10) : 15;
	behind = bus > sect ? (int64_t)(n - 1) * (bus - sect) : 0;
	return data0 + max64((int64_t)need * bus, bus + behind);
}

/*
 * A write larger than its segment: the buffer takes a segment's worth, the
 * rest only as the media writes free room. With hold_bus_write (or
 * never_disconnect) the drive waits on the bus and takes each sector as
 * room appears; without, it disconnects once the segment is full
 * (disconnect_write) and reselects (reselect_first, data_prep) when its
 * dirty data is down to write_watermark's share, then takes what fits
 * (DiskSim's disk_request_needs_bus). A sector whose data is not in when it
 * comes under the head goes down a revolution later, and every later one
 * with it. Sector i passes the head at first + i x (end - first) / n.
 * Moves md->end by the revolutions lost; returns when the last data is in.
 */
static int64_t write_beyond_segment(struct disk_service *s, int64_t data0, uint64_t n,
				    struct media *md)
{
	const struct disk_bus_phases *b = &s->bus;
	bool hold = b->hold_write || b->never_disconnect;
	uint64_t seg = s->seg_sectors, wm = watermark_sectors(s, s->write_watermark, n), i;
	uint64_t chunk_end = seg, written = 0;
	int64_t bus = s->mech.bus_sector[1], rev = s->layout.rev_ns, span = md->end - md->first;
	int64_t shift = 0, last_in = data0, chunk_t0 = data0;

	for (i = 0; i < n; i++) {
		int64_t pass = md->first + (int64_t)i * span / (int64_t)n + shift, in;

		if (i < seg) {
			in = data0 + (int64_t)(i + 1) * bus;
		} else if (hold) {
			in = max64(last_in, s->down[i - seg]) + bus;
		} else {
			if (i == chunk_end) {
				/* Full: off the bus, back once the dirty data is down to the watermark. */
				int64_t back = last_in + b->disconnect_write + 2 * b->controller;
				uint64_t dirty;

				if (chunk_end > wm)
					back = max64(back, s->down[chunk_end - wm - 1]);
				back += reselect_ns(s, false) + b->data_prep;
				while (written < i && s->down[written] <= back)
					written++;
				dirty = chunk_end - written;
				chunk_end += seg - dirty < n - chunk_end ? seg - dirty : n - chunk_end;
				chunk_t0 = back - (int64_t)i * bus;
			}
			in = chunk_t0 + (int64_t)(i + 1) * bus;
		}
		while (in > pass) {
			shift += rev;
			pass += rev;
		}
		s->down[i] = pass + span / (int64_t)n;
		last_in = in;
	}
	md->end += shift;
	return last_in;
}

/* The write cache: dirty segments whose media write has ended are clean. */
static void retire_dirty(struct disk_service *s, int64_t now)
{
	while (s->ndirty && s->dirty[s->dirty_head].done <= now) {
		s->dirty_head = (s->dirty_head + 1) % DISK_SERVICE_DESTAGES;
		s->ndirty--;
	}
}

static struct disk_service_dirty *last_dirty(struct disk_service *s)
{
	return &s->dirty[(s->dirty_head + s->ndirty - 1) % DISK_SERVICE_DESTAGES];
}

/*
 * Write-back (DiskSim's fast write): the data goes in and the write
 * completes; its media write follows the earlier ones. While the mechanism
 * is writing them, a write continuing the last dirty segment joins it;
 * another is taken at once only with write_prebuffering and a free write
 * segment, and otherwise disconnects and waits for the mechanism.
 */
static int64_t write_cached(struct disk_service *s, int64_t now, int64_t free_at, uint64_t lba,
			    uint64_t n)
{
	const struct disk_mech *mc = &s->mech;
	const struct disk_bus_phases *b = &s->bus;
	bool after_write = s->head.last_write, busy = s->busy_until > now, append = false;
	int64_t ovh = disk_mech_overhead_ns(mc, true, false, after_write), data0, data_end, start;
	struct media md;

	retire_dirty(s, now);
	if (s->combine_writes && s->ndirty) {
		const struct disk_service_dirty *d = last_dirty(s);

		append = lba == d->end && d->end + n - d->start <= s->seg_sectors;
	}
	if (!busy || append || (s->write_prebuffering && s->ndirty < s->write_segments)) {
		data0 = now + ovh + b->data_prep + 2 * b->controller;
	} else {
		int64_t back = now + ovh + b->disconnect_write + 2 * b->controller;

		data0 = max64(back, s->busy_until) + reselect_ns(s, false) + b->data_prep;
	}
	start = max64(max64(now + ovh, s->busy_until), free_at);
	data_end = data0 + disk_mech_bus_ns(mc, true, n);
	media_access(s, start, write_first_sector(s, data0, lba, n), data_end, true,
		     append && s->busy_until >= now + ovh, lba, n, &md);
	if (n > s->seg_sectors && n <= DISK_SERVICE_MAX_SECTORS)
		data_end = write_beyond_segment(s, data0, n, &md);
	s->busy_until = md.end;
	if (append) {
		last_dirty(s)->end += n;
		last_dirty(s)->done = md.end;
	} else {
		if (s->ndirty == DISK_SERVICE_DESTAGES)
			retire_dirty(s, INT64_MAX);
		s->dirty[(s->dirty_head + s->ndirty) % DISK_SERVICE_DESTAGES] =
			(struct disk_service_dirty){ lba, lba + n, md.end };
		s->ndirty++;
	}
	return data_end + mc->completion[1] + b->controller;
}

/*
 * Write-through: the write completes once it is on the media and the drive
 * has reselected the host for status.
 */
static int64_t write_through(struct disk_service *s, int64_t now, int64_t free_at, uint64_t lba,
			     uint64_t n)
{
	const struct disk_mech *mc = &s->mech;
	const struct disk_bus_phases *b = &s->bus;
	bool after_write = s->head.last_write;
	bool extra = b->extra_write_disconnect && !b->never_disconnect && after_write &&
		lba != s->last_write_end;
	int64_t mech, data0, data_end, status;
	struct media md;

	if (extra) {
		/*
		 * DiskSim's extra write disconnect: the drive leaves the bus
		 * before taking any data and asks for it after the
		 * inter-disconnect delay; its mechanics start on their own.
		 */
		int64_t gone = now + b->xd_command + b->xd_disconnect + 2 * b->controller;

		mech = now + b->xd_command + b->xd_seek_delta;
		data0 = gone + b->xd_inter_disconnect + reselect_ns(s, false) + b->data_prep;
	} else {
		mech = now + disk_mech_overhead_ns(mc, true, true, after_write);
		data0 = mech + b->data_prep + 2 * b->controller;
	}
	data_end = data0 + disk_mech_bus_ns(mc, true, n);
	media_access(s, max64(max64(mech, s->busy_until), free_at),
		     write_first_sector(s, data0, lba, n), data_end, true, false, lba, n, &md);
	if (n > s->seg_sectors && n <= DISK_SERVICE_MAX_SECTORS)
		data_end = write_beyond_segment(s, data0, n, &md);
	if (b->never_disconnect) {
		status = max64(md.end, data_end);
	} else {
		int64_t gone = data_end + (extra ? b->xd_disconnect2 : b->disconnect_write) +
			2 * b->controller;

		status = max64(md.end, gone) + reselect_ns(s, extra);
	}
	return status + mc->completion[1] + b->controller;
}

static int64_t write_command(struct disk_service *s, int64_t now, uint64_t lba, uint64_t n,
			     enum disk_service_kind *kind)
{
	bool overlaps = s->streaming && lba < s->cache.end[s->seg] && lba + n > s->seg_start;
	int64_t free_at = stream_stop(s, now, overlaps), done;

	disk_cache_invalidate(&s->cache, lba, n);
	if (s->write_cache) {
		done = write_cached(s, now, free_at, lba, n);
		*kind = DISK_SERVED_CACHED;
	} else {
		done = write_through(s, now, free_at, lba, n);
		*kind = DISK_SERVED_MEDIA;
	}
	if (!s->write_segment) {
		/* The write went through a read segment: it keeps the data, or is left empty. */
		disk_cache_fill(&s->cache, lba, n);
		if (!s->read_hits_on_writes)
			disk_cache_invalidate(&s->cache, lba, n);
	}
	s->head.last_write = true;
	s->last_write_end = lba + n;
	return done;
}

int64_t disk_service_command(struct disk_service *s, int64_t now, bool write, uint64_t lba,
			     uint64_t n, enum disk_service_kind *kind)
{
	/* The command wins the bus, crosses the controllers, and waits its per-request overhead. */
	now += s->bus.arbitration + s->bus.controller + s->bus.request;
	return write ? write_command(s, now, lba, n, kind) : read_command(s, now, lba, n, kind);
}
