#include "host/blk.h"

#include "host/ioprio.h"
#include "host/kernel.h"
#include "host/libata.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct blk_queue {
	struct sim *sim;
	struct host_knobs k;
	unsigned nr_requests, logical_size;
	unsigned budget;		/* device/queue_depth: commands outstanding at most */
	unsigned ntags, inflight;	/* ATA tags 0..ntags-1; how many are out */
	uint32_t rr_mask;		/* round-robin allocation starts at the lowest tag here */
	/*
	 * The tag of the command libata_issue() is given; in a good
	 * completion's run, the completed command's, until a dispatch takes it
	 * (completing_tag_free() frees it if none does).
	 */
	unsigned issuing;
	bool deferred;			/* libata_issue() deferred it (blk_issue_deferred()) */
	const struct sched_ops *sched;
	void *sched_data;
	unsigned sched_queued;		/* requests inserted into the scheduler, not yet dispatched */
	/*
	 * The one request of an otherwise empty scheduler, its insert held
	 * back (counted in sched_queued) for sched->pass(): at queue depth
	 * each dispatch takes the request just inserted. Any other use of the
	 * scheduler inserts it first (sched_settle()).
	 */
	struct blk_request *lone;
	/*
	 * sched->pass, or NULL when requests are never held back: a scheduler
	 * without one, SCHED debugging (its messages keep their order), or
	 * BLK debugging (a submission then takes the path with its debug
	 * line; pass() changes no result) — the debug mask is set before the
	 * queue is built (system.c).
	 */
	struct blk_request *(*pass)(void *data, struct blk_request *rq);
	/*
	 * pass, and last_merge never read (a merge_find, or nomerges other
	 * than 1: try_merge_last() alone reads it): blk_submit() may hold a
	 * request back without writing last_merge.
	 */
	bool hold_quiet;
	bool debug;			/* SIM_DBG_BLK (read with pass): blk_debug() tests this */
	/* sched->completed, or NULL: none, or one for debug lines without SCHED debugging. */
	void (*completed)(void *data, struct blk_request *rq);
	/*
	 * completed, debug, wait_head or stopped: a completion has more to do
	 * than blk_complete_good()'s common case (complete_slow_update() after any
	 * of them changes).
	 */
	bool complete_slow;
	/*
	 * Free requests, and the submitters waiting for one: a bio waits only
	 * while none is free, and a request freed while one waits is its, so
	 * while anything is free nothing waits (asserted as one is handed on).
	 */
	struct blk_request *pool, *free;
	struct blk_bio *wait_head, *wait_tail;
	/*
	 * nomerges = 1: the one-hit cache, the last request inserted or
	 * merged into. It may have left the scheduler since (it is not
	 * cleared at dispatch): can_merge() refuses a request not in_sched.
	 */
	struct blk_request *last_merge;
	/* queue/nomerges = 0 with a scheduler that merges: its lookup (else NULL). */
	struct blk_request *(*merge_find)(void *data, const struct blk_bio *bio, bool *front);
	uint32_t free_tags;
	struct blk_request *tag_rq[32];
	struct libata *ata;
	bool running, stopped;
	bool peek_before_budget;	/* 4.10's request function (below) */
	bool peek;			/* peek_before_budget and not stopped */
	/*
	 * hctx->dispatch: flushes, deferred and requeued requests, before the
	 * scheduler; dispatch_tail is the last only while the list is not empty.
	 */
	struct blk_request *dispatch_head, *dispatch_tail;
	bool write_cache, fua;		/* the drive's volatile cache; FUA usable (libata.fua) */
	int64_t busy_since;		/* when in-flight went from 0 to 1 */
	struct blk_stats stats;
};

static bool flush_insert(struct blk_queue *q, struct blk_request *rq, uint16_t flags);

static void complete_slow_update(struct blk_queue *q)
{
	q->complete_slow = q->completed || q->debug || q->wait_head || q->stopped;
}

/* sim_debug() of SIM_DBG_BLK, one load fewer. */
#define blk_debug(q, ...) do { \
	if ((q)->debug) \
		sim_debug_print((q)->sim, SIM_DBG_BLK, __VA_ARGS__); } while (0)

static uint32_t all_tags(const struct blk_queue *q)
{
	return q->ntags >= 32 ? 0xffffffffu : (1u << q->ntags) - 1;
}

/*
 * libata hands tags out round robin, the first free one after the last
 * given (4.10's ata_qc_new(); later BLK_TAG_ALLOC_RR in ATA_BASE_SHT):
 * rr_mask holds the tags above the last one given (none after the top
 * tag, so the search wraps to the lowest free).
 */
static inline unsigned tag_alloc(struct blk_queue *q)
{
	uint32_t after = q->free_tags & q->rr_mask;
	uint32_t bit = after ? after : q->free_tags;

	bit &= -bit;
	q->free_tags ^= bit;
	return (unsigned)__builtin_ctz(bit);
}

/* The tag's command is out: the round robin moves past it (a deferred one leaves it). */
static inline void tag_given(struct blk_queue *q, unsigned tag)
{
	q->rr_mask = ~1u << tag;	/* the tags above it: none above tag 31 */
}

