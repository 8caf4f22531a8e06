#include "disk/disk.h"

#include "ata/cdl.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/identify.h"
#include "ata/log.h"
#include "disk/cache.h"
#include "disk/dirty.h"
#include "disk/layout.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LOG_PAGES 16
#define STARTS_BUCKETS 256
#define DECODING_RING 64	/* a power of two >= FWQ_SLOTS */
#define AGE_END FWQ_SLOTS	/* both ends of the age ring (disk.age_next) */

/*
 * From a soft reset's end (SRST cleared) to the device's D2H: spin-up is
 * not involved (the platters keep turning), this is the firmware's restart.
 * No data sheet gives it; 10 ms is an order of magnitude, not a fit.
 */
#define RESET_READY_NS (10 * SIM_MSEC)

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
	/* ops->sdb, copied: every completion's call then loads one pointer, not two. */
	void (*sdb)(void *host, const uint8_t *fis, size_t len);
	void *host;

	struct disk_head head;
	struct fwq_cmd slot[FWQ_SLOTS];
	struct slot_ref ref[FWQ_SLOTS];
	/*
	 * The slots waiting for the actuator, kept two ways so that a choice
	 * neither sorts nor scans: by cylinder band (fwq_set: SATF walks
	 * outwards from the head; destages are appended behind the waiting
	 * commands in its cands[] at each choice), and oldest first (aging
	 * looks at the oldest).
	 */
	struct fwq_set waiting;	/* its PRIO high count in queue.nhigh */
	/*
	 * Waiting slots by their first sector modulo STARTS_BUCKETS: whether
	 * one could start where the head is, without a search. Random
	 * commands almost never do, and every media access asks.
	 */
	uint8_t starts[STARTS_BUCKETS];
	/*
	 * The waiting slots oldest first: a ring through age_next[] and
	 * age_prev[] whose two ends meet at AGE_END — age_next[AGE_END] is
	 * the oldest, age_prev[AGE_END] the newest, AGE_END itself when none
	 * waits — so that a slot goes in or out with four stores and no test
	 * for an end (age_init(), waiting_insert(), waiting_remove()).
	 */
	uint8_t age_next[FWQ_SLOTS + 1], age_prev[FWQ_SLOTS + 1];
	/*
	 * Commands being decoded (command_overhead after arrival), oldest
	 * first, each with the key its `decoded` event would have
	 * (sim_reserve_seq()): it starts waiting when the drive is next
	 * called after that key (decode_due()), and only an idle actuator
	 * needs the event itself (decode_wake).
	 */
	struct decoding {
		int64_t ready;
		uint64_t seq;
		unsigned slot;
	} decoding[DECODING_RING];
	unsigned decoding_head, decoding_count;
	bool decode_wake_set;
	/*
	 * Resets and NCQ errors so far: a command being decoded through its
	 * own event (`decoded`) that one of them aborted is not queued.
	 */
	uint32_t aborts;
	uint32_t aborts_at[FWQ_SLOTS];	/* ... the count when the slot's command came in */
	uint32_t seq;			/* commands received, for fwq_cmd.seq */
	uint32_t tags_in_use;		/* NCQ tags the host has outstanding */
	bool nonqueued_busy;		/* a non-queued command is outstanding */
	/*
	 * What a read on each slot sends the host per logical sector: the
	 * sector, but nothing for READ VERIFY on the non-queued slot, whose
	 * data stays in the drive (read_bytes()).
	 */
	uint32_t read_xfer[FWQ_SLOTS];
	sim_handle_t resp_ev;		/* its pending answer */
	unsigned front_pending;		/* cache hits, cached writes and data on the link, unanswered */
	/*
	 * The SATA link: one data transfer at a time, either direction (a
	 * DMA Setup FIS names the tag, its data FISes follow). The time it is
	 * free once every transfer asked for so far is over: transfers go in
	 * the order they were asked for (link_reserve()).
	 */
	int64_t link_free;
	/* A write for the media: when its data is in the buffer; [FWQ_SLOTS], destages', stays 0. */
	int64_t data_in[FWQ_SLOTS + 1];
	bool in_reset, reset_ending;	/* SRST set; SRST cleared, waiting to be idle */
	bool flushing;			/* FLUSH CACHE EXT: answered once nothing is dirty */
	bool ncq_halted;		/* an NCQ error: everything aborted until log 10h is read */
	bool log_pending;		/* READ LOG EXT 10h, answered once the aborted work stopped */
	/*
	 * Set while the drive may be in one of its rare states — a reset
	 * (in_reset, reset_ending), an NCQ error (ncq_halted), an access cut
	 * short by a duration limit (current_abort), cached writes waiting for
	 * room (room_count), a flush waiting (flushing), an observer of the
	 * choices (pick_fn), and the drive's debug output on (debugging) —
	 * so that the end of a media access, every
	 * I/O's event, tests this one flag instead of each of them
	 * (media_access_ends(), dispatch_next()). rare_update() sets it again
	 * wherever one of them is set; clear, none of them is.
	 */
	bool rare;
	/*
	 * The simulation's SIM_DBG_DISK output is on: its mask is set before
	 * the drive is made (system.c), so once, in disk_new()
	 * (disk_get_stats() checks it did not change).
	 */
	bool debugging;

	/* The write cache's dirty ranges, each a destage (disk/dirty.h). */
	struct disk_dirty dirty;
	/*
	 * Cached writes decoded while the buffer had no room for them, oldest
	 * first: their data is taken (and they complete) once destages have
	 * made room. Room is counted for a write's whole size and one range
	 * from when its data is taken until it is in (incoming_*).
	 */
	uint8_t room_wait[FWQ_SLOTS];
	unsigned room_head, room_count;
	uint64_t incoming_bytes;
	unsigned incoming_ranges;

	/* The actuator. */
	bool busy;
	int64_t busy_until;		/* when the access under way ends (its media_done) */
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
	uint32_t sdb_done;
	bool sdb_error;		/* an NCQ error to report (SDB with ERR) */
	/*
	 * sdb_error, sdb_sense or sdb_aborted holds one (sdb_errors_update()):
	 * sdb_send() tests this one flag for the three.
	 */
	bool sdb_errors;
	/*
	 * Whether the SDB due is on its way (sdb_schedule()): SDB_NONE, or an
	 * event (SDB_EVENT), or media_done() will send it as it returns
	 * (SDB_AT_RETURN). One byte for the two states: tested and set once.
	 */
	uint8_t sdb_when;
	bool in_media_done;		/* media_done() is running */

	/* The response to a non-queued command, sent after the overhead. */
	uint8_t resp_fis[ATA_FIS_D2H_LEN];
	uint8_t resp_data[MAX_LOG_PAGES * ATA_LOG_PAGE_BYTES];
	size_t resp_len;

	bool write_cache, read_ahead;
	uint8_t ncq_error_log[ATA_LOG_PAGE_BYTES];

	/*
	 * Command Duration Limits (SET FEATURES 0Dh). Per slot, the limits of
	 * the descriptor in force and a timer for the next one that can end or
	 * change the command while it waits.
	 */
	bool cdl_enabled;
	const struct fwq_prio_ops *prio_without_cdl;	/* the model's priority policy */
	struct slot_cdl {
		int64_t due;			/* arrival + guideline; INT64_MAX none */
		int64_t inactive_by;		/* arrival + max inactive time; INT64_MAX none */
		int64_t max_active;		/* 0 none */
		uint8_t gpol, ipol, apol;	/* the policies */
		bool timer_set;
		sim_handle_t timer;
	} cdl[FWQ_SLOTS];
	uint8_t current_abort;		/* the policy ending the access in service early; 0 none */
	uint32_t sdb_sense, sdb_aborted;	/* CDL: tags ended by policy 0xD / 0xF */
	/*
	 * Counted per media access as one store each, by the choice's reason
	 * and by direction; disk_get_stats() sums them into stats' picks,
	 * picks_aged, picks_prio, picks_soft_normal, media_reads and media_writes.
	 */
	uint64_t picks_by[FWQ_PICK_STREAM];	/* every reason but a stream's, which is no choice */
	/*
	 * The queue for the next choice (gather()); its cands and set, which
	 * never move, are set once (disk_new()), its nhigh (the waiting PRIO
	 * high commands) and batch_end (the first seq of the next batch) kept
	 * as they change.
	 */
	struct fwq_queue queue;
	int64_t seek_sum;			/* stats.seek_ns (disk_get_stats()) */
	uint64_t media_by[2];			/* [write] */
	/*
	 * stats.rotate_ns. The two sums are kept apart, from each other and
	 * from stats: side by side with stats' busy and transfer times gcc
	 * pairs the four additions into vector ones, which take more
	 * instructions than the four plain adds.
	 */
	int64_t rotate_sum;
	struct disk_stats stats;
	disk_pick_fn pick_fn;
	void *pick_ctx;
};

static void dispatch(struct disk *d);
static inline void dispatch_next(struct disk *d);
static inline void decode_due(struct disk *d);
static inline void decode_wake_check(struct disk *d);
static void reset_try_end(struct disk *d);
static void aborted_try_end(struct disk *d);
static void ncq_halt(struct disk *d);
static void flush_try_end(struct disk *d);

/* Whether one of the rare states (disk.rare) holds. */
static inline bool rare_holds(const struct disk *d)
{
	return d->in_reset || d->reset_ending || d->ncq_halted || d->current_abort ||
		d->room_count || d->flushing || d->pick_fn || d->debugging;
}

/* disk.rare again: called wherever one of its states is set (and may be where one is cleared). */
static inline void rare_update(struct disk *d)
{
	d->rare = rare_holds(d);
}

/* ---- completions ---- */

enum { SDB_NONE, SDB_EVENT, SDB_AT_RETURN };	/* disk.sdb_when */

