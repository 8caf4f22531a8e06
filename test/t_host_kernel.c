/*
 * The kernel-version table, row by row, on every version: what each of
 * 4.10, 5.15, 6.1, 6.6 and 6.12 must do, written out per version (not
 * derived from the table under test): host tags and nr_requests, the
 * deadline alias, the knobs a version lacks, EIO vs EINVAL for
 * ncq_prio_enable, the merge rule, the default I/O priority, mq-deadline's
 * classes and its batch continuation (next_rq vs latest_pos); write hints,
 * RWF_NOWAIT and polled I/O without poll queues.
 */
#include "testlib.h"

#include <errno.h>
#include "host/blk.h"
#include "host/ioprio.h"
#include "host/kernel.h"
#include "run/system.h"

#define RT ioprio_value(IOPRIO_CLASS_RT, 0, 0)
#define BE0 ioprio_value(IOPRIO_CLASS_BE, 0, 0)
#define BE4 ioprio_value(IOPRIO_CLASS_BE, 0, 4)
/* RT level 4, as a constant (ioprio_value() is a function) */
#define RT4 (IOPRIO_CLASS_RT << IOPRIO_CLASS_SHIFT | 4)

static const struct expect {
	int kernel;
	const char *name;
	unsigned tags;			/* device/queue_depth read back when 32 is asked */
	unsigned nr_mq, nr_none;	/* nr_requests: scheduler, none (0: refused) */
	const char *deadline_is;	/* what "deadline" selects */
	bool aging_knob;		/* queue/iosched/prio_aging_expire exists */
	const char *errno_name;		/* ncq_prio_enable=1 on a drive without it */
	bool prio_merge;		/* different priorities merge */
	uint16_t fifo_task_prio;	/* a SCHED_FIFO task (nice 0) that set none */
	bool classes;			/* mq-deadline keeps RT ahead */
	bool latest_pos;		/* batches continue from the last position */
	bool fua;
	/* write hints: fcntl exists, F_SET_FILE_RW_HINT gone, bios carry the inode's again */
	bool rw_hint, no_file_hint, bio_hint;
	bool nowait;			/* RWF_NOWAIT exists */
	bool poll_refused;		/* polled bios without poll queues fail */
} cases[] = {
	{ HOST_KERNEL_4_10, "4.10", 31, 128, 0, "deadline", false, "EIO", true, 0,
	  false, false, false, false, false, false, false, false },
	{ HOST_KERNEL_5_15, "5.15", 32, 64, 32, "mq-deadline", false, "EINVAL", false, 0,
	  false, false, false, true, false, false, true, false },
	{ HOST_KERNEL_6_1, "6.1", 32, 64, 32, "mq-deadline", true, "EINVAL", false,
	  RT4, true, false, false, true, true, false, true, false },
	{ HOST_KERNEL_6_6, "6.6", 32, 64, 32, "mq-deadline", true, "EINVAL", false,
	  RT4, true, true, true, true, true, false, true, false },
	{ HOST_KERNEL_6_12, "6.12", 32, 64, 32, "mq-deadline", true, "EINVAL", false,
	  RT4, true, true, true, true, true, true, true, true },
};

static void config(struct host_config *c, const struct expect *x)
{
	char set[64];
	struct err e;

	host_config_init(c);
	snprintf(set, sizeof(set), "kernel=%s", x->name);
	CHECK(host_config_set(c, set, &e) == 0);
	CHECK_EQ_INT(c->k.kernel, x->kernel);
}

