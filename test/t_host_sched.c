/*
 * I/O schedulers' dispatch order on hand-built request sequences, each
 * expected order derived by hand from the kernel's rules (comments give the
 * reasoning): deadline (4.10) and mq-deadline (5.16+) batches, FIFO expiry,
 * writes_starved, class order, in-flight blocking, prio aging; none's FIFO.
 */
#include "testlib.h"
#include "host/blk.h"
#include "host/ioprio.h"

#define MS 1000000LL
#define RT ioprio_value(IOPRIO_CLASS_RT, 0, 0)
#define BE ioprio_value(IOPRIO_CLASS_BE, 0, 4)

struct bench {
	struct sim sim;
	struct blk_queue *q;
	const struct sched_ops *ops;
	void *data;
	struct blk_request rq[64];
	unsigned n;
};

static void setup(struct bench *b, const char *scheduler, unsigned fifo_batch)
{
	struct host_config cfg;
	struct err e;

	memset(b, 0, sizeof(*b));
	host_config_init(&cfg);
	char set[64];

	snprintf(set, sizeof(set), "queue/scheduler=%s", scheduler);
	CHECK(host_config_set(&cfg, set, &e) == 0);
	if (strcmp(scheduler, "none")) {
		snprintf(set, sizeof(set), "queue/iosched/fifo_batch=%u", fifo_batch);
		CHECK(host_config_set(&cfg, set, &e) == 0);
	}
	sim_init(&b->sim);
	b->q = blk_queue_new(&b->sim, &cfg.k, &e);
	CHECK(b->q != NULL);
	b->ops = blk_sched_find(scheduler);
	CHECK(b->ops != NULL);
	CHECK(b->ops->init(b->q, &b->data, &e) == 0);
}

static void teardown(struct bench *b)
{
	b->ops->exit(b->data);
	blk_queue_free(b->q);
	sim_destroy(&b->sim);
}

static void at(struct bench *b, int64_t t)
{
	sim_run(&b->sim, t);
}

static struct blk_request *insert(struct bench *b, uint64_t lba, bool write, uint16_t prio)
{
	struct blk_request *rq = &b->rq[b->n++];

	memset(rq, 0, sizeof(*rq));
	rq->lba = lba;
	rq->nlb = 8;
	rq->write = write;
	rq->ioprio = prio;
	rq->t_queued = sim_now(&b->sim);	/* the block layer inserts a request when it starts */
	b->ops->insert(b->data, rq);
	return rq;
}

/* A request into an empty scheduler and out at once: pass() when `pass`, else the two calls. */
static uint64_t lone(struct bench *b, uint64_t lba, bool write, bool pass)
{
	struct blk_request *rq = &b->rq[b->n++];

	memset(rq, 0, sizeof(*rq));
	rq->lba = lba;
	rq->nlb = 8;
	rq->write = write;
	rq->ioprio = BE;
	rq->t_queued = sim_now(&b->sim);
	if (pass) {
		rq = b->ops->pass(b->data, rq);
	} else {
		b->ops->insert(b->data, rq);
		rq = b->ops->dispatch(b->data);
	}
	return rq ? rq->lba : UINT64_MAX;
}

/* Dispatch everything possible now; the LBAs in order, W for writes. */
static void drain(struct bench *b, char *out, size_t len)
{
	struct blk_request *rq;
	size_t n = 0;

	out[0] = '\0';
	while ((rq = b->ops->dispatch(b->data)) && n < len)
		n += (size_t)snprintf(out + n, len - n, "%s%s%llu", n ? " " : "",
				      rq->write ? "W" : "", (unsigned long long)rq->lba);
}

static uint64_t one(struct bench *b)
{
	struct blk_request *rq = b->ops->dispatch(b->data);

	return rq ? rq->lba : UINT64_MAX;
}

static void test_sector_order(void)
{
	struct bench b;
	char got[256];

	/* mq-deadline starts at the lowest sector >= the last position (0). */
	setup(&b, "mq-deadline", 16);
	insert(&b, 50, 0, BE); insert(&b, 10, 0, BE); insert(&b, 30, 0, BE); insert(&b, 20, 0, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "10 20 30 50");
	teardown(&b);

	/* 4.10 deadline has no successor yet: it starts from the FIFO head. */
	setup(&b, "deadline", 16);
	insert(&b, 50, 0, BE); insert(&b, 10, 0, BE); insert(&b, 30, 0, BE); insert(&b, 20, 0, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "50 10 20 30");
	teardown(&b);

	/* A request inserted mid-batch below the successor: mq takes it, 4.10 does not. */
	setup(&b, "mq-deadline", 16);
	insert(&b, 100, 0, BE); insert(&b, 200, 0, BE); insert(&b, 300, 0, BE);
	CHECK_EQ_U64(one(&b), 100);
	insert(&b, 150, 0, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "150 200 300");
	teardown(&b);
	setup(&b, "deadline", 16);
	insert(&b, 100, 0, BE); insert(&b, 200, 0, BE); insert(&b, 300, 0, BE);
	CHECK_EQ_U64(one(&b), 100);
	insert(&b, 150, 0, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "200 300 150");
	teardown(&b);
}

