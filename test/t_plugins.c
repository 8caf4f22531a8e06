/*
 * Plug-ins are one row each: this program registers an I/O scheduler (with
 * a tunable of its own) and a firmware policy from outside the library,
 * selects them by name the way a user does (queue/scheduler, drive key
 * fw_sched) and runs them on the whole stack. Nothing else is edited, so
 * if this passes, adding a plug-in really is one file and one row.
 */
#include "testlib.h"
#include "disk/fwq.h"
#include "disk/model.h"
#include "drivelab.h"
#include "host/blk.h"
#include "host/ioprio.h"
#include "hostlab.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- a scheduler: newest request first (a stack) ---- */

struct lifo_tunables {
	unsigned max_batch;
};

static const struct opt_def lifo_tunables[] = {
	{ .name = "max_batch", .type = OPT_UINT, .offset = offsetof(struct lifo_tunables, max_batch),
	  .def = "4", .min = 1, .max = 64, .source = "test", .help = "a tunable of its own, read back by the test" },
	OPT_END,
};

struct lifo {
	struct blk_request *top;	/* a stack through fifo_next */
	unsigned depth, max_batch;
	uint64_t dispatched, not_newest;
	int64_t inserts;		/* numbers each request in fifo_time, a scheduler's own field */
};

static struct lifo *last_lifo;	/* for the checks below (one queue at a time) */

static int lifo_init(struct blk_queue *q, void **data, struct err *e)
{
	const struct lifo_tunables *t = (const void *)blk_queue_knobs(q)->iosched.bytes;
	struct lifo *l = calloc(1, sizeof(*l));

	if (!l)
		return err_set(e, "out of memory");
	l->max_batch = t->max_batch;
	*data = last_lifo = l;
	return 0;
}

static void lifo_exit(void *data)
{
	(void)data;	/* freed by the test after its checks */
}

static void lifo_insert(void *data, struct blk_request *rq)
{
	struct lifo *l = data;

	rq->in_sched = true;
	rq->fifo_time = l->inserts++;
	rq->fifo_next = l->top;
	l->top = rq;
	l->depth++;
}

static struct blk_request *lifo_dispatch(void *data)
{
	struct lifo *l = data;
	struct blk_request *rq = l->top, *o;

	if (!rq)
		return NULL;
	for (o = rq->fifo_next; o; o = o->fifo_next)
		l->not_newest += o->fifo_time > rq->fifo_time;
	l->top = rq->fifo_next;
	l->depth--;
	l->dispatched++;
	rq->in_sched = false;
	return rq;
}

static void lifo_completed(void *data, struct blk_request *rq)
{
	(void)data;
	(void)rq;
}

static const struct sched_ops lifo_ops = {
	.plugin = { "lifo", "newest request first (a test's plug-in)", lifo_tunables },
	.pool = SCHED_POOL_BLK_MQ,
	.init = lifo_init,
	.exit = lifo_exit,
	.insert = lifo_insert,
	.dispatch = lifo_dispatch,
	.completed = lifo_completed,
};

/* ---- a firmware policy: the newest command first ---- */

static int64_t newest_cost(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	(void)ctx;
	return -c->arrival;
}

static unsigned newest_pick(const struct fwq_rules *r, const struct fwq_ctx *ctx,
			    const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	struct fwq_best high = { 0, 0, false }, norm = { 0, 0, false };
	unsigned i;

	for (i = 0; i < q->n; i++) {
		struct fwq_best *b = r->prio->honours && q->cands[i]->high ? &high : &norm;
		int64_t cost = newest_cost(ctx, q->cands[i]);

		if (!b->any || fwq_better(cost, q->cands[i], b->cost, q->cands[b->index])) {
			b->cost = cost;
			b->index = i;
			b->any = true;
		}
	}
	return fwq_decide(r, q, now, &high, &norm, reason);
}

static const struct fwq_policy_ops newest_ops = {
	{ "newest", "the most recently received command first (a test's plug-in)", NULL },
	newest_cost, newest_pick, false, false,
};

struct newest_watch {
	uint64_t picks, by_policy, not_newest;
};

static void watch_newest(void *ctx, const struct disk_pick_event *ev)
{
	struct newest_watch *w = ctx;
	const struct fwq_cmd *c = ev->cands[ev->chosen];
	unsigned i;

	w->picks++;
	if (ev->reason != FWQ_PICK_POLICY)
		return;
	w->by_policy++;
	for (i = 0; i < ev->n; i++)
		w->not_newest += ev->cands[i]->arrival > c->arrival;
}