static const struct plugin *const builtin_schedulers[] = {
	&sched_none_ops.plugin,
	&sched_deadline_ops.plugin,
	&sched_mq_deadline_ops.plugin,
	NULL,
};

struct plugin_registry blk_schedulers = { "I/O scheduler", builtin_schedulers, { NULL }, 0 };

const struct sched_ops *blk_sched_find(const char *name)
{
	const struct plugin *p = plugin_find(&blk_schedulers, name);

	return p ? blk_sched_ops(p) : NULL;
}

struct blk_queue *blk_queue_new(struct sim *sim, const struct host_knobs *k, struct err *e)
{
	struct blk_queue *q = calloc(1, sizeof(*q));
	unsigned i;

	if (!q) {
		err_set(e, "out of memory");
		return NULL;
	}
	q->sim = sim;
	q->k = *k;
	q->sched = blk_sched_ops(k->scheduler);
	q->merge_find = k->nomerges == 0 ? q->sched->merge_find : NULL;
	q->pass = sim_debugging(sim, SIM_DBG_SCHED | SIM_DBG_BLK) ? NULL : q->sched->pass;
	q->debug = sim_debugging(sim, SIM_DBG_BLK);
	q->hold_quiet = q->pass && (q->merge_find || k->nomerges != 1);
	q->logical_size = 512;
	q->budget = q->ntags = k->queue_depth;
	q->rr_mask = ~0u;
	q->nr_requests = k->nr_requests ? k->nr_requests : host_default_nr_requests(k);
	q->pool = calloc(q->nr_requests, sizeof(*q->pool));
	if (!q->pool) {
		err_set(e, "out of memory for %u requests", q->nr_requests);
		free(q);
		return NULL;
	}
	for (i = q->nr_requests; i-- > 0;) {
		q->pool[i].free_next = q->free;
		q->free = &q->pool[i];
	}
	if (q->sched->init(q, &q->sched_data, e)) {
		free(q->pool);
		free(q);
		return NULL;
	}
	/* Its set-up says whether completed() feeds more than its debug lines. */
	q->completed = !q->sched->completed_for_debug ||
		!q->sched->completed_for_debug(q->sched_data) || sim_debugging(sim, SIM_DBG_SCHED) ?
		q->sched->completed : NULL;
	complete_slow_update(q);
	return q;
}

void blk_queue_free(struct blk_queue *q)
{
	if (!q)
		return;
	q->sched->exit(q->sched_data);
	free(q->pool);
	free(q);
}

void blk_queue_attach(struct blk_queue *q, struct libata *ata)
{
	q->ata = ata;
	q->budget = libata_queue_depth(ata);
	q->ntags = libata_host_tags(ata);
	/* Tags are bits of 32-bit masks, here and in libata (which relies on it). */
	SIM_ASSERT(q->ntags <= 32, "%u tags: more than 32", q->ntags);
	q->logical_size = libata_logical_sector_size(ata);
	q->free_tags = all_tags(q);
	q->write_cache = libata_write_cache(ata);
	q->fua = q->write_cache && host_kernel_has(q->k.kernel, HOST_KC_FUA);
	q->peek_before_budget = !host_kernel_has(q->k.kernel, HOST_KC_BUDGET_FIRST);
	q->peek = q->peek_before_budget && !q->stopped;
	/*
	 * Every tag in use is a command in flight, and the budget is at most
	 * the tags: "a tag and budget free" is inflight < budget.
	 */
	SIM_ASSERT(q->budget >= 1 && q->budget <= q->ntags, "queue depth %u with %u tags",
		   q->budget, q->ntags);
}

const struct host_knobs *blk_queue_knobs(const struct blk_queue *q)
{
	return &q->k;
}

struct sim *blk_queue_sim(const struct blk_queue *q)
{
	return q->sim;
}

const struct blk_stats *blk_get_stats(struct blk_queue *q)
{
	const struct blk_request *rq;
	uint64_t free = 0;

	/* Every completion counts once in ios[]: the total is their sum, not a count of its own. */
	q->stats.completed = q->stats.ios[0] + q->stats.ios[1] + q->stats.ios[2];
	/*
	 * Every request made (request_fill()) is either completed — counted
	 * once, as request_done() or blk_complete_good() gives it back to
	 * the pool or to a waiting submitter — or still in use, out of the
	 * pool: no count of its own on the way in.
	 */
	for (rq = q->free; rq; rq = rq->free_next)
		free++;
	q->stats.requests = q->stats.completed + (q->nr_requests - free);
	return &q->stats;
}

uint64_t blk_max_discard_sectors(const struct blk_queue *q)
{
	return q->ata && libata_trim_supported(q->ata) ? LIBATA_MAX_TRIM_SECTORS : 0;
}

static void dispatch_add(struct blk_queue *q, struct blk_request *rq, bool head);

/*
 * The scheduler's next request. It holds only what was inserted and not
 * yet dispatched: with nothing, there is nothing to ask (nor a merge to
 * look for) — the common case at queue depth, where each request is taken
 * out soon after it goes in.
 */
static inline struct blk_request *sched_take(struct blk_queue *q)
{
	struct blk_request *rq = q->lone;

	if (rq) {		/* it is counted in sched_queued */
		rq = q->pass(q->sched_data, rq);
		q->lone = NULL;
	} else if (q->sched_queued) {
		rq = q->sched->dispatch(q->sched_data);
	}
	q->sched_queued -= rq != NULL;
	return rq;
}

