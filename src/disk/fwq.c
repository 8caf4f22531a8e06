#include "disk/fwq.h"

#include "disk/model.h"

#include <string.h>

void fwq_ctx_init(struct fwq_ctx *ctx, const struct disk_mech *mech, int64_t start,
		  struct disk_head head)
{
	ctx->mech = mech;
	ctx->start = start;
	ctx->rev = mech->layout->rev_ns;
	ctx->phase = start % ctx->rev;
	ctx->inv_rev = 1.0 / (double)ctx->rev;
	ctx->head = head;
}

static int64_t satf_cost(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	return fwq_positioning_ns(ctx, c);
}

static int64_t fifo_cost(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	(void)ctx;
	return c->arrival;
}

static const struct fwq_policy_ops policies[] = {
	{ "fifo", fifo_cost },
	{ "satf", satf_cost },
};

const struct fwq_policy_ops *fwq_policy_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (!strcmp(policies[i].name, name))
			return &policies[i];
	return NULL;
}

const struct fwq_policy_ops *fwq_policy_by_model(int fw_sched)
{
	return fw_sched == DISK_FW_FIFO ? &policies[0] : &policies[1];
}

/*
 * a goes before b: lower cost, then older, then lower tag. Computed with '&'
 * and '|' on whole comparisons: the picks below run this for every
 * candidate, and the outcomes are too random for branches.
 */
static inline bool better(int64_t ca, const struct fwq_cmd *a, int64_t cb, const struct fwq_cmd *b)
{
	return (ca < cb) | ((ca == cb) & ((a->arrival < b->arrival) |
					  ((a->arrival == b->arrival) & (a->tag < b->tag))));
}

static inline __attribute__((always_inline)) unsigned
pick(const struct fwq_rules *r, const struct fwq_ctx *ctx, const struct fwq_cmd *const *cands,
     unsigned n, int64_t now, enum fwq_reason *reason,
     int64_t (*cost_of)(const struct fwq_ctx *, const struct fwq_cmd *))
{
	bool honour = r->prio_policy != DISK_PRIO_IGNORE, any_high = false, any_norm = false;
	unsigned i, oldest = 0, best, best_high = 0, best_norm = 0;
	int64_t cost_high = INT64_MAX, cost_norm = INT64_MAX, costs[FWQ_SLOTS + FWQ_DESTAGE_WINDOW];

	/* Price everything first: a loop with no branches on the results pipelines well. */
	for (i = 0; i < n; i++)
		costs[i] = cost_of(ctx, cands[i]);
	/*
	 * Then the oldest, the best high-priority and the best normal command,
	 * each a running minimum kept with selects. The first candidate of a
	 * class always wins against the INT64_MAX it starts from, since costs
	 * are below it (positioning times, arrival times).
	 */
	for (i = 0; i < n; i++) {
		const struct fwq_cmd *c = cands[i], *o = cands[oldest];
		int64_t cost = costs[i];
		bool high = honour & c->high;
		bool take_high = high & better(cost, c, cost_high, cands[best_high]);
		bool take_norm = !high & better(cost, c, cost_norm, cands[best_norm]);
		bool older = (c->arrival < o->arrival) | ((c->arrival == o->arrival) & (c->tag < o->tag));

		oldest = older ? i : oldest;
		best_high = take_high ? i : best_high;
		cost_high = take_high ? cost : cost_high;
		best_norm = take_norm ? i : best_norm;
		cost_norm = take_norm ? cost : cost_norm;
		any_high |= high;
		any_norm |= !high;
	}
	if (!any_high)
		best = best_norm;
	else if (!any_norm)
		best = best_high;
	else
		best = better(cost_high, cands[best_high], cost_norm, cands[best_norm]) ? best_high :
			best_norm;
	if (now - cands[oldest]->arrival >= r->age_limit) {
		*reason = FWQ_PICK_AGED;
		return oldest;
	}
	if (any_high) {
		if (r->prio_policy == DISK_PRIO_SOFT && any_norm &&
		    fwq_positioning_ns(ctx, cands[best_norm]) + r->soft_margin <
		    fwq_positioning_ns(ctx, cands[best_high])) {
			*reason = FWQ_PICK_SOFT_NORMAL;
			return best_norm;
		}
		*reason = best_high == best ? FWQ_PICK_POLICY : FWQ_PICK_PRIO;
		return best_high;
	}
	*reason = FWQ_PICK_POLICY;
	return best;
}

