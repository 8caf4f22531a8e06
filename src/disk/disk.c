#include "disk/disk.h"

#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/identify.h"
#include "ata/log.h"
#include "disk/cache.h"
#include "disk/layout.h"
#include "util/ilist.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOG_PAGES 16
#define STARTS_BUCKETS 256

struct slot_ref {
	struct disk *d;
	unsigned slot;
};

struct disk {
	struct sim *sim;
	struct disk_model model;
	struct disk_layout layout;
	struct disk_mech mech;
	struct fwq_rules rules;
	struct disk_cache cache;
	const struct disk_host_ops *ops;
	void *host;

	struct disk_head head;
	struct fwq_cmd slot[FWQ_SLOTS];
	struct slot_ref ref[FWQ_SLOTS];
	/*
	 * The slots waiting for the actuator, kept two ways so that a choice
	 * neither sorts nor scans: by cylinder, as the first nwaiting entries
	 * of cands[] (SATF walks outwards from the head; destages are appended
	 * behind them at each choice), and oldest first, a list of slots
	 * (aging looks at its head).
	 */
	unsigned nwaiting, nhigh;
	/*
	 * Waiting slots by their first sector modulo STARTS_BUCKETS: whether
	 * one could start where the head is, without a search. Random
	 * commands almost never do, and every media access asks.
	 */
	uint8_t starts[STARTS_BUCKETS];
	struct ilist by_age;
	uint32_t seq;			/* commands received, for fwq_cmd.seq */
	uint32_t tags_in_use;		/* NCQ tags the host has outstanding */
	bool nonqueued_busy;		/* a non-queued command is outstanding */

	/* Write-cache destages: a ring, oldest first. */
	struct fwq_cmd *destage;
	unsigned destage_cap, destage_head, destage_count;

	/* The actuator. */
	bool busy;
	struct fwq_cmd current;
	bool current_streamed;		/* current continues the stream: no overhead, no wait */
	/*
	 * Where the head goes next along the layout: set after every media
	 * access, run on by read-ahead while the actuator is otherwise idle
	 * (up to ra_limit) and by a read or destage that continues it.
	 */
	struct disk_stream stream;
	bool stream_located;		/* stream's track fields are filled in (found lazily) */
	bool reading_ahead;
	uint64_t ra_limit;		/* physical sector where read-ahead stops */
	uint64_t ra_max;		/* physical sectors read ahead beyond a read */
	uint64_t seg_size;		/* logical sectors in one cache segment */

	/* Completions batched into one SDB per instant. */
	uint32_t sdb_done, sdb_failed;
	bool sdb_scheduled;

	/* The response to a non-queued command, sent after the overhead. */
	uint8_t resp_fis[ATA_FIS_D2H_LEN];
	uint8_t resp_data[MAX_LOG_PAGES * ATA_LOG_PAGE_BYTES];
	size_t resp_len;

	bool write_cache, read_ahead;
	uint8_t ncq_error_log[ATA_LOG_PAGE_BYTES];
	struct disk_stats stats;
	disk_pick_fn pick_fn;
	void *pick_ctx;
	const struct fwq_cmd *cands[FWQ_SLOTS + FWQ_DESTAGE_WINDOW];
};

static void dispatch(struct disk *d);

/* ---- completions ---- */

static void sdb_flush(struct sim *sim, void *arg)
{
	struct disk *d = arg;
	struct ata_sdb s = { .interrupt = true };
	uint8_t fis[ATA_FIS_SDB_LEN];

	(void)sim;
	d->sdb_scheduled = false;
	if (d->sdb_failed) {
		/* An NCQ error: ERR in the status, the tag in log 10h. */
		struct ata_sdb f = { .interrupt = true, .status = ATA_STAT_DRDY | ATA_STAT_ERR,
			.error = ATA_ERR_IDNF, .sactive = d->sdb_failed };

		d->tags_in_use &= ~d->sdb_failed;
		d->sdb_failed = 0;
		ata_sdb_encode(&f, fis);
		d->ops->sdb(d->host, fis, sizeof(fis));
	}
	if (d->sdb_done) {
		s.status = ATA_STAT_DRDY;
		s.sactive = d->sdb_done;
		d->tags_in_use &= ~d->sdb_done;
		d->sdb_done = 0;
		ata_sdb_encode(&s, fis);
		d->ops->sdb(d->host, fis, sizeof(fis));
	}
}

static void complete_tag(struct disk *d, unsigned tag, bool failed)
{
	if (failed)
		d->sdb_failed |= 1u << tag;
	else
		d->sdb_done |= 1u << tag;
	if (!d->sdb_scheduled) {
		d->sdb_scheduled = true;
		sim_at(d->sim, sim_now(d->sim), sdb_flush, d);
	}
}

