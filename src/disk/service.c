#include "disk/service.h"

#include <stdint.h>
#include <string.h>

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

int disk_service_init(struct disk_service *s, const struct disk_model *m, struct err *e)
{
	memset(s, 0, sizeof(*s));
	if (disk_layout_build(&s->layout, m, e) || disk_mech_init(&s->mech, &s->layout, m, e))
		return -1;
	disk_cache_init(&s->cache, m->cache_segments, m->write_buffer);
	s->ra_max = m->read_ahead_max / m->logical_sector_size;
	s->seg_sectors = m->segment_size / m->logical_sector_size;
	s->read_ahead = m->read_ahead && s->ra_max > 0;
	s->write_cache = m->write_cache;
	s->write_buffer = m->write_buffer;
	s->read_hits_on_writes = m->read_hits_on_writes;
	s->ra_on_hit = m->read_ahead_on_hit;
	s->partial_hits = m->partial_hits;
	s->write_after_random_write = m->overhead_write_after_random_write;
	s->ra_rule = m->read_ahead_rule;
	s->watermark = m->read_watermark;
	s->write_watermark = m->write_watermark;
	s->watermark_by_request = m->watermark_by_request;
	s->seg = -1;
	return 0;
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
	uint64_t per_track;

	disk_layout_physical(l, lbn, 1, &ps, &nps);
	z = &l->zone[disk_layout_zone(l, ps)];
	per_track = l->mapped ? (z->unit == z->spt ? z->data_per_unit : z->spt) :
		(uint64_t)z->spt * l->lpp;
	return (l->rev_ns + disk_layout_sectors_ns(l, z, z->head_skew)) / (int64_t)per_track;
}

/*
 * LBNs from `lbn` to the end of its track (tracks = 1) or of the next
 * tracks, counting the track's data sectors only.
 */
static uint64_t to_track_end(const struct disk_service *s, uint64_t lbn, unsigned tracks)
{
	const struct disk_layout *l = &s->layout;
	uint64_t ps, nps, per_track;
	const struct disk_zone *z;
	struct disk_chs c;

	disk_layout_physical(l, lbn, 1, &ps, &nps);
	disk_layout_locate(l, ps, &c);
	z = &l->zone[c.zone];
	per_track = l->mapped ? (z->unit == z->spt ? z->data_per_unit : z->spt) :
		(uint64_t)z->spt * l->lpp;
	if (c.sector >= per_track)
		return (tracks - 1) * per_track;
	return per_track - c.sector + (tracks - 1) * per_track;
}

/* The zone-relative track of a physical sector, and its zone, as one number. */
static uint64_t track_id(const struct disk_layout *l, uint64_t ps)
{
	const struct disk_zone *z = &l->zone[disk_layout_zone(l, ps)];

	return ((uint64_t)(z - l->zone) << 40) | ((ps - z->first_ps) / z->spt);
}

/*
 * Where the read-ahead after a read [lba, lba + n) stops, in a segment that
 * starts at seg_start.
 */