/* The best of one class (high or normal priority) so far. */
struct running_best {
	int64_t cost;
	unsigned index;
	bool any;
};

static inline void consider(struct running_best *b, const struct fwq_ctx *ctx,
			    const struct fwq_cmd *const *cands, unsigned i)
{
	int64_t cost = fwq_positioning_ns(ctx, cands[i]);

	if (!b->any || better(cost, cands[i], b->cost, cands[b->index])) {
		b->cost = cost;
		b->index = i;
		b->any = true;
	}
}

/*
 * SATF with pruning: the same choice as pick() with satf_cost, pricing only
 * the commands that could win. A command's positioning time is at least the
 * seek floor of its distance (mech.h), so one whose floor exceeds the best
 * cost found so far in its class can neither win nor tie. Pricing the
 * nearest command of each class first makes that bound tight early; on a
 * 32-deep random queue about a third of the commands get priced.
 */
static unsigned pick_satf(const struct fwq_rules *r, const struct fwq_ctx *ctx,
			  const struct fwq_cmd *const *cands, unsigned n, int64_t now,
			  enum fwq_reason *reason)
{
	const struct disk_mech *mc = ctx->mech;
	bool honour = r->prio_policy != DISK_PRIO_IGNORE;
	struct running_best high = { INT64_MAX, 0, false }, norm = { INT64_MAX, 0, false };
	int64_t floor[FWQ_SLOTS + FWQ_DESTAGE_WINDOW], near_high = INT64_MAX, near_norm = INT64_MAX;
	unsigned i, oldest = 0, seed_high = 0, seed_norm = 0, best;
	bool is_high[FWQ_SLOTS + FWQ_DESTAGE_WINDOW];

	int64_t oldest_arrival = INT64_MAX;
	unsigned oldest_tag = UINT32_MAX;

	/* First pass: floors, the oldest, the nearest of each class — with selects, not branches. */
	for (i = 0; i < n; i++) {
		const struct fwq_cmd *c = cands[i];
		uint32_t d = c->where.cyl > ctx->head.cyl ? c->where.cyl - ctx->head.cyl :
			ctx->head.cyl - c->where.cyl;
		int64_t f = mc->seek_floor[d >> mc->seek_floor_shift];
		bool h = honour & c->high;
		bool older = (c->arrival < oldest_arrival) |
			((c->arrival == oldest_arrival) & (c->tag < oldest_tag));
		bool nearer_high = h & (f < near_high), nearer_norm = !h & (f < near_norm);

		floor[i] = f;
		is_high[i] = h;
		oldest = older ? i : oldest;
		oldest_arrival = older ? c->arrival : oldest_arrival;
		oldest_tag = older ? c->tag : oldest_tag;
		seed_high = nearer_high ? i : seed_high;
		near_high = nearer_high ? f : near_high;
		seed_norm = nearer_norm ? i : seed_norm;
		near_norm = nearer_norm ? f : near_norm;
	}
	if (near_high != INT64_MAX)
		consider(&high, ctx, cands, seed_high);
	if (near_norm != INT64_MAX)
		consider(&norm, ctx, cands, seed_norm);
	for (i = 0; i < n; i++) {
		struct running_best *b = is_high[i] ? &high : &norm;

		if (floor[i] <= b->cost && i != b->index)
			consider(b, ctx, cands, i);
	}
	if (!high.any)
		best = norm.index;
	else if (!norm.any)
		best = high.index;
	else
		best = better(high.cost, cands[high.index], norm.cost, cands[norm.index]) ?
			high.index : norm.index;
	if (now - cands[oldest]->arrival >= r->age_limit) {
		*reason = FWQ_PICK_AGED;
		return oldest;
	}
	if (high.any) {
		if (r->prio_policy == DISK_PRIO_SOFT && norm.any &&
		    norm.cost + r->soft_margin < high.cost) {
			*reason = FWQ_PICK_SOFT_NORMAL;
			return norm.index;
		}
		*reason = high.index == best ? FWQ_PICK_POLICY : FWQ_PICK_PRIO;
		return high.index;
	}
	*reason = FWQ_PICK_POLICY;
	return best;
}

unsigned fwq_pick(const struct fwq_rules *r, const struct fwq_ctx *ctx,
		  const struct fwq_cmd *const *cands, unsigned n, int64_t now,
		  enum fwq_reason *reason)
{
	if (r->ops->cost == satf_cost)
		return pick_satf(r, ctx, cands, n, now, reason);
	return pick(r, ctx, cands, n, now, reason, r->ops->cost);
}