static void send_response(struct sim *sim, void *arg)
{
	struct disk *d = arg;

	(void)sim;
	d->nonqueued_busy = false;
	d->ops->d2h(d->host, d->resp_fis, sizeof(d->resp_fis), d->resp_len ? d->resp_data : NULL,
		    d->resp_len);
}

/* Answer the non-queued command after `delay`, with status/error and data. */
static void respond(struct disk *d, int64_t delay, uint8_t status, uint8_t error, size_t data_len)
{
	struct ata_d2h r = { .status = status, .error = error, .interrupt = true,
		.device = ATA_DEVICE_LBA };

	ata_d2h_encode(&r, d->resp_fis);
	d->resp_len = data_len;
	d->nonqueued_busy = true;
	sim_after(d->sim, delay, send_response, d);
}

/* A command on `slot` finished well: a good D2H now for the non-queued one, else its SDB bit. */
static void complete_ok(struct disk *d, unsigned slot)
{
	if (slot == FWQ_NONQUEUED) {
		struct ata_d2h r = { .status = ATA_STAT_DRDY, .interrupt = true,
			.device = ATA_DEVICE_LBA };

		ata_d2h_encode(&r, d->resp_fis);
		d->resp_len = 0;
		send_response(d->sim, d);
		return;
	}
	complete_tag(d, slot, false);
}

static void abort_command(struct disk *d)
{
	d->stats.aborted++;
	respond(d, d->model.command_overhead, ATA_STAT_DRDY | ATA_STAT_ERR, ATA_ERR_ABRT, 0);
}

/* Cache hits and write-cache fills finish without the actuator. */
static void front_end_done(struct sim *sim, void *arg)
{
	struct slot_ref *ref = arg;

	(void)sim;
	complete_ok(ref->d, ref->slot);
}

static int64_t interface_ns(const struct disk *d, uint64_t bytes)
{
	return (int64_t)((double)bytes * 1000.0 / d->model.interface_mbs);
}

static bool stream_continue(struct disk *d);

static void media_done(struct sim *sim, void *arg)
{
	struct disk *d = arg;
	struct fwq_cmd *c = &d->current;
	int64_t now = sim_now(d->sim);
	bool was_read = !c->write;

	(void)sim;
	d->busy = false;
	/*
	 * A streamed command leaves the stream where it ended; any other starts
	 * it here (its track is looked up only if something continues it).
	 */
	if (!d->current_streamed) {
		d->stream.ps = c->ps + c->nps;
		d->stream.t = now;
		d->stream_located = false;
	}
	if (c->write) {
		disk_cache_invalidate(&d->cache, c->lba, c->nlb);
	} else {
		if (d->current_streamed && d->cache.last_filled >= 0)
			disk_cache_extend(&d->cache, (unsigned)d->cache.last_filled, c->lba + c->nlb,
					  d->seg_size);
		else
			disk_cache_fill(&d->cache, c->lba, c->nlb);
		d->ra_limit = c->ps + c->nps + d->ra_max;
	}
	d->current_streamed = false;
	if (c->destage)
		d->cache.dirty_bytes -= c->nlb * d->layout.logical_size;
	else
		complete_ok(d, c->tag);
	if (!stream_continue(d))
		dispatch(d);
	/* Idle after a read: read-ahead (ra_max sectors) until a command needs the head. */
	d->reading_ahead = !d->busy && was_read && d->read_ahead && d->ra_max;
}

/* ---- the actuator ---- */

/*
 * Read-ahead up to now: the sectors that have passed under the head since
 * the last media read go into its segment (until ra_limit, or until a
 * write dropped the segment). Called whenever a command arrives and before
 * every choice, so a hit test always sees what the drive has read by then.
 */
static void stream_locate(struct disk *d)
{
	if (!d->stream_located)
		disk_mech_stream_after(&d->mech, &d->stream, d->stream.ps - 1, d->stream.t);
	d->stream_located = true;
}

static void read_ahead_catch_up(struct disk *d)
{
	uint64_t end;

	if (!d->reading_ahead)
		return;
	if (d->cache.last_filled < 0) {
		/* A write dropped the segment: reading ahead into it stops. */
		d->reading_ahead = false;
		return;
	}
	if (sim_now(d->sim) <= d->stream.t)
		return;		/* nothing more has passed under the head */
	stream_locate(d);
	disk_mech_stream_run(&d->mech, &d->stream, d->ra_limit, sim_now(d->sim), false);
	end = d->stream.ps * d->layout.lpp;
	if (end > d->layout.logical_sectors)
		end = d->layout.logical_sectors;
	disk_cache_extend(&d->cache, (unsigned)d->cache.last_filled, end, d->seg_size);
}

