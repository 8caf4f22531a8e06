#include "disk/fwq.h"

#include "disk/model.h"

#include <string.h>

static int64_t satf_cost(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	return fwq_positioning_ns(ctx, c);
}

static int64_t fifo_cost(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	(void)ctx;
	return c->arrival;
}

static inline bool offer(struct fwq_best *b, const struct fwq_cmd *const *cands, unsigned i,
			 int64_t cost)
{
	if (b->any && !fwq_better(cost, cands[i], b->cost, cands[b->index]))
		return false;
	b->cost = cost;
	b->index = i;
	b->any = true;
	return true;
}

const char *fwq_reason_name(const struct fwq_rules *r, enum fwq_reason reason)
{
	switch (reason) {
	case FWQ_PICK_AGED:
		return "aged";
	case FWQ_PICK_PRIO:
		return "priority";
	case FWQ_PICK_SOFT_NORMAL:
		return "soft: faster normal";
	case FWQ_PICK_STREAM:
		return "stream";
	case FWQ_PICK_POLICY:
		break;
	}
	return r->ops->plugin.name;
}

unsigned fwq_decide(const struct fwq_rules *r, const struct fwq_queue *q, int64_t now,
		    const struct fwq_best *high, const struct fwq_best *norm,
		    enum fwq_reason *reason)
{
	const struct fwq_cmd *const *cands = q->cands;
	unsigned i;

	if (q->oldest && now - q->oldest->arrival >= r->age_limit) {
		/* Rare (it takes seconds of waiting): find where the oldest is. */
		for (i = 0; cands[i] != q->oldest; i++)
			;
		*reason = FWQ_PICK_AGED;
		return i;
	}
	if (high->any)
		return r->prio->choose(r, q, high, norm, reason);
	*reason = FWQ_PICK_POLICY;
	return norm->index;
}

/* strict: the best high-priority command, always. */
static unsigned strict_choose(const struct fwq_rules *r, const struct fwq_queue *q,
			      const struct fwq_best *high, const struct fwq_best *norm,
			      enum fwq_reason *reason)
{
	(void)r;
	/* Whether priority changed the choice: would the base policy have taken it? */
	*reason = !norm->any || fwq_better(high->cost, q->cands[high->index], norm->cost,
					   q->cands[norm->index]) ? FWQ_PICK_POLICY : FWQ_PICK_PRIO;
	return high->index;
}

/* soft: the best normal command when it positions more than soft_margin faster. */
static unsigned soft_choose(const struct fwq_rules *r, const struct fwq_queue *q,
			    const struct fwq_best *high, const struct fwq_best *norm,
			    enum fwq_reason *reason)
{
	if (norm->any && norm->cost + r->soft_margin < high->cost) {
		*reason = FWQ_PICK_SOFT_NORMAL;
		return norm->index;
	}
	return strict_choose(r, q, high, norm, reason);
}

static const struct fwq_prio_ops prio_strict = {
	{ "strict", "a high-priority command always goes next", NULL }, true, strict_choose,
};
static const struct fwq_prio_ops prio_soft = {
	{ "soft", "high priority preferred unless a normal command saves more than prio_soft_margin",
	  NULL }, true, soft_choose,
};
/* Never asked to choose: with honours false no command counts as high. */
static const struct fwq_prio_ops prio_ignore = {
	{ "ignore", "PRIO is not honoured", NULL }, false, strict_choose,
};

/*
 * cdl: Command Duration Limits (the drive uses it while CDL is enabled; the
 * "high" class is then the commands under a duration limit, and PRIO is not
 * honoured — enabling CDL turns off the high-priority enhancement).
 *
 * A command under a limit becomes urgent once waiting any longer could
 * break it: when the best command by the base policy, started now, would
 * start it past fwq_cmd.cdl_start_by — its guideline less its reserve (a
 * full-stroke seek, one revolution and its own transfer: the most its own
 * access can take), or its max inactive time (disk.c sets it). Urgent
 * commands go first, the earliest cdl_start_by first. Until then one goes
 * first only when it positions within perf-vs-duration-guideline of the
 * best normal command (20 % lets it win at up to 1.2 times the best
 * positioning time): the share of throughput the descriptor page lets the
 * drive give up.
 */
static unsigned cdl_choose(const struct fwq_rules *r, const struct fwq_queue *q,
			   const struct fwq_best *high, const struct fwq_best *norm,
			   enum fwq_reason *reason)
{
	int64_t best = norm->any && norm->cost < high->cost ? norm->cost : high->cost;
	unsigned i, urgent = UINT32_MAX;