static void test_expiry(void)
{
	struct bench b;
	char got[256];
	static const char *const scheds[] = { "deadline", "mq-deadline" };
	unsigned i;

	for (i = 0; i < 2; i++) {
		const char *sched = scheds[i];

		/* fifo_batch 1: the FIFO is checked at every dispatch. 300 came first. */
		setup(&b, sched, 1);
		insert(&b, 300, 0, BE);
		at(&b, 100 * MS);
		insert(&b, 100, 0, BE); insert(&b, 200, 0, BE);
		at(&b, 200 * MS);	/* nothing expired: sector order (4.10: FIFO head first) */
		drain(&b, got, sizeof(got));
		CHECK_EQ_STR(got, !strcmp(sched, "mq-deadline") ? "100 200 300" : "300 100 200");
		teardown(&b);

		setup(&b, sched, 1);
		insert(&b, 300, 0, BE);
		at(&b, 100 * MS);
		insert(&b, 100, 0, BE); insert(&b, 200, 0, BE);
		at(&b, 1000 * MS);	/* all expired: the FIFO head, 300, goes first */
		drain(&b, got, sizeof(got));
		CHECK_EQ_STR(got, "300 100 200");
		teardown(&b);
	}
}

static void test_writes_starved(void)
{
	struct bench b;
	char got[256];

	/*
	 * mq-deadline starts with last_dir = WRITE, so the first dispatch
	 * continues a write "batch" (W15). Then reads, counting starved: 0, 1,
	 * then 2 >= writes_starved sends a write (W25), then the rest.
	 */
	setup(&b, "mq-deadline", 1);
	insert(&b, 10, 0, BE); insert(&b, 20, 0, BE); insert(&b, 30, 0, BE); insert(&b, 40, 0, BE);
	insert(&b, 15, 1, BE); insert(&b, 25, 1, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "W15 10 20 W25 30 40");
	teardown(&b);

	/* 4.10: reads first (starved 0, 1), then a write from the FIFO (W15). */
	setup(&b, "deadline", 1);
	insert(&b, 10, 0, BE); insert(&b, 20, 0, BE); insert(&b, 30, 0, BE); insert(&b, 40, 0, BE);
	insert(&b, 15, 1, BE); insert(&b, 25, 1, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "10 20 W15 30 40 W25");
	teardown(&b);

	/* Batches: with fifo_batch 16 a read batch runs through before any write. */
	setup(&b, "deadline", 16);
	insert(&b, 10, 0, BE); insert(&b, 20, 0, BE); insert(&b, 30, 0, BE);
	insert(&b, 15, 1, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "10 20 30 W15");
	teardown(&b);
}

static void test_classes(void)
{
	struct bench b;
	struct blk_request *rt;
	char got[256];

	/* mq-deadline: RT first; while it is in flight BE waits; then BE in order. */
	setup(&b, "mq-deadline", 16);
	insert(&b, 10, 0, BE); insert(&b, 20, 0, BE);
	rt = insert(&b, 30, 0, RT);
	CHECK_EQ_U64(one(&b), 30);
	CHECK_EQ_U64(one(&b), UINT64_MAX);	/* RT in flight blocks BE */
	b.ops->completed(b.data, rt);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "10 20");
	teardown(&b);

	/* deadline (4.10) is priority-blind: the RT request waits its turn. */
	setup(&b, "deadline", 16);
	insert(&b, 10, 0, BE); insert(&b, 20, 0, BE); insert(&b, 5, 0, RT);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "10 20 5");
	teardown(&b);
	setup(&b, "mq-deadline", 16);
	insert(&b, 10, 0, BE); insert(&b, 20, 0, BE); insert(&b, 5, 0, RT);
	CHECK_EQ_U64(one(&b), 5);
	teardown(&b);

	/* Class none counts as BE; IDLE after BE. */
	setup(&b, "mq-deadline", 16);
	insert(&b, 7, 0, ioprio_value(IOPRIO_CLASS_IDLE, 0, 7));
	insert(&b, 9, 0, 0);
	CHECK_EQ_U64(one(&b), 9);
	teardown(&b);
}