/*
 * disk.sdb_errors found again: called wherever sdb_error, sdb_sense or
 * sdb_aborted may clear (setting one sets the flag beside it).
 */
static inline void sdb_errors_update(struct disk *d)
{
	d->sdb_errors = d->sdb_error || d->sdb_sense || d->sdb_aborted;
}

/* An NCQ error's SDB, or CDL's (policies 0xD, 0xF): before the good completions' one. */
static __attribute__((noinline)) void sdb_flush_errors(struct disk *d)
{
	uint8_t fis[ATA_FIS_SDB_LEN];

	if (d->sdb_error) {
		/* An NCQ error: ERR in the status, no tag completed; the tag is in log 10h. */
		struct ata_sdb f = { .interrupt = true, .status = ATA_STAT_DRDY | ATA_STAT_ERR,
			.error = ATA_ERR_IDNF };

		d->sdb_error = false;
		ata_sdb_encode(&f, fis);
		d->sdb(d->host, fis, sizeof(fis));
	}
	if (d->sdb_aborted) {
		/* CDL policy 0xF: aborted; sense ABORTED COMMAND, COMMAND TIMEOUT in log 10h. */
		struct ata_sdb f = { .interrupt = true, .status = ATA_STAT_DRDY | ATA_STAT_ERR,
			.error = ATA_ERR_ABRT, .sactive = d->sdb_aborted };

		d->tags_in_use &= ~d->sdb_aborted;
		d->sdb_aborted = 0;
		ata_sdb_encode(&f, fis);
		d->sdb(d->host, fis, sizeof(fis));
	}
	if (d->sdb_sense) {
		/* CDL policy 0xD: good status, no data, SENSE DATA AVAILABLE. */
		struct ata_sdb f = { .interrupt = true, .status = ATA_STAT_DRDY | ATA_STAT_SENSE,
			.sactive = d->sdb_sense };

		d->tags_in_use &= ~d->sdb_sense;
		d->sdb_sense = 0;
		ata_sdb_encode(&f, fis);
		d->sdb(d->host, fis, sizeof(fis));
	}
	sdb_errors_update(d);	/* none now, unless the host's answer to one set another */
}

/* The SDBs due (inline: media_done() sends the usual one itself). */
static inline __attribute__((always_inline)) void sdb_send(struct disk *d)
{
	uint32_t done;

	d->sdb_when = SDB_NONE;
	if (d->sdb_errors)
		sdb_flush_errors(d);
	if (__builtin_expect((done = d->sdb_done) != 0, 1)) {	/* what it is usually sent for */
		uint8_t fis[ATA_FIS_SDB_LEN];

		d->tags_in_use &= ~done;
		d->sdb_done = 0;
		ata_sdb_encode_done(done, ATA_STAT_DRDY, fis);
		d->sdb(d->host, fis, sizeof(fis));
	}
}

static void sdb_flush(struct sim *sim, void *arg)
{
	(void)sim;
	sdb_send(arg);
}

/*
 * The SDB goes out once everything already due this instant has run: an
 * event now, queued behind them. When media_done() asks and nothing else
 * is due (the usual case: one completion per instant), that event would be
 * the next to run, after the rest of media_done() — so media_done() sends
 * it itself as it returns, in the same order, without the event. A command
 * whose decoding ends now counts as due: its `decoded` event would come
 * first (decode_due()). `in_media_done` is d->in_media_done (the caller
 * may know it).
 */
static inline __attribute__((always_inline)) void sdb_schedule_as(struct disk *d,
								  bool in_media_done)
{
	if (d->sdb_when != SDB_NONE)
		return;
	if (in_media_done && sim_next_time(d->sim) > sim_now(d->sim) &&
	    !(d->decoding_count && d->decoding[d->decoding_head].ready == sim_now(d->sim))) {
		d->sdb_when = SDB_AT_RETURN;
		return;
	}
	d->sdb_when = SDB_EVENT;
	sim_at(d->sim, sim_now(d->sim), sdb_flush, d);
}

static inline __attribute__((always_inline)) void sdb_schedule(struct disk *d)
{
	sdb_schedule_as(d, d->in_media_done);
}

static void send_response(struct sim *sim, void *arg)
{
	struct disk *d = arg;

	(void)sim;
	d->nonqueued_busy = false;
	d->read_xfer[FWQ_NONQUEUED] = (uint32_t)d->layout.logical_size;	/* a READ VERIFY is over */
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
	d->resp_ev = sim_after(d->sim, delay, send_response, d);
}

/*
 * A command on `slot` finished well: a good D2H now for the non-queued
 * one, else its SDB bit. `in_media_done` as in sdb_schedule_as().
 */
static inline __attribute__((always_inline)) void complete_ok_as(struct disk *d, unsigned slot,
								 bool in_media_done)
{
	if (slot == FWQ_NONQUEUED) {
		struct ata_d2h r = { .status = ATA_STAT_DRDY, .interrupt = true,
			.device = ATA_DEVICE_LBA };

		ata_d2h_encode(&r, d->resp_fis);
		d->resp_len = 0;
		send_response(d->sim, d);
		return;
	}
	d->sdb_done |= 1u << slot;
	sdb_schedule_as(d, in_media_done);
}

static inline __attribute__((always_inline)) void complete_ok(struct disk *d, unsigned slot)
{
	complete_ok_as(d, slot, d->in_media_done);
}

/*
 * A command ended by a CDL limit with policy `policy`: 0xD completes it
 * with good status, no data and SENSE DATA AVAILABLE (sense COMPLETED /
 * DATA CURRENTLY UNAVAILABLE); 0xE and 0xF abort it (ERR, ABRT; sense
 * ABORTED COMMAND / COMMAND TIMEOUT BEFORE or DURING PROCESSING in log 10h).
 */
static void complete_cdl_timeout(struct disk *d, const struct fwq_cmd *c, uint8_t policy,
				 bool started)
{
	d->stats.cdl_timeouts++;
	if (c->tag == FWQ_NONQUEUED) {
		struct ata_d2h r = { .status = ATA_STAT_DRDY, .interrupt = true,
			.device = ATA_DEVICE_LBA };

		if (policy == ATA_CDL_COMPLETE_UNAVAILABLE) {
			r.status |= ATA_STAT_SENSE;
		} else {
			r.status |= ATA_STAT_ERR;
			r.error = ATA_ERR_ABRT;
		}
		ata_d2h_encode(&r, d->resp_fis);
		d->resp_len = 0;
		send_response(d->sim, d);
		return;
	}
	if (policy == ATA_CDL_COMPLETE_UNAVAILABLE) {
		d->sdb_sense |= 1u << c->tag;
		d->sdb_errors = true;
	} else {
		struct ata_ncq_error err = { .tag = c->tag, .status = ATA_STAT_DRDY | ATA_STAT_ERR,
			.error = ATA_ERR_ABRT, .lba = c->lba, .count = (uint16_t)c->nlb,
			.device = ATA_DEVICE_LBA, .sense_key = 0x0b, .asc = 0x2e,
			.ascq = started ? 0x02 : 0x01 };

		ata_ncq_error_build(&err, d->ncq_error_log);
		d->sdb_aborted |= 1u << c->tag;
		d->sdb_errors = true;
	}
	sdb_schedule(d);
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
	decode_due(ref->d);
	ref->d->front_pending--;
	if (ref->d->in_reset || ref->d->reset_ending || ref->d->ncq_halted) {
		aborted_try_end(ref->d);	/* a reset or an NCQ error aborted it */
		return;
	}
	complete_ok(ref->d, ref->slot);
}

static int64_t interface_ns(const struct disk *d, uint64_t bytes)
{
	/* Converted as signed (one instruction, the same value): bytes are far below 2^63. */
	return (int64_t)((double)(int64_t)bytes * 1000.0 / d->model.interface_mbs);
}

/* What a read sends over the link: its sectors, none for READ VERIFY. */
static inline uint64_t read_bytes(const struct disk *d, const struct fwq_cmd *c)
{
	return c->nlb * d->read_xfer[c->tag];
}

/*
 * A transfer of `xfer` ns crosses the link, starting no sooner than
 * `earliest` and once the transfers asked for before are over; returns
 * when it has crossed. `earliest` may be in the past for a media read,
 * whose data went out as the head read it: its transfer is the last
 * stretch before the read ended, if the link was free then (nothing was
 * reserved past link_free).
 */
static inline int64_t link_reserve(struct disk *d, int64_t earliest, int64_t xfer)
{
	d->link_free = (earliest > d->link_free ? earliest : d->link_free) + xfer;
	return d->link_free;
}

/*
 * A write for the media is decoded at `when`: its data comes over the link
 * into the buffer (none for a command a reset or an NCQ error has aborted).
 */
static inline void take_write_data(struct disk *d, unsigned slot, int64_t when)
{
	const struct fwq_cmd *c = &d->slot[slot];

	if (!c->write)
		return;
	d->data_in[slot] = d->in_reset || d->reset_ending || d->ncq_halted ? 0 :
		link_reserve(d, when, interface_ns(d, c->nlb * d->layout.logical_size));
}

/* A reset or an NCQ error aborted every command: the link carries nothing more for them. */
static void link_abort(struct disk *d)
{
	if (d->link_free > sim_now(d->sim))
		d->link_free = sim_now(d->sim);
}

static inline __attribute__((always_inline)) bool stream_continue(struct disk *d, bool rare);
static void room_admit(struct disk *d);

/*
 * A read from the media has ended: its data went to the host as the head
 * read it, over the last stretch before now if the link was free, else
 * once it is — and the read completes then.
 */