	for (i = 0; i < q->n; i++) {
		const struct fwq_cmd *c = q->cands[i];

		if (!c->high || q->now + best < c->cdl_start_by)
			continue;
		if (urgent == UINT32_MAX || c->cdl_start_by < q->cands[urgent]->cdl_start_by ||
		    (c->cdl_start_by == q->cands[urgent]->cdl_start_by &&
		     fwq_older(c, q->cands[urgent])))
			urgent = i;
	}
	if (urgent != UINT32_MAX) {
		*reason = FWQ_PICK_PRIO;
		return urgent;
	}
	if (norm->any && (__int128)high->cost * 1000 >
	    (__int128)norm->cost * (1000 + r->cdl_perf_permille)) {
		*reason = FWQ_PICK_POLICY;
		return norm->index;
	}
	return strict_choose(r, q, high, norm, reason);
}

static const struct fwq_prio_ops prio_cdl = {
	{ "cdl", "Command Duration Limits: a command near its limit first, else within "
	  "perf-vs-duration-guideline of the best", NULL }, true, cdl_choose,
};

static const struct plugin *const builtin_prio_policies[] = {
	&prio_strict.plugin, &prio_soft.plugin, &prio_ignore.plugin, &prio_cdl.plugin, NULL,
};

struct plugin_registry fwq_prio_policies = {
	"priority policy", builtin_prio_policies, { NULL }, 0,
};

/* Any policy: price every candidate. */
static unsigned pick_all(const struct fwq_rules *r, const struct fwq_ctx *ctx,
			 const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	bool honour = r->prio->honours;
	struct fwq_best high = { 0, 0, false }, norm = { 0, 0, false };
	unsigned i;

	for (i = 0; i < q->n; i++)
		offer(honour && q->cands[i]->high ? &high : &norm, q->cands, i,
		      r->ops->cost(ctx, q->cands[i]));
	return fwq_decide(r, q, now, &high, &norm, reason);
}

/*
 * Where a command's floors come from: its seek distance's entry in the
 * floor tables (mech.h). The seek floor: no positioning to it takes less.
 */
static inline unsigned floor_entry(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	uint32_t d = c->where.cyl > ctx->head.cyl ? c->where.cyl - ctx->head.cyl :
		ctx->head.cyl - c->where.cyl;

	return d >> ctx->mech->seek_floor_shift;
}

static inline int64_t floor_of(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	return ctx->mech->seek_floor[floor_entry(ctx, c)];
}

/*
 * A lower bound on a command's positioning time from its seek floor
 * f = seek_floor[k]. The time is g(move + guard) with g(x) = x + ((A − x)
 * mod rev), A the target's angle relative to the head's at the start, and
 * guard the effective rpo_guard when the head seeks (fwq_positioning_ns;
 * mech.h: a guard past a revolution costs one). g never decreases, and
 * move >= f, so g(f + guard) is the bound; with (f + guard) mod rev
 * tabulated (seek_floor_turn) it takes two corrections by one revolution
 * and no division. The same cylinder (no seek, no guard) is left to the
 * full price: its bound is 0.
 */
static inline int64_t rotational_floor(const struct fwq_ctx *ctx, const struct fwq_cmd *c,
				       unsigned k)
{
	const struct disk_mech *mc = ctx->mech;
	int64_t rev = mc->layout->rev_ns;
	int64_t ahead = c->where.angle - ctx->phase, w;

	if (c->where.cyl == ctx->head.cyl)
		return 0;
	/* Both in [0, rev): each difference is within one revolution of its residue. */
	ahead += rev & -(int64_t)(ahead < 0);
	w = ahead - mc->seek_floor_turn[k];
	w += rev & -(int64_t)(w < 0);
	return mc->seek_floor[k] + mc->guard_eff + w;
}

struct satf_walk {
	const struct fwq_ctx *ctx;
	const struct fwq_cmd *const *cands;
	bool honour, batched;
	uint32_t batch_end;		/* batched: a normal command from seq batch_end on waits */
	unsigned has_high, has_norm;	/* commands in each class */
	struct fwq_best high, norm;
	int64_t limit;			/* no command with a larger floor can win */
};

/*
 * Walking away from the head, floors only grow: once a floor exceeds the
 * best cost of every class that has commands, nothing further can win. A
 * class with commands none of which is priced yet keeps the walk going.
 */
static inline void walk_update_limit(struct satf_walk *w)
{
	int64_t h = !w->has_high ? INT64_MIN : w->high.any ? w->high.cost : INT64_MAX;
	int64_t n = !w->has_norm ? INT64_MIN : w->norm.any ? w->norm.cost : INT64_MAX;

	w->limit = h > n ? h : n;
}