/* A command needs the head: read-ahead stops where it has got to. */
static void read_ahead_stop(struct disk *d)
{
	if (!d->reading_ahead)
		return;
	read_ahead_catch_up(d);
	d->reading_ahead = false;
	/* Not located: the stream has not moved from where the last access left the head. */
	if (d->stream_located) {
		d->head.cyl = d->stream.cyl;
		d->head.head = d->stream.head;
	}
}

/*
 * Whether read-ahead is still reading: it has not reached its limit, or the
 * next sector has yet to come under the head.
 */
static bool read_ahead_running(const struct disk *d)
{
	return d->reading_ahead && (d->stream.ps < d->ra_limit || d->stream.t >= sim_now(d->sim));
}

_Static_assert(FWQ_SLOTS <= ILIST_MAX, "the age list indexes slots");
_Static_assert(FWQ_SLOTS <= UINT8_MAX, "a starts[] bucket counts waiting slots");

/* A slot starts waiting: into cands[] by cylinder, onto the age list. */
static void waiting_insert(struct disk *d, unsigned slot)
{
	const struct fwq_cmd *c = &d->slot[slot];
	unsigned n = d->nwaiting, base = 0, len = n, pos, after;

	/* After the last with a cylinder <= ours: a branch-free binary search. */
	while (len > 1) {
		unsigned half = len / 2;

		base = d->cands[base + half]->where.cyl <= c->where.cyl ? base + half : base;
		len -= half;
	}
	pos = n && d->cands[base]->where.cyl <= c->where.cyl ? base + 1 : base;
	memmove(&d->cands[pos + 1], &d->cands[pos], (n - pos) * sizeof(d->cands[0]));
	d->cands[pos] = c;
	d->nwaiting++;
	d->nhigh += c->high;
	d->starts[c->ps % STARTS_BUCKETS]++;
	/* Arrivals come in time order; at one instant the tag decides (fwq_older). */
	after = d->by_age.tail;
	while (after != ILIST_NONE && fwq_older(c, &d->slot[after]))
		after = d->by_age.prev[after];
	ilist_insert_after(&d->by_age, slot, after);
}

/* The slot at cands[pos] goes to the actuator. */
static inline __attribute__((always_inline)) void waiting_remove(struct disk *d, unsigned pos)
{
	d->nhigh -= d->cands[pos]->high;
	d->starts[d->cands[pos]->ps % STARTS_BUCKETS]--;
	ilist_unlink(&d->by_age, d->cands[pos]->tag);
	memmove(&d->cands[pos], &d->cands[pos + 1], (d->nwaiting - pos - 1) * sizeof(d->cands[0]));
	d->nwaiting--;
}

/*
 * The queue for one choice: the waiting slots (sorted by cylinder), then
 * the oldest destages. Returns the number of candidates.
 */
static inline __attribute__((always_inline)) unsigned gather(struct disk *d,
								struct fwq_queue *q)
{
	unsigned n = d->nwaiting, i;

	/* Destages follow the waiting slots, oldest first; the first may be older than any slot. */
	q->oldest = d->nwaiting ? &d->slot[d->by_age.head] : NULL;
	if (d->destage_count && (!q->oldest || fwq_older(&d->destage[d->destage_head], q->oldest)))
		q->oldest = &d->destage[d->destage_head];
	for (i = 0; i < d->destage_count && i < FWQ_DESTAGE_WINDOW; i++)
		d->cands[n++] = &d->destage[(d->destage_head + i) % d->destage_cap];
	q->cands = d->cands;
	q->n = n;
	q->nsorted = d->nwaiting;
	q->nhigh = d->nhigh;
	return n;
}

/* The chosen destage leaves the ring; only the oldest are candidates, so by position. */
static void destage_remove(struct disk *d, const struct fwq_cmd *c)
{
	unsigned pos = (unsigned)(c - d->destage);
	unsigned k = (pos + d->destage_cap - d->destage_head) % d->destage_cap;

	for (; k > 0; k--) {
		unsigned to = (d->destage_head + k) % d->destage_cap;
		unsigned from = (d->destage_head + k - 1) % d->destage_cap;

		d->destage[to] = d->destage[from];
	}
	d->destage_head = (d->destage_head + 1) % d->destage_cap;
	d->destage_count--;
	d->stats.destages++;
}

