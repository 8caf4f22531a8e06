/*
 * The firmware queue: fifo keeps arrival order; satf picks the least
 * positioning time (checked against brute force at every choice);
 * satf_batch does the same within its batch and bounds every wait by two
 * batches; strict
 * priority never lets a normal command younger than age_limit pass a
 * high-priority one; soft and ignore behave as documented; no command waits
 * past age_limit plus one service time.
 */
#include "testlib.h"
#include "drivelab.h"
#include "ata/cdl.h"

#include <string.h>

struct watch {
	const struct disk_model *m;
	uint64_t picks, checked_satf, high_waiting_picks, soft_normals, aged, destage_picks;
	uint64_t mixed_picks;		/* choices among both slots and destages */
	uint64_t batch_waiting;		/* choices with a command left for the next batch */
	uint64_t high_normal_picks, high_high_picks;	/* with a high command waiting */
	int64_t max_wait, max_service;
	unsigned bad_satf, bad_strict, bad_soft, bad_ignore, bad_fifo, bad_oracle, bad_timing;
	int64_t last_arrival;
	uint64_t streams;		/* continuations without a choice (FWQ_PICK_STREAM) */
	unsigned bad_stream;
	uint64_t last_end;		/* physical sector after the last access */
	/*
	 * Decoding (disk.c decodes most commands without an event): at every
	 * choice each candidate has had its command_overhead, and — with
	 * check_decoded, for runs where every command goes to the actuator —
	 * every command that has had it is a candidate.
	 */
	const struct drivelab *lab;
	bool check_decoded;
	int64_t picked_arrival[32];	/* per tag: the arrival of the command last chosen */
	unsigned bad_early, bad_missing;
	uint64_t decode_checks;
};


/* a before b under the rule's tie-breaks: cost, then arrival, then tag, then receipt. */
static bool before(int64_t ca, const struct fwq_cmd *a, int64_t cb, const struct fwq_cmd *b)
{
	if (ca != cb)
		return ca < cb;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	if (a->tag != b->tag)
		return a->tag < b->tag;
	return a->seq < b->seq;
}

static bool named(const struct plugin *p, const char *name)
{
	return !strcmp(p->name, name);
}

/*
 * A continuation, the plain way: only under a positional policy, with no
 * high-priority command (when PRIO is honoured) and no aged one among the
 * candidates, starting at the sector after the last access, with no seek
 * and no rotational wait.
 */
static bool stream_ok(const struct watch *w, const struct disk_pick_event *ev)
{
	const struct fwq_cmd *c = ev->cands[ev->chosen];
	bool honour = !named(w->m->prio_policy, "ignore");
	unsigned i;

	for (i = 0; i < ev->n; i++)
		if ((honour && ev->cands[i]->high) ||
		    (!ev->cands[i]->destage && ev->now - ev->cands[i]->arrival >= w->m->age_limit))
			return false;
	return named(w->m->fw_sched, "satf") && c->ps == w->last_end && !ev->acc->seek &&
		!ev->acc->rotate;
}

/*
 * The SATF rule of fwq.h written the plain way — price every command, no
 * pruning — as the reference the fast choice must match exactly.
 */