static inline __attribute__((always_inline)) void read_sent(struct disk *d, const struct fwq_cmd *c)
{
	int64_t now = sim_now(d->sim), xfer = interface_ns(d, read_bytes(d, c));
	int64_t sent = link_reserve(d, now - xfer, xfer);

	if (sent <= now) {
		complete_ok_as(d, c->tag, true);	/* only media_done() calls this */
		return;
	}
	d->front_pending++;
	sim_at(d->sim, sent, front_end_done, &d->ref[c->tag]);
}

static void room_aged(struct disk *d);

/*
 * The access in d->current is over: the stream, the cache and its answer.
 * Returns whether it read data. `rare` is d->rare: false, none of the
 * rare states holds, and their tests are left out (media_access_ends()
 * has both forms).
 */
static inline __attribute__((always_inline)) bool media_access_ends_as(struct disk *d, bool rare)
{
	struct fwq_cmd *c = &d->current;
	int64_t now = sim_now(d->sim);
	bool was_read = !c->write;

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
	} else if (rare && d->current_abort) {
		was_read = false;	/* cut short by a duration limit: nothing read to keep */
	} else {
		if (d->current_streamed && d->cache.last_filled >= 0)
			disk_cache_extend(&d->cache, (unsigned)d->cache.last_filled, c->lba + c->nlb,
					  d->seg_size);
		else
			disk_cache_fill(&d->cache, c->lba, c->nlb);
		d->ra_limit = c->ps + c->nps + d->ra_max;
	}
	d->current_streamed = false;
	if (c->destage) {
		d->cache.dirty_bytes -= c->nlb * d->layout.logical_size;
		room_admit(d);
	} else if (rare && (d->in_reset || d->reset_ending || d->ncq_halted))
		;	/* a reset or NCQ error aborted it: no answer */
	else if (rare && d->current_abort)
		complete_cdl_timeout(d, c, d->current_abort, true);
	else if (c->write)
		complete_ok_as(d, c->tag, true);	/* in media_done() */
	else
		read_sent(d, c);
	return was_read;
}

/*
 * After the access's answer: the head goes on (a continuation, or the next
 * choice), read-ahead, a flush's end. `rare` as in media_access_ends_as()
 * — asked again, as the answer to the non-queued command calls the host,
 * which may start a reset or a flush then. Nothing here sets a rare state
 * before it is tested (dispatch() may set current_abort, for the access it
 * starts).
 */
static inline __attribute__((always_inline)) void media_access_next_as(struct disk *d,
									bool was_read, bool rare)
{
	if (rare) {
		d->current_abort = 0;
		rare_update(d);
		if (d->in_reset || d->reset_ending || d->ncq_halted) {
			d->reading_ahead = false;
			aborted_try_end(d);
			return;
		}
	}
	/*
	 * Busy already if the answer to a non-queued command made the host
	 * send one that started an access.
	 */
	if (!d->busy && !stream_continue(d, rare)) {
		if (rare)
			dispatch(d);
		else
			dispatch_next(d);
	}
	/* Idle after a read: read-ahead (ra_max sectors) until a command needs the head. */
	d->reading_ahead = !d->busy && was_read && d->read_ahead && d->ra_max;
	if (rare)
		flush_try_end(d);
}

static inline __attribute__((always_inline)) void media_access_ends(struct disk *d)
{
	bool was_read = __builtin_expect(d->rare, 0) ? media_access_ends_as(d, true) :
		media_access_ends_as(d, false);

	if (__builtin_expect(d->rare, 0))
		media_access_next_as(d, was_read, true);
	else
		media_access_next_as(d, was_read, false);
}

/* The actuator's access is over; an SDB it completed goes out last (sdb_schedule()). */
static void media_done(struct sim *sim, void *arg)
{
	struct disk *d = arg;

	(void)sim;
	decode_due(d);
	d->in_media_done = true;
	media_access_ends(d);
	d->in_media_done = false;
	if (d->sdb_when == SDB_AT_RETURN)
		sdb_send(d);
	decode_wake_check(d);
}

/* ---- the actuator ---- */

/*
 * The access just chosen ends at `when`. From inside media_done() (the
 * event running: the drive went on to its next access) that is the same
 * event again, kept in its slot (sim_again()); else a new one.
 */
static inline __attribute__((always_inline)) void media_done_at(struct disk *d, int64_t when)
{
	if (d->in_media_done)
		sim_again(d->sim, when);
	else
		sim_at(d->sim, when, media_done, d);
}

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

/* ---- Command Duration Limits ---- */

/*
 * The most the command's own access can take: a full-stroke seek, a whole
 * revolution and its transfer at its zone's rate. The cdl row starts a
 * command by its guideline less this.
 */
static int64_t cdl_reserve(const struct disk *d, const struct fwq_cmd *c)
{
	const struct disk_seek_curve *s = c->write ? &d->mech.write : &d->mech.read;
	const struct disk_zone *z = &d->layout.zone[c->where.zone];

	return disk_seek_ns(s, (uint32_t)s->max_distance) + d->layout.rev_ns +
		disk_layout_sectors_ns(&d->layout, z, c->nps);
}

/* The limits of descriptor c->cdl (0: none), counted from the command's arrival. */
static void cdl_apply(struct disk *d, struct fwq_cmd *c)
{
	struct slot_cdl *s = &d->cdl[c->tag];
	const struct ata_cdl_desc *dd;
	int64_t by;

	s->due = s->inactive_by = INT64_MAX;
	s->max_active = 0;
	s->gpol = s->ipol = s->apol = 0;
	c->cdl_start_by = INT64_MAX;
	c->high = false;
	if (!c->cdl)
		return;
	dd = c->write ? &d->model.cdl_log.write[c->cdl - 1] : &d->model.cdl_log.read[c->cdl - 1];
	if (dd->guideline_us) {
		s->due = c->arrival + (int64_t)dd->guideline_us * 1000;
		s->gpol = dd->guideline_policy;
	}
	if (dd->max_inactive_us) {
		s->inactive_by = c->arrival + (int64_t)dd->max_inactive_us * 1000;
		s->ipol = dd->inactive_policy;
	}
	if (dd->max_active_us) {
		s->max_active = (int64_t)dd->max_active_us * 1000;
		s->apol = dd->active_policy;
	}
	by = s->due == INT64_MAX ? INT64_MAX : s->due - cdl_reserve(d, c);
	c->cdl_start_by = by < s->inactive_by ? by : s->inactive_by;
	c->high = c->cdl_start_by != INT64_MAX;
}

static bool cdl_ends(uint8_t policy)
{
	return policy == ATA_CDL_COMPLETE_UNAVAILABLE || policy == ATA_CDL_ABORT ||
		policy == ATA_CDL_ABORT_RECOVERY;
}

static void cdl_expire(struct sim *sim, void *arg);

/* Arm the slot's timer for the next limit that ends or changes it while it waits. */
static void cdl_arm(struct disk *d, unsigned slot)
{
	struct slot_cdl *s = &d->cdl[slot];
	int64_t when = INT64_MAX;

	if (s->due != INT64_MAX && s->gpol != ATA_CDL_COMPLETE_EARLIEST)
		when = s->due;
	if (s->inactive_by < when && cdl_ends(s->ipol))
		when = s->inactive_by;
	if (when == INT64_MAX)
		return;
	s->timer = sim_at(d->sim, when > sim_now(d->sim) ? when : sim_now(d->sim), cdl_expire,
			  &d->ref[slot]);
	s->timer_set = true;
}

static void cdl_disarm(struct disk *d, unsigned slot)
{
	if (d->cdl[slot].timer_set)
		sim_cancel(d->sim, d->cdl[slot].timer);
	d->cdl[slot].timer_set = false;
}

/* Every queued command is gone (a reset, an NCQ error): no CDL timer or report stays. */
static void cdl_forget_all(struct disk *d)
{
	unsigned i;

	for (i = 0; i < FWQ_SLOTS; i++)
		cdl_disarm(d, i);
	d->sdb_sense = d->sdb_aborted = 0;
	sdb_errors_update(d);
}

static void waiting_remove(struct disk *d, unsigned pos);

/* A waiting command reached a limit whose policy ends or changes it. */
static void cdl_expire(struct sim *sim, void *arg)
{
	struct slot_ref *ref = arg;
	struct disk *d = ref->d;
	struct slot_cdl *s = &d->cdl[ref->slot];
	struct fwq_cmd *c = &d->slot[ref->slot];
	int64_t now = sim_now(sim);
	unsigned pos;
	uint8_t end = 0;

	decode_due(d);
	s->timer_set = false;
	if (s->inactive_by <= now && cdl_ends(s->ipol))
		end = s->ipol;
	else if (s->due <= now && cdl_ends(s->gpol))
		end = s->gpol;
	pos = d->waiting.pos[ref->slot];
	SIM_ASSERT(pos < d->waiting.n && d->waiting.cands[pos] == c,
		   "CDL timer for slot %u, which is not waiting", ref->slot);
	if (end) {
		waiting_remove(d, pos);
		complete_cdl_timeout(d, c, end, false);
		return;
	}
	/* Guideline passed with 0x1 (the next descriptor's limits) or 0x2 (no limit). */
	d->queue.nhigh -= c->high;
	c->cdl = s->gpol == ATA_CDL_CONTINUE_NEXT && c->cdl < ATA_CDL_DESCRIPTORS ? c->cdl + 1 : 0;
	cdl_apply(d, c);
	d->queue.nhigh += c->high;
	cdl_arm(d, ref->slot);
	dispatch(d);
	decode_wake_check(d);
}

_Static_assert(FWQ_SLOTS <= UINT8_MAX, "a starts[] bucket counts waiting slots");
_Static_assert(AGE_END <= UINT8_MAX, "the age ring holds slots and its end in a byte");

/* No slot waits: the age ring is its end alone. */
static void age_init(struct disk *d)
{
	d->age_next[AGE_END] = d->age_prev[AGE_END] = AGE_END;
}