static void account_pick(struct disk *d, enum fwq_reason reason, const struct disk_access *acc,
			 unsigned n)
{
	d->stats.picks++;
	d->stats.picks_aged += reason == FWQ_PICK_AGED;
	d->stats.picks_prio += reason == FWQ_PICK_PRIO;
	d->stats.picks_soft_normal += reason == FWQ_PICK_SOFT_NORMAL;
	if (d->current.write)
		d->stats.media_writes++;
	else
		d->stats.media_reads++;
	d->stats.busy_ns += acc->total;
	d->stats.seek_ns += acc->seek;
	d->stats.rotate_ns += acc->rotate;
	d->stats.transfer_ns += acc->transfer + acc->extra;
	d->stats.overhead_ns += acc->overhead;
	sim_debug(d->sim, SIM_DBG_DISK, "pick %s%u of %u (%s%s) cyl %u head %u: seek %.3f rot %.3f "
		  "xfer %.3f ms, done at +%.3f ms",
		  d->current.destage ? "destage " : "tag ", d->current.destage ? 0 : d->current.tag,
		  n, d->current.high ? "high, " : "", fwq_reason_name(&d->rules, reason),
		  d->current.where.cyl, d->current.where.head, acc->seek / 1e6, acc->rotate / 1e6,
		  (acc->transfer + acc->extra) / 1e6, acc->total / 1e6);
}

/*
 * The actuator takes cands[chosen] as a continuation of the stream: it is
 * busy until `done`. The observer sees it as a choice for FWQ_PICK_STREAM
 * (no seek, no rotation: all of it transfer), before it leaves the queue.
 */
static void stream_start(struct disk *d, const struct fwq_cmd *const *cands, unsigned n,
			 unsigned chosen, int64_t done)
{
	int64_t now = sim_now(d->sim);
	const struct fwq_cmd *c = cands[chosen];

	if (d->pick_fn) {
		struct disk_access acc = { .transfer = done - now, .total = done - now };
		struct fwq_ctx ctx;
		struct disk_pick_event ev = { now, &ctx, cands, n, chosen, FWQ_PICK_STREAM, &acc };

		fwq_ctx_init(&ctx, &d->mech, now, d->head);
		d->pick_fn(d->pick_ctx, &ev);
	}

	d->current = *c;
	d->current_streamed = true;
	d->busy = true;
	d->head.cyl = d->stream.cyl;
	d->head.head = d->stream.head;
	sim_at(d->sim, done, media_done, d);
	if (c->write)
		d->stats.media_writes++;
	else
		d->stats.media_reads++;
	d->stats.busy_ns += done - now;
	d->stats.transfer_ns += done - now;
	sim_debug(d->sim, SIM_DBG_DISK, "stream %s%u: %llu sectors from the head, done at +%.3f ms",
		  c->destage ? "destage " : "tag ", c->destage ? 0 : c->tag,
		  (unsigned long long)c->nps, (done - now) / 1e6);
}

/* Whether a queued command or destage has waited age_limit: the choice must serve it. */
static bool any_aged(const struct disk *d, int64_t now)
{
	return (d->nwaiting && now - d->slot[d->by_age.head].arrival >= d->rules.age_limit) ||
		(d->destage_count &&
		 now - d->destage[d->destage_head].arrival >= d->rules.age_limit);
}

/*
 * The waiting command (other than a read-modify-write) in direction
 * `write` that starts at physical sector ps, or -1. The next sector is on
 * the head's cylinder or a neighbour (a zone's end aside), so only those
 * few of the candidates sorted by cylinder are looked at.
 */
static int waiting_at(const struct disk *d, uint64_t ps, bool write)
{
	uint32_t lo_cyl = d->head.cyl ? d->head.cyl - 1 : 0;
	unsigned base = 0, len = d->nwaiting, i;

	while (len > 1) {
		unsigned half = len / 2;

		base = d->cands[base + half - 1]->where.cyl < lo_cyl ? base + half : base;
		len -= half;
	}
	for (i = base; i < d->nwaiting && d->cands[i]->where.cyl <= d->head.cyl + 1; i++) {
		const struct fwq_cmd *c = d->cands[i];

		if (c->ps == ps && c->write == write && !c->rmw)
			return (int)i;
	}
	return -1;
}

/*
 * A media access has just ended. What starts at the very next sector, in
 * the same direction, goes on without a new command's overhead or
 * rotational wait, as firmware streams a sequential run: a queued command
 * (it was decoded while the one before it ran; it completes when the head
 * has passed its last sector, or when the interface has carried it), or,
 * with no command waiting, a destage of contiguous dirty data. Not when a
 * high-priority command or an aged one waits: the firmware's choice serves
 * those. Positioning in no time, a continuation is what SATF would pick;
 * a policy whose cost is not positional (fifo) always makes its own choice.
 */