/* The held-back request goes into the scheduler: before a merge lookup or another insert. */
static inline void sched_settle(struct blk_queue *q)
{
	if (q->lone) {
		q->sched->insert(q->sched_data, q->lone);
		q->lone = NULL;
	}
}

static inline void sched_insert(struct blk_queue *q, struct blk_request *rq)
{
	if (!q->sched_queued++ && q->pass) {
		q->lone = rq;
		return;
	}
	sched_settle(q);
	q->sched->insert(q->sched_data, rq);
}

/*
 * blk_execute_rq() of SG_IO's request: its CDB says FUA or not (no flush
 * machinery: libata sends what the CDB says, whatever libata.fua), and an
 * empty one is SYNCHRONIZE CACHE, which libata sends as FLUSH CACHE EXT
 * with or without a write cache (ata_try_flush_cache()). blk-mq puts it at
 * the tail of the dispatch list, past the scheduler (5.6:
 * blk_mq_sched_bypass_insert()); 4.10's legacy queue adds it at the back
 * (ELEVATOR_INSERT_BACK), after draining the elevator into the queue. The
 * sg driver's requests go in at the head (sg_common_write(): at_head
 * unless SG_FLAG_Q_AT_TAIL): of the dispatch list, or 4.10's
 * ELEVATOR_INSERT_FRONT, the front of its queue with nothing drained.
 */
static void passthrough_insert(struct blk_queue *q, struct blk_request *rq, uint16_t flags)
{
	bool head = flags & BLK_SCSI_AT_HEAD;
	struct blk_request *r;

	/* A VERIFY whose CDB counts no blocks is still a VERIFY, not a flush. */
	rq->cdb = flags & BLK_SCSI_VERIFY ? BLK_CDB_VERIFY :
		flags & BLK_SCSI_REFUSED ? BLK_CDB_REFUSED : BLK_CDB_RW;
	rq->fua = rq->cdb == BLK_CDB_RW && rq->nlb && (flags & BLK_FUA);
	rq->flush = rq->cdb == BLK_CDB_RW && !rq->nlb;
	rq->seq_left = rq->flush ? BLK_SEQ_PREFLUSH : BLK_SEQ_DATA;
	rq->bypass = true;
	if (!head && !host_kernel_has(q->k.kernel, HOST_KC_PASSTHROUGH_BYPASS))
		while ((r = sched_take(q)))	/* elv_drain_elevator() */
			dispatch_add(q, r, false);
	dispatch_add(q, rq, head);
	blk_debug(q, "passthrough lba %llu +%u %s%s queued",
		  (unsigned long long)rq->lba, rq->nlb, rq->cdb == BLK_CDB_VERIFY ? "VERIFY" :
		  rq->cdb == BLK_CDB_REFUSED ? "CDB" : rq->nlb ? (rq->write ? "W" : "R") : "SYNC",
		  rq->fua ? " FUA" : "");
}

/*
 * A request's first fields are its first bio's, in the same places: one
 * copy of BLK_RQ_HEAD bytes (two instructions, not ten).
 */
#define BLK_RQ_HEAD (offsetof(struct blk_request, ioprio) + sizeof(uint16_t))
#define BLK_RQ_HEAD_FIELD(f) (offsetof(struct blk_bio, f) == offsetof(struct blk_request, f) && \
			      sizeof(((struct blk_bio *)0)->f) == sizeof(((struct blk_request *)0)->f))
_Static_assert(BLK_RQ_HEAD_FIELD(lba) && BLK_RQ_HEAD_FIELD(nlb) && BLK_RQ_HEAD_FIELD(write) &&
	       BLK_RQ_HEAD_FIELD(write_hint) && BLK_RQ_HEAD_FIELD(ioprio) && BLK_RQ_HEAD == 16,
	       "a request does not start with its bio's lba, nlb, write, write_hint and ioprio");

/* The fields every request starts with, from its first bio. */
static inline void request_fill(struct blk_request *rq, struct blk_bio *bio, int64_t now)
{
	memcpy(rq, bio, BLK_RQ_HEAD);
	rq->t_queued = now;
	rq->bios = rq->bios_tail = bio;
	bio->next = NULL;
}

/* A plain read or write's fields (no flags, some sectors): the scheduler's. */
static inline void request_fill_plain(struct blk_queue *q, struct blk_request *rq,
				      struct blk_bio *bio)
{
	request_fill(rq, bio, sim_now(q->sim));
	/* flush_insert() for a plain request: no flush steps (one store, in field order). */
	rq->seq_left = BLK_SEQ_DATA;
	rq->flush = rq->fua = false;
	rq->discard = rq->passthrough = false;
	rq->cdb = BLK_CDB_RW;
	rq->bypass = false;
	rq->retries = 0;
}

/* The request goes to the scheduler (it was made just now). */
static inline void request_queued(struct blk_queue *q, struct blk_request *rq)
{
	sched_insert(q, rq);
	q->last_merge = rq;
	blk_debug(q, "request lba %llu +%u %s prio %s/%u queued",
		  (unsigned long long)rq->lba, rq->nlb, rq->write ? "W" : "R",
		  ioprio_class_name(ioprio_class(rq->ioprio)), ioprio_level(rq->ioprio));
}