/* A slot starts waiting: into its cylinder band, onto the age list. */
static inline __attribute__((always_inline)) void waiting_insert(struct disk *d, unsigned slot)
{
	const struct fwq_cmd *c = &d->slot[slot];
	unsigned after;

	fwq_set_add(&d->waiting, c);
	d->queue.nhigh += c->high;
	d->starts[c->ps % STARTS_BUCKETS]++;
	/* Arrivals come in time order; at one instant the tag decides (fwq_older). */
	after = d->age_prev[AGE_END];
	while (after != AGE_END && fwq_older(c, &d->slot[after]))
		after = d->age_prev[after];
	{
		unsigned before = d->age_next[after];

		d->age_prev[slot] = (uint8_t)after;
		d->age_next[slot] = (uint8_t)before;
		d->age_next[after] = (uint8_t)slot;
		d->age_prev[before] = (uint8_t)slot;
	}
	if (slot < FWQ_SLOTS && c->cdl)
		cdl_arm(d, slot);
}

/* The slot at cands[pos] goes to the actuator. */
static inline __attribute__((always_inline)) void waiting_remove(struct disk *d, unsigned pos)
{
	const struct fwq_cmd *c = d->waiting.cands[pos];

	d->queue.nhigh -= c->high;
	d->starts[c->ps % STARTS_BUCKETS]--;
	{
		unsigned older = d->age_prev[c->tag], newer = d->age_next[c->tag];

		d->age_next[older] = (uint8_t)newer;
		d->age_prev[newer] = (uint8_t)older;
	}
	fwq_set_remove(&d->waiting, pos);
}

/*
 * The queue for one choice, in d->queue: the waiting slots (sorted by
 * cylinder), then the oldest destages. Returns the number of candidates.
 */
static inline __attribute__((always_inline)) unsigned gather(struct disk *d)
{
	struct fwq_queue *q = &d->queue;
	unsigned n = d->waiting.n, i;
	const struct disk_dirty_range *r = disk_dirty_oldest(&d->dirty);
	const struct fwq_cmd *first;

	/* Aging looks at the queued commands (destages do not age); the batch at destages too. */
	q->oldest = d->waiting.n ? &d->slot[d->age_next[AGE_END]] : NULL;
	first = r && (!q->oldest || fwq_older(&r->cmd, q->oldest)) ? &r->cmd : q->oldest;
	/* Destages follow the waiting slots, oldest first. */
	for (i = 0; r && i < FWQ_DESTAGE_WINDOW; i++, r = disk_dirty_newer(&d->dirty, r))
		d->waiting.cands[n++] = &r->cmd;
	q->n = n;
	q->nsorted = d->waiting.n;
	/* A new batch once nothing of the last one waits: everything received so far. */
	if (n && first->seq >= q->batch_end)
		q->batch_end = d->seq;
	q->now = sim_now(d->sim);
	return n;
}

/* The chosen destage leaves the dirty data (its bytes stay counted until it is on the media). */
static void destage_remove(struct disk *d, const struct fwq_cmd *c)
{
	disk_dirty_remove(&d->dirty, disk_dirty_of(c));
	d->stats.destages++;
}

/* Out of line and cold: the print's arguments would make the pick's path save registers. */
static __attribute__((noinline, cold)) void debug_pick(struct disk *d, enum fwq_reason reason,
							 const struct disk_access *acc, unsigned n)
{
	sim_debug_print(d->sim, SIM_DBG_DISK, "pick %s%u of %u (%s%s) cyl %u head %u: seek %.3f "
			"rot %.3f xfer %.3f ms, done at +%.3f ms",
			d->current.destage ? "destage " : "tag ",
			d->current.destage ? 0 : d->current.tag, n, d->current.high ? "high, " : "",
			fwq_reason_name(&d->rules, reason), d->current.where.cyl,
			d->current.where.head, acc->seek / 1e6, acc->rotate / 1e6,
			(acc->transfer + acc->extra) / 1e6, acc->total / 1e6);
}

/* `next` as in dispatch_as(): no rare state, so no debug output. */
static inline void account_pick(struct disk *d, enum fwq_reason reason,
				const struct disk_access *acc, unsigned n, bool next)
{
	d->picks_by[reason]++;
	d->media_by[d->current.write]++;
	d->stats.busy_ns += acc->total;
	d->seek_sum += acc->seek;
	d->rotate_sum += acc->rotate;
	d->stats.transfer_ns += acc->transfer + acc->extra;
	if (!next && d->debugging)
		debug_pick(d, reason, acc, n);
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

	/*
	 * The stream's clock (the head) can be behind `now`: the command before
	 * ended when the interface had carried it, after the head had read its
	 * last sector. A read the head has already passed is in the buffer by
	 * now: it completes at once, not in the past.
	 */
	if (done < now)
		done = now;
	if (d->pick_fn) {
		struct disk_access acc = { .transfer = done - now, .total = done - now };
		struct fwq_ctx ctx;
		struct disk_pick_event ev = { now, &ctx, cands, n, chosen, d->queue.batch_end,
					      FWQ_PICK_STREAM, &acc };

		fwq_ctx_init(&ctx, &d->mech, now, d->head);
		d->pick_fn(d->pick_ctx, &ev);
	}

	d->current = *c;
	d->current_streamed = true;
	d->busy = true;
	d->busy_until = done;
	d->head.cyl = d->stream.cyl;
	d->head.head = d->stream.head;
	media_done_at(d, done);
	d->media_by[c->write]++;
	d->stats.busy_ns += done - now;
	d->stats.transfer_ns += done - now;
	sim_debug(d->sim, SIM_DBG_DISK, "stream %s%u: %llu sectors from the head, done at +%.3f ms",
		  c->destage ? "destage " : "tag ", c->destage ? 0 : c->tag,
		  (unsigned long long)c->nps, (done - now) / 1e6);
}

/*
 * Whether a queued command has waited age_limit: the choice must serve it.
 * Destages do not age — the host has their completion; dirty data that
 * waits costs only room, and a write waiting for room ages instead
 * (room_aged()).
 */
static bool any_aged(const struct disk *d, int64_t now)
{
	return d->waiting.n && now - d->slot[d->age_next[AGE_END]].arrival >= d->rules.age_limit;
}

/*
 * The waiting command (other than a read-modify-write) in direction
 * `write` that starts at physical sector ps, or -1. The next sector is on
 * the head's cylinder or a neighbour (a zone's end aside), so only those
 * few of the commands sorted by cylinder are looked at.
 */
static int waiting_at(const struct disk *d, uint64_t ps, bool write)
{
	const struct fwq_set *s = &d->waiting;
	unsigned x;

	/* The right sentinel's cylinder is past the head's neighbour. */
	for (x = fwq_set_at(s, (int32_t)d->head.cyl - 1); s->cyl[x] <= (int32_t)d->head.cyl + 1;
	     x = s->next[x]) {
		const struct fwq_cmd *c = s->cmd[x];

		if (c->ps == ps && c->write == write && !c->rmw)
			return (int)s->pos[x];
	}
	return -1;
}

/* stream_continue() past its quick tests: a waiting command at the stream's next sector. */
static __attribute__((noinline)) bool stream_continue_queued(struct disk *d)
{
	int64_t done;
	bool write = d->current.write;
	struct fwq_cmd c;
	int pos;

	pos = waiting_at(d, d->stream.ps, write);
	if (pos < 0)
		return false;
	c = *d->waiting.cands[pos];
	/* A batched policy: not before the commands of the batch in progress. */
	if (d->rules.ops->batched && c.seq >= d->queue.batch_end && !c.high)
		return false;
	/* A write's data must be in the buffer before its first sector comes. */
	done = write ? d->data_in[c.tag] : c.arrival + d->model.command_overhead +
		interface_ns(d, read_bytes(d, &c));
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
	stream_start(d, d->waiting.cands, gather(d), (unsigned)pos, done);
	waiting_remove(d, (unsigned)pos);
	return true;
}