static unsigned oracle_satf(const struct disk_model *m, const struct disk_pick_event *ev)
{
	bool honour = !named(m->prio_policy, "ignore");
	bool batched = named(m->fw_sched, "satf_batch");
	unsigned i, oldest = UINT32_MAX, best = UINT32_MAX, best_high = UINT32_MAX;
	unsigned best_norm = UINT32_MAX;
	int64_t cost[128];

	for (i = 0; i < ev->n; i++) {
		const struct fwq_cmd *c = ev->cands[i];

		cost[i] = fwq_positioning_ns(ev->ctx, c);
		/* Aging: the queued commands only (destages do not age). */
		if (!c->destage && (oldest == UINT32_MAX || before(0, c, 0, ev->cands[oldest])))
			oldest = i;
		/* A normal command of a later batch is no candidate. */
		if (batched && !(honour && c->high) && c->seq >= ev->batch_end)
			continue;
		if (best == UINT32_MAX || before(cost[i], c, cost[best], ev->cands[best]))
			best = i;
		if (honour && c->high) {
			if (best_high == UINT32_MAX || before(cost[i], c, cost[best_high], ev->cands[best_high]))
				best_high = i;
		} else if (best_norm == UINT32_MAX ||
			   before(cost[i], c, cost[best_norm], ev->cands[best_norm])) {
			best_norm = i;
		}
	}
	if (oldest != UINT32_MAX && ev->now - ev->cands[oldest]->arrival >= m->age_limit)
		return oldest;
	if (best_high != UINT32_MAX) {
		/* cdl, no command under a limit: a high one only within perf-vs-guideline. */
		if (named(m->prio_policy, "cdl") && best_norm != UINT32_MAX &&
		    (__int128)cost[best_high] * 1000 >
		    (__int128)cost[best_norm] * (1000 + ata_cdl_perf_permille(m->cdl_log.perf_vs_guideline)))
			return best_norm;
		if (named(m->prio_policy, "soft") && best_norm != UINT32_MAX &&
		    cost[best_norm] + m->prio_soft_margin < cost[best_high])
			return best_norm;
		return best_high;
	}
	return best;
}

static void observe(void *ctx, const struct disk_pick_event *ev)
{
	struct watch *w = ctx;
	const struct fwq_cmd *c = ev->cands[ev->chosen];
	int64_t wait = ev->now - c->arrival, min_cost = INT64_MAX;
	bool high_waiting = false;
	unsigned i;

	for (i = 0; i < ev->n; i++)
		w->bad_early += !ev->cands[i]->destage &&
			ev->cands[i]->arrival + w->m->command_overhead > ev->now;
	if (w->check_decoded) {
		unsigned tag;

		for (tag = 0; tag < w->lab->qd; tag++) {
			bool found = false;

			if ((w->lab->free_tags >> tag & 1) ||
			    w->lab->issue_time[tag] == w->picked_arrival[tag] ||
			    w->lab->issue_time[tag] + w->m->command_overhead >= ev->now)
				continue;
			for (i = 0; i < ev->n && !found; i++)
				found = ev->cands[i]->tag == tag &&
					ev->cands[i]->arrival == w->lab->issue_time[tag];
			w->bad_missing += !found;
			w->decode_checks++;
		}
	}
	if (!c->destage && c->tag < 32)
		w->picked_arrival[c->tag] = c->arrival;
	if (ev->reason == FWQ_PICK_STREAM) {
		w->streams++;
		w->bad_stream += !stream_ok(w, ev);
		w->last_end = c->ps + c->nps;
		if (wait > w->max_wait)
			w->max_wait = wait;
		return;
	}
	w->last_end = c->ps + c->nps;
	w->picks++;
	w->aged += ev->reason == FWQ_PICK_AGED;
	w->destage_picks += c->destage;
	w->mixed_picks += !ev->cands[0]->destage && ev->cands[ev->n - 1]->destage;
	if (wait > w->max_wait)
		w->max_wait = wait;
	if (ev->acc->total > w->max_service)
		w->max_service = ev->acc->total;
	for (i = 0; i < ev->n; i++) {
		int64_t cost = fwq_positioning_ns(ev->ctx, ev->cands[i]);

		if (cost < min_cost)
			min_cost = cost;
		high_waiting |= ev->cands[i]->high;
	}
	/* The price the choice used is the time the access then took to position. */
	if (fwq_positioning_ns(ev->ctx, c) != ev->acc->seek + ev->acc->rotate)
		w->bad_timing++;
	for (i = 0; i < ev->n; i++)
		w->batch_waiting += ev->cands[i]->seq >= ev->batch_end;
	if (named(w->m->fw_sched, "satf_batch")) {
		if (ev->n > 1 && oracle_satf(w->m, ev) != ev->chosen)
			w->bad_oracle++;
	} else if (named(w->m->fw_sched, "satf")) {
		if (ev->n > 1 && oracle_satf(w->m, ev) != ev->chosen)
			w->bad_oracle++;
		if (!high_waiting && ev->reason == FWQ_PICK_POLICY) {
			w->checked_satf++;
			if (fwq_positioning_ns(ev->ctx, c) != min_cost)
				w->bad_satf++;
		}
	} else if (named(w->m->fw_sched, "fifo") && !high_waiting) {
		if (c->arrival < w->last_arrival)
			w->bad_fifo++;
		w->last_arrival = c->arrival;
	}
	if (high_waiting) {
		w->high_normal_picks += !c->high;
		w->high_high_picks += c->high;
	}
	if (high_waiting && named(w->m->prio_policy, "strict")) {
		w->high_waiting_picks++;
		/* A normal command may go first only when it is aged. */
		if (!c->high && wait < w->m->age_limit)
			w->bad_strict++;
	}
	if (ev->reason == FWQ_PICK_SOFT_NORMAL) {
		int64_t best_high = INT64_MAX;

		w->soft_normals++;
		for (i = 0; i < ev->n; i++)
			if (ev->cands[i]->high) {
				int64_t cost = fwq_positioning_ns(ev->ctx, ev->cands[i]);

				if (cost < best_high)
					best_high = cost;
			}
		if (!(fwq_positioning_ns(ev->ctx, c) + w->m->prio_soft_margin < best_high))
			w->bad_soft++;
	}
	if (named(w->m->prio_policy, "ignore") && ev->reason == FWQ_PICK_PRIO)
		w->bad_ignore++;
}