/* A plain read or write (no flags, some sectors): the scheduler's. */
static inline void request_init_plain(struct blk_queue *q, struct blk_request *rq,
				      struct blk_bio *bio)
{
	request_fill_plain(q, rq, bio);
	request_queued(q, rq);
}

static void request_init(struct blk_queue *q, struct blk_request *rq, struct blk_bio *bio)
{
	if (!bio->flags && bio->nlb) {
		request_init_plain(q, rq, bio);
		return;
	}
	request_fill(rq, bio, sim_now(q->sim));
	rq->retries = 0;
	rq->discard = (bio->flags & BLK_DISCARD) != 0;
	rq->passthrough = (bio->flags & BLK_PASSTHROUGH) != 0;
	rq->cdb = BLK_CDB_RW;		/* passthrough_insert() says otherwise */
	if (rq->passthrough) {
		passthrough_insert(q, rq, bio->flags);
		return;
	}
	if (!(bio->flags & (BLK_PREFLUSH | BLK_FUA)) && rq->nlb) {
		/* flush_insert() for a plain request: no flush steps, the scheduler's. */
		rq->seq_left = BLK_SEQ_DATA;
		rq->fua = rq->flush = false;
		rq->bypass = false;
	} else {
		rq->bypass = flush_insert(q, rq, bio->flags);
		if (rq->bypass)
			return;
	}
	request_queued(q, rq);
}

/*
 * Linux blk_rq_merge_ok() and the size limit. Since 5.x it refuses a bio
 * of another priority; 4.10 merged it and kept the better one (below). A
 * bio of another write hint never merges (4.13 to 5.17, and from 6.9;
 * between, bios carry none); flushes and FUA never do.
 */
static bool can_merge(const struct blk_queue *q, const struct blk_request *rq,
		      const struct blk_bio *bio)
{
	return rq->in_sched && rq->write == bio->write && !rq->fua && !rq->discard &&
		!(bio->flags & (BLK_PREFLUSH | BLK_FUA | BLK_DISCARD | BLK_PASSTHROUGH)) &&
		rq->write_hint == bio->write_hint &&
		(rq->ioprio == bio->ioprio || !host_kernel_has(q->k.kernel, HOST_KC_NO_PRIO_MERGE)) &&
		(uint64_t)(rq->nlb + bio->nlb) * q->logical_size <= (uint64_t)q->k.max_sectors_kb * 1024;
}

/* block/ioprio.c ioprio_best(): class none counts as BE level 4; lower value wins. */
static uint16_t ioprio_best_of(uint16_t a, uint16_t b)
{
	uint16_t norm = ioprio_value(IOPRIO_CLASS_BE, 0, 4);

	a = ioprio_class(a) == IOPRIO_CLASS_NONE ? norm : a;
	b = ioprio_class(b) == IOPRIO_CLASS_NONE ? norm : b;
	return a < b ? a : b;
}

/* The bio joins rq, at its front or its back. */
static bool merge_into(struct blk_queue *q, struct blk_request *rq, struct blk_bio *bio, bool front)
{
	if (!can_merge(q, rq, bio))
		return false;
	if (front) {
		bio->next = rq->bios;
		rq->bios = bio;
		rq->lba = bio->lba;
	} else {
		bio->next = NULL;
		rq->bios_tail->next = bio;
		rq->bios_tail = bio;
	}
	rq->nlb += bio->nlb;
	if (rq->ioprio != bio->ioprio)
		rq->ioprio = ioprio_best_of(rq->ioprio, bio->ioprio);	/* 4.10 only */
	if (q->sched->merged)
		q->sched->merged(q->sched_data, rq, front);
	q->last_merge = rq;
	q->stats.merged++;
	q->stats.merges[bio->write]++;
	blk_debug(q, "bio lba %llu +%u %s-merged into lba %llu +%u",
		  (unsigned long long)bio->lba, bio->nlb, front ? "front" : "back",
		  (unsigned long long)rq->lba, rq->nlb);
	return true;
}

/* nomerges = 1: simple merges only, the last request at its back. */
static bool try_merge_last(struct blk_queue *q, struct blk_bio *bio)
{
	struct blk_request *rq = q->last_merge;

	if (!q->sched->merge_find || !rq || rq->lba + rq->nlb != bio->lba)
		return false;
	return merge_into(q, rq, bio, false);
}

/* Inline in blk_submit(): every bio asks, and at queue depth the answer is at once no. */
static inline __attribute__((always_inline)) bool try_merge(struct blk_queue *q,
							     struct blk_bio *bio)
{
	struct blk_request *rq;
	bool front = false;

	if (!q->sched_queued)
		return false;		/* nothing to merge with (nor a last request in the scheduler) */
	sched_settle(q);
	if (!q->merge_find)
		return q->k.nomerges == 1 && try_merge_last(q, bio);
	rq = q->merge_find(q->sched_data, bio, &front);
	return rq && merge_into(q, rq, bio, front);
}