/* stream_continue() with no command waiting: a destage the firmware can see (FWQ_DESTAGE_WINDOW). */
static bool stream_continue_destage(struct disk *d)
{
	struct disk_dirty_range *r = disk_dirty_oldest(&d->dirty);
	unsigned i;

	for (i = 0; r && i < FWQ_DESTAGE_WINDOW; i++, r = disk_dirty_newer(&d->dirty, r)) {
		if (r->cmd.ps != d->stream.ps || r->cmd.rmw)
			continue;
		stream_locate(d);
		disk_mech_stream_run(&d->mech, &d->stream, r->cmd.ps + r->cmd.nps, INT64_MAX, true);
		d->stats.stream_writes++;
		stream_start(d, d->waiting.cands, gather(d), i, d->stream.t);
		destage_remove(d, &r->cmd);
		return true;
	}
	return false;
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
 *
 * Its quick tests inline: every media access's end asks, and random work
 * almost never continues. `rare` as media_access_next_as() has it: false,
 * no write waits for room. Its one caller has found the actuator idle.
 */
static inline __attribute__((always_inline)) bool stream_continue(struct disk *d, bool rare)
{
	if (!d->rules.ops->positional)
		return false;
	if (rare && d->room_count)
		room_aged(d);	/* an aged write written through stops the stream */
	if (__builtin_expect(d->waiting.n != 0, 1)) {
		/* The cheap test first: random commands almost never qualify. */
		if (__builtin_expect(!d->starts[d->stream.ps % STARTS_BUCKETS], 1) ||
		    (d->queue.nhigh && d->rules.prio->honours) || any_aged(d, sim_now(d->sim)))
			return false;
		return stream_continue_queued(d);
	}
	if (!d->current.write || !d->dirty.count)
		return false;
	return stream_continue_destage(d);
}

/*
 * A write to the media is not written ahead of its data, which crosses the
 * link until data_in. The head may start on the first sector once that
 * sector's data is in, and must reach no sector before its data: with the
 * link faster than the media (SATA and every model) the first sector
 * binds, with a slower one the last. Its data late, the write takes its
 * first sector's next pass. (A read-modify-write is held to the same time,
 * though it writes a revolution later.)
 */
static void write_waits_for_data(struct disk *d, int64_t now, struct disk_access *acc)
{
	const struct fwq_cmd *c = &d->current;
	int64_t in = d->data_in[c->tag], first = now + acc->overhead + acc->seek + acc->rotate;
	int64_t ready, turns;

	if (in <= first)
		return;		/* all in before the head is there: the usual case */
	ready = in - interface_ns(d, c->nlb * d->layout.logical_size) +
		interface_ns(d, (uint64_t)d->layout.lpp * d->layout.logical_size);
	if (in - acc->transfer > ready)
		ready = in - acc->transfer;
	if (ready <= first)
		return;
	turns = (ready - first + d->layout.rev_ns - 1) / d->layout.rev_ns;
	acc->rotate += turns * d->layout.rev_ns;
	acc->total += turns * d->layout.rev_ns;
}

/*
 * The actuator is free: choose the next command and start its access.
 * `next`: called by media_done() as its access ends, with no rare state
 * (disk.rare) — so no write waits for room — and the actuator idle, which
 * its caller has tested (dispatch_next()), and not reading ahead; else
 * asked by anyone, at any time.
 */
static inline __attribute__((always_inline)) void dispatch_as(struct disk *d, bool next)
{
	unsigned n, chosen;
	struct fwq_ctx ctx;
	struct disk_access acc;
	enum fwq_reason reason;
	const struct fwq_cmd *c;
	int64_t now = sim_now(d->sim);

	if (!next) {
		if (d->busy)
			return;
		if (d->room_count)
			room_aged(d);
	}
	if (!(n = gather(d)))
		return;
	/*
	 * Never reading ahead as an access ends: reading_ahead is set only
	 * with the actuator idle, and cleared before any access starts.
	 */
	if (!next && d->reading_ahead)
		read_ahead_stop(d);
	fwq_ctx_init(&ctx, &d->mech, now, d->head);
	chosen = fwq_pick(&d->rules, &ctx, &d->queue, now, &reason);
	c = d->waiting.cands[chosen];
	d->current = *c;
	/* Expected (random work: a command on one track), for gcc to lay out the path straight. */
	if (__builtin_expect(d->current.track_ns >= 0 && !d->current.destage, 1))
		disk_mech_access_track(&d->mech, &d->head, now, &d->current.where,
				       d->current.track_ns, d->current.write, d->current.rmw, &acc);
	else
		disk_mech_access_at(&d->mech, &d->head, now, &d->current.where, d->current.nps,
				    d->current.write, d->current.rmw, &acc);
	if (d->current.write)
		write_waits_for_data(d, now, &acc);
	/*
	 * The observer sees the queue as the choice did, before the chosen
	 * leaves it (none as an access ends with no rare state: one is).
	 */
	if (!next && d->pick_fn) {
		struct disk_pick_event ev = { now, &ctx, d->waiting.cands, n, chosen, d->queue.batch_end,
					       reason, &acc };

		d->pick_fn(d->pick_ctx, &ev);
	}
	if (c->destage)
		destage_remove(d, c);
	else
		waiting_remove(d, chosen);
	d->busy = true;
	if (!next)
		d->current_abort = 0;	/* else 0 already: it is a rare state */
	if (d->current.cdl) {
		/* Once started: the active-time limit, and the guideline, may cut the access. */
		const struct slot_cdl *s = &d->cdl[d->current.tag];
		int64_t end = now + acc.total;

		cdl_disarm(d, d->current.tag);
		if (s->max_active && cdl_ends(s->apol) && now + s->max_active < end) {
			end = now + s->max_active;
			d->current_abort = s->apol;
		}
		if (s->due < end && cdl_ends(s->gpol)) {
			end = s->due > now ? s->due : now;
			d->current_abort = s->gpol;
		}
		rare_update(d);
		acc.total = end - now;
	}
	d->busy_until = now + acc.total;
	if (next)
		sim_again(d->sim, now + acc.total);	/* media_done_at() from inside media_done() */
	else
		media_done_at(d, now + acc.total);
	account_pick(d, reason, &acc, n, next);
}

static void dispatch(struct disk *d)
{
	dispatch_as(d, false);
}

/*
 * dispatch() from media_done() (dispatch_as()), without the tests its
 * caller has made; inline there, the choice shares its registers and
 * its frame (measured: 12 instructions an I/O fewer than a call).
 */
static inline __attribute__((always_inline)) void dispatch_next(struct disk *d)
{
	dispatch_as(d, true);
}

/* ---- commands ---- */

/* Inline: queue_rw_inline()'s first step (see there). */
static inline __attribute__((always_inline)) void prepare(struct disk *d, struct fwq_cmd *c,
							   const struct ata_rw *rw, unsigned slot,
							   bool high)
{
	const struct disk_layout *l = &d->layout;
	const struct disk_zone *z;
	uint64_t ps, nps;
	struct disk_chs where;

	/*
	 * Every field set (no memset: this runs for every command). What
	 * the command brings first, before any of the layout is loaded, so
	 * that none of it holds a register through the layout's arithmetic
	 * (and a store that may alias the layout forces no load again). The
	 * location worked out in locals, then stored: a store into *c of one
	 * of its integers could make the compiler load the layout again.
	 */
	c->lba = rw->lba;
	c->nlb = rw->sectors;
	c->tag = (uint8_t)slot;
	c->cdl = 0;
	c->cdl_start_by = INT64_MAX;
	c->write = rw->write;
	c->fua = rw->fua;
	c->high = high;
	/*
	 * c->destage stays false, not stored: disk_new() zeroes the slots,
	 * and only dirty.c's own commands set it (disk_get_stats() checks).
	 */
	/*
	 * A 512e write that does not cover whole physical sectors reads first.
	 * Stored as constants: gcc stored the && expression's value through a
	 * register, masked again in memory, for every read.
	 */
	c->rmw = false;
	if (rw->write && (rw->lba % l->lpp || (rw->lba + rw->sectors) % l->lpp))
		c->rmw = true;
	z = disk_layout_place(l, rw->lba, rw->sectors, &ps, &nps, &where);
	c->ps = ps;
	c->nps = nps;
	c->where = where;
	c->track_ns = where.sector + nps <= z->spt ? disk_layout_sectors_ns(l, z, nps) : -1;
	c->arrival = sim_now(d->sim);
	c->seq = d->seq++;
	/* With CDL enabled the drive ignores PRIO; the descriptor sets the class. */
	if (d->cdl_enabled) {
		c->cdl = rw->cdl;
		d->stats.cdl_commands += rw->cdl != 0;
		cdl_apply(d, c);
	}
}

/* A write that bypasses the cache goes to the media: the dirty sectors it covers give way. */
static void dirty_drop(struct disk *d, uint64_t lba, uint64_t n)
{
	uint64_t held = d->dirty.sectors;

	disk_dirty_drop(&d->dirty, lba, n);
	d->cache.dirty_bytes -= (held - d->dirty.sectors) * d->layout.logical_size;
	room_admit(d);
}

/*
 * Whether the buffer has room for a cached write of `bytes`: its whole
 * size (what it rewrites in place is known only once its data is in) and
 * one range, beside the writes whose data is on its way.
 */
static bool write_fits(const struct disk *d, uint64_t bytes)
{
	return d->cache.dirty_bytes + d->incoming_bytes + bytes <= d->cache.write_buffer &&
		d->dirty.count + d->incoming_ranges < d->dirty.cap;
}

static void write_in(struct sim *sim, void *arg);

/* The write's data comes over; its room is held until the data is in (write_in()). */
static void write_take(struct disk *d, unsigned slot)
{
	uint64_t bytes = d->slot[slot].nlb * d->layout.logical_size;

	d->incoming_bytes += bytes;
	d->incoming_ranges++;
	if (d->cache.dirty_bytes + d->incoming_bytes > d->stats.dirty_bytes_max)
		d->stats.dirty_bytes_max = d->cache.dirty_bytes + d->incoming_bytes;
	sim_at(d->sim, link_reserve(d, sim_now(d->sim), interface_ns(d, bytes)), write_in,
	       &d->ref[slot]);
}

/* Destages made room, or a write took less than it held: the writes waiting for it, in order. */
static void room_admit(struct disk *d)
{
	while (d->room_count) {
		unsigned slot = d->room_wait[d->room_head];

		if (!write_fits(d, d->slot[slot].nlb * d->layout.logical_size))
			return;
		d->room_head = (d->room_head + 1) % FWQ_SLOTS;
		d->room_count--;
		write_take(d, slot);
	}
}

/*
 * A cached write's data is in the buffer: it goes into the dirty data
 * (disk/dirty.h) — over dirty sectors in place, after the newest range
 * when it continues it (up to a segment's size, so a sequential stream
 * destages in one pass), else as a range of its own — and completes.
 */
static void write_in(struct sim *sim, void *arg)
{
	struct slot_ref *ref = arg;
	struct disk *d = ref->d;
	const struct fwq_cmd *c = &d->slot[ref->slot];
	uint64_t held = d->dirty.sectors;

	(void)sim;
	decode_due(d);
	d->incoming_bytes -= c->nlb * d->layout.logical_size;
	d->incoming_ranges--;
	d->front_pending--;
	if (d->in_reset || d->reset_ending || d->ncq_halted) {
		aborted_try_end(d);	/* a reset or an NCQ error aborted it: its data is dropped */
		return;
	}
	d->stats.dirty_overwrites += disk_dirty_overlaps(&d->dirty, c->lba, c->nlb);
	switch (disk_dirty_put(&d->dirty, c, d->seg_size)) {
	case DISK_DIRTY_COALESCED:
		d->stats.coalesced_writes++;
		break;
	case DISK_DIRTY_IN_PLACE:
		d->stats.in_place_writes++;
		break;
	case DISK_DIRTY_ADDED:
		break;
	}
	/* What it added: its sectors less those it rewrote. */
	d->cache.dirty_bytes += (d->dirty.sectors - held) * d->layout.logical_size;
	disk_cache_invalidate(&d->cache, c->lba, c->nlb);
	d->stats.write_cached++;
	complete_ok(d, ref->slot);
	room_admit(d);
	dispatch(d);
	decode_wake_check(d);
}

/*
 * A decoded write the buffer does not take goes to the media as a queued
 * command (the dirty sectors it covers give way: no older destage follows
 * it onto the media).
 */
static void write_through(struct disk *d, unsigned slot)
{
	const struct fwq_cmd *c = &d->slot[slot];

	d->front_pending--;
	d->stats.overhead_ns += d->model.command_overhead;
	d->stats.written_through++;
	dirty_drop(d, c->lba, c->nlb);
	take_write_data(d, slot, sim_now(d->sim));
	waiting_insert(d, slot);
}

/*
 * The writes that have waited age_limit for room are written through: the
 * aging rule, for a write the buffer could not take in time. Queued with
 * their arrival, they are aged, so the choice serves them next (a choice
 * calls this first).
 */
static void room_aged(struct disk *d)
{
	int64_t now = sim_now(d->sim);

	while (d->room_count) {
		unsigned slot = d->room_wait[d->room_head];

		if (now - d->slot[slot].arrival < d->rules.age_limit)
			return;
		d->room_head = (d->room_head + 1) % FWQ_SLOTS;
		d->room_count--;
		write_through(d, slot);
	}
}

/*
 * A cached write is decoded. With room in the buffer (and no write waiting
 * for it before this one) its data comes over; otherwise it waits for
 * destages to make room, in order — the drive takes no data it cannot
 * hold — until age_limit (room_aged()). One under a duration limit is not
 * left waiting: it goes to the media at once, where its limits apply.
 */
static void write_decoded(struct sim *sim, void *arg)
{
	struct slot_ref *ref = arg;
	struct disk *d = ref->d;
	struct fwq_cmd *c = &d->slot[ref->slot];

	(void)sim;
	decode_due(d);
	if (d->in_reset || d->reset_ending || d->ncq_halted) {
		d->front_pending--;
		aborted_try_end(d);
		return;
	}
	if (!d->room_count && write_fits(d, c->nlb * d->layout.logical_size)) {
		write_take(d, ref->slot);
	} else if (c->cdl) {
		write_through(d, ref->slot);
		dispatch(d);
	} else {
		d->room_wait[(d->room_head + d->room_count) % FWQ_SLOTS] = (uint8_t)ref->slot;
		d->room_count++;
		rare_update(d);
		d->stats.room_waits++;
		dispatch(d);
	}
	decode_wake_check(d);
}

/*
 * The firmware has decoded a command and can schedule it. Decoding runs
 * beside the actuator, so a command queued behind another has its
 * overhead behind it when its turn comes; at queue depth 1 every command
 * pays it in full (docs/DRIVES.md: why QD 2 beats QD 1).
 */
static void decoded(struct sim *sim, void *arg)
{
	struct slot_ref *ref = arg;

	(void)sim;
	decode_due(ref->d);
	if (ref->d->aborts_at[ref->slot] != ref->d->aborts)
		return;		/* a reset or an NCQ error aborted it */
	ref->d->stats.overhead_ns += ref->d->model.command_overhead;
	take_write_data(ref->d, ref->slot, sim_now(sim));
	waiting_insert(ref->d, ref->slot);
	dispatch(ref->d);
	decode_wake_check(ref->d);
}

/*
 * Most commands are decoded without an event of their own: one arriving
 * while the actuator is busy is not needed before the actuator is free,
 * and the drive is always called (disk_submit() or one of its events)
 * before anything could look at its queue. So each is kept with its
 * event's key and starts waiting, as `decoded` would have made it, at the
 * first call after that key; the order of everything is as with the
 * events. A command under a duration limit keeps its event (its timers
 * are armed when it is decoded).
 */
static bool decode_passed(const struct disk *d)
{
	const struct decoding *e = &d->decoding[d->decoding_head];

	return d->decoding_count && sim_key_passed(d->sim, e->ready, e->seq);
}

static __attribute__((noinline)) void decode_passed_ones(struct disk *d)
{
	do {
		const struct decoding *e = &d->decoding[d->decoding_head];
		unsigned slot = e->slot;

		/* Its data is asked for when its decoding ended, in that order. */
		take_write_data(d, slot, e->ready);
		d->decoding_head = (d->decoding_head + 1) % DECODING_RING;
		d->decoding_count--;
		d->stats.overhead_ns += d->model.command_overhead;
		waiting_insert(d, slot);
		if (!d->busy)
			dispatch(d);
	} while (decode_passed(d));
}

static inline void decode_due(struct disk *d)
{
	if (decode_passed(d))
		decode_passed_ones(d);
}

static void decode_wake(struct sim *sim, void *arg)
{
	struct disk *d = arg;

	(void)sim;
	d->decode_wake_set = false;
	decode_due(d);
	decode_wake_check(d);
}

/* An idle actuator waits for the oldest command being decoded: its event, in its place. */
static inline void decode_wake_check(struct disk *d)
{
	const struct decoding *e = &d->decoding[d->decoding_head];

	if (d->busy || !d->decoding_count || d->decode_wake_set)
		return;
	d->decode_wake_set = true;
	sim_at_key(d->sim, e->ready, e->seq, decode_wake, d);
}

static void decode_later(struct disk *d, unsigned slot)
{
	struct decoding *e = &d->decoding[(d->decoding_head + d->decoding_count) % DECODING_RING];

	SIM_ASSERT(d->decoding_count < DECODING_RING, "%u commands being decoded",
		   d->decoding_count);
	e->ready = sim_now(d->sim) + d->model.command_overhead;
	e->seq = sim_reserve_seq(d->sim);
	e->slot = slot;
	d->decoding_count++;
}

/*
 * A read that arrives while the actuator is busy past its decoding's end,
 * with no other command being decoded, starts waiting at once: nothing
 * looks at the queue before that access ends (a choice or a continuation
 * needs the actuator), and by then the `decoded` key it would have had
 * (taken all the same, so that every later event keeps its place) has
 * passed — it is where decoding would have put it, in the same order, and
 * has no data to ask for. A reset or an NCQ error in between aborts it
 * with the queue, as it would have aborted its decoding.
 */
static inline __attribute__((always_inline)) void decode_early(struct disk *d,
								 unsigned slot)
{
	(void)sim_reserve_seq(d->sim);
	d->stats.overhead_ns += d->model.command_overhead;
	waiting_insert(d, slot);
}

/*
 * A reset or an NCQ error aborts the commands being decoded with the rest:
 * none of them is queued afterwards (its slot may be reused by then).
 */
static void abort_decoding(struct disk *d)
{
	d->decoding_count = 0;
	d->aborts++;
}

/* A read hit is decoded: its data goes out over the link, and it completes once sent. */
static void hit_decoded(struct sim *sim, void *arg)
{
	struct slot_ref *ref = arg;
	struct disk *d = ref->d;

	decode_due(d);
	if (d->in_reset || d->reset_ending || d->ncq_halted) {
		d->front_pending--;
		aborted_try_end(d);	/* a reset or an NCQ error aborted it */
		return;
	}
	sim_at(sim, link_reserve(d, sim_now(sim), interface_ns(d, read_bytes(d, &d->slot[ref->slot]))),
	       front_end_done, ref);
}

/*
 * A read or write command, decoded, into slot `slot`. Inline in
 * disk_submit(), which every I/O's command takes: there `rw` stays in
 * registers, where as a call its fields went through memory both ways
 * (with prepare() and decode_early() inline too, as gcc would not inline
 * them into so large a caller). The other callers call queue_rw().
 */
static inline __attribute__((always_inline)) void queue_rw_inline(struct disk *d,
								  const struct ata_rw *rw,
								  unsigned slot, bool high)
{
	struct fwq_cmd *c = &d->slot[slot];

	prepare(d, c, rw, slot, high);
	if (d->reading_ahead)
		read_ahead_catch_up(d);
	/* A FUA read comes from the media: no cache hit, no read-ahead stream. */
	if (!rw->write && !rw->fua && disk_cache_read_hit(&d->cache, rw->lba, rw->sectors)) {
		d->stats.cache_hits++;
		d->front_pending++;
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
		sim_after(d->sim, d->model.command_overhead, hit_decoded, &d->ref[slot]);
		return;
	}
	/*
	 * A read that starts in the segment being read ahead, at or before the
	 * sector under the head, continues the stream: no seek, no rotational
	 * wait; it ends when the stream reaches its last sector, or when the
	 * interface has carried it, whichever is later.
	 */
	if (!rw->write && !rw->fua && !d->busy && read_ahead_running(d) &&
	    rw->lba >= d->cache.start[d->cache.last_filled] && c->ps <= d->stream.ps) {
		const struct fwq_cmd *only = c;
		int64_t done;

		d->reading_ahead = false;
		stream_locate(d);
		disk_mech_stream_run(&d->mech, &d->stream, c->ps + c->nps, INT64_MAX, false);
		done = sim_now(d->sim) + d->model.command_overhead +
			interface_ns(d, read_bytes(d, c));
		if (d->stream.t > done)
			done = d->stream.t;
		d->stats.stream_reads++;
		stream_start(d, &only, 1, 0, done);
		return;
	}
	if (rw->write && d->write_cache && !rw->fua &&
	    (uint64_t)rw->sectors * d->layout.logical_size <= d->cache.write_buffer) {
		d->front_pending++;
		sim_after(d->sim, d->model.command_overhead, write_decoded, &d->ref[slot]);
		return;
	}
	if (rw->write && d->dirty.count)
		dirty_drop(d, c->lba, c->nlb);
	if (!d->model.command_overhead) {
		take_write_data(d, slot, sim_now(d->sim));
		waiting_insert(d, slot);
		dispatch(d);
		return;
	}
	if (c->cdl) {
		d->aborts_at[slot] = d->aborts;
		sim_after(d->sim, d->model.command_overhead, decoded, &d->ref[slot]);
	} else if (!rw->write && d->busy && !d->decoding_count &&
		   /* c->arrival is now: prepare() set it, and the clock moves only between events. */
		   d->busy_until > c->arrival + d->model.command_overhead) {
		decode_early(d, slot);
	} else {
		decode_later(d, slot);
	}
}

/* queue_rw_inline() once, for the commands that do not come through disk_submit()'s fast path. */
static __attribute__((noinline)) void queue_rw(struct disk *d, const struct ata_rw *rw,
						unsigned slot, bool high)
{
	queue_rw_inline(d, rw, slot, high);
}

/* A queued command, parsed; its FEATURE and DEVICE fields for the error log. */
static inline __attribute__((always_inline)) void ncq_rw(struct disk *d, const struct ata_rw *rw,
							  uint16_t features, uint8_t device)
{
	SIM_ASSERT(rw->tag < d->model.queue_depth, "host used NCQ tag %u; the drive's queue "
		   "depth is %u", rw->tag, d->model.queue_depth);
	SIM_ASSERT(!(d->tags_in_use & (1u << rw->tag)) && !(d->sdb_done & (1u << rw->tag)),
		   "host reused NCQ tag %u while it is outstanding", rw->tag);
	SIM_ASSERT(!d->nonqueued_busy, "host queued tag %u while a non-queued command is "
		   "outstanding", rw->tag);
	SIM_ASSERT(!d->ncq_halted, "host queued tag %u before reading the NCQ error log", rw->tag);
	d->tags_in_use |= 1u << rw->tag;
	if (rw->lba + rw->sectors > d->layout.logical_sectors) {
		struct ata_ncq_error err = { .tag = rw->tag, .status = ATA_STAT_DRDY | ATA_STAT_ERR,
			.error = ATA_ERR_IDNF, .lba = rw->lba, .count = features, .device = device };

		d->stats.errors++;
		ata_ncq_error_build(&err, d->ncq_error_log);
		ncq_halt(d);
		return;
	}
	queue_rw(d, rw, rw->tag, rw->prio == ATA_PRIO_HIGH);
}

static void ncq_command(struct disk *d, const struct ata_taskfile *tf)
{
	struct ata_rw rw;

	if (!d->model.ncq || ata_rw_parse(tf, &rw)) {
		abort_command(d);
		return;
	}
	ncq_rw(d, &rw, tf->features, tf->device);
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

/*
 * READ VERIFY SECTORS (EXT): a read in every way but the transfer (ACS) —
 * a cache hit, a stream continued or a media access as the read rules
 * decide, with its read-ahead after — whose data never leaves the drive;
 * the good status comes when the read would have sent its last byte.
 */
static void verify_command(struct disk *d, const struct ata_taskfile *tf)
{
	struct ata_rw rw = { .write = false };
	uint64_t lba;
	uint32_t n;

	if (ata_cmd_read_verify_parse(tf, &lba, &n)) {
		abort_command(d);
		return;
	}
	if (lba + n > d->layout.logical_sectors) {
		d->stats.errors++;
		respond(d, d->model.command_overhead, ATA_STAT_DRDY | ATA_STAT_ERR, ATA_ERR_IDNF, 0);
		return;
	}
	rw.lba = lba;
	rw.sectors = n;
	d->stats.verifies++;
	d->nonqueued_busy = true;
	d->read_xfer[FWQ_NONQUEUED] = 0;
	sim_debug(d->sim, SIM_DBG_DISK, "READ VERIFY lba %llu +%u", (unsigned long long)lba, n);
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
	id.trim = m->trim;
	id.dsm_blocks = 8;		/* 512 ranges per command, as drives commonly report */
	if (m->cdl) {
		/* CDL is ACS-5 (word 80 bit 12), and its sense data needs NCQ autosense. */
		id.major_version = 0x1ff0;
		id.ncq_autosense = true;
	}
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
		if (d->model.cdl)
			pages[ATA_LOG_CDL] = 1;
		if (d->model.id_data_log)
			pages[ATA_LOG_IDENTIFY_DEVICE] = sizeof(id_pages);
		ata_gpl_dir_build(out, pages);
		return true;
	}
	case ATA_LOG_CDL:
		if (page || !d->model.cdl)
			return false;
		ata_cdl_log_build(&d->model.cdl_log, out);
		return true;
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
		} else if (page == ATA_LOG_ID_CAPABILITIES) {
			ata_id_log_capabilities_build(out, d->model.cdl);
		} else if (page == ATA_LOG_ID_CURRENT_SETTINGS) {
			ata_id_log_current_settings_build(out, d->cdl_enabled);
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
	if (d->ncq_halted && log == ATA_LOG_NCQ_ERROR && pages == 1) {
		/* Reading log 10h ends the error state, once the aborted work has stopped. */
		d->nonqueued_busy = true;
		d->log_pending = true;
		aborted_try_end(d);
		return;
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
	case ATA_SF_CDL:
		if (!d->model.cdl) {
			abort_command(d);
			return;
		}
		/*
		 * CDL on: the descriptors steer the queue (the cdl priority row) and
		 * the drive stops honouring PRIO — its high-priority enhancement is off.
		 */
		d->cdl_enabled = (tf->count & 0xff) == 1;
		d->rules.prio = d->cdl_enabled ? fwq_prio_ops(plugin_find(&fwq_prio_policies, "cdl")) :
			d->prio_without_cdl;
		break;
	default:
		abort_command(d);
		return;
	}
	respond(d, d->model.command_overhead, ATA_STAT_DRDY, 0, 0);
}

/* ---- flush and reset ---- */

/* FLUSH CACHE EXT: answered when nothing dirty is left and the actuator rests. */
static void flush_try_end(struct disk *d)
{
	if (!d->flushing || d->dirty.count || d->busy)
		return;
	d->flushing = false;
	rare_update(d);
	respond(d, d->model.command_overhead, ATA_STAT_DRDY, 0, 0);
}

/*
 * DATA SET MANAGEMENT with TRIM (06h): the host's payload of LBA ranges
 * (fetched as the DMA data-out), whose read-cache contents go; the answer
 * comes after the command overhead and trim_time per block of ranges (the
 * mapping work, beside the actuator: no media access). Without TRIM, or a
 * range beyond the end, the drive aborts it.
 */
static void dsm_command(struct disk *d, const struct ata_taskfile *tf, const uint8_t *data,
			size_t data_len)
{
	uint16_t blocks;
	bool trim;
	unsigned i;

	if (!d->model.trim || ata_cmd_dsm_parse(tf, &blocks, &trim) || !trim ||
	    (size_t)blocks * ATA_SECTOR_SIZE > data_len) {
		abort_command(d);
		return;
	}
	for (i = 0; i < (unsigned)blocks * ATA_DSM_ENTRIES; i++) {
		uint64_t lba;
		uint32_t n;

		if (!ata_dsm_trim_entry(data, i, &lba, &n))
			continue;
		if (lba + n > d->layout.logical_sectors) {
			d->stats.errors++;
			respond(d, d->model.command_overhead, ATA_STAT_DRDY | ATA_STAT_ERR,
				ATA_ERR_ABRT, 0);
			return;
		}
		disk_cache_invalidate(&d->cache, lba, n);
	}
	d->stats.trims++;
	sim_debug(d->sim, SIM_DBG_DISK, "DSM TRIM: %u blocks of ranges", blocks);
	respond(d, d->model.command_overhead + d->model.trim_time * blocks, ATA_STAT_DRDY, 0, 0);
}

static void flush_command(struct disk *d)
{
	d->stats.flushes++;
	d->nonqueued_busy = true;
	d->flushing = true;
	rare_update(d);
	sim_debug(d->sim, SIM_DBG_DISK, "FLUSH CACHE EXT: %u destages to write", d->dirty.count);
	dispatch(d);
	flush_try_end(d);
}

/*
 * A soft reset aborts every command, queued or not, without an answer;
 * dirty cache data stays. The device answers (D2H) once SRST is cleared
 * and whatever was under way has stopped.
 */
static void reset_begin(struct disk *d)
{
	d->stats.resets++;
	d->in_reset = true;
	d->reset_ending = false;
	abort_decoding(d);
	fwq_set_init(&d->waiting, &d->mech);
	d->queue.nhigh = 0;
	age_init(d);
	d->tags_in_use = 0;
	d->sdb_done = 0;
	d->sdb_error = false;	/* sdb_errors: cdl_forget_all() finds it again */
	d->front_pending -= d->room_count;	/* writes waiting for room: aborted */
	d->room_count = 0;
	cdl_forget_all(d);
	if (d->nonqueued_busy && sim_is_pending(d->sim, d->resp_ev))
		sim_cancel(d->sim, d->resp_ev);
	d->nonqueued_busy = false;
	d->read_xfer[FWQ_NONQUEUED] = (uint32_t)d->layout.logical_size;
	d->flushing = false;
	d->ncq_halted = d->log_pending = false;	/* a reset ends an NCQ error too */
	rare_update(d);
	link_abort(d);
	sim_debug(d->sim, SIM_DBG_DISK, "SRST: every command aborted");
}

static void reset_try_end(struct disk *d)
{
	if (!d->reset_ending || d->busy || d->front_pending)
		return;
	d->reset_ending = false;
	rare_update(d);
	respond(d, RESET_READY_NS, ATA_STAT_DRDY, 0, 0);
}

/*
 * An NCQ error (SATA's NCQ error handling): the drive sends a Set Device
 * Bits FIS with ERR, aborts every outstanding queued command, and takes no
 * queued command until the host has read the NCQ Command Error log (10h),
 * which it answers once the aborted work has stopped.
 */
static void ncq_halt(struct disk *d)
{
	abort_decoding(d);
	fwq_set_init(&d->waiting, &d->mech);
	d->queue.nhigh = 0;
	age_init(d);
	d->tags_in_use = 0;
	d->sdb_done = 0;
	d->front_pending -= d->room_count;	/* writes waiting for room: aborted */
	d->room_count = 0;
	cdl_forget_all(d);
	link_abort(d);
	d->ncq_halted = true;
	rare_update(d);
	d->sdb_error = true;
	d->sdb_errors = true;
	sdb_schedule(d);
	sim_debug(d->sim, SIM_DBG_DISK, "NCQ error: every queued command aborted");
}

static void aborted_try_end(struct disk *d)
{
	reset_try_end(d);
	if (!d->log_pending || d->busy || d->front_pending)
		return;
	d->log_pending = false;
	d->ncq_halted = false;
	rare_update(d);
	respond(d, d->model.command_overhead, ATA_STAT_DRDY, 0, ATA_LOG_PAGE_BYTES);
}

static void control_update(struct disk *d, const struct ata_taskfile *tf)
{
	if (tf->control & ATA_CTL_SRST) {
		reset_begin(d);
	} else if (d->in_reset) {
		d->in_reset = false;
		d->reset_ending = true;
		rare_update(d);
		reset_try_end(d);
	}
}

static void submit(struct disk *d, const uint8_t *fis, size_t len)
{
	disk_submit_data(d, fis, len, NULL, 0);
}

void disk_submit_data(struct disk *d, const uint8_t *fis, size_t len, const uint8_t *data,
		      size_t data_len)
{
	struct ata_taskfile tf;
	/* Decoded once: a control FIS (C bit clear) and a command share the frame format. */
	int bad = ata_h2d_decode(fis, len, &tf);

	if (!bad && !tf.c_bit) {
		control_update(d, &tf);
		return;
	}
	d->stats.commands++;
	if (bad || !tf.c_bit) {
		abort_command(d);
		return;
	}
	SIM_ASSERT(!d->in_reset && !d->reset_ending, "host sent a command during a reset");
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
	case ATA_CMD_READ_VERIFY:
	case ATA_CMD_READ_VERIFY_EXT:
		verify_command(d, &tf);
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
	case ATA_CMD_FLUSH_EXT:
		flush_command(d);
		return;
	case ATA_CMD_DSM:
		dsm_command(d, &tf, data, data_len);
		return;
	default:
		abort_command(d);
	}
}