/* Price candidate i if its floors leave it a chance in its class; false once past the limit. */
static inline __attribute__((always_inline)) bool walk_step(struct satf_walk *w, unsigned i)
{
	const struct fwq_cmd *c = w->cands[i];
	struct fwq_best *b = w->honour && c->high ? &w->high : &w->norm;
	unsigned k = floor_entry(w->ctx, c);
	int64_t f = w->ctx->mech->seek_floor[k];

	if (f > w->limit)
		return false;
	if (w->batched && b == &w->norm && c->seq >= w->batch_end)
		return true;
	if (f <= b->cost && rotational_floor(w->ctx, c, k) <= b->cost &&
	    offer(b, w->cands, i, fwq_positioning_ns(w->ctx, c)))
		walk_update_limit(w);
	return true;
}

/*
 * The walk when one class competes (no high-priority command is told
 * apart): one best, so the limit is its cost. The common case — every
 * choice without PRIO — so what every candidate needs is held in locals
 * (struct one_walk, kept in registers once inlined) and a candidate that
 * passes its floors is priced from its rotational floor: the positioning
 * time g(move + guard) is that floor when the exact seek still makes the
 * same pass of the sector (rotational_floor: g(f + guard) >= move + guard),
 * and otherwise the first pass after move + guard.
 */
struct one_walk {
	const struct fwq_ctx *ctx;
	const struct fwq_cmd *const *cands;
	const int64_t *floor, *turn;
	int64_t phase, rev, guard;
	uint32_t cyl;			/* the head's */
	unsigned shift;
	uint32_t batch_end;
	struct fwq_best best;
};

/*
 * Candidate i, d cylinders from the head: false once its seek floor is past
 * the best cost. `batched` is a constant at each call: plain SATF has no
 * batch test.
 */
static inline __attribute__((always_inline)) bool one_step(struct one_walk *w, unsigned i,
							   uint32_t d, bool batched)
{
	const struct fwq_cmd *c = w->cands[i];
	unsigned k = d >> w->shift;
	int64_t ahead, at, cost;

	if (w->floor[k] > w->best.cost)
		return false;
	if (batched && c->seq >= w->batch_end)
		return true;
	if (!d) {
		cost = fwq_positioning_ns(w->ctx, c);	/* no seek: no floor, no guard */
	} else {
		const struct disk_seek_curve *s;
		int64_t move, earliest;

		/* The rotational floor (rotational_floor()). */
		ahead = c->where.angle - w->phase;
		ahead += w->rev & -(int64_t)(ahead < 0);
		at = ahead - w->turn[k];
		at += w->rev & -(int64_t)(at < 0);
		cost = w->floor[k] + w->guard + at;
		if (cost > w->best.cost)
			return true;
		/* The seek as fwq_positioning_ns() times it, then the first pass after it. */
		s = c->write ? &w->ctx->mech->write : &w->ctx->mech->read;
		move = d <= s->d0_floor ? (int64_t)(s->a + s->b * __builtin_sqrt((double)d)) :
			(int64_t)(s->c + s->e * (double)d);
		earliest = move + w->guard;
		if (cost < earliest)
			cost = earliest + fwq_mod_rev(w->ctx, cost - earliest);
	}
	if (cost < w->best.cost || (cost == w->best.cost && fwq_older(c, w->cands[w->best.index]))) {
		w->best.cost = cost;
		w->best.index = i;
		w->best.any = true;
	}
	return true;
}

/*
 * The sorted candidates in order of distance from the head, merging the
 * two sides: the nearer first, so the walk stops at the first floor past
 * the best (floors never fall with distance), on both sides at once.
 * UINT32_MAX marks a side that has run out (no cylinder is that far).
 */
static inline __attribute__((always_inline)) void one_walk_sorted(struct one_walk *w,
								  const struct fwq_queue *q,
								  unsigned lo, bool batched)
{
	const struct fwq_cmd *const *cands = q->cands;
	unsigned right = lo, left = lo, n = q->nsorted;
	uint32_t cyl = w->cyl;
	uint32_t dr = right < n ? cands[right]->where.cyl - cyl : UINT32_MAX;
	uint32_t dl = left > 0 ? cyl - cands[left - 1]->where.cyl : UINT32_MAX;

	for (;;) {
		if (dr <= dl) {
			if (dr == UINT32_MAX || !one_step(w, right, dr, batched))
				return;
			right++;
			dr = right < n ? cands[right]->where.cyl - cyl : UINT32_MAX;
		} else {
			if (!one_step(w, left - 1, dl, batched))
				return;
			left--;
			dl = left > 0 ? cyl - cands[left - 1]->where.cyl : UINT32_MAX;
		}
	}
}

/*
 * The first sorted candidate at or beyond the head's cylinder, searched
 * from q->near: usually a comparison each way.
 */
static inline unsigned walk_start(const struct fwq_ctx *ctx, const struct fwq_queue *q)
{
	unsigned lo = q->near < q->nsorted ? q->near : q->nsorted;
	uint32_t cyl = ctx->head.cyl;

	while (lo > 0 && q->cands[lo - 1]->where.cyl >= cyl)
		lo--;
	while (lo < q->nsorted && q->cands[lo]->where.cyl < cyl)
		lo++;
	return lo;
}