static bool stream_continue(struct disk *d)
{
	int64_t now = sim_now(d->sim), done;
	bool write = d->current.write;
	struct fwq_queue q;
	struct fwq_cmd c;
	int pos;
	unsigned i;

	if (d->busy || !d->rules.ops->positional)
		return false;
	if (d->nwaiting) {
		/* The cheap test first: random commands almost never qualify. */
		if (!d->starts[d->stream.ps % STARTS_BUCKETS] ||
		    (d->nhigh && d->rules.prio->honours) || any_aged(d, now))
			return false;
		pos = waiting_at(d, d->stream.ps, write);
		if (pos < 0)
			return false;
		c = *d->cands[pos];
		done = c.arrival + d->model.command_overhead +
			interface_ns(d, c.nlb * d->layout.logical_size);
		/* A write's data must be in the buffer before its first sector comes. */
		if (write && done > d->stream.t)
			return false;
		d->reading_ahead = false;
		stream_locate(d);
		disk_mech_stream_run(&d->mech, &d->stream, c.ps + c.nps, INT64_MAX, write);
		if (d->stream.t > done)
			done = d->stream.t;
		if (write)
			d->stats.stream_writes++;
		else
			d->stats.stream_reads++;
		stream_start(d, d->cands, gather(d, &q), (unsigned)pos, done);
		waiting_remove(d, (unsigned)pos);
		return true;
	}
	/* Destages: only those the firmware can see (FWQ_DESTAGE_WINDOW). */
	if (!write || !d->destage_count || any_aged(d, now))
		return false;
	for (i = 0; write && i < d->destage_count && i < FWQ_DESTAGE_WINDOW; i++) {
		unsigned at = (d->destage_head + i) % d->destage_cap;

		c = d->destage[at];
		if (c.ps != d->stream.ps || c.rmw)
			continue;
		stream_locate(d);
		disk_mech_stream_run(&d->mech, &d->stream, c.ps + c.nps, INT64_MAX, true);
		d->stats.stream_writes++;
		stream_start(d, d->cands, gather(d, &q), i, d->stream.t);
		destage_remove(d, &d->destage[at]);
		return true;
	}
	return false;
}

/* The actuator is free: choose the next command and start its access. */
static void dispatch(struct disk *d)
{
	unsigned n, chosen;
	struct fwq_queue q;
	struct fwq_ctx ctx;
	struct disk_access acc;
	enum fwq_reason reason;
	const struct fwq_cmd *c;
	int64_t now = sim_now(d->sim);

	if (d->busy || !(n = gather(d, &q)))
		return;
	if (d->reading_ahead)
		read_ahead_stop(d);
	fwq_ctx_init(&ctx, &d->mech, now + d->model.command_overhead, d->head);
	chosen = fwq_pick(&d->rules, &ctx, &q, now, &reason);
	c = d->cands[chosen];
	d->current = *c;
	disk_mech_access_at(&d->mech, &d->head, now, &d->current.where, d->current.nps,
			 d->current.write, d->current.rmw, &acc);
	/* The observer sees the queue as the choice did, before the chosen leaves it. */
	if (d->pick_fn) {
		struct disk_pick_event ev = { now, &ctx, d->cands, n, chosen, reason, &acc };

		d->pick_fn(d->pick_ctx, &ev);
	}
	if (c->destage)
		destage_remove(d, c);
	else
		waiting_remove(d, chosen);
	d->busy = true;
	sim_after(d->sim, acc.total, media_done, d);
	account_pick(d, reason, &acc, n);
}

/* ---- commands ---- */

static void prepare(struct disk *d, struct fwq_cmd *c, const struct ata_rw *rw, unsigned slot,
		    bool high)
{
	const struct disk_layout *l = &d->layout;

	memset(c, 0, sizeof(*c));
	c->lba = rw->lba;
	c->nlb = rw->sectors;
	disk_layout_physical(l, rw->lba, rw->sectors, &c->ps, &c->nps);
	disk_layout_locate(l, c->ps, &c->where);
	c->arrival = sim_now(d->sim);
	c->tag = (uint8_t)slot;
	c->seq = d->seq++;
	c->write = rw->write;
	c->fua = rw->fua;
	c->high = high;
	/* A 512e write that does not cover whole physical sectors reads first. */
	c->rmw = rw->write && (rw->lba % l->lpp || (rw->lba + rw->sectors) % l->lpp);
}

