/*
 * deadline and mq-deadline — one engine, two generations.
 *
 * Within a class both follow the classic deadline algorithm: per direction a
 * sector-sorted list and a FIFO of expiry times (read_expire, write_expire);
 * requests go out in sector order in batches of up to fifo_batch; between
 * batches reads are preferred unless writes have been passed over
 * writes_starved times; a batch starts from the FIFO head when that request
 * has expired or no request lies further up in sector order.
 *
 *   deadline     the 4.10-era scheduler of the seed result: one class, every
 *                request alike whatever its priority. It continues a batch
 *                with the successor of the last request dispatched.
 *   mq-deadline  Linux 5.16+ (block/mq-deadline.c): one such set per class
 *                RT, BE, IDLE (class none counts as BE). It dispatches from
 *                the highest class that has requests queued *or in flight*,
 *                so a lower class waits while higher-class I/O is
 *                outstanding — except that a lower-class request older than
 *                prio_aging_expire goes first when two or more classes are
 *                busy. It continues a batch from the first request at or
 *                beyond the last dispatched position of that class and
 *                direction.
 */
#include "host/blk.h"

#include "host/ioprio.h"
#include "host/kernel.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { DD_READ, DD_WRITE };
enum { DD_RT, DD_BE, DD_IDLE, DD_CLASSES };

struct dd_class {
	struct treap sort[2];
	struct blk_request *fifo_head[2], *fifo_tail[2];
	uint64_t latest_pos[2];		/* mq-deadline */
	struct blk_request *next_rq[2];	/* deadline (4.10) */
	/*
	 * Requests in and out: mq-deadline's count of a class's queued or in
	 * flight; 4.10's counts only for its debug lines (completed() is then
	 * called only with SCHED debugging, and pass() counts nothing).
	 */
	uint64_t inserted, completed;
};

struct dd_data {
	struct blk_queue *q;
	struct sim *sim;
	bool mq;			/* per-class (mq-deadline 5.16+) */
	bool latest_pos;		/* batches continue from a position (6.5+), not next_rq */
	unsigned nclasses;
	uint8_t class_index[8];		/* class_of() by ioprio class: all 0 without classes */
	struct dd_class cls[DD_CLASSES];
	int last_dir;
	unsigned batching, starved;
	int64_t fifo_expire[2], prio_aging_expire;
	unsigned fifo_batch, writes_starved;
	bool front_merges;
	/*
	 * The sorted lists' tie order among requests at one sector: the order
	 * of insertion, which is the order the block layer made them in (it
	 * inserts each as it makes it, a held-back one before the next), and
	 * counted here so that a request dd_pass() takes needs none.
	 */
	uint64_t insert_seq;
};

/* The class set a request goes to: RT, BE or IDLE with mq-deadline's classes (none counts as BE). */
static unsigned class_of(const struct dd_data *dd, uint16_t ioprio)
{
	return dd->class_index[ioprio_class(ioprio)];
}

/* The tunables, in host_knobs.iosched: queue/iosched/NAME. */
struct dd_tunables {
	int64_t read_expire, write_expire, prio_aging_expire;
	unsigned writes_starved, fifo_batch;
	bool front_merges;
};
_Static_assert(sizeof(struct dd_tunables) <= HOST_IOSCHED_BYTES, "deadline tunables too large");

#define T(field) offsetof(struct dd_tunables, field)
#define MS 1000000LL
#define DD_COMMON_TUNABLES \
	{ .name = "read_expire", .type = OPT_TIME, .offset = T(read_expire), \
	  .def = "500", .min = 0, .max = 3600000 * MS, .time_unit = MS, .unit = "ms", \
	  .source = "2.6.0", .help = "a read waits at most this long before it goes first" }, \
	{ .name = "write_expire", .type = OPT_TIME, .offset = T(write_expire), \
	  .def = "5000", .min = 0, .max = 3600000 * MS, .time_unit = MS, .unit = "ms", \
	  .source = "2.6.0", .help = "the same for writes" }, \
	{ .name = "writes_starved", .type = OPT_UINT, .offset = T(writes_starved), \
	  .def = "2", .min = 0, .max = 1000000, .source = "2.6.0", \
	  .help = "read batches before writes get a turn" }, \
	{ .name = "fifo_batch", .type = OPT_UINT, .offset = T(fifo_batch), \
	  .def = "16", .min = 1, .max = 1000000, .source = "2.6.0", \
	  .help = "requests dispatched in sector order before the FIFO is checked" }, \
	{ .name = "front_merges", .type = OPT_BOOL, .offset = T(front_merges), \
	  .def = "1", .source = "2.6.0", .help = "also merge a new request in front of a queued one" }

