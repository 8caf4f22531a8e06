/*
 * blk — the block layer between a submitter and the drive: requests from a
 * pool of queue/nr_requests, an I/O scheduler (struct sched_ops), a tag set
 * of device/queue_depth driver tags, and libata below.
 *
 *   blk_submit(bio) ── request? ──no──► waits (the submitter blocks: fio's slat)
 *                         │yes
 *                         ▼
 *              merge into a queued request, or insert into the scheduler
 *                         │
 *   blk_run_queue: while a driver tag is free, sched->dispatch() ─► libata
 *
 * On completion the block layer frees the tag and the request and runs the
 * queue *before* the submitter hears of the completion — as in the kernel,
 * where the completion interrupt dispatches waiting requests and user space
 * reaps the event (and submits anew) afterwards.
 *
 * Merging (queue/nomerges = 0): a new I/O joins a queued request that ends
 * where it starts (back merge) or, with the scheduler's front_merges, one
 * that starts where it ends — same direction, same priority (Linux never
 * merges across priorities), within queue/max_sectors_kb. With `none`,
 * blk-mq merges only within a plug, which ncqsim does not model: no merges.
 */
#ifndef NCQSIM_BLK_H
#define NCQSIM_BLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "host/knobs.h"
#include "sim/sim.h"
#include "util/err.h"
#include "util/treap.h"

struct blk_bio;
struct blk_queue;
struct libata;

typedef void (*blk_bio_fn)(void *owner, struct blk_bio *bio);

/*
 * REQ_PREFLUSH and REQ_FUA: an empty bio with BLK_PREFLUSH is a cache flush
 * (fsync); those two never merge (REQ_NOMERGE_FLAGS). REQ_NOWAIT: fail
 * with -EAGAIN rather than wait for a request; REQ_POLLED: the submitter
 * polls for the completion (io_uring IOPOLL).
 */
enum {
	BLK_PREFLUSH	= 1 << 0,	/* write the drive's cache out first */
	BLK_FUA		= 1 << 1,	/* this write goes to the media before it completes */
	BLK_NOWAIT	= 1 << 2,	/* -EAGAIN instead of waiting for a request */
	BLK_POLLED	= 1 << 3,	/* completion polled for: needs poll queues (6.12) */
	BLK_DISCARD	= 1 << 4,	/* REQ_OP_DISCARD: the range's data may go (libata: DSM TRIM) */
	/*
	 * A SCSI command through SG_IO (REQ_OP_DRV_IN/OUT): READ/WRITE whose
	 * CDB's FUA bit is BLK_FUA (a read's too), SYNCHRONIZE CACHE when
	 * empty. No merging, no flush machinery, no scheduler.
	 */
	BLK_PASSTHROUGH	= 1 << 5,
	/*
	 * With BLK_PASSTHROUGH, a CDB other than READ/WRITE: a SCSI VERIFY
	 * of `nlb` blocks from `lba` (its data-out buffer, if any, is not
	 * sent: libata translates only the range), or one libata answers
	 * with ILLEGAL REQUEST without sending anything (WRITE AND VERIFY,
	 * WRITE SAME, WRITE STREAM).
	 */
	BLK_SCSI_VERIFY	= 1 << 6,
	BLK_SCSI_REFUSED = 1 << 7,
	/*
	 * With BLK_PASSTHROUGH: the sg driver's request (a v3 header written
	 * to /dev/sgN without SG_FLAG_Q_AT_TAIL), which goes in at the head.
	 */
	BLK_SCSI_AT_HEAD = 1 << 8,
};

/* What a passthrough request's CDB asks libata for (blk_request.cdb). */
enum blk_cdb {
	BLK_CDB_RW,		/* READ/WRITE(10/16); SYNCHRONIZE CACHE when empty */
	BLK_CDB_VERIFY,		/* VERIFY(10/16): READ VERIFY SECTORS (EXT) */
	BLK_CDB_REFUSED,	/* no translation: ILLEGAL REQUEST */
};

/*
 * One I/O as a submitter hands it over (a fio io_u); blk_bio_prep() fills it.
 * Its first fields, lba to ioprio, are a request's first (blk.c copies them
 * as one block of BLK_RQ_HEAD bytes).
 */
struct blk_bio {
	uint64_t lba;
	uint32_t nlb;
	bool write;
	uint8_t write_hint;		/* bi_write_hint: the write-life hint (0 none) */
	uint16_t ioprio;		/* effective priority */
	uint16_t flags;			/* BLK_PREFLUSH, BLK_FUA, ... BLK_SCSI_AT_HEAD */
	int error;			/* 0, or -EIO, -EAGAIN, -EOPNOTSUPP */
	int64_t t_submit;		/* when blk_submit() was called */
	int64_t t_dispatched;		/* when its request went to the drive */
	int64_t t_completed;
	blk_bio_fn accepted;		/* a submitter that waited may go on */
	blk_bio_fn done;
	void *owner;
	struct blk_bio *next;		/* in a request, or in the wait list */
};