/*
 * SATF, pricing only the commands that could win — the same choice as
 * pricing them all (test/t_disk_queue.c checks every pick against a plain
 * implementation; the choice does not depend on the order of pricing,
 * the tie-breaks being a total order). A command's positioning time is at
 * least the seek floor of its distance (mech.h). The sorted candidates are
 * walked from the head's cylinder outwards, on each side stopping where the
 * floor passes every class's best cost — with one class, nearest first
 * across both sides (one_walk_sorted); on the seed's 30-deep random queue
 * that visits about 8, works out the rotational floor of 7 and prices 2.
 */
static inline __attribute__((always_inline)) unsigned satf_walk_pick(const struct fwq_rules *r,
								     const struct fwq_ctx *ctx,
								     const struct fwq_queue *q,
								     int64_t now, bool batched,
								     enum fwq_reason *reason)
{
	uint32_t batch_end = q->batch_end;
	bool honour = r->prio->honours;
	unsigned i, lo = walk_start(ctx, q);
	struct satf_walk w;

	if (!honour || !q->nhigh) {
		const struct disk_mech *mc = ctx->mech;
		struct fwq_best none = { INT64_MAX, 0, false };
		struct one_walk o = {
			.ctx = ctx, .cands = q->cands, .floor = mc->seek_floor,
			.turn = mc->seek_floor_turn, .phase = ctx->phase, .rev = mc->layout->rev_ns,
			.guard = mc->guard_eff, .cyl = ctx->head.cyl, .shift = mc->seek_floor_shift,
			.batch_end = batch_end, .best = { INT64_MAX, 0, false },
		};

		if (batched)
			one_walk_sorted(&o, q, lo, true);
		else
			one_walk_sorted(&o, q, lo, false);
		/* Unsorted candidates (destages, never high): each on its own floor. */
		for (i = q->nsorted; i < q->n; i++) {
			if (batched && q->cands[i]->seq >= batch_end)
				continue;
			if (!o.best.any || floor_of(ctx, q->cands[i]) <= o.best.cost)
				offer(&o.best, q->cands, i, fwq_positioning_ns(ctx, q->cands[i]));
		}
		return fwq_decide(r, q, now, &none, &o.best, reason);
	}
	w = (struct satf_walk){
		.ctx = ctx, .cands = q->cands, .honour = honour, .batched = batched,
		.batch_end = batch_end,
		.high = { INT64_MAX, 0, false }, .norm = { INT64_MAX, 0, false },
	};
	w.has_high = q->nhigh;
	w.has_norm = q->n - w.has_high;
	walk_update_limit(&w);
	if (lo < q->nsorted)
		walk_step(&w, lo);
	if (lo > 0)
		walk_step(&w, lo - 1);
	for (i = lo + 1; i < q->nsorted && walk_step(&w, i); i++)
		;
	for (i = lo > 0 ? lo - 1 : 0; i-- > 0 && walk_step(&w, i);)
		;
	/* Unsorted candidates: each on its own floor. */
	for (i = q->nsorted; i < q->n; i++) {
		const struct fwq_cmd *c = q->cands[i];
		struct fwq_best *b = w.honour && c->high ? &w.high : &w.norm;

		if (batched && b == &w.norm && c->seq >= w.batch_end)
			continue;
		if (!b->any || floor_of(ctx, c) <= b->cost)
			offer(b, q->cands, i, fwq_positioning_ns(ctx, c));
	}
	return fwq_decide(r, q, now, &w.high, &w.norm, reason);
}

static unsigned pick_satf(const struct fwq_rules *r, const struct fwq_ctx *ctx,
			  const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	return satf_walk_pick(r, ctx, q, now, false, reason);
}

/* satf_batch: the same walk, passing over normal commands of a later batch. */
static unsigned pick_satf_batch(const struct fwq_rules *r, const struct fwq_ctx *ctx,
				const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	return satf_walk_pick(r, ctx, q, now, true, reason);
}

static const struct fwq_policy_ops policy_fifo = {
	{ "fifo", "commands in arrival order", NULL }, fifo_cost, pick_all, false, false,
};
static const struct fwq_policy_ops policy_satf = {
	{ "satf", "shortest access time first: least seek + rotational latency", NULL },
	satf_cost, pick_satf, true, false,
};
static const struct fwq_policy_ops policy_satf_batch = {
	{ "satf_batch", "satf within batches: the commands waiting when a batch begins go before "
	  "later ones", NULL }, satf_cost, pick_satf_batch, true, true,
};

static const struct plugin *const builtin_policies[] = {
	&policy_fifo.plugin, &policy_satf.plugin, &policy_satf_batch.plugin, NULL,
};

struct plugin_registry fwq_policies = { "firmware policy", builtin_policies, { NULL }, 0 };