static const struct opt_def deadline_tunables[] = {
	DD_COMMON_TUNABLES,
	OPT_END,
};

static const struct opt_def mq_deadline_tunables[] = {
	DD_COMMON_TUNABLES,
	{ .name = "prio_aging_expire", .type = OPT_TIME, .offset = T(prio_aging_expire),
	  .def = "10000", .min = 0, .max = 3600000 * MS, .time_unit = MS, .unit = "ms",
	  .source = "5.16", .help = "a lower-class request older than this is dispatched even while higher-class I/O is outstanding" },
	OPT_END,
};

static int dd_init(struct blk_queue *q, void **data, bool mq, struct err *e)
{
	const struct dd_tunables *k = (const void *)blk_queue_knobs(q)->iosched.bytes;
	int kernel = blk_queue_knobs(q)->kernel;
	struct dd_data *dd = calloc(1, sizeof(*dd));
	unsigned c;

	if (!dd)
		return err_set(e, "out of memory");
	dd->q = q;
	dd->sim = blk_queue_sim(q);
	/* mq-deadline before 5.16 (kernel 5.15) has no classes: the same engine as 4.10's. */
	dd->mq = mq && host_kernel_has(kernel, HOST_KC_MQ_DEADLINE_PRIO);
	dd->latest_pos = dd->mq && host_kernel_has(kernel, HOST_KC_MQ_DEADLINE_LATEST_POS);
	mq = dd->mq;
	dd->nclasses = mq ? DD_CLASSES : 1;
	for (c = 0; c < 8; c++)
		dd->class_index[c] = !mq ? 0 : c == IOPRIO_CLASS_RT ? DD_RT :
			c == IOPRIO_CLASS_IDLE ? DD_IDLE : DD_BE;
	for (c = 0; c < DD_CLASSES; c++) {
		treap_init(&dd->cls[c].sort[DD_READ]);
		treap_init(&dd->cls[c].sort[DD_WRITE]);
	}
	dd->last_dir = DD_WRITE;
	dd->fifo_expire[DD_READ] = k->read_expire;
	dd->fifo_expire[DD_WRITE] = k->write_expire;
	dd->prio_aging_expire = k->prio_aging_expire;
	dd->fifo_batch = k->fifo_batch;
	dd->writes_starved = k->writes_starved;
	dd->front_merges = k->front_merges;
	*data = dd;
	return 0;
}

static int deadline_init(struct blk_queue *q, void **data, struct err *e)
{
	return dd_init(q, data, false, e);
}

static int mq_deadline_init(struct blk_queue *q, void **data, struct err *e)
{
	return dd_init(q, data, true, e);
}

static void dd_exit(void *data)
{
	free(data);
}

static void dd_insert(void *data, struct blk_request *rq)
{
	struct dd_data *dd = data;
	struct dd_class *c = &dd->cls[class_of(dd, rq->ioprio)];
	int dir = rq->write;

	rq->sched_class = (uint8_t)(c - dd->cls);
	rq->sort.key = rq->lba;
	rq->sort.tie = dd->insert_seq++;
	treap_insert(&c->sort[dir], &rq->sort);
	/* Every insert is at the request's start (its insert may be deferred: dd_pass()). */
	rq->fifo_time = rq->t_queued + dd->fifo_expire[dir];
	rq->fifo_next = NULL;
	rq->fifo_prev = c->fifo_tail[dir];
	if (c->fifo_tail[dir])
		c->fifo_tail[dir]->fifo_next = rq;
	else
		c->fifo_head[dir] = rq;
	c->fifo_tail[dir] = rq;
	rq->in_sched = true;
	c->inserted++;
	sim_debug(dd->sim, SIM_DBG_SCHED, "%s insert lba %llu %s class %u (%u queued or in flight)",
		  dd->mq ? "mq-deadline" : "deadline", (unsigned long long)rq->lba,
		  dir ? "W" : "R", rq->sched_class, (unsigned)(c->inserted - c->completed));
}

static struct blk_request *sort_entry(struct treap_node *n)
{
	return n ? treap_entry(n, struct blk_request, sort) : NULL;
}

/*
 * Out of the sorted list and the FIFO. Only the dispatch removes a
 * request, and it has already moved next_rq past it.
 */
static inline __attribute__((always_inline)) void remove_request(struct dd_class *c,
								   struct blk_request *rq)
{
	int dir = rq->write;

	treap_remove(&c->sort[dir], &rq->sort);
	if (rq->fifo_prev)
		rq->fifo_prev->fifo_next = rq->fifo_next;
	else
		c->fifo_head[dir] = rq->fifo_next;
	if (rq->fifo_next)
		rq->fifo_next->fifo_prev = rq->fifo_prev;
	else
		c->fifo_tail[dir] = rq->fifo_prev;
	rq->fifo_next = rq->fifo_prev = NULL;
	rq->in_sched = false;
}