static void dispatch_add(struct blk_queue *q, struct blk_request *rq, bool head)
{
	rq->dispatch_next = NULL;
	if (!q->dispatch_head) {
		q->dispatch_head = q->dispatch_tail = rq;
	} else if (head) {
		rq->dispatch_next = q->dispatch_head;
		q->dispatch_head = rq;
	} else {
		q->dispatch_tail->dispatch_next = rq;
		q->dispatch_tail = rq;
	}
}

static struct blk_request *dispatch_take(struct blk_queue *q)
{
	struct blk_request *rq = q->dispatch_head;

	if (rq)
		q->dispatch_head = rq->dispatch_next;
	return rq;
}

/* The step a request goes out with: FLUSH CACHE EXT for a pre- or post-flush. */
static void flush_step(struct blk_request *rq)
{
	rq->flush = !(rq->seq_left & BLK_SEQ_DATA) || (rq->seq_left & BLK_SEQ_PREFLUSH);
}

/*
 * blk_insert_flush(): which steps a request needs (blk_flush_policy()).
 * Without a volatile write cache none; a FUA write the drive cannot take
 * (libata.fua = 0, before 6.2) becomes the write and a post-flush. A
 * request with flush steps bypasses the scheduler: true when it did.
 */
static bool flush_insert(struct blk_queue *q, struct blk_request *rq, uint16_t flags)
{
	rq->seq_left = rq->nlb ? BLK_SEQ_DATA : 0;
	rq->fua = rq->flush = false;
	if (q->write_cache && (flags & BLK_PREFLUSH))
		rq->seq_left |= BLK_SEQ_PREFLUSH;
	if (q->write_cache && (flags & BLK_FUA) && rq->nlb) {
		if (q->fua)
			rq->fua = true;
		else
			rq->seq_left |= BLK_SEQ_POSTFLUSH;
	}
	if (rq->seq_left == BLK_SEQ_DATA && !rq->fua)
		return false;		/* a plain request */
	SIM_ASSERT(rq->seq_left, "an empty request that is not a flush");
	flush_step(rq);
	if (rq->seq_left == BLK_SEQ_DATA)
		return false;		/* a FUA write the drive takes: the scheduler's */
	dispatch_add(q, rq, false);
	return true;
}

static void bio_nothing_to_flush(struct sim *sim, void *arg)
{
	struct blk_bio *bio = arg;

	bio->t_completed = sim_now(sim);
	bio->done(bio->owner, bio);
}

/* A bio the block layer ends at once with an error (bio_endio() in submit): an event, no reentry. */
static void bio_fail_now(struct blk_queue *q, struct blk_bio *bio, int error)
{
	bio->t_dispatched = bio->t_submit;
	bio->error = error;
	sim_at(q->sim, bio->t_submit, bio_nothing_to_flush, bio);
}

/* No request free: the submitter sleeps until one is (FIFO). */
static __attribute__((noinline)) bool bio_wait(struct blk_queue *q, struct blk_bio *bio)
{
	bio->next = NULL;
	if (q->wait_tail)
		q->wait_tail->next = bio;
	else
		q->wait_head = bio;
	q->wait_tail = bio;
	complete_slow_update(q);
	q->stats.waits++;
	blk_debug(q, "bio lba %llu waits: all %u requests in use",
		  (unsigned long long)bio->lba, q->nr_requests);
	return false;
}

/*
 * Whether blk_run_queue() has anything to do: a tag and budget to dispatch
 * with (every tag in use is in flight, and the budget is at most the
 * tags), or 4.10's peek with the dispatch list empty. With the device full
 * and a request already peeked — every submission at queue depth — it
 * has not, and the call is skipped.
 */
static inline bool run_queue_can_act(const struct blk_queue *q)
{
	return q->inflight < q->budget || (q->peek && !q->dispatch_head);
}

/* blk_submit() of a bio with flags, or an empty one (a flush). */
static __attribute__((noinline)) bool submit_special(struct blk_queue *q, struct blk_bio *bio)
{
	struct blk_request *rq;

	if (!bio->nlb && !q->write_cache && !(bio->flags & BLK_PASSTHROUGH)) {
		/* A flush with no volatile cache to flush: done at once (an event: no reentry). */
		bio->t_dispatched = bio->t_submit;
		sim_at(q->sim, bio->t_submit, bio_nothing_to_flush, bio);
		return true;
	}
	/* submit_bio_noacct(): polled I/O needs poll queues, which libata's host has none of. */
	if ((bio->flags & BLK_POLLED) && host_kernel_has(q->k.kernel, HOST_KC_POLL_EOPNOTSUPP)) {
		q->stats.poll_refused++;
		bio_fail_now(q, bio, -EOPNOTSUPP);
		return true;
	}
	if (try_merge(q, bio))
		return true;
	rq = q->free;
	if (!rq && (bio->flags & BLK_NOWAIT)) {
		/* blk_mq_get_new_requests() with BLK_MQ_REQ_NOWAIT: bio_wouldblock_error(). */
		q->stats.nowait_again++;
		blk_debug(q, "bio lba %llu REQ_NOWAIT: no free request, EAGAIN",
			  (unsigned long long)bio->lba);
		bio_fail_now(q, bio, -EAGAIN);
		return true;
	}
	if (!rq)
		return bio_wait(q, bio);
	q->free = rq->free_next;
	request_init(q, rq, bio);
	blk_run_queue(q);
	return true;
}