static void test_knobs(const struct expect *x)
{
	struct host_config c;
	struct system sys;
	struct err e;

	/* device/queue_depth 32 is capped by the host's tags; nr_requests from them. */
	config(&c, x);
	CHECK(host_config_set(&c, "device/queue_depth=1", &e) == 0);
	CHECK_MSG(system_init(&sys, &c, NULL, 0, NULL, &e) == 0, "%s: %s", x->name, e.msg);
	CHECK_EQ_INT(sys.knobs.nr_requests, x->nr_mq);
	CHECK_EQ_STR(sys.knobs.scheduler->name, strcmp(x->deadline_is, "deadline") ?
		     "mq-deadline" : "deadline");
	system_destroy(&sys);

	config(&c, x);
	CHECK(system_init(&sys, &c, NULL, 0, NULL, &e) == 0);
	CHECK_EQ_INT(sys.knobs.queue_depth, x->tags);
	system_destroy(&sys);

	config(&c, x);
	CHECK(host_config_set(&c, "queue/scheduler=none", &e) == 0);
	if (x->nr_none) {
		CHECK(system_init(&sys, &c, NULL, 0, NULL, &e) == 0);
		CHECK_EQ_INT(sys.knobs.nr_requests, x->nr_none);
		system_destroy(&sys);
		CHECK(host_config_set(&c, "queue/nr_requests=33", &e) == 0);
		CHECK(system_init(&sys, &c, NULL, 0, NULL, &e) != 0);
		CHECK(strstr(e.msg, "EINVAL") != NULL);
	} else {
		CHECK(system_init(&sys, &c, NULL, 0, NULL, &e) != 0);
		CHECK(strstr(e.msg, "Linux 4.10") != NULL);
	}

	/* The deadline alias. */
	config(&c, x);
	CHECK(host_config_set(&c, "queue/scheduler=deadline", &e) == 0);
	CHECK(system_init(&sys, &c, NULL, 0, NULL, &e) == 0);
	CHECK_EQ_STR(sys.knobs.scheduler->name, x->deadline_is);
	system_destroy(&sys);

	/* A knob the version lacks names the version that added it. */
	config(&c, x);
	CHECK(host_config_set(&c, "queue/iosched/prio_aging_expire=5000", &e) == 0);
	if (!x->aging_knob)
		CHECK(host_config_set(&c, "queue/scheduler=deadline", &e) == 0);
	CHECK_EQ_INT(system_init(&sys, &c, NULL, 0, NULL, &e) == 0, x->aging_knob);
	if (x->aging_knob)
		system_destroy(&sys);
	else
		CHECK_MSG(strstr(e.msg, x->kernel == HOST_KERNEL_4_10 ? "scheduler 'deadline' has no "
				 "such tunable" : "Linux 5.15's mq-deadline has no such tunable (it came "
				 "in 5.16)") != NULL, "%s", e.msg);

	/* ncq_prio_enable=1 on a drive without NCQ priority. */
	config(&c, x);
	CHECK(host_config_set(&c, "drive=desktop1t", &e) == 0);
	CHECK(host_config_set(&c, "device/ncq_prio_enable=1", &e) == 0);
	CHECK(system_init(&sys, &c, NULL, 0, NULL, &e) != 0);
	CHECK_MSG(strstr(e.msg, x->errno_name) != NULL && (strcmp(x->errno_name, "EIO") ||
							     !strstr(e.msg, "EINVAL")),
		  "%s: %s", x->name, e.msg);
}

static void nop(void *owner, struct blk_bio *bio)
{
	(void)owner;
	(void)bio;
}

/* Two adjacent reads of BE level 0 and 4: one request, or two. */
static void test_merge(const struct expect *x)
{
	struct host_config c;
	struct sim sim;
	struct blk_queue *q;
	struct blk_bio bio[2];
	struct err e;

	config(&c, x);
	c.k.scheduler = host_scheduler(x->deadline_is);
	sim_init(&sim);
	q = blk_queue_new(&sim, &c.k, &e);
	CHECK(q != NULL);
	memset(bio, 0, sizeof(bio));
	bio[0].lba = 100;
	bio[1].lba = 108;
	bio[0].nlb = bio[1].nlb = 8;
	bio[0].ioprio = BE4;
	bio[1].ioprio = BE0;
	bio[0].done = bio[1].done = nop;
	CHECK(blk_submit(q, &bio[0]));
	CHECK(blk_submit(q, &bio[1]));
	CHECK_EQ_U64(blk_get_stats(q)->merged, x->prio_merge);
	CHECK_EQ_U64(blk_get_stats(q)->requests, x->prio_merge ? 1 : 2);
	blk_queue_free(q);
	sim_destroy(&sim);
}

struct outcome {
	unsigned done;
	int error;
};

static void record(void *owner, struct blk_bio *bio)
{
	struct outcome *o = owner;

	o->done++;
	o->error = bio->error;
}

/*
 * A bio of another write hint never merges (the job gives bios a hint
 * only where the kernel's carry one); a REQ_NOWAIT bio that finds no free
 * request fails with -EAGAIN at once, one that merges needs none; a
 * REQ_POLLED bio fails with -EOPNOTSUPP where the kernel refuses polling
 * without poll queues, and is served by interrupt before.
 */