/* Try the write cache; true when the write completes from the buffer. */
static bool write_cached(struct disk *d, const struct fwq_cmd *c)
{
	uint64_t bytes = c->nlb * d->layout.logical_size;
	struct fwq_cmd *ds;

	if (!d->write_cache || c->fua || d->cache.dirty_bytes + bytes > d->cache.write_buffer)
		return false;
	/*
	 * Coalesce: a write that continues the newest dirty range joins it (up
	 * to a segment's size), so a sequential stream destages in one pass.
	 */
	if (d->destage_count) {
		ds = &d->destage[(d->destage_head + d->destage_count - 1) % d->destage_cap];
		if (ds->lba + ds->nlb == c->lba && ds->nlb + c->nlb <= d->seg_size) {
			const struct disk_layout *l = &d->layout;

			ds->nlb += c->nlb;
			disk_layout_physical(l, ds->lba, ds->nlb, &ds->ps, &ds->nps);
			ds->rmw = ds->lba % l->lpp || (ds->lba + ds->nlb) % l->lpp;
			d->cache.dirty_bytes += bytes;
			disk_cache_invalidate(&d->cache, c->lba, c->nlb);
			d->stats.write_cached++;
			d->stats.coalesced_writes++;
			return true;
		}
	}
	if (d->destage_count == d->destage_cap)
		return false;
	ds = &d->destage[(d->destage_head + d->destage_count) % d->destage_cap];
	*ds = *c;
	ds->destage = true;
	ds->high = false;
	ds->tag = (uint8_t)FWQ_SLOTS;
	d->destage_count++;
	d->cache.dirty_bytes += bytes;
	disk_cache_invalidate(&d->cache, c->lba, c->nlb);
	d->stats.write_cached++;
	return true;
}

static void queue_rw(struct disk *d, const struct ata_rw *rw, unsigned slot, bool high)
{
	struct fwq_cmd *c = &d->slot[slot];
	int64_t front = d->model.command_overhead +
		interface_ns(d, (uint64_t)rw->sectors * d->layout.logical_size);

	prepare(d, c, rw, slot, high);
	if (d->reading_ahead)
		read_ahead_catch_up(d);
	if (!rw->write && disk_cache_read_hit(&d->cache, rw->lba, rw->sectors)) {
		d->stats.cache_hits++;
		/* The host keeps reading the stream: read-ahead keeps ra_max ahead of it. */
		if (d->reading_ahead && rw->lba >= d->cache.start[d->cache.last_filled] &&
		    rw->lba + rw->sectors <= d->cache.end[d->cache.last_filled]) {
			uint64_t want = c->ps + c->nps + d->ra_max;

			if (want > d->ra_limit) {
				if (!read_ahead_running(d)) {
					/* Stopped at its limit: resume when the next sector comes round. */
					stream_locate(d);
					disk_mech_stream_resume(&d->mech, &d->stream, sim_now(d->sim));
				}
				d->ra_limit = want;
			}
		}
		sim_after(d->sim, front, front_end_done, &d->ref[slot]);
		return;
	}
	/*
	 * A read that starts in the segment being read ahead, at or before the
	 * sector under the head, continues the stream: no seek, no rotational
	 * wait; it ends when the stream reaches its last sector, or when the
	 * interface has carried it, whichever is later.
	 */
	if (!rw->write && !d->busy && read_ahead_running(d) &&
	    rw->lba >= d->cache.start[d->cache.last_filled] && c->ps <= d->stream.ps) {
		const struct fwq_cmd *only = c;
		int64_t done;

		d->reading_ahead = false;
		stream_locate(d);
		disk_mech_stream_run(&d->mech, &d->stream, c->ps + c->nps, INT64_MAX, false);
		done = sim_now(d->sim) + front;
		if (d->stream.t > done)
			done = d->stream.t;
		d->stats.stream_reads++;
		stream_start(d, &only, 1, 0, done);
		return;
	}
	if (rw->write && write_cached(d, c)) {
		sim_after(d->sim, front, front_end_done, &d->ref[slot]);
		dispatch(d);
		return;
	}
	waiting_insert(d, slot);
	dispatch(d);
}