static void test_prio_aging(void)
{
	struct bench b;

	/* BE waits behind busy RT until it is older than prio_aging_expire (10 s). */
	setup(&b, "mq-deadline", 16);
	insert(&b, 10, 0, BE);
	insert(&b, 100, 0, RT);
	CHECK_EQ_U64(one(&b), 100);
	at(&b, 9000 * MS);
	insert(&b, 200, 0, RT);
	CHECK_EQ_U64(one(&b), 200);		/* 9 s: not aged */
	CHECK_EQ_U64(one(&b), UINT64_MAX);
	at(&b, 10000 * MS);
	insert(&b, 300, 0, RT);
	CHECK_EQ_U64(one(&b), 10);		/* 10 s: aged, ahead of RT */
	CHECK_EQ_U64(one(&b), 300);
	teardown(&b);
}

static void test_none(void)
{
	struct bench b;
	char got[256];

	setup(&b, "none", 16);
	insert(&b, 50, 0, BE); insert(&b, 10, 1, RT); insert(&b, 30, 0, BE);
	drain(&b, got, sizeof(got));
	CHECK_EQ_STR(got, "50 W10 30");
	teardown(&b);
}

/* Merging through blk_submit: adjacency, direction, priority, size limit. */
static void nop(void *owner, struct blk_bio *bio)
{
	(void)owner;
	(void)bio;
}

static void test_merges(void)
{
	struct host_config cfg;
	struct sim sim;
	struct blk_queue *q;
	struct err e;
	struct blk_bio bio[8];
	const struct blk_stats *st;
	unsigned i;

	host_config_init(&cfg);
	CHECK(host_config_set(&cfg, "queue/scheduler=mq-deadline", &e) == 0);
	cfg.k.max_sectors_kb = 8;
	sim_init(&sim);
	q = blk_queue_new(&sim, &cfg.k, &e);
	memset(bio, 0, sizeof(bio));
	for (i = 0; i < 8; i++) {
		bio[i].nlb = 8;
		bio[i].ioprio = BE;
		bio[i].done = nop;
		bio[i].accepted = nop;
	}
	bio[0].lba = 100;
	bio[1].lba = 108;		/* back-merges into 100 */
	bio[2].lba = 92;		/* front merge would exceed 8 KiB: new request */
	bio[3].lba = 200;
	bio[4].lba = 208;
	bio[4].ioprio = RT;		/* other priority: never merged */
	bio[5].lba = 300;
	bio[6].lba = 308;
	bio[6].write = true;		/* other direction */
	for (i = 0; i < 7; i++)
		CHECK(blk_submit(q, &bio[i]));
	st = blk_get_stats(q);
	CHECK_EQ_U64(st->merged, 1);
	CHECK_EQ_U64(st->requests, 6);
	blk_queue_free(q);

	/* nomerges = 2: nothing merges. */
	cfg.k.nomerges = 2;
	cfg.k.max_sectors_kb = 1280;
	q = blk_queue_new(&sim, &cfg.k, &e);
	CHECK(blk_submit(q, &bio[0]));
	CHECK(blk_submit(q, &bio[1]));
	CHECK_EQ_U64(blk_get_stats(q)->merged, 0);
	blk_queue_free(q);
	sim_destroy(&sim);
}

/*
 * pass() leaves the scheduler as insert() then dispatch() do: after lone
 * requests each way through it, the order of a mixed queue (which
 * writes_starved, the last direction and the batch decide) is the same.
 */
static void test_pass(void)
{
	static const char *const scheds[] = { "deadline", "mq-deadline" };
	static const unsigned batches[] = { 1, 16 };
	unsigned i, j, k;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			char got[2][256];

			for (k = 0; k < 2; k++) {
				struct bench b;

				setup(&b, scheds[i], batches[j]);
				CHECK(b.ops->pass != NULL);
				CHECK_EQ_U64(lone(&b, 500, 0, k), 500);
				CHECK_EQ_U64(lone(&b, 600, 1, k), 600);
				at(&b, 10 * MS);
				CHECK_EQ_U64(lone(&b, 700, 0, k), 700);
				insert(&b, 10, 0, BE); insert(&b, 20, 0, BE); insert(&b, 30, 0, BE);
				insert(&b, 15, 1, BE); insert(&b, 25, 1, BE);
				drain(&b, got[k], sizeof(got[k]));
				teardown(&b);
			}
			CHECK_EQ_STR(got[1], got[0]);
		}
}

int main(void)
{
	test_sector_order();
	test_expiry();
	test_writes_starved();
	test_classes();
	test_prio_aging();
	test_none();
	test_merges();
	test_pass();
	return test_done();
}