/*
 * Fill every field of a bio for blk_submit() — a new field gets its value
 * here, so no submitter can miss it. Field by field rather than a compound
 * literal: gcc clears an 88-byte struct with rep stos, whose start-up cost
 * showed in profiles of this once-per-I/O call.
 */
static inline void blk_bio_prep(struct blk_bio *b, uint64_t lba, uint32_t nlb, bool write,
				uint16_t ioprio, blk_bio_fn accepted, blk_bio_fn done, void *owner)
{
	b->lba = lba;
	b->nlb = nlb;
	b->write = write;
	b->flags = 0;
	b->write_hint = 0;
	b->ioprio = ioprio;
	b->error = 0;
	b->t_submit = b->t_dispatched = b->t_completed = 0;
	b->accepted = accepted;
	b->done = done;
	b->owner = owner;
	b->next = NULL;
}

struct blk_request {
	/* From its first bio: the same fields in the same places (struct blk_bio). */
	uint64_t lba;
	uint32_t nlb;
	bool write;
	uint8_t write_hint;
	uint16_t ioprio;
	/*
	 * Its dispatch time goes straight into its first bio, at each
	 * dispatch (no one reads a bio before its done(); bios_done() gives
	 * it to the others); its tag is where blk_tag_request() finds it, the
	 * request does not keep it.
	 */
	int64_t t_queued;
	int64_t fifo_time;		/* deadline schedulers: when it expires */
	struct blk_bio *bios, *bios_tail;
	struct treap_node sort;		/* the scheduler's sector-sorted list */
	struct blk_request *fifo_prev, *fifo_next;
	struct blk_request *free_next;
	/*
	 * seq_left to retries: eight bytes together, which a plain request's
	 * fill writes as one store.
	 *
	 * The flush machinery (block/blk-flush.c): the steps still to do, in
	 * order PREFLUSH, DATA, POSTFLUSH; `flush` says the step on the wire
	 * is FLUSH CACHE EXT. A plain request has just BLK_SEQ_DATA.
	 */
	uint8_t seq_left;
	bool flush, fua;
	bool discard;			/* REQ_OP_DISCARD: DATA SET MANAGEMENT TRIM on the wire */
	bool passthrough;		/* SG_IO's SCSI command: libata translates its CDB */
	uint8_t cdb;			/* enum blk_cdb: BLK_CDB_RW but for some passthrough ones */
	bool bypass;			/* never went through the scheduler */
	uint8_t retries;		/* times error handling sent it again */
	uint8_t sched_class;		/* the scheduler's class index */
	bool in_sched;
	struct blk_request *dispatch_next;	/* in the dispatch list (set as it goes in) */
};

/*
 * Neither a flush step, FUA, a discard nor a CDB other than READ/WRITE:
 * libata's usual NCQ read or write. The bytes from flush to cdb in one
 * word, tested under a mask of those four.
 */
#define BLK_RQ_AT(f) (offsetof(struct blk_request, f) - offsetof(struct blk_request, seq_left))
_Static_assert(BLK_RQ_AT(flush) == 1 && BLK_RQ_AT(fua) == 2 && BLK_RQ_AT(discard) == 3 &&
	       BLK_RQ_AT(cdb) == 5 && BLK_RQ_AT(retries) == 7,
	       "struct blk_request's flags are not the eight bytes blk_rq_plain_rw() reads");

static inline bool blk_rq_plain_rw(const struct blk_request *rq)
{
	static const union {
		uint8_t byte[8];
		uint64_t word;
	} flags = { { 0, 0xff, 0xff, 0xff, 0, 0xff, 0, 0 } };
	uint64_t w;

	memcpy(&w, &rq->seq_left, sizeof(w));
	return !(w & flags.word);
}

enum {
	BLK_SEQ_PREFLUSH	= 1 << 0,
	BLK_SEQ_DATA		= 1 << 1,
	BLK_SEQ_POSTFLUSH	= 1 << 2,
};

struct blk_stats {
	/*
	 * Only counts something reads (runner.c's report, the tests) are
	 * kept: each costs an instruction or more per I/O.
	 */
	/* requests and completed are summed as they are asked for (blk_get_stats()). */
	uint64_t merged, requests, completed;
	uint64_t waits;			/* submitters that found no free request */
	uint64_t nowait_again;		/* REQ_NOWAIT bios that found none: -EAGAIN */
	uint64_t poll_refused;		/* REQ_POLLED bios without poll queues: -EOPNOTSUPP */
	uint64_t deferred;		/* dispatches libata deferred (ata_std_qc_defer) */
	int64_t wait_ns;		/* time they spent waiting */
	/*
	 * As /proc/diskstats counts them, per direction: read, write, discard
	 * (4.18 on; before, a discard counts as a write).
	 */
	uint64_t ios[3], merges[3];
	int64_t ticks_ns[3];		/* request lifetimes, queued to completed */
	int64_t io_ticks_ns;		/* time with at least one request in flight */
};

/*
 * An I/O scheduler: an ops table headed by its registry row (name, help,
 * tunables), found by name in blk_schedulers (queue/scheduler). Its
 * tunables are queue/iosched/NAME knobs stored in host_knobs.iosched at
 * the offsets its options give (host/knobs.h).
 */
