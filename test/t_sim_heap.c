/*
 * Event engine: order under random insert/cancel against a sorted
 * reference, FIFO order at equal times, stale handles, run(until), the
 * next event's time asked from inside an event, events scheduled in
 * reserved places, a running event scheduled again (sim_again) among
 * new ones.
 */
#include "testlib.h"
#include "sim/rng.h"
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

#define N 20000

struct ref_event {
	sim_time_t when;
	uint64_t order;		/* scheduling order */
	sim_handle_t h;
	int cancelled, ran;
};

static struct ref_event ev[N];
static uint64_t ran_order[N];
static unsigned nran;

static void record(struct sim *sim, void *arg)
{
	struct ref_event *e = arg;

	CHECK_EQ_INT(sim_now(sim), e->when);
	e->ran = 1;
	ran_order[nran++] = (uint64_t)(e - ev);
}

static int cmp_ref(const void *a, const void *b)
{
	const struct ref_event *x = &ev[*(const unsigned *)a], *y = &ev[*(const unsigned *)b];

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * `unit` spreads the times: 1 ns keeps every event in the near heap; 1 ms
 * puts them on both sides of the near/far line (100 ms), with ties in both.
 * Scheduling goes in `stages`: before each, the clock is run on by 50
 * units, so an event due at a time that an earlier one went to the far heap
 * for now goes to the near heap, and the two must still interleave.
 */
static void test_random_against_sorted(sim_time_t unit, unsigned stages)
{
	struct sim sim;
	struct rng r;
	static unsigned expect[N];
	unsigned i, n = 0, stage;

	sim_init(&sim);
	rng_seed(&r, 7, "test/heap");
	nran = 0;
	for (stage = 0; stage < stages; stage++) {
		unsigned from = N / stages * stage, to = stage + 1 == stages ? N : from + N / stages;

		sim_run(&sim, (sim_time_t)stage * 50 * unit);
		for (i = from; i < to; i++) {
			/* Few distinct times, so many ties. */
			ev[i].when = sim_now(&sim) + (sim_time_t)rng_below(&r, 500) * unit;
			ev[i].order = i;
			ev[i].cancelled = ev[i].ran = 0;
			ev[i].h = sim_at(&sim, ev[i].when, record, &ev[i]);
		}
		for (i = from; i < to; i++) {
			if (rng_below(&r, 3) == 0) {
				int pending = !ev[i].ran;

				CHECK(sim_cancel(&sim, ev[i].h) == pending);
				CHECK(!sim_cancel(&sim, ev[i].h));	/* stale now */
				ev[i].cancelled = pending;
			}
		}
	}
	for (i = 0; i < N; i++)
		if (!ev[i].cancelled)
			expect[n++] = i;
	qsort(expect, n, sizeof(expect[0]), cmp_ref);
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(nran, n);
	for (i = 0; i < n && i < nran; i++)
		if (ran_order[i] != expect[i]) {
			CHECK_MSG(0, "event %u ran as #%u, expected event %u", (unsigned)ran_order[i], i, expect[i]);
			break;
		}
	for (i = 0; i < N; i++)
		CHECK(!sim_is_pending(&sim, ev[i].h));
	sim_destroy(&sim);
}

/* Events scheduled from inside callbacks, interleaved with cancels. */
struct victim {
	int cancelled, ran;
};

struct chain {
	struct sim *sim;
	struct rng r;
	sim_time_t last, unit;	/* delays are 0..999 units */
	unsigned count, cancels, agains;
	sim_handle_t victim, self;	/* self: the pending chain_step */
	struct victim *vic;
};

static struct victim victims[100000];

static void chain_victim(struct sim *sim, void *arg)
{
	struct victim *v = arg;

	(void)sim;
	CHECK_MSG(!v->cancelled, "a cancelled event ran");
	v->ran = 1;
}

static void chain_step(struct sim *sim, void *arg)
{
	struct chain *c = arg;
	bool again;

	CHECK(sim_now(sim) >= c->last);
	c->last = sim_now(sim);
	CHECK(!sim_is_pending(sim, c->self));	/* it runs: its handle is stale */
	if (++c->count >= 100000)
		return;
	if (c->vic) {
		int cancelled = sim_cancel(sim, c->victim);

		/* Cancel succeeds exactly when the victim has not run yet. */
		CHECK(cancelled == !c->vic->ran);
		c->vic->cancelled = cancelled;
		c->cancels += cancelled;
	}
	c->vic = &victims[c->count];
	/* The next step: this event again a third of the time, before or after the victim. */
	again = rng_below(&c->r, 3) == 0;
	if (again && rng_below(&c->r, 2))
		c->self = sim_again(sim, sim_now(sim) + (sim_time_t)rng_below(&c->r, 1000) * c->unit);
	c->victim = sim_after(sim, (sim_time_t)rng_below(&c->r, 1000) * c->unit, chain_victim,
			      c->vic);
	if (again && !sim_is_pending(sim, c->self))
		c->self = sim_again(sim, sim_now(sim) + (sim_time_t)rng_below(&c->r, 1000) * c->unit);
	else if (!again)
		c->self = sim_after(sim, (sim_time_t)rng_below(&c->r, 1000) * c->unit, chain_step, c);
	c->agains += again;
	CHECK(sim_is_pending(sim, c->self));
}

static void test_chain(sim_time_t unit)
{
	struct sim sim;
	struct chain c = { 0 };

	sim_init(&sim);
	memset(victims, 0, sizeof(victims));
	c.sim = &sim;
	c.unit = unit;
	rng_seed(&c.r, 1, "test/chain");
	sim_at(&sim, 0, chain_step, &c);
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(c.count, 100000);
	CHECK(c.cancels > 10000 && c.cancels < 90000);
	CHECK(c.agains > 20000 && c.agains < 50000);
	/* The victim of the last step may still be pending; nothing else. */
	CHECK(sim_pending_count(&sim) <= 1);
	sim_destroy(&sim);
}

/*
 * sim_next_time() asked from inside an event (as the drive asks it) must
 * name the earliest other pending event, whichever heap holds it and
 * whether or not the running event's root is still vacant; the events
 * scheduled around the question (the fast path into the vacant root
 * among them) still run in order.
 */
#define NT_EVENTS 4000
static struct nt {
	struct sim *sim;
	struct rng r;
	sim_time_t when[NT_EVENTS];	/* pending: its time; else -1 */
	unsigned n, live, ran, agains;
	sim_time_t last;
} nt;

static void nt_schedule(void);

static void nt_step(struct sim *sim, void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg, k;
	sim_time_t best = SIM_FOREVER;

	CHECK_EQ_INT(sim_now(sim), nt.when[i]);
	CHECK(sim_now(sim) >= nt.last);
	nt.last = sim_now(sim);
	nt.when[i] = -1;
	nt.live--;
	nt.ran++;
	/* Ask before and after scheduling, as sdb_schedule() may do either. */
	for (k = 0; k < nt.n; k++)
		if (nt.when[k] >= 0 && nt.when[k] < best)
			best = nt.when[k];
	if (rng_below(&nt.r, 2))
		CHECK_EQ_INT(sim_next_time(sim), best);
	nt_schedule();
	/* Now and then this event again (sim_again()), near or far. */
	if (nt.ran < 2 * NT_EVENTS && rng_below(&nt.r, 3) == 0) {
		sim_time_t delay = rng_below(&nt.r, 8) ? (sim_time_t)rng_below(&nt.r, SIM_MSEC) :
			(sim_time_t)rng_below(&nt.r, SIM_SEC);

		nt.when[i] = sim_now(sim) + delay;
		sim_again(sim, nt.when[i]);
		nt.live++;
		nt.agains++;
	}
	best = SIM_FOREVER;
	for (k = 0; k < nt.n; k++)
		if (nt.when[k] >= 0 && nt.when[k] < best)
			best = nt.when[k];
	CHECK_EQ_INT(sim_next_time(sim), best);
}

/* 0 to 2 follow-ups, mostly near (0 to 1 ms), some far (up to 1 s). */
static void nt_schedule(void)
{
	unsigned k, count = nt.live < 3 ? 1 + (unsigned)rng_below(&nt.r, 2) :
		(unsigned)rng_below(&nt.r, 3);

	for (k = 0; k < count && nt.n < NT_EVENTS; k++) {
		sim_time_t delay = rng_below(&nt.r, 8) ? (sim_time_t)rng_below(&nt.r, SIM_MSEC) :
			(sim_time_t)rng_below(&nt.r, SIM_SEC);

		nt.when[nt.n] = sim_now(nt.sim) + delay;
		sim_after(nt.sim, delay, nt_step, (void *)(uintptr_t)nt.n);
		nt.n++;
		nt.live++;
	}
}

static void test_next_time_inside(void)
{
	struct sim sim;

	sim_init(&sim);
	memset(&nt, 0, sizeof(nt));
	nt.sim = &sim;
	rng_seed(&nt.r, 1, "test/next_time");
	nt_schedule();
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(nt.ran, nt.n + nt.agains);
	CHECK(nt.n == NT_EVENTS && nt.agains > NT_EVENTS / 10);
	CHECK_EQ_INT(sim_next_time(&sim), SIM_FOREVER);
	sim_destroy(&sim);
}

static int fifo_seen[8], fifo_n;
static void fifo_cb(struct sim *sim, void *arg)
{
	(void)sim;
	fifo_seen[fifo_n++] = (int)(intptr_t)arg;
}

static void test_equal_time_fifo(void)
{
	struct sim sim;
	int i;

	sim_init(&sim);
	fifo_n = 0;
	for (i = 0; i < 8; i++)
		sim_at(&sim, 42, fifo_cb, (void *)(intptr_t)i);
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(fifo_n, 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(fifo_seen[i], i);
	sim_destroy(&sim);
}

static void test_run_until(void)
{
	struct sim sim;

	sim_init(&sim);
	fifo_n = 0;
	sim_at(&sim, 10, fifo_cb, (void *)1);
	sim_at(&sim, 30, fifo_cb, (void *)2);
	sim_run(&sim, 20);
	CHECK_EQ_INT(fifo_n, 1);
	CHECK_EQ_INT(sim_now(&sim), 20);
	CHECK_EQ_INT(sim_next_time(&sim), 30);
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(fifo_n, 2);
	CHECK_EQ_INT(sim_now(&sim), 30);
	CHECK_EQ_INT(sim_next_time(&sim), SIM_FOREVER);
	CHECK(!sim_cancel(&sim, 0));
	CHECK(!sim_cancel(&sim, 0xdeadbeef00000007ULL));
	sim_destroy(&sim);
}

/*
 * Reserved places (sim_reserve_seq, sim_key_passed, sim_at_key): an event
 * scheduled later in the place reserved for it runs where it would have
 * run had it been scheduled at the reservation, among events at the same
 * time; a key has passed once the event before or at it has run, and
 * every key due by sim_run()'s limit has passed when the clock stands
 * there.
 */
static uint64_t key_seq[4];

static void late_scheduler(struct sim *sim, void *arg)
{
	(void)arg;
	fifo_seen[fifo_n++] = 100;
	/* Event 1's place was taken before events 2 and 3 were scheduled. */
	CHECK(!sim_key_passed(sim, 50, key_seq[1]));
	sim_at_key(sim, 50, key_seq[1], fifo_cb, (void *)1);
}

static void key_check(struct sim *sim, void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg;

	fifo_seen[fifo_n++] = (int)i;
	CHECK(sim_key_passed(sim, 50, key_seq[i]));
	CHECK(i == 3 || !sim_key_passed(sim, 50, key_seq[i + 1]));
	CHECK(sim_key_passed(sim, 49, UINT64_MAX));
	CHECK(!sim_key_passed(sim, 51, 0));
}

static void test_reserved_keys(void)
{
	struct sim sim;
	int i;

	sim_init(&sim);
	fifo_n = 0;
	CHECK(!sim_key_passed(&sim, 0, sim_reserve_seq(&sim)));	/* nothing has run */
	sim_at(&sim, 40, late_scheduler, NULL);
	key_seq[0] = sim.next_seq;
	sim_at(&sim, 50, key_check, (void *)0);
	key_seq[1] = sim_reserve_seq(&sim);
	key_seq[2] = sim.next_seq;
	sim_at(&sim, 50, key_check, (void *)2);
	key_seq[3] = sim.next_seq;
	sim_at(&sim, 50, key_check, (void *)3);
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(fifo_n, 5);
	CHECK_EQ_INT(fifo_seen[0], 100);
	for (i = 0; i < 4 && fifo_n == 5; i++)
		CHECK_EQ_INT(fifo_seen[i + 1], i);
	/* The clock moved to the limit: everything due by then has passed. */
	key_seq[0] = sim_reserve_seq(&sim);
	sim_run(&sim, 80);
	CHECK(sim_key_passed(&sim, 80, key_seq[0]));
	CHECK(!sim_key_passed(&sim, 81, key_seq[0]));
	sim_destroy(&sim);
}

/*
 * sim_again() takes the place sim_at() would give: among events at the
 * same time it runs after those scheduled before it and before those
 * scheduled after, in the near heap or the far one; it keeps its argument.
 */
static int again_runs;

static void again_self(struct sim *sim, void *arg)
{
	sim_time_t delay = (sim_time_t)(intptr_t)arg;

	fifo_seen[fifo_n++] = 10 + again_runs;
	if (again_runs++ >= 2)
		return;
	sim_after(sim, delay, fifo_cb, (void *)(intptr_t)(2 * again_runs - 1));
	CHECK(sim_is_pending(sim, sim_again(sim, sim_now(sim) + delay)));
	sim_after(sim, delay, fifo_cb, (void *)(intptr_t)(2 * again_runs));
}

static void test_again_order(sim_time_t delay)
{
	static const int expect[] = { 10, 1, 11, 2, 3, 12, 4 };
	struct sim sim;
	int i;

	sim_init(&sim);
	fifo_n = again_runs = 0;
	sim_at(&sim, 5, again_self, (void *)(intptr_t)delay);
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(fifo_n, 7);
	for (i = 0; i < 7 && fifo_n == 7; i++)
		CHECK_EQ_INT(fifo_seen[i], expect[i]);
	CHECK_EQ_INT(sim_now(&sim), 5 + 2 * delay);
	CHECK_EQ_INT(sim_pending_count(&sim), 0);
	sim_destroy(&sim);
}

/*
 * The same through the fast path (the near heap holds only the running
 * event): an event scheduled earlier for the same time, in the far heap,
 * still runs first.
 */
static const sim_time_t again_times[] = { 50 * SIM_MSEC, 120 * SIM_MSEC, 200 * SIM_MSEC };

static void again_timed(struct sim *sim, void *arg)
{
	(void)arg;
	fifo_seen[fifo_n++] = 10 + again_runs;
	if (++again_runs >= 3)
		return;
	CHECK(sim_is_pending(sim, sim_again(sim, again_times[again_runs])));
	if (again_runs == 2)
		sim_at(sim, again_times[2], fifo_cb, (void *)22);
}

static void test_again_fast_order(void)
{
	static const int expect[] = { 10, 11, 1, 12, 22 };
	struct sim sim;
	int i;

	sim_init(&sim);
	fifo_n = again_runs = 0;
	/* Scheduled after the event's first run was: it runs before its third. */
	sim_at(&sim, again_times[0], again_timed, NULL);
	sim_at(&sim, again_times[2], fifo_cb, (void *)1);	/* far: 200 ms ahead */
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(fifo_n, 5);
	for (i = 0; i < 5 && fifo_n == 5; i++)
		CHECK_EQ_INT(fifo_seen[i], expect[i]);
	CHECK_EQ_INT(sim_pending_count(&sim), 0);
	sim_destroy(&sim);
}

/*
 * What is due next, asked inside the only near event, once a cancelled far
 * event has been dropped from the far heap's top: the far event after it.
 */
static void next_after_cancel(struct sim *sim, void *arg)
{
	(void)arg;
	fifo_seen[fifo_n++] = 5;
	CHECK_EQ_INT(sim_next_time(sim), 800 * SIM_MSEC);
}

static void test_next_time_after_cancel(void)
{
	struct sim sim;
	sim_handle_t h;

	sim_init(&sim);
	fifo_n = 0;
	h = sim_at(&sim, 500 * SIM_MSEC, fifo_cb, (void *)1);
	sim_at(&sim, 800 * SIM_MSEC, fifo_cb, (void *)2);
	sim_at(&sim, 10 * SIM_MSEC, next_after_cancel, NULL);
	CHECK(sim_cancel(&sim, h));
	sim_run(&sim, SIM_FOREVER);
	CHECK_EQ_INT(fifo_n, 2);
	CHECK_EQ_INT(fifo_seen[0], 5);
	CHECK_EQ_INT(fifo_seen[1], 2);
	sim_destroy(&sim);
}

int main(void)
{
	test_random_against_sorted(1, 1);
	test_random_against_sorted(SIM_MSEC, 10);
	test_chain(1);
	test_chain(SIM_MSEC / 4);	/* 0 to 250 ms: near and far */
	test_next_time_inside();
	test_equal_time_fifo();
	test_run_until();
	test_reserved_keys();
	test_again_order(SIM_USEC);
	test_again_order(SIM_SEC);
	test_again_fast_order();
	test_next_time_after_cancel();
	return test_done();
}