/* run_seq(): every Nth command a write, the rest reads (0: `write` says). */
static unsigned write_every;

static void run_seq(struct disk_model *m, unsigned qd, unsigned high_every, uint64_t ios,
		    bool write, bool sequential, struct watch *w)
{
	struct drivelab lab;

	bool check_decoded = w->check_decoded;
	unsigned tag;

	memset(w, 0, sizeof(*w));
	w->m = m;
	w->lab = &lab;
	w->check_decoded = check_decoded;
	for (tag = 0; tag < 32; tag++)
		w->picked_arrival[tag] = -1;
	CHECK(drivelab_init_model(&lab, m, 7) == 0);
	lab.qd = qd;
	lab.write = write;
	lab.sequential = sequential;
	lab.high_every = high_every;
	lab.write_every = write_every;
	disk_set_pick_observer(lab.disk, observe, w);
	drivelab_run(&lab, ios);
	CHECK_EQ_U64(lab.completed, ios);
	drivelab_destroy(&lab);
	/* In every scenario: the plain rule's choice, and the price the access then took. */
	CHECK_MSG(w->bad_oracle == 0, "%u of %llu choices differ from the plain rule's",
		  w->bad_oracle, (unsigned long long)w->picks);
	CHECK_MSG(w->bad_timing == 0, "%u of %llu prices differ from the access's seek + rotation",
		  w->bad_timing, (unsigned long long)w->picks);
	CHECK_MSG(w->bad_stream == 0, "%u of %llu continuations break the rule", w->bad_stream,
		  (unsigned long long)w->streams);
	CHECK_MSG(w->bad_early == 0, "%u candidates not yet decoded", w->bad_early);
	CHECK_MSG(w->bad_missing == 0, "%u decoded commands missing from a choice (of %llu)",
		  w->bad_missing, (unsigned long long)w->decode_checks);
	w->check_decoded = false;
}

static void run_rw(struct disk_model *m, unsigned qd, unsigned high_every, uint64_t ios,
		   bool write, struct watch *w)
{
	run_seq(m, qd, high_every, ios, write, false, w);
}

static void run(struct disk_model *m, unsigned qd, unsigned high_every, uint64_t ios,
		struct watch *w)
{
	run_rw(m, qd, high_every, ios, false, w);
}