enum sched_pool {
	SCHED_POOL_TAGS,	/* no elevator: the requests are the driver tags */
	SCHED_POOL_LEGACY,	/* single-queue elevator: BLKDEV_MAX_RQ = 128 requests */
	SCHED_POOL_BLK_MQ,	/* blk-mq elevator: 2 x min(queue depth, 128) */
};

struct sched_ops {
	struct plugin plugin;
	enum sched_pool pool;		/* how the kernel sizes queue/nr_requests */
	const char *alias;		/* another name that selects it ("deadline": elevator_alias) */
	int (*init)(struct blk_queue *q, void **data, struct err *e);
	void (*exit)(void *data);
	void (*insert)(void *data, struct blk_request *rq);
	struct blk_request *(*dispatch)(void *data);
	/*
	 * Optional: a request the scheduler had (not one that bypassed it)
	 * is finished. Optional too, asked once after init():
	 * completed_for_debug true says completed() only keeps a count for
	 * the scheduler's debug lines (4.10's deadline, 5.15's mq-deadline),
	 * and it is called only with SCHED debugging on.
	 */
	void (*completed)(void *data, struct blk_request *rq);
	bool (*completed_for_debug)(const void *data);
	/* A queued request the bio can join, or NULL; *front set for a front merge. */
	struct blk_request *(*merge_find)(void *data, const struct blk_bio *bio, bool *front);
	/* The request grew at the front (its sort key changed). */
	void (*merged)(void *data, struct blk_request *rq, bool front);
	/*
	 * Optional: insert(rq) then dispatch(), into a scheduler that holds
	 * nothing else — the request each dispatch takes at queue depth — in
	 * one step without the sorted list and FIFO. The same result and the
	 * same scheduler state as the two calls (debug messages and what only
	 * they read aside: with SCHED debugging on, the block layer calls
	 * those instead); of the request's own fields, those the scheduler
	 * reads only while it holds a request (fifo_time) may be left.
	 */
	struct blk_request *(*pass)(void *data, struct blk_request *rq);
};

extern const struct sched_ops sched_none_ops, sched_deadline_ops, sched_mq_deadline_ops;
/*
 * The registry: queue/scheduler's values. Adding a scheduler is one file
 * with its ops and one row in blk.c's builtin list (or plugin_register()
 * before any simulation starts): docs/ARCHITECTURE.md, "Adding a plug-in".
 */
extern struct plugin_registry blk_schedulers;
const struct sched_ops *blk_sched_find(const char *name);
static inline const struct sched_ops *blk_sched_ops(const struct plugin *p)
{
	return plugin_ops(p, struct sched_ops);
}

struct blk_queue *blk_queue_new(struct sim *sim, const struct host_knobs *k, struct err *e);
void blk_queue_free(struct blk_queue *q);
void blk_queue_attach(struct blk_queue *q, struct libata *ata);
const struct host_knobs *blk_queue_knobs(const struct blk_queue *q);
struct sim *blk_queue_sim(const struct blk_queue *q);

/*
 * Hand an I/O to the block layer. Returns true when it was accepted at once
 * (or failed at once: BLK_NOWAIT with no request free, -EAGAIN; BLK_POLLED
 * where the kernel refuses polling without poll queues, -EOPNOTSUPP — its
 * done() comes as an event at this instant); false when no request was
 * free: the bio waits, and bio->accepted() is called when it gets one.
 */
bool blk_submit(struct blk_queue *q, struct blk_bio *bio);

/* Dispatch while driver tags are free. */
void blk_run_queue(struct blk_queue *q);
/*
 * libata, within libata_issue(): it defers the command it was given
 * (ata_std_qc_defer()); its tag is free again and the request waits at the
 * head of the dispatch list, nothing behind it going either.
 */
void blk_issue_deferred(struct blk_queue *q);
/* libata: the drive finished the request on `tag` (error 0 or -EIO). */
void blk_complete(struct blk_queue *q, int tag, int error);
/* blk_complete(q, tag, 0): the usual completion's call, one argument fewer. */
void blk_complete_good(struct blk_queue *q, int tag);

/*
 * libata's error handling: stop dispatching while it runs (the SCSI host
 * in recovery); send a request on `tag` again through the dispatch list
 * (the tag is freed; scsi_queue_insert()), `counts` when it uses up one of
 * its retries. The request on a tag, or NULL.
 */
void blk_quiesce(struct blk_queue *q, bool stopped);
void blk_requeue(struct blk_queue *q, int tag, bool counts);
struct blk_request *blk_tag_request(const struct blk_queue *q, int tag);

/* The counts so far (`completed` is summed as they are asked for). */
const struct blk_stats *blk_get_stats(struct blk_queue *q);
/*
 * The queue's max_discard_sectors (logical sectors, 0: no discard): sd's
 * WRITE SAME(16) limit from libata's VPD page B0h when the drive has TRIM.
 */
uint64_t blk_max_discard_sectors(const struct blk_queue *q);

#endif