static void ncq_command(struct disk *d, const struct ata_taskfile *tf)
{
	struct ata_rw rw;

	if (!d->model.ncq || ata_rw_parse(tf, &rw)) {
		abort_command(d);
		return;
	}
	SIM_ASSERT(rw.tag < d->model.queue_depth, "host used NCQ tag %u; the drive's queue "
		   "depth is %u", rw.tag, d->model.queue_depth);
	SIM_ASSERT(!(d->tags_in_use & (1u << rw.tag)) && !(d->sdb_done & (1u << rw.tag)),
		   "host reused NCQ tag %u while it is outstanding", rw.tag);
	SIM_ASSERT(!d->nonqueued_busy, "host queued tag %u while a non-queued command is "
		   "outstanding", rw.tag);
	d->tags_in_use |= 1u << rw.tag;
	if (rw.lba + rw.sectors > d->layout.logical_sectors) {
		struct ata_ncq_error err = { .tag = rw.tag, .status = ATA_STAT_DRDY | ATA_STAT_ERR,
			.error = ATA_ERR_IDNF, .lba = rw.lba, .count = tf->features,
			.device = tf->device };

		d->stats.errors++;
		ata_ncq_error_build(&err, d->ncq_error_log);
		complete_tag(d, rw.tag, true);
		return;
	}
	queue_rw(d, &rw, rw.tag, rw.prio == ATA_PRIO_HIGH);
}

static void dma_command(struct disk *d, const struct ata_taskfile *tf)
{
	struct ata_rw rw;

	if (ata_rw_parse(tf, &rw)) {
		abort_command(d);
		return;
	}
	if (rw.lba + rw.sectors > d->layout.logical_sectors) {
		d->stats.errors++;
		respond(d, d->model.command_overhead, ATA_STAT_DRDY | ATA_STAT_ERR, ATA_ERR_IDNF, 0);
		return;
	}
	d->nonqueued_busy = true;
	queue_rw(d, &rw, FWQ_NONQUEUED, false);
}

static void identify_command(struct disk *d)
{
	const struct disk_model *m = &d->model;
	struct ata_identify id;

	memset(&id, 0, sizeof(id));
	snprintf(id.model, sizeof(id.model), "%s", m->model);
	snprintf(id.serial, sizeof(id.serial), "%s", m->serial);
	snprintf(id.firmware, sizeof(id.firmware), "%s", m->firmware);
	id.sectors = (uint64_t)m->sectors;
	id.lba48 = true;
	id.logical_sector_size = m->logical_sector_size;
	id.physical_sector_size = m->physical_sector_size;
	id.ncq = m->ncq;
	id.queue_depth = m->queue_depth;
	id.ncq_prio = m->ncq_prio;
	id.rotation_rpm = (uint16_t)m->rpm;
	id.sata_speeds = (uint8_t)((1u << m->sata_gen) - 1);
	id.write_cache = true;
	id.write_cache_enabled = d->write_cache;
	id.read_ahead = true;
	id.read_ahead_enabled = d->read_ahead;
	id.read_log_dma = true;
	ata_identify_build(&id, d->resp_data);
	respond(d, m->command_overhead, ATA_STAT_DRDY, 0, ATA_ID_BYTES);
}