static void test_flags(const struct expect *x)
{
	struct host_config c;
	struct sim sim;
	struct blk_queue *q;
	struct blk_bio bio[4];
	struct outcome out[4];
	struct err e;
	unsigned i;

	CHECK_EQ_INT(host_kernel_has(x->kernel, HOST_KC_RW_HINT), x->rw_hint);
	CHECK_EQ_INT(host_kernel_has(x->kernel, HOST_KC_NO_FILE_RW_HINT), x->no_file_hint);
	CHECK_EQ_INT(host_kernel_has(x->kernel, HOST_KC_BIO_WRITE_HINT), x->bio_hint);
	CHECK_EQ_INT(host_kernel_has(x->kernel, HOST_KC_NOWAIT), x->nowait);
	CHECK_EQ_INT(host_kernel_has(x->kernel, HOST_KC_POLL_EOPNOTSUPP), x->poll_refused);

	config(&c, x);
	c.k.scheduler = host_scheduler(x->deadline_is);
	c.k.nr_requests = 2;
	sim_init(&sim);
	q = blk_queue_new(&sim, &c.k, &e);
	CHECK(q != NULL);
	memset(out, 0, sizeof(out));
	for (i = 0; i < 4; i++) {
		blk_bio_prep(&bio[i], 100 + 8 * i, 8, true, BE4, NULL, record, &out[i]);
		bio[i].flags = BLK_NOWAIT;
	}
	bio[1].write_hint = 2;		/* adjacent, another hint: a request of its own */
	bio[2].lba = 108 + 1000;
	bio[3].lba = 92;		/* before bio 0: no request free, but it merges */
	CHECK(blk_submit(q, &bio[0]));
	CHECK(blk_submit(q, &bio[1]));
	CHECK(blk_submit(q, &bio[2]));	/* both requests taken: EAGAIN */
	CHECK(blk_submit(q, &bio[3]));
	sim_run(&sim, 1);
	CHECK_EQ_U64(blk_get_stats(q)->requests, 2);
	CHECK_EQ_U64(blk_get_stats(q)->merged, 1);
	CHECK_EQ_U64(blk_get_stats(q)->nowait_again, 1);
	CHECK_EQ_INT(out[2].done, 1);
	CHECK_EQ_INT(out[2].error, -EAGAIN);
	CHECK_EQ_INT(out[0].done + out[1].done + out[3].done, 0);
	blk_queue_free(q);
	sim_destroy(&sim);

	config(&c, x);
	c.k.scheduler = host_scheduler(x->deadline_is);
	sim_init(&sim);
	q = blk_queue_new(&sim, &c.k, &e);
	CHECK(q != NULL);
	memset(out, 0, sizeof(out));
	blk_bio_prep(&bio[0], 100, 8, false, BE4, NULL, record, &out[0]);
	bio[0].flags = BLK_POLLED;
	CHECK(blk_submit(q, &bio[0]));
	sim_run(&sim, 1);
	CHECK_EQ_INT(out[0].done, x->poll_refused);
	CHECK_EQ_INT(out[0].error, x->poll_refused ? -EOPNOTSUPP : 0);
	CHECK_EQ_U64(blk_get_stats(q)->requests, !x->poll_refused);
	blk_queue_free(q);
	sim_destroy(&sim);
}

static void test_ioprio(const struct expect *x)
{
	/* Nothing set by a SCHED_FIFO task: RT from 6.0 on, class none before. */
	CHECK_EQ_INT(host_kernel_io_prio(x->kernel, 0, 0, 0, SCHED_POLICY_FIFO), x->fifo_task_prio);
	/* A set priority wins on every version. */
	CHECK_EQ_INT(host_kernel_io_prio(x->kernel, 0, BE0, 0, SCHED_POLICY_FIFO), BE0);
	CHECK_EQ_INT(host_kernel_io_prio(x->kernel, RT, BE0, 0, SCHED_POLICY_NORMAL), RT);
	CHECK_EQ_INT(host_kernel_has(x->kernel, HOST_KC_FUA), x->fua);
}

struct order {
	struct sim sim;
	struct blk_queue *q;
	const struct sched_ops *ops;
	void *data;
	struct blk_request rq[8];
	unsigned n;
};

static void order_init(struct order *o, const struct expect *x)
{
	struct host_config c;
	struct err e;

	memset(o, 0, sizeof(*o));
	config(&c, x);
	c.k.scheduler = host_scheduler(x->deadline_is);
	sim_init(&o->sim);
	o->q = blk_queue_new(&o->sim, &c.k, &e);
	o->ops = blk_sched_find(x->deadline_is);
	CHECK(o->ops != NULL);
	CHECK(o->ops->init(o->q, &o->data, &e) == 0);
}

static void order_insert(struct order *o, uint64_t lba, uint16_t prio)
{
	struct blk_request *rq = &o->rq[o->n];

	memset(rq, 0, sizeof(*rq));
	rq->lba = lba;
	rq->nlb = 8;
	rq->ioprio = prio;
	o->n++;
	o->ops->insert(o->data, rq);
}

static uint64_t order_next(struct order *o)
{
	struct blk_request *rq = o->ops->dispatch(o->data);

	return rq ? rq->lba : 0;
}

static void order_free(struct order *o)
{
	o->ops->exit(o->data);
	blk_queue_free(o->q);
	sim_destroy(&o->sim);
}

static void test_sched(const struct expect *x)
{
	struct order o;

	/* BE at 100 and 300, RT at 200: class order, or sector order. */
	order_init(&o, x);
	order_insert(&o, 100, BE4);
	order_insert(&o, 300, BE4);
	order_insert(&o, 200, RT);
	CHECK_EQ_U64(order_next(&o), x->classes ? 200 : 100);
	order_free(&o);

	/*
	 * A batch after 100 (successor 300); 200 arrives behind the head:
	 * next_rq goes on to 300, latest_pos finds 200 first.
	 */
	order_init(&o, x);
	order_insert(&o, 100, BE4);
	order_insert(&o, 300, BE4);
	CHECK_EQ_U64(order_next(&o), 100);
	order_insert(&o, 200, BE4);
	CHECK_EQ_U64(order_next(&o), x->latest_pos ? 200 : 300);
	order_free(&o);
}

int main(void)
{
	size_t i;

	CHECK_EQ_INT(HOST_KERNEL_DEFAULT, HOST_KERNEL_6_12);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_knobs(&cases[i]);
		test_merge(&cases[i]);
		test_flags(&cases[i]);
		test_ioprio(&cases[i]);
		test_sched(&cases[i]);
	}
	return test_done();
}