/* The next request in sector order in direction dir, for this class. */
static inline struct blk_request *next_request(struct dd_class *c, int dir, bool latest_pos)
{
	if (latest_pos)
		return sort_entry(treap_lower_bound(&c->sort[dir], c->latest_pos[dir]));
	return c->next_rq[dir];
}

/*
 * One class's choice, for requests that entered at or before latest_start
 * (mq-deadline's aging pass asks with now - prio_aging_expire). mq and
 * latest_pos are dd's, passed as constants by each caller: 4.10's copy
 * carries no test of mq-deadline's rules (and every request entered at or
 * before now).
 */
static inline __attribute__((always_inline)) struct blk_request *
dd_class_dispatch(struct dd_data *dd, struct dd_class *c, int64_t latest_start, const bool mq,
		  const bool latest_pos)
{
	struct blk_request *rq, *next_rq;
	int dir;
	const char *why;

	if (mq) {
		rq = next_request(c, dd->last_dir, latest_pos);
	} else {
		/* 4.10: a batch continues in whichever direction has a successor. */
		rq = c->next_rq[DD_WRITE] ? c->next_rq[DD_WRITE] : c->next_rq[DD_READ];
	}
	if (rq && dd->batching < dd->fifo_batch) {
		dir = rq->write;
		why = "batch";
		goto dispatch;
	}
	if (c->fifo_head[DD_READ]) {
		if (c->fifo_head[DD_WRITE] && dd->starved++ >= dd->writes_starved)
			goto writes;
		dir = DD_READ;
		goto find;
	}
	if (c->fifo_head[DD_WRITE]) {
writes:
		dd->starved = 0;
		dir = DD_WRITE;
		goto find;
	}
	return NULL;
find:
	next_rq = next_request(c, dir, latest_pos);
	if (sim_now(dd->sim) >= c->fifo_head[dir]->fifo_time || !next_rq) {
		rq = c->fifo_head[dir];
		why = next_rq ? "fifo (expired)" : "fifo";
	} else {
		rq = next_rq;
		why = "sector order";
	}
	dd->last_dir = dir;
	dd->batching = 0;
dispatch:
	if (mq && rq->fifo_time - dd->fifo_expire[rq->write] > latest_start)
		return NULL;	/* entered after latest_start */
	dd->batching++;
	if (latest_pos) {
		c->latest_pos[dir] = rq->lba;
	} else {
		c->next_rq[DD_READ] = c->next_rq[DD_WRITE] = NULL;
		c->next_rq[dir] = sort_entry(treap_next(&rq->sort));
	}
	remove_request(c, rq);
	sim_debug(dd->sim, SIM_DBG_SCHED, "%s dispatch lba %llu %s class %u: %s, batch %u",
		  dd->mq ? "mq-deadline" : "deadline", (unsigned long long)rq->lba,
		  dir ? "W" : "R", rq->sched_class, why, dd->batching);
	return rq;
}

static uint64_t queued(const struct dd_class *c)
{
	return c->inserted - c->completed;
}

/* 4.10's deadline: its one class, inline (every request passes here). */
static struct blk_request *deadline_dispatch(void *data)
{
	struct dd_data *dd = data;

	return dd_class_dispatch(dd, &dd->cls[0], sim_now(dd->sim), false, false);
}

/* mq-deadline's per-class pass: one copy of the engine per batch rule, for its three calls. */
static struct blk_request *mq_class_dispatch(struct dd_data *dd, struct dd_class *c,
					     int64_t latest_start)
{
	return dd->latest_pos ? dd_class_dispatch(dd, c, latest_start, true, true) :
		dd_class_dispatch(dd, c, latest_start, true, false);
}

static struct blk_request *dd_dispatch(void *data)
{
	struct dd_data *dd = data;
	int64_t now = sim_now(dd->sim);
	struct blk_request *rq;
	unsigned p, busy;

	if (!dd->mq)
		return deadline_dispatch(dd);
	/* Aging: lower classes first when two or more classes are busy. */
	busy = !!queued(&dd->cls[DD_RT]) + !!queued(&dd->cls[DD_BE]) + !!queued(&dd->cls[DD_IDLE]);
	if (busy >= 2) {
		for (p = DD_BE; p < DD_CLASSES; p++) {
			rq = mq_class_dispatch(dd, &dd->cls[p], now - dd->prio_aging_expire);
			if (rq)
				return rq;
		}
	}
	/* Then the highest class with work; a class with I/O in flight blocks lower ones. */
	for (p = 0; p < DD_CLASSES; p++) {
		rq = mq_class_dispatch(dd, &dd->cls[p], now);
		if (rq || queued(&dd->cls[p]))
			return rq;
	}
	return NULL;
}