static void registry_rules(void)
{
	struct err e;
	char names[256];

	CHECK(plugin_register(&blk_schedulers, &lifo_ops.plugin, &e) == 0);
	CHECK(plugin_register(&blk_schedulers, &lifo_ops.plugin, &e) == -1);
	CHECK_EQ_STR(e.msg, "I/O scheduler 'lifo' is registered already");
	CHECK(blk_sched_find("lifo") == &lifo_ops);
	CHECK(blk_sched_find("bfq") == NULL);
	plugin_names(&blk_schedulers, names, sizeof(names));
	CHECK_EQ_STR(names, "none, deadline, mq-deadline, lifo");

	CHECK(plugin_register(&fwq_policies, &newest_ops.plugin, &e) == 0);
	plugin_names(&fwq_policies, names, sizeof(names));
	CHECK_EQ_STR(names, "fifo, satf, satf_batch, newest");
}

static void find_knob(void *ctx, const char *name, const char *value)
{
	*(bool *)ctx |= !strcmp(name, "queue/iosched/max_batch") && !strcmp(value, "2");
}

static void scheduler_runs(void)
{
	struct host_config cfg;
	struct hostlab lab;
	struct err e;
	bool listed = false;

	host_config_init(&cfg);
	/* Its tunable, named before the scheduler is chosen, as a system file may. */
	CHECK(host_config_parse_system(&cfg, "queue/iosched/max_batch = 2\n"
				       "queue/scheduler = lifo\n", "p.system", &e) == 0);
	CHECK(host_config_check(&cfg, &e) == 0);
	CHECK_EQ_INT(((const struct lifo_tunables *)(const void *)cfg.k.iosched.bytes)->max_batch, 2);
	CHECK(host_config_set(&cfg, "queue/iosched/max_batch=65", &e) == -1);
	CHECK(strstr(e.msg, "knob 'queue/iosched/max_batch': expected an integer 1..64") != NULL);
	/* The knob listing (`ncqsim knobs`, the JSON's knobs) includes it. */
	host_knobs_each(&cfg.k, find_knob, &listed);
	CHECK(listed);

	/* The deadline scheduler's tunable is refused on it, where it was written. */
	CHECK(host_config_set(&cfg, "queue/iosched/fifo_batch=8", &e) == 0);
	CHECK(host_config_check(&cfg, &e) == -1);
	CHECK_EQ_STR(e.msg, "option '--set': knob 'queue/iosched/fifo_batch': scheduler 'lifo' has no "
		     "such tunable (its tunables: max_batch)");

	host_config_init(&cfg);
	CHECK(host_config_set(&cfg, "queue/scheduler=lifo", &e) == 0);
	CHECK(hostlab_init(&lab, &cfg, 5) == 0);
	hostlab_add(&lab, 32, ioprio_value(IOPRIO_CLASS_BE, 0, 4), 8);
	hostlab_run(&lab, 20.0);
	CHECK_MSG(lab.s[0].done > 1000, "%llu I/Os done", (unsigned long long)lab.s[0].done);
	CHECK(last_lifo != NULL);
	CHECK_MSG(last_lifo->dispatched >= lab.s[0].done, "%llu dispatched",
		  (unsigned long long)last_lifo->dispatched);
	CHECK_EQ_U64(last_lifo->not_newest, 0);
	CHECK_EQ_INT(last_lifo->max_batch, 4);	/* its default */
	hostlab_destroy(&lab);
	free(last_lifo);
}

static void policy_runs(void)
{
	struct disk_model m;
	struct drivelab lab;
	struct newest_watch w = { 0, 0, 0 };
	struct err e;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(disk_model_set(&m, "fw_sched", "newest", &e) == 0);
	CHECK(m.fw_sched == &newest_ops.plugin);
	CHECK(disk_model_set(&m, "fw_sched", "elevator", &e) == -1);
	CHECK(strstr(e.msg, "expected one of fifo, satf, satf_batch, newest, got 'elevator'") != NULL);
	CHECK(drivelab_init_model(&lab, &m, 3) == 0);
	lab.qd = 8;
	disk_set_pick_observer(lab.disk, watch_newest, &w);
	drivelab_run(&lab, 3000);
	CHECK_EQ_U64(lab.completed, 3000);
	CHECK(w.by_policy > 2000);
	CHECK_EQ_U64(w.not_newest, 0);
	drivelab_destroy(&lab);
}

int main(void)
{
	registry_rules();
	scheduler_runs();
	policy_runs();
	return test_done();
}