int main(void)
{
	struct disk_model m, he8;
	struct watch w;
	struct err e;

	memset(&w, 0, sizeof(w));
	CHECK(disk_model_load("he8", &he8, &e) == 0);

	/* satf, no priority: every choice is the brute-force minimum. */
	m = he8;
	m.age_limit = 3600LL * 1000000000LL;
	run(&m, 32, 0, 20000, &w);
	CHECK(w.checked_satf > 19000);
	CHECK_EQ_INT(w.bad_satf, 0);

	/*
	 * Decoding without events: a command is a candidate from the moment its
	 * command_overhead is over, never before — at QD 1 (the actuator idle:
	 * the event in its place), QD 2 and QD 32 (decoded while it is busy).
	 * Reads only and no read-ahead: every command goes to the actuator.
	 */
	m = he8;
	m.read_ahead = false;
	w.check_decoded = true;
	run(&m, 1, 0, 2000, &w);
	CHECK(w.picks >= 2000);
	w.check_decoded = true;
	run(&m, 2, 0, 4000, &w);
	CHECK_MSG(w.decode_checks > 3000, "%llu decoded commands checked at QD 2",
		  (unsigned long long)w.decode_checks);
	w.check_decoded = true;
	run(&m, 32, 4, 4000, &w);
	CHECK_MSG(w.decode_checks > 100000, "%llu decoded commands checked at QD 32",
		  (unsigned long long)w.decode_checks);

	/*
	 * An rpo_guard longer than a revolution (the model allows up to 100 ms):
	 * a missed target costs one revolution, not the guard, so the pruning's
	 * rotational floor must not count more — every choice still the plain
	 * rule's, with and without a high-priority class.
	 */
	m = he8;
	m.rpo_guard = 12 * 1000000;	/* he8 turns in 8.3 ms */
	run(&m, 32, 0, 5000, &w);
	CHECK_EQ_INT(w.bad_satf, 0);
	run(&m, 32, 4, 5000, &w);

	/*
	 * Writes into the write cache: the choice among destages (unsorted
	 * candidates), and with reads (every other command) slots and
	 * destages together.
	 */
	m = he8;
	m.write_cache = true;
	m.prio_policy = plugin_find(&fwq_prio_policies, "strict");
	run_rw(&m, 32, 4, 30000, true, &w);
	CHECK_MSG(w.destage_picks > 1000, "%llu destage picks", (unsigned long long)w.destage_picks);
	write_every = 2;
	run_rw(&m, 32, 4, 30000, true, &w);
	write_every = 0;
	CHECK_MSG(w.destage_picks > 1000, "%llu destage picks", (unsigned long long)w.destage_picks);
	CHECK_MSG(w.mixed_picks > 100, "%llu mixed picks", (unsigned long long)w.mixed_picks);

	/*
	 * satf_batch: the plain rule within the batch (run_rw's oracle), and a
	 * bound that satf does not have: a command waits for the batch in
	 * progress (at most 31 others) and then for the rest of its own, so at
	 * most 62 services. Under strict priority, the same with high
	 * commands jumping the batch.
	 */
	m = he8;
	m.fw_sched = plugin_find(&fwq_policies, "satf_batch");
	run(&m, 32, 0, 20000, &w);
	CHECK_MSG(w.batch_waiting > 10000, "only %llu commands left for a later batch",
		  (unsigned long long)w.batch_waiting);
	CHECK_MSG(w.max_wait <= 62 * w.max_service, "max wait %.1f ms > 62 services of %.1f ms",
		  w.max_wait / 1e6, w.max_service / 1e6);
	CHECK_EQ_U64(w.aged, 0);
	run(&m, 32, 4, 20000, &w);
	CHECK_EQ_INT(w.bad_strict, 0);
	/* ... which satf cannot promise: the same load waits far longer there. */
	m.fw_sched = plugin_find(&fwq_policies, "satf");
	run(&m, 32, 0, 20000, &w);
	CHECK_MSG(w.max_wait > 62 * w.max_service, "satf: max wait %.1f ms, services of %.1f ms",
		  w.max_wait / 1e6, w.max_service / 1e6);

	/*
	 * The cdl priority row with nothing under a limit (PRIO marks the class
	 * here): a high command goes first only when it positions within
	 * hc570's 20 % of the best normal one — the oracle checks every choice.
	 */
	CHECK(disk_model_load("hc570", &m, &e) == 0);
	m.prio_policy = plugin_find(&fwq_prio_policies, "cdl");
	run(&m, 32, 4, 20000, &w);
	CHECK_MSG(w.high_normal_picks > 100 && w.high_high_picks > 100,
		  "cdl: %llu normal and %llu high picks while high commands waited",
		  (unsigned long long)w.high_normal_picks, (unsigned long long)w.high_high_picks);

	/*
	 * Sequential streams at QD32, a quarter of the commands high priority:
	 * continuations only when the rule allows, every other choice the plain
	 * rule's, strict priority kept. Reads, then writes through the cache
	 * (coalesced; destages continue each other), then writes without it.
	 */
	m = he8;
	m.prio_policy = plugin_find(&fwq_prio_policies, "strict");
	run_seq(&m, 32, 4, 20000, false, true, &w);
	CHECK_MSG(w.streams > 1000, "%llu continuations", (unsigned long long)w.streams);
	CHECK(w.high_waiting_picks > 100);
	CHECK_EQ_INT(w.bad_strict, 0);
	m.write_cache = true;
	run_seq(&m, 32, 4, 20000, true, true, &w);
	/* 80 MB in 8 MiB ranges: after the first, each destage continues the last. */
	CHECK_MSG(w.streams >= 9 && w.picks <= 2, "%llu continuations, %llu choices",
		  (unsigned long long)w.streams, (unsigned long long)w.picks);
	m.write_cache = false;
	run_seq(&m, 32, 4, 20000, true, true, &w);
	CHECK_MSG(w.streams > 1000, "%llu continuations", (unsigned long long)w.streams);
	CHECK_EQ_INT(w.bad_strict, 0);
	/* PRIO ignored: high commands do not stop a continuation. */
	m.prio_policy = plugin_find(&fwq_prio_policies, "ignore");
	run_seq(&m, 32, 4, 20000, false, true, &w);
	CHECK_MSG(w.streams > 15000, "%llu continuations", (unsigned long long)w.streams);

	/* fifo: arrival order, and no continuation without a choice. */
	m = he8;
	m.fw_sched = plugin_find(&fwq_policies, "fifo");
	run(&m, 32, 0, 5000, &w);
	CHECK_EQ_INT(w.bad_fifo, 0);
	run_seq(&m, 32, 0, 5000, false, true, &w);
	CHECK_EQ_INT(w.bad_fifo, 0);
	CHECK_EQ_U64(w.streams, 0);

	/* strict: a quarter of the commands high priority. */
	m = he8;
	m.prio_policy = plugin_find(&fwq_prio_policies, "strict");
	run(&m, 32, 4, 20000, &w);
	CHECK(w.high_waiting_picks > 1000);
	CHECK_EQ_INT(w.bad_strict, 0);

	/* soft: a normal command goes first only when it saves the margin. */
	m = he8;
	m.prio_policy = plugin_find(&fwq_prio_policies, "soft");
	run(&m, 32, 4, 20000, &w);
	CHECK(w.soft_normals > 100);
	CHECK_EQ_INT(w.bad_soft, 0);

	/* ignore: PRIO makes no difference to the choice. */
	m = he8;
	m.prio_policy = plugin_find(&fwq_prio_policies, "ignore");
	run(&m, 32, 4, 5000, &w);
	CHECK_EQ_INT(w.bad_ignore, 0);

	/*
	 * Aging: a limit short enough to bite, long enough that aged commands
	 * do not pile up (at most one crosses the limit per service time; with a
	 * limit in the body of the wait distribution they queue among
	 * themselves, oldest first, and the bound cannot hold — docs/DRIVES.md).
	 */
	m = he8;
	m.age_limit = 1000LL * 1000000;
	run(&m, 32, 0, 50000, &w);
	CHECK_MSG(w.aged >= 10, "only %llu aged picks", (unsigned long long)w.aged);
	CHECK_MSG(w.max_wait <= m.age_limit + w.max_service,
		  "max wait %.1f ms > age_limit %.0f ms + service %.1f ms", w.max_wait / 1e6,
		  m.age_limit / 1e6, w.max_service / 1e6);
	/* The default limit too, under strict priority and a mixed load. */
	m = he8;
	run(&m, 32, 8, 30000, &w);
	CHECK_MSG(w.max_wait <= m.age_limit + w.max_service,
		  "max wait %.1f ms > age_limit %.0f ms + service %.1f ms", w.max_wait / 1e6,
		  m.age_limit / 1e6, w.max_service / 1e6);
	return test_done();
}