/* blk_submit() of a plain bio, its request filled: into the scheduler, then the queue runs. */
static __attribute__((noinline)) bool submit_plain_rest(struct blk_queue *q, struct blk_request *rq)
{
	request_queued(q, rq);
	blk_run_queue(q);
	return true;
}

/* blk_submit() of a plain bio while the scheduler holds requests: it may merge. */
static __attribute__((noinline)) bool submit_plain_merging(struct blk_queue *q, struct blk_bio *bio)
{
	struct blk_request *rq;

	if (try_merge(q, bio))
		return true;
	rq = q->free;
	if (!rq)
		return bio_wait(q, bio);
	q->free = rq->free_next;
	request_init_plain(q, rq, bio);
	blk_run_queue(q);
	return true;
}

bool blk_submit(struct blk_queue *q, struct blk_bio *bio)
{
	struct blk_request *rq;

	bio->t_submit = sim_now(q->sim);
	bio->error = 0;
	if (bio->flags || !bio->nlb)
		return submit_special(q, bio);
	/* A plain read or write: the same steps, without the tests for flags. */
	if (q->sched_queued)
		return submit_plain_merging(q, bio);
	rq = q->free;
	if (!rq)
		return bio_wait(q, bio);
	q->free = rq->free_next;
	request_fill_plain(q, rq, bio);
	/*
	 * At queue depth: held back for pass() (never with BLK debugging, so
	 * no debug line is due), and the queue has nothing to do (the device
	 * full, a request peeked). Anything that calls out is in
	 * submit_plain_rest(), a tail call, so that this path saves no
	 * registers. What follows is request_queued() into the empty
	 * scheduler, without last_merge, which this queue never reads
	 * (hold_quiet).
	 */
	if (!q->hold_quiet || run_queue_can_act(q))
		return submit_plain_rest(q, rq);
	q->sched_queued = 1;
	q->lone = rq;
	return true;
}

/* The next request to send: the dispatch list first, then the scheduler. */
static struct blk_request *next_request(struct blk_queue *q)
{
	struct blk_request *rq = dispatch_take(q);

	return rq ? rq : sched_take(q);
}

/*
 * Deferred (ata_std_qc_defer: a non-NCQ command waits for the NCQ queue
 * to drain, NCQ commands for it): the tag is free again, and the request
 * goes back to the head of the dispatch list; nothing behind it goes
 * either.
 */
void blk_issue_deferred(struct blk_queue *q)
{
	unsigned tag = q->issuing;
	struct blk_request *rq = q->tag_rq[tag];

	q->tag_rq[tag] = NULL;
	q->free_tags |= 1u << tag;
	dispatch_add(q, rq, true);
	q->stats.deferred++;
	q->deferred = true;		/* the dispatch stops as libata_issue() returns */
}

/*
 * 4.10's scsi_request_fn() peeks a request (the elevator moves it to the
 * dispatch queue) before it asks whether the device can take one: with
 * the device full, the scheduler's next choice is made now, not when a tag
 * frees, and nothing overtakes it. Into the empty dispatch list (a
 * scheduler cannot reach it).
 */
static inline __attribute__((always_inline)) void run_queue_peek(struct blk_queue *q)
{
	struct blk_request *rq = q->lone;

	if (!q->peek || q->dispatch_head)
		return;
	if (rq) {
		/*
		 * sched_take() of the held-back request: pass() returns it (its
		 * one request). The count after the call: one store, no register.
		 */
		q->lone = NULL;
		rq = q->pass(q->sched_data, rq);
		q->sched_queued--;
	} else {
		rq = sched_take(q);
		if (!rq)
			return;
	}
	rq->dispatch_next = NULL;
	q->dispatch_head = q->dispatch_tail = rq;
}

static inline __attribute__((always_inline)) void run_queue_body(struct blk_queue *q)
{
	if (q->running || q->stopped || !q->ata)
		return;
	q->running = true;
	/* The device's budget (scsi_mq_get_budget) and a free tag. */
	while (q->inflight < q->budget) {
		struct blk_request *rq = next_request(q);
		unsigned tag;

		if (!rq)
			break;
		tag = tag_alloc(q);
		rq->bios->t_dispatched = sim_now(q->sim);
		q->tag_rq[tag] = rq;
		/*
		 * The tag is kept in the queue across the call, not in a
		 * register: what follows needs nothing else of this dispatch.
		 */
		q->issuing = tag;
		libata_issue(q->ata, rq, tag);
		if (q->deferred) {
			q->deferred = false;
			break;
		}
		tag_given(q, q->issuing);
		if (q->inflight++ == 0)
			q->busy_since = sim_now(q->sim);	/* the first in flight */
	}
	run_queue_peek(q);
	q->running = false;
}

static void run_queue(struct blk_queue *q);

/*
 * Nothing to dispatch: the completed request's tag (q->issuing) is free
 * and out of flight after all, and the peek asks again, as a run does (a
 * scheduler may hold requests and still give none: mq-deadline's class
 * with I/O in flight).
 */
/* One command fewer in flight: the busy time (io_ticks) closes when none is left. */
static inline void leave_flight(struct blk_queue *q, int64_t now)
{
	if (--q->inflight == 0)
		q->stats.io_ticks_ns += now - q->busy_since;
}