/* Fill one 512-byte page of a log; false when the drive has no such page. */
static bool log_page(struct disk *d, uint8_t log, uint16_t page, uint8_t *out)
{
	static const uint8_t id_pages[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(out, 0, ATA_LOG_PAGE_BYTES);
	switch (log) {
	case ATA_LOG_DIRECTORY: {
		uint16_t pages[256] = { 0 };

		if (page)
			return false;
		pages[ATA_LOG_NCQ_ERROR] = 1;
		if (d->model.id_data_log)
			pages[ATA_LOG_IDENTIFY_DEVICE] = sizeof(id_pages);
		ata_gpl_dir_build(out, pages);
		return true;
	}
	case ATA_LOG_NCQ_ERROR:
		if (page)
			return false;
		memcpy(out, d->ncq_error_log, ATA_LOG_PAGE_BYTES);
		return true;
	case ATA_LOG_IDENTIFY_DEVICE:
		if (!d->model.id_data_log || page >= sizeof(id_pages))
			return false;
		if (page == ATA_LOG_ID_SUPPORTED) {
			ata_id_log_supported_build(out, id_pages, sizeof(id_pages));
		} else if (page == ATA_LOG_ID_SATA_SETTINGS) {
			ata_id_log_sata_settings_build(out, d->model.ncq_prio_log);
		} else {
			out[0] = 0x01;		/* a page with its header and no fields set */
			out[2] = (uint8_t)page;
			out[7] = 0x80;
		}
		return true;
	}
	return false;
}

static void read_log_command(struct disk *d, const struct ata_taskfile *tf)
{
	uint8_t log;
	uint16_t page, pages, i;

	if (ata_cmd_read_log_parse(tf, &log, &page, &pages) || pages > MAX_LOG_PAGES) {
		abort_command(d);
		return;
	}
	for (i = 0; i < pages; i++) {
		if (!log_page(d, log, (uint16_t)(page + i), d->resp_data + i * ATA_LOG_PAGE_BYTES)) {
			abort_command(d);
			return;
		}
	}
	respond(d, d->model.command_overhead, ATA_STAT_DRDY, 0, (size_t)pages * ATA_LOG_PAGE_BYTES);
}

static void set_features_command(struct disk *d, const struct ata_taskfile *tf)
{
	switch (tf->features & 0xff) {
	case ATA_SF_WRITE_CACHE_ON:	d->write_cache = true; break;
	case ATA_SF_WRITE_CACHE_OFF:	d->write_cache = false; break;
	case ATA_SF_READ_AHEAD_ON:	d->read_ahead = true; break;
	case ATA_SF_READ_AHEAD_OFF:	d->read_ahead = false; break;
	default:
		abort_command(d);
		return;
	}
	respond(d, d->model.command_overhead, ATA_STAT_DRDY, 0, 0);
}

void disk_submit(struct disk *d, const uint8_t *fis, size_t len)
{
	struct ata_taskfile tf;

	d->stats.commands++;
	if (ata_h2d_decode(fis, len, &tf) || !tf.c_bit) {
		abort_command(d);
		return;
	}
	if (ata_is_ncq(tf.command)) {
		ncq_command(d, &tf);
		return;
	}
	/* Non-queued commands: one at a time, never beside queued ones. */
	if (d->tags_in_use || d->nonqueued_busy) {
		abort_command(d);
		return;
	}
	switch (tf.command) {
	case ATA_CMD_READ_DMA_EXT:
	case ATA_CMD_WRITE_DMA_EXT:
	case ATA_CMD_WRITE_DMA_FUA_EXT:
		dma_command(d, &tf);
		return;
	case ATA_CMD_IDENTIFY:
		identify_command(d);
		return;
	case ATA_CMD_READ_LOG_EXT:
	case ATA_CMD_READ_LOG_DMA_EXT:
		read_log_command(d, &tf);
		return;
	case ATA_CMD_SET_FEATURES:
		set_features_command(d, &tf);
		return;
	default:
		abort_command(d);
	}
}

/* ---- life cycle ---- */

struct disk *disk_new(struct sim *sim, const struct disk_model *m,
		      const struct disk_host_ops *ops, void *host, struct err *e)
{
	struct disk *d = calloc(1, sizeof(*d));
	unsigned i;

	if (!d) {
		err_set(e, "out of memory");
		return NULL;
	}
	d->sim = sim;
	d->model = *m;
	d->ops = ops;
	d->host = host;
	if (disk_layout_build(&d->layout, m, e) || disk_mech_init(&d->mech, &d->layout, m, e)) {
		free(d);
		return NULL;
	}
	d->rules.ops = fwq_policy_ops(m->fw_sched);
	d->rules.prio = fwq_prio_ops(m->prio_policy);
	d->rules.soft_margin = m->prio_soft_margin;
	d->rules.age_limit = m->age_limit;
	disk_cache_init(&d->cache, m->cache_segments, m->write_buffer);
	d->seg_size = m->cache_size / m->cache_segments / d->layout.logical_size;
	d->ra_max = (m->read_ahead_max < m->cache_size / m->cache_segments ? m->read_ahead_max :
		     m->cache_size / m->cache_segments) / m->physical_sector_size;
	d->write_cache = m->write_cache;
	d->read_ahead = m->read_ahead;
	ilist_init(&d->by_age);
	for (i = 0; i < FWQ_SLOTS; i++) {
		d->ref[i].d = d;
		d->ref[i].slot = i;
	}
	/* One destage entry per 4 KiB of write buffer, at least one window. */
	d->destage_cap = (unsigned)(m->write_buffer / 4096);
	if (d->destage_cap < FWQ_DESTAGE_WINDOW)
		d->destage_cap = FWQ_DESTAGE_WINDOW;
	d->destage = calloc(d->destage_cap, sizeof(*d->destage));
	if (!d->destage) {
		free(d);
		err_set(e, "out of memory");
		return NULL;
	}
	return d;
}

void disk_free(struct disk *d)
{
	if (!d)
		return;
	free(d->destage);
	free(d);
}

const struct disk_stats *disk_get_stats(const struct disk *d)
{
	return &d->stats;
}

void disk_set_pick_observer(struct disk *d, disk_pick_fn fn, void *ctx)
{
	d->pick_fn = fn;
	d->pick_ctx = ctx;
}