/*
 * disk_submit() of anything but a READ/WRITE FPDMA QUEUED the drive
 * queues at once, or of one that arrives when a decoding is due (out of
 * line): the frame read again, every check in its order with its own
 * message.
 */
static __attribute__((noinline)) void submit_checked(struct disk *d, const uint8_t *fis,
						     size_t len)
{
	struct ata_rw rw;

	decode_due(d);
	if (ata_rw_fis_parse(fis, len, &rw) == ATA_OK && rw.ncq && d->model.ncq) {
		d->stats.commands++;
		SIM_ASSERT(!d->in_reset && !d->reset_ending, "host sent a command during a reset");
		ncq_rw(d, &rw, (uint16_t)(fis[3] | fis[11] << 8), fis[7]);
	} else {
		submit(d, fis, len);
	}
	decode_wake_check(d);
}

void disk_submit(struct disk *d, const uint8_t *fis, size_t len)
{
	struct ata_rw rw;

	/*
	 * Every I/O's command, READ/WRITE FPDMA QUEUED, is read straight from
	 * the bytes into its fields (ata_fpdma_fis_fields), and queued when
	 * none of the tests submit_checked() makes would stop it: the frame's
	 * own (PRIO 11b; the range past 2^48, implied by the range past the
	 * drive's end, as logical_sectors < 2^48: disk_new()), the drive's
	 * (NCQ on; in the range) and its assertions on the host (no reset;
	 * the tag within the queue depth and free; no non-queued command
	 * out; no NCQ error unread). When no decoding is due, decode_due()
	 * would do nothing, so the tests read what they would read after it.
	 * A clear disk.rare (the drive's state but for a moment in a run)
	 * says there is no reset and no NCQ error: one test for three.
	 * Whatever fails one takes submit_checked(), which reads the frame
	 * again and tests each in its order.
	 */
	if (!decode_passed(d) && d->model.ncq &&
	    (!d->rare || !(d->in_reset | d->reset_ending | d->ncq_halted)) &&
	    !d->nonqueued_busy && ata_fpdma_fis_fields(fis, len, &rw) &&
	    rw.prio <= ATA_PRIO_HIGH && rw.lba + rw.sectors <= d->layout.logical_sectors &&
	    rw.tag < d->model.queue_depth && !((d->tags_in_use | d->sdb_done) >> rw.tag & 1)) {
		d->stats.commands++;
		d->tags_in_use |= 1u << rw.tag;
		queue_rw_inline(d, &rw, rw.tag, rw.prio == ATA_PRIO_HIGH);
		decode_wake_check(d);
		return;
	}
	submit_checked(d, fis, len);
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
	d->sdb = ops->sdb;
	d->host = host;
	d->debugging = sim_debugging(sim, SIM_DBG_DISK);
	rare_update(d);
	if (disk_layout_build(&d->layout, m, e) || disk_mech_init(&d->mech, &d->layout, m, e)) {
		free(d);
		return NULL;
	}
	/* disk_submit() relies on it (the model's `sectors` option allows at most 2^48 - 1). */
	SIM_ASSERT(d->layout.logical_sectors < ATA_LBA48_LIMIT, "%llu sectors: past LBA48",
		   (unsigned long long)d->layout.logical_sectors);
	if (d->layout.cylinders > FWQ_MAX_CYLINDERS) {
		err_set(e, "drive '%s': %u cylinders; at most %u are modelled", m->name,
			d->layout.cylinders, FWQ_MAX_CYLINDERS);
		free(d);
		return NULL;
	}
	/* The command overhead is spent taking the command in, before it queues (decoded()). */
	disk_mech_set_overhead(&d->mech, 0);
	d->rules.ops = fwq_policy_ops(m->fw_sched);
	d->rules.prio = fwq_prio_ops(m->prio_policy);
	d->prio_without_cdl = d->rules.prio;
	d->rules.cdl_perf_permille = ata_cdl_perf_permille(m->cdl_log.perf_vs_guideline);
	d->rules.soft_margin = m->prio_soft_margin;
	d->rules.age_limit = m->age_limit;
	disk_cache_init(&d->cache, m->cache_segments, m->write_buffer);
	d->seg_size = m->cache_size / m->cache_segments / d->layout.logical_size;
	d->ra_max = (m->read_ahead_max < m->cache_size / m->cache_segments ? m->read_ahead_max :
		     m->cache_size / m->cache_segments) / m->physical_sector_size;
	d->write_cache = m->write_cache;
	d->read_ahead = m->read_ahead;
	age_init(d);
	fwq_set_init(&d->waiting, &d->mech);
	d->queue.cands = d->waiting.cands;
	d->queue.set = &d->waiting;
	for (i = 0; i < FWQ_SLOTS; i++) {
		d->ref[i].d = d;
		d->ref[i].slot = i;
		d->read_xfer[i] = (uint32_t)d->layout.logical_size;
	}
	/* One dirty range per 4 KiB of write buffer, at least one window. */
	if (disk_dirty_init(&d->dirty, m->write_buffer / 4096 > FWQ_DESTAGE_WINDOW ?
			    (uint32_t)(m->write_buffer / 4096) : FWQ_DESTAGE_WINDOW, &d->layout)) {
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
	disk_dirty_destroy(&d->dirty);
	free(d);
}

const struct disk_stats *disk_get_stats(struct disk *d)
{
	unsigned i;

	/* A rare state set without rare_update() would have its media ends skip it. */
	SIM_ASSERT(d->rare || !rare_holds(d), "the drive is in a rare state its rare flag misses");
	SIM_ASSERT(d->debugging == sim_debugging(d->sim, SIM_DBG_DISK),
		   "the drive's debug output was turned on or off after the drive was made");
	SIM_ASSERT(d->sdb_errors || !(d->sdb_error || d->sdb_sense || d->sdb_aborted),
		   "an error SDB is due that the sdb_errors flag misses");
	/* prepare() leaves every slot's destage false, as disk_new() set it. */
	for (i = 0; i < FWQ_SLOTS; i++)
		SIM_ASSERT(!d->slot[i].destage, "slot %u holds a destage", i);
	d->stats.picks_aged = d->picks_by[FWQ_PICK_AGED];
	d->stats.picks_prio = d->picks_by[FWQ_PICK_PRIO];
	d->stats.picks_soft_normal = d->picks_by[FWQ_PICK_SOFT_NORMAL];
	d->stats.picks = d->picks_by[FWQ_PICK_POLICY] + d->stats.picks_aged +
		d->stats.picks_prio + d->stats.picks_soft_normal;
	d->stats.media_reads = d->media_by[0];
	d->stats.seek_ns = d->seek_sum;
	d->stats.rotate_ns = d->rotate_sum;
	d->stats.media_writes = d->media_by[1];
	return &d->stats;
}

void disk_set_pick_observer(struct disk *d, disk_pick_fn fn, void *ctx)
{
	d->pick_fn = fn;
	d->pick_ctx = ctx;
	rare_update(d);
}