static inline struct blk_request *tag_release(struct blk_queue *q, int tag);

static __attribute__((noinline)) void completing_tag_free(struct blk_queue *q)
{
	(void)tag_release(q, q->issuing);
	run_queue_peek(q);
}

/* A deferral in run_queue_completing(): the tag then leaves flight too. */
static __attribute__((noinline)) void completing_deferred(struct blk_queue *q)
{
	q->deferred = false;
	leave_flight(q, sim_now(q->sim));
	run_queue_peek(q);
}

/*
 * tag_release() then run_queue() for blk_complete_good(), whose request's tag
 * is q->issuing, still held and counted in flight: the first dispatch
 * straight, the rest as any run. A dispatch takes the tag from the
 * completed request without its round trip through free_tags and
 * inflight: with no other tag free, tag_alloc() would give that one again
 * (and inflight would be back where it was); with others free, it joins
 * them and tag_alloc() picks as it would. The scheduler reads neither, so
 * the order does not matter. Without the running flag: nothing within the
 * dispatch runs the queue (libata and the drive answer in events of their
 * own), nor is a completion ever inside a run. Not stopped, and attached
 * (blk_complete_good() tested complete_slow; libata calls it).
 */
static inline __attribute__((always_inline)) void run_queue_completing(struct blk_queue *q)
{
	struct blk_request *rq = next_request(q);
	uint32_t free;

	if (!rq) {
		completing_tag_free(q);
		return;
	}
	free = q->free_tags;
	if (free) {
		q->tag_rq[q->issuing] = NULL;
		q->free_tags = free | 1u << q->issuing;
		q->issuing = tag_alloc(q);
	}
	rq->bios->t_dispatched = sim_now(q->sim);
	q->tag_rq[q->issuing] = rq;
	/* The tag is kept in the queue across the call, not in a register. */
	libata_issue(q->ata, rq, q->issuing);
	if (q->deferred) {
		completing_deferred(q);
		return;
	}
	tag_given(q, q->issuing);
	if (q->inflight == 1) {
		/* Out of flight and in again at once: the busy time up to now counts. */
		int64_t now = sim_now(q->sim);

		q->stats.io_ticks_ns += now - q->busy_since;
		q->busy_since = now;
	}
	if (q->inflight < q->budget) {
		run_queue(q);		/* more room: the rest, and its peek */
		return;
	}
	run_queue_peek(q);
}

static void run_queue(struct blk_queue *q)
{
	run_queue_body(q);
}

void blk_run_queue(struct blk_queue *q)
{
	if (run_queue_can_act(q))
		run_queue(q);
}

/*
 * A request's end is written into its first bio as it finishes
 * (bio_end(); its dispatch time is there since the dispatch), and its bios
 * hear of it after the queue has run (bios_done()): nothing else has to
 * outlive the run. Nobody reads a bio before its done() (its submitter
 * waits for that), and by then the request may be another's.
 */
static inline __attribute__((always_inline)) void bio_end(struct blk_bio *bio, int64_t now,
							  int error)
{
	bio->t_completed = now;
	bio->error = error;
}

/* bios_done() of a request that has more than one bio (merged): each gets the first's end. */
static __attribute__((noinline)) void bios_done_merged(struct blk_bio *bio)
{
	int64_t dispatched = bio->t_dispatched, now = bio->t_completed;
	int error = bio->error;
	struct blk_bio *next;

	for (; bio; bio = next) {
		next = bio->next;
		bio->t_dispatched = dispatched;
		bio_end(bio, now, error);
		bio->done(bio->owner, bio);
	}
}

/* The usual request has one bio: its done() is a tail call. */
static inline __attribute__((always_inline)) void bios_done(struct blk_bio *bio)
{
	if (bio->next)
		bios_done_merged(bio);
	else
		bio->done(bio->owner, bio);
}

/*
 * request_done() when a submitter waits for a request: it gets this one
 * (request_init()), the queue runs, the submitter goes on, then the bios
 * hear of their end. Out of line: at queue depth nobody waits.
 */
static __attribute__((noinline)) void request_done_granting(struct blk_queue *q,
							    struct blk_request *rq, int error)
{
	struct blk_bio *bio = rq->bios, *granted = q->wait_head;
	int64_t now = sim_now(q->sim);

	bio_end(bio, now, error);
	SIM_ASSERT(!q->free, "a submitter waits while a request is free");
	q->wait_head = granted->next;
	if (!q->wait_head)
		q->wait_tail = NULL;
	complete_slow_update(q);
	q->stats.wait_ns += now - granted->t_submit;
	request_init(q, rq, granted);
	run_queue(q);
	if (granted->accepted)
		granted->accepted(granted->owner, granted);
	bios_done(bio);
}

/*
 * The request is finished (its tag, if any, already free): back to the
 * pool (or to a waiting submitter), then tell its bios. blk_complete_good()
 * has a copy of its common case.
 */