/*
 * dd_insert() then dd_dispatch() of a lone request (nothing else queued).
 * 4.10's engine: with nothing queued no next_rq is left (each points into
 * the sorted list), so the choice is the FIFO head — this request — in
 * its direction, a new batch of one: the writes_starved count restarts
 * for a write, and the sorted list and FIFO are left as empty as found.
 * mq-deadline's classes (a class in flight may hold it back) take the
 * two calls.
 */
static inline void pass_batch_of_one(struct dd_data *dd, const struct blk_request *rq)
{
	if (rq->write)
		dd->starved = 0;
	dd->last_dir = rq->write;
	dd->batching = 1;
}

static struct blk_request *dd_pass(void *data, struct blk_request *rq)
{
	struct dd_data *dd = data;

	if (dd->mq) {
		dd_insert(dd, rq);
		return dd_dispatch(dd);
	}
	/* mq-deadline of 5.15: 4.10's engine, its counts for debug lines only (deadline_pass()). */
	pass_batch_of_one(dd, rq);
	return rq;
}

/*
 * 4.10's deadline: the batch of one alone. Its class counts are for debug
 * lines only, and with SCHED debugging on nothing is passed; a request out
 * of the scheduler keeps no fifo_time (pass() in blk.h).
 */
static struct blk_request *deadline_pass(void *data, struct blk_request *rq)
{
	pass_batch_of_one(data, rq);
	return rq;
}

static void dd_completed(void *data, struct blk_request *rq)
{
	struct dd_data *dd = data;

	dd->cls[rq->sched_class].completed++;
}

/*
 * Without classes (4.10's deadline, 5.15's mq-deadline) the counts feed
 * only the insert debug line: queued() is mq-deadline's classes' alone.
 */
static bool dd_completed_for_debug(const void *data)
{
	const struct dd_data *dd = data;

	return !dd->mq;
}

static struct blk_request *dd_merge_find(void *data, const struct blk_bio *bio, bool *front)
{
	struct dd_data *dd = data;
	struct dd_class *c = &dd->cls[class_of(dd, bio->ioprio)];
	struct treap *t = &c->sort[bio->write];
	struct blk_request *rq;

	if (!t->count)
		return NULL;	/* nothing queued that way: the common case */
	/* Back merge: a queued request ending where the bio starts. */
	rq = sort_entry(treap_floor(t, bio->lba));
	if (rq && rq->lba + rq->nlb == bio->lba) {
		*front = false;
		return rq;
	}
	if (!dd->front_merges)
		return NULL;
	rq = sort_entry(treap_lower_bound(t, bio->lba + bio->nlb));
	if (rq && rq->lba == bio->lba + bio->nlb) {
		*front = true;
		return rq;
	}
	return NULL;
}

static void dd_merged(void *data, struct blk_request *rq, bool front)
{
	struct dd_data *dd = data;
	struct dd_class *c = &dd->cls[rq->sched_class];

	if (!front)
		return;
	/* The sort key moved: re-file it (its FIFO place stays). */
	treap_remove(&c->sort[rq->write], &rq->sort);
	rq->sort.key = rq->lba;
	treap_insert(&c->sort[rq->write], &rq->sort);
}

const struct sched_ops sched_deadline_ops = {
	.plugin = { "deadline", "the 4.10-era deadline scheduler (the seed's); priority-blind",
		    deadline_tunables },
	.pool = SCHED_POOL_LEGACY,
	.init = deadline_init,
	.exit = dd_exit,
	.insert = dd_insert,
	.dispatch = deadline_dispatch,
	.completed = dd_completed,
	.completed_for_debug = dd_completed_for_debug,
	.merge_find = dd_merge_find,
	.merged = dd_merged,
	.pass = deadline_pass,
};

const struct sched_ops sched_mq_deadline_ops = {
	.plugin = { "mq-deadline", "mq-deadline as in Linux 5.16+: RT before BE before IDLE, with prio aging",
		    mq_deadline_tunables },
	.pool = SCHED_POOL_BLK_MQ,
	.alias = "deadline",
	.init = mq_deadline_init,
	.exit = dd_exit,
	.insert = dd_insert,
	.dispatch = dd_dispatch,
	.completed = dd_completed,
	.completed_for_debug = dd_completed_for_debug,
	.merge_find = dd_merge_find,
	.merged = dd_merged,
	.pass = dd_pass,
};