static uint64_t ra_limit(const struct disk_service *s, uint64_t lba, uint64_t n,
			 uint64_t prev_ps)
{
	const struct disk_layout *l = &s->layout;
	uint64_t end = lba + n, limit = end + s->ra_max, ps, nps;

	switch (s->ra_rule) {
	case DISK_RA_TRACK:
		limit = end + to_track_end(s, end - 1, 1) - 1;
		break;
	case DISK_RA_CYLINDER: {
		/* The rest of the track, then the cylinder's later tracks. */
		uint64_t per_track = to_track_end(s, end - 1, 2) - to_track_end(s, end - 1, 1);
		struct disk_chs c;

		disk_layout_physical(l, end - 1, 1, &ps, &nps);
		disk_layout_locate(l, ps, &c);
		limit = end + to_track_end(s, end - 1, 1) - 1 +
			(uint64_t)(l->heads - 1 -
				   disk_layout_track_slot(l, &l->zone[c.zone], c.cyl, c.head)) * per_track;
		break;
	}
	case DISK_RA_SEQUENTIAL:
		/* A stream is one whose previous read ended on the track before this one. */
		disk_layout_physical(l, lba, 1, &ps, &nps);
		if (!prev_ps || track_id(l, prev_ps - 1) + 1 != track_id(l, ps))
			return end;
		limit = end + to_track_end(s, end - 1, 2) - 1;
		break;
	default:
		break;
	}
	if (limit > end + s->ra_max)
		limit = end + s->ra_max;
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
	if (s->cache.start[s->seg] != s->seg_start || !s->cache.last_use[s->seg]) {
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

/* The head leaves the stream: it is on the track of the last LBN read ahead. */
static void stream_stop(struct disk_service *s, int64_t now)
{
	uint64_t last, ps, nps;
	struct disk_chs c;

	stream_advance(s, now);
	if (!s->streaming)
		return;
	s->streaming = false;
	last = s->cache.end[s->seg];
	if (last <= s->ra_from)
		return;
	disk_layout_physical(&s->layout, last - 1, 1, &ps, &nps);
	disk_layout_locate(&s->layout, ps, &c);
	s->head.cyl = c.cyl;
	s->head.head = c.head;
}

/* One sector's media time where lba is. */
static int64_t sector_ns(const struct disk_service *s, uint64_t ps)
{
	const struct disk_layout *l = &s->layout;

	return disk_layout_sectors_ns(l, &l->zone[disk_layout_zone(l, ps)], 1);
}

struct media {
	int64_t first;	/* the first sector comes under the head */
	int64_t end;	/* the last has passed */
	int64_t sector;	/* one sector's time there */
};

/*
 * The share of a transfer that must be buffered before it moves on — sent
 * to the host (a read), written to the media (a write) — as DiskSim counts
 * its water marks: of the request (at most a segment), rounded down but at
 * least one sector, or of a segment, rounded up; never more than the request.
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
 * A media access whose mechanics start at `start` (after any overhead),
 * its first sector no sooner than `not_before`.
 */
static void media_access(struct disk_service *s, int64_t start, int64_t not_before, bool write,
			 uint64_t lba, uint64_t n, struct media *out)
{
	struct disk_access acc;
	struct disk_chs where;
	uint64_t ps, nps;
	/* disk_mech_access_at counts the miss overhead first: start it that much earlier. */
	int64_t ovh = disk_mech_overhead_ns(&s->mech, write, true, s->head.last_write);

	disk_layout_physical(&s->layout, lba, n, &ps, &nps);
	disk_layout_locate(&s->layout, ps, &where);
	disk_mech_access_after(&s->mech, &s->head, start - ovh, not_before, &where, nps, write, 0,
			       &acc);
	out->first = start + acc.seek + acc.rotate;
	out->end = out->first + acc.transfer;
	out->sector = sector_ns(s, ps);
}

/*
 * When a write's media transfer may start: once the write watermark's
 * share of its data is in, and late enough that the rest keeps ahead of
 * the head when the bus is slower than the media.
 */
static int64_t write_data_ready(const struct disk_service *s, int64_t start, uint64_t lba,
				uint64_t n)
{
	const struct disk_mech *mc = &s->mech;
	uint64_t ps, nps;
	int64_t sect, wm, keep_ahead;

	disk_layout_physical(&s->layout, lba, 1, &ps, &nps);
	sect = sector_ns(s, ps);
	wm = disk_mech_bus_ns(mc, true, watermark_sectors(s, s->write_watermark, n));
	keep_ahead = disk_mech_bus_ns(mc, true, n) - (int64_t)(n - 1) * sect;
	return start + max64(wm, keep_ahead);
}

/*
 * After a read served wholly from a segment, an idle drive goes back to the
 * segment's end and reads ahead from there, as far as the rules allow for
 * this read (DiskSim's "Read-ahead on idle hit").
 */
static void read_ahead_after_hit(struct disk_service *s, int64_t done, uint64_t lba, uint64_t n)
{
	int seg = (int)s->cache.lru.tail;	/* the segment that served the hit */
	uint64_t from = s->cache.end[seg], limit;
	struct media md;

	limit = ra_limit(s, lba, n, s->last_read_ps);
	if (limit <= from || from >= s->layout.logical_sectors)
		return;
	media_access(s, max64(done, s->busy_until), INT64_MIN, false, from, 1, &md);
	s->head.last_write = false;
	s->seg = seg;
	s->seg_start = s->cache.start[seg];
	s->ra_from = from;
	s->ra_limit = limit;
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
	uint64_t limit = ra_limit(s, lba, n, s->last_read_ps);

	if (limit > s->ra_limit)
		s->ra_limit = limit;
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
		if (c->last_use[i] && lba >= c->start[i] && lba < c->end[i] &&
		    c->end[i] - lba > best)
			best = c->end[i] - lba;
	return best < n ? best : 0;
}

static int64_t read_command(struct disk_service *s, int64_t now, uint64_t lba, uint64_t n,
			    enum disk_service_kind *kind)
{
	const struct disk_mech *mc = &s->mech;
	bool after_write = s->head.last_write;
	struct media md;
	uint64_t prefix;
	int64_t start;
	int seg;

	stream_advance(s, now);
	if (disk_cache_read_hit(&s->cache, lba, n)) {
		int64_t done = now + disk_mech_overhead_ns(mc, false, false, after_write) +
			disk_mech_bus_ns(mc, false, n) + mc->completion[0];

		*kind = DISK_SERVED_HIT;
		s->head.last_write = false;
		if (s->streaming && s->cache.lru.tail == (unsigned)s->seg &&
		    s->cache.end[s->seg] < s->ra_limit)
			extend_read_ahead(s, lba, n);	/* its read-ahead still runs */
		if (s->streaming && s->cache.end[s->seg] >= s->ra_limit)
			stream_stop(s, now);	/* finished: the head rests where it ended */
		if (s->ra_on_hit && s->read_ahead && !s->streaming)
			read_ahead_after_hit(s, done, lba, n);
		return done;
	}
	/*
	 * A read that starts in the segment while its read-ahead still runs
	 * sets the read-ahead's limit from its own end, so a read reaching
	 * past the old limit is served by the same pass.
	 */
	if (s->streaming && lba >= s->seg_start && lba <= s->cache.end[s->seg] &&
	    s->cache.end[s->seg] < s->ra_limit)
		extend_read_ahead(s, lba, n);
	if (s->streaming && lba >= s->seg_start && lba <= s->cache.end[s->seg] &&
	    lba + n <= s->ra_limit) {
		/* Still coming under the head: sent as the stream passes it. */
		int64_t ready = s->ra_t0 + (int64_t)(lba + n - s->ra_from) * s->ra_sector_ns;
		int64_t t = now + disk_mech_overhead_ns(mc, false, false, after_write);

		*kind = DISK_SERVED_STREAM;
		s->head.last_write = false;
		return max64(t + disk_mech_bus_ns(mc, false, n), ready + disk_mech_bus_ns(mc, false, 1)) +
			mc->completion[0];
	}
	stream_stop(s, now);
	prefix = s->partial_hits ? buffered_prefix(s, lba, n) : 0;
	start = max64(now + disk_mech_overhead_ns(mc, false, true, after_write), s->busy_until);
	media_access(s, start, INT64_MIN, false, lba + prefix, n - prefix, &md);
	if (prefix) {
		/* Marks the segment used (it is then the LRU list's last) and grows it. */
		disk_cache_read_hit(&s->cache, lba, prefix);
		seg = (int)s->cache.lru.tail;
		disk_cache_extend(&s->cache, (unsigned)seg, lba + n, s->seg_sectors);
	} else {
		disk_cache_fill(&s->cache, lba, n);
		seg = s->cache.last_filled;
	}
	if (s->read_ahead) {
		s->seg = seg;
		s->seg_start = s->cache.start[seg];
		s->ra_from = lba + n;
		s->ra_limit = ra_limit(s, lba, n, s->last_read_ps);
		s->ra_t0 = md.end;
		s->streaming = s->ra_limit > s->ra_from;
		if (s->streaming)
			s->ra_sector_ns = stream_sector_ns(s, s->ra_from);
	}
	{
		uint64_t ps, nps;

		disk_layout_physical(&s->layout, lba + n - 1, 1, &ps, &nps);
		s->last_read_ps = ps + 1;
	}
	*kind = DISK_SERVED_MEDIA;
	if (prefix) {
		/* The buffered part goes at once; the rest as the media delivers it. */
		int64_t t = now + disk_mech_overhead_ns(mc, false, true, after_write);

		return max64(t + disk_mech_bus_ns(mc, false, n), md.end + disk_mech_bus_ns(mc, false, 1)) +
			mc->completion[0];
	}
	/*
	 * The host gets the data once the watermark's share is buffered, at
	 * the bus's pace, and the last sector no sooner than it is read.
	 */
	{
		uint64_t wm = watermark_sectors(s, s->watermark, n);
		int64_t send = md.first + (int64_t)wm * (md.end - md.first) / (int64_t)n;

		return max64(md.end + disk_mech_bus_ns(mc, false, 1),
			     send + disk_mech_bus_ns(mc, false, n)) + mc->completion[0];
	}
}

static int64_t write_command(struct disk_service *s, int64_t now, uint64_t lba, uint64_t n,
			     enum disk_service_kind *kind)
{
	const struct disk_mech *mc = &s->mech;
	bool after_write = s->head.last_write;
	struct media md;
	int64_t done;

	stream_stop(s, now);
	disk_cache_invalidate(&s->cache, lba, n);
	if (s->write_cache) {
		/*
		 * The data goes in once the buffer has room for it: dirty data
		 * stays until its media write ends (write_buffer; a measured
		 * drive's is its write segments). Media writes follow one another
		 * in arrival order while the drive has nothing else to do.
		 */
		int64_t in = now + disk_mech_overhead_ns(mc, true, false, after_write);
		uint64_t bytes = n * s->layout.logical_size;

		while (s->ndirty && (s->dirty_bytes + bytes > s->write_buffer ||
				     s->ndirty == DISK_SERVICE_DESTAGES ||
				     s->dirty[s->dirty_head].end <= in)) {
			/* The oldest dirty write leaves the buffer when it is on the media. */
			in = max64(in, s->dirty[s->dirty_head].end);
			s->dirty_bytes -= s->dirty[s->dirty_head].bytes;
			s->dirty_head = (s->dirty_head + 1) % DISK_SERVICE_DESTAGES;
			s->ndirty--;
		}
		in += disk_mech_bus_ns(mc, true, n);
		done = in + mc->completion[1];
		media_access(s, max64(in, s->busy_until), INT64_MIN, true, lba, n, &md);
		s->busy_until = md.end;
		s->dirty[(s->dirty_head + s->ndirty) % DISK_SERVICE_DESTAGES] =
			(struct disk_service_dirty){ md.end, bytes };
		s->ndirty++;
		s->dirty_bytes += bytes;
		*kind = DISK_SERVED_CACHED;
	} else {
		/*
		 * A write after a write it does not follow costs its own overhead
		 * (DiskSim's extra write disconnect: the drive disconnects before
		 * taking the data, and its mechanics wait Extradisc command
		 * overhead + Extradisc seek delta).
		 */
		int64_t ovh = after_write && s->write_after_random_write && lba != s->last_write_end ?
			s->write_after_random_write : disk_mech_overhead_ns(mc, true, true, after_write);
		int64_t start = max64(now + ovh, s->busy_until);

		media_access(s, start, write_data_ready(s, start, lba, n), true, lba, n, &md);
		done = max64(md.end, start + disk_mech_bus_ns(mc, true, n) + md.sector) +
			mc->completion[1];
		*kind = DISK_SERVED_MEDIA;
	}
	if (s->read_hits_on_writes)
		disk_cache_fill(&s->cache, lba, n);
	s->head.last_write = true;
	s->last_write_end = lba + n;
	return done;
}

int64_t disk_service_command(struct disk_service *s, int64_t now, bool write, uint64_t lba,
			     uint64_t n, enum disk_service_kind *kind)
{
	return write ? write_command(s, now, lba, n, kind) : read_command(s, now, lba, n, kind);
}