static void request_done(struct blk_queue *q, struct blk_request *rq, int error)
{
	struct blk_bio *bio = rq->bios;
	int64_t now = sim_now(q->sim);
	/* op_stat_group(): discards in their own fields from 4.18, else with the writes. */
	int sd = rq->discard && host_kernel_has(q->k.kernel, HOST_KC_DISCARD_STATS) ? 2 : rq->write;

	q->stats.ios[sd]++;
	q->stats.ticks_ns[sd] += now - rq->t_queued;
	if (q->completed && !rq->bypass)
		q->completed(q->sched_data, rq);
	blk_debug(q, "complete lba %llu +%u%s after %.3f ms%s",
		  (unsigned long long)rq->lba, rq->nlb, rq->nlb ? "" : " (flush)",
		  (now - rq->t_queued) / 1e6, error ? " (error)" : "");
	if (q->wait_head) {
		request_done_granting(q, rq, error);
		return;
	}
	bio_end(bio, now, error);
	rq->free_next = q->free;
	q->free = rq;
	/*
	 * The kernel dispatches before user space hears of the completion.
	 * A tag was just freed, so inflight < budget: run_queue_can_act().
	 */
	run_queue(q);
	bios_done(bio);
}

/* Give the tag back (the request stays). */
static inline struct blk_request *tag_release(struct blk_queue *q, int tag)
{
	struct blk_request *rq;
	int64_t now = sim_now(q->sim);

	/*
	 * A tag that holds a request is in flight: inflight >= 1 follows.
	 * libata's tags are bits of its 32-bit masks (0..31), so the index
	 * is not checked; the tag's request is.
	 */
	SIM_ASSERT(q->tag_rq[tag] != NULL, "completion for tag %d, which holds no request", tag);
	rq = q->tag_rq[tag];
	q->tag_rq[tag] = NULL;
	q->free_tags |= 1u << tag;
	leave_flight(q, now);
	return rq;
}

/* blk_complete() of an error, or of a step of a request with flush steps. */
static __attribute__((noinline)) void complete_other(struct blk_queue *q, struct blk_request *rq,
						     int error)
{
	/* A plain request (its one step, the data: seq_left stays) is done either way. */
	if (!error && (rq->seq_left != BLK_SEQ_DATA || rq->flush)) {
		/* The step just done: the pre-flush, the data, or the post-flush. */
		rq->seq_left &= (uint8_t)~(!rq->flush ? BLK_SEQ_DATA : rq->seq_left & BLK_SEQ_PREFLUSH ?
					   BLK_SEQ_PREFLUSH : BLK_SEQ_POSTFLUSH);
		if (rq->seq_left) {
			/* blk_flush_complete_seq(): the next step goes first in the dispatch list. */
			flush_step(rq);
			dispatch_add(q, rq, true);
			blk_run_queue(q);
			return;
		}
	}
	request_done(q, rq, error);
}

/*
 * A request that is one plain step, its data: seq_left BLK_SEQ_DATA, and
 * neither flush, FUA nor discard — the four bytes (blk.h's BLK_RQ_AT
 * assert) tested as one word.
 */
static inline bool request_plain_data(const struct blk_request *rq)
{
	static const uint8_t plain[4] = { BLK_SEQ_DATA, false, false, false };

	return memcmp(&rq->seq_left, plain, sizeof(plain)) == 0;
}

void blk_complete(struct blk_queue *q, int tag, int error)
{
	if (error) {
		complete_other(q, tag_release(q, tag), error);
		return;
	}
	blk_complete_good(q, tag);
}

void blk_complete_good(struct blk_queue *q, int tag)
{
	struct blk_request *rq = q->tag_rq[tag];
	int64_t now;

	/*
	 * The common case: a plain request's one step, with no scheduler or
	 * debug hook to call, nobody waiting for a request, and the queue not
	 * stopped (complete_slow). All else is request_done()'s, by way of
	 * complete_other() (a FUA write too: its one step is the data as
	 * well).
	 */
	if (!rq || !request_plain_data(rq) || q->complete_slow) {
		complete_other(q, tag_release(q, tag), 0);
		return;
	}
	/* request_done() of it: not a discard, so its stats are its direction's. */
	now = sim_now(q->sim);
	q->stats.ios[rq->write]++;
	q->stats.ticks_ns[rq->write] += now - rq->t_queued;
	/* bio_end() without the error: blk_submit() set it 0, and it ended well. */
	rq->bios->t_completed = now;
	rq->free_next = q->free;
	q->free = rq;
	/* The kernel dispatches before user space hears of the completion. */
	q->issuing = (unsigned)tag;
	run_queue_completing(q);
	/*
	 * Its bios from the pool's head, where it still is: dispatching takes
	 * no request (only a submission does, and none happens within it —
	 * libata and the drive answer in events of their own), so no
	 * register has to keep the request or its bio across the dispatch.
	 */
	bios_done(q->free->bios);
}

void blk_quiesce(struct blk_queue *q, bool stopped)
{
	q->stopped = stopped;
	q->peek = q->peek_before_budget && !stopped;
	complete_slow_update(q);
	if (!stopped)
		blk_run_queue(q);
}

void blk_requeue(struct blk_queue *q, int tag, bool counts)
{
	struct blk_request *rq = tag_release(q, tag);

	rq->retries += counts;
	dispatch_add(q, rq, false);
	blk_run_queue(q);
}

struct blk_request *blk_tag_request(const struct blk_queue *q, int tag)
{
	return tag >= 0 && tag < 32 ? q->tag_rq[tag] : NULL;
}
