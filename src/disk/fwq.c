#include "disk/fwq.h"

#include "disk/model.h"

#include <string.h>

int64_t fwq_positioning_ns(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	int64_t move = disk_mech_move_ns(ctx->mech, &ctx->head, c->where.cyl, c->where.head,
					 c->write);

	return move + disk_mech_target_wait(ctx->mech, ctx->start + move, c->where.angle,
					    c->where.cyl != ctx->head.cyl ||
					    c->where.head != ctx->head.head);
}

static int64_t fifo_cost(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	(void)ctx;
	return c->arrival;
}

static const struct fwq_policy_ops policies[] = {
	{ "fifo", fifo_cost },
	{ "satf", fwq_positioning_ns },
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

/* a goes before b: lower cost, then older, then lower tag. */
static bool better(int64_t ca, const struct fwq_cmd *a, int64_t cb, const struct fwq_cmd *b)
{
	if (ca != cb)
		return ca < cb;
	if (a->arrival != b->arrival)
		return a->arrival < b->arrival;
	return a->tag < b->tag;
}

unsigned fwq_pick(const struct fwq_rules *r, const struct fwq_ctx *ctx,
		  const struct fwq_cmd *const *cands, unsigned n, int64_t now,
		  enum fwq_reason *reason)
{
	int honour = r->prio_policy != DISK_PRIO_IGNORE;
	unsigned i, oldest = 0, best = UINT32_MAX, best_high = UINT32_MAX, best_norm = UINT32_MAX;
	int64_t cost_best = 0, cost_high = 0, cost_norm = 0;

	for (i = 0; i < n; i++) {
		const struct fwq_cmd *c = cands[i];
		int64_t cost = r->ops->cost(ctx, c);

		if (c->arrival < cands[oldest]->arrival ||
		    (c->arrival == cands[oldest]->arrival && c->tag < cands[oldest]->tag))
			oldest = i;
		if (best == UINT32_MAX || better(cost, c, cost_best, cands[best])) {
			best = i;
			cost_best = cost;
		}
		if (honour && c->high) {
			if (best_high == UINT32_MAX || better(cost, c, cost_high, cands[best_high])) {
				best_high = i;
				cost_high = cost;
			}
		} else if (best_norm == UINT32_MAX || better(cost, c, cost_norm, cands[best_norm])) {
			best_norm = i;
			cost_norm = cost;
		}
	}
	if (now - cands[oldest]->arrival >= r->age_limit) {
		*reason = FWQ_PICK_AGED;
		return oldest;
	}
	if (best_high != UINT32_MAX) {
		if (r->prio_policy == DISK_PRIO_SOFT && best_norm != UINT32_MAX &&
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
