#include "disk/fwq.h"

#include "disk/model.h"
#include "sim/sim.h"

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

void fwq_set_init(struct fwq_set *s, const struct disk_mech *mech)
{
	uint32_t cylinders = mech->layout->cylinders, max = cylinders ? cylinders - 1 : 0;
	int64_t beyond;
	unsigned q;

	/* The sentinels' cylinders fit in cyl[] and their distances index fwq_floors.guarded. */
	SIM_ASSERT(cylinders <= FWQ_MAX_CYLINDERS, "%u cylinders", cylinders);
	SIM_ASSERT(max >> mech->seek_floor_shift < DISK_SEEK_FLOOR_ENTRIES, "%u cylinders, shift %u",
		   cylinders, mech->seek_floor_shift);
	s->n = 0;
	/* max >> floor_shift < DISK_SEEK_FLOOR_ENTRIES: max >> band_shift < FWQ_BANDS. */
	s->band_shift = mech->seek_floor_shift + FWQ_BAND_ENTRIES_LOG2;
	s->occupied = 0;
	/*
	 * From any head h in [0, max] the sentinels are beyond + h (left) and
	 * beyond + max - h (right) away: at least `beyond`, past the stroke,
	 * and their floor entry in [DISK_SEEK_FLOOR_ENTRIES, 2 x).
	 */
	s->floor_shift = mech->seek_floor_shift;
	s->rev = mech->layout->rev_ns;
	beyond = (int64_t)DISK_SEEK_FLOOR_ENTRIES << s->floor_shift;
	SIM_ASSERT(beyond + max <= INT32_MAX, "%u cylinders", cylinders);
	s->sentinel_d = beyond;
	s->cyl[FWQ_LEFT] = (int32_t)-beyond;
	s->cyl[FWQ_RIGHT] = (int32_t)(beyond + max);
	/* Below 2^31 times 2^32: no overflow. */
	s->scale = (int64_t)1 << (32 - s->floor_shift);
	s->scaled[FWQ_LEFT] = s->cyl[FWQ_LEFT] * s->scale;
	s->scaled[FWQ_RIGHT] = s->cyl[FWQ_RIGHT] * s->scale;
	/*
	 * one_walk()'s best starts at the left sentinel, whose pos[] is then
	 * its index when it prices nothing (no cost ties FWQ_NO_COST, so its
	 * cmd[] is never compared).
	 */
	s->pos[FWQ_LEFT] = 0;
	s->cmd[FWQ_LEFT] = s->cmd[FWQ_RIGHT] = NULL;
	s->band[FWQ_RIGHT] = FWQ_NO_BAND;
	for (q = 0; q < DISK_SEEK_FLOOR_ENTRIES; q++) {
		s->floors.guarded[q] = mech->floors[q].guarded;
		s->floors.turn[q] = mech->floors[q].turn;
		s->floors.ceil_guarded[q] = mech->floors[q].ceil_guarded;
		s->floors.guarded[DISK_SEEK_FLOOR_ENTRIES + q] = INT64_MAX;
	}
	s->angle[FWQ_LEFT] = s->angle[FWQ_RIGHT] = 0;
	s->next[FWQ_LEFT] = FWQ_RIGHT;
	s->prev[FWQ_RIGHT] = FWQ_LEFT;
	s->prev[FWQ_LEFT] = FWQ_LEFT;
	s->next[FWQ_RIGHT] = FWQ_RIGHT;
	/* No head is on cylinder -1; the right sentinel is past it. */
	s->at_cyl = -1;
	s->at_node = FWQ_RIGHT;
}

/*
 * The SATF walk. A command d > 0 cylinders from the head positions in at
 * least f = seek_floor[d >> shift] plus the guard a seek pays (guard_eff:
 * fwq_positioning_ns, mech.h — a wait under rpo_guard gains a revolution,
 * so no seek positions in less than move + guard_eff). Its time is the
 * first pass of its sector at or after move + guard_eff, never before the
 * first pass at or after f + guard_eff: that pass is its rotational floor,
 * and with (f + guard_eff) mod rev tabulated (disk_mech.floors) it takes
 * two corrections by a revolution and no division. Floors never fall with
 * distance, so the walk takes the entries nearest first across both sides
 * and stops at the first whose floor is past every class's best.
 */

/* What one class's walk carries: in registers once inlined. */
struct one_best {
	int64_t cost;
	size_t slot;
};

/*
 * What every step of a walk reads, loaded once per choice: the loop then
 * keeps it in registers instead of loading it again at each node (the
 * compiler may not hoist a load past the loop's exits on its own).
 */
struct walk {
	const struct fwq_ctx *ctx;
	const struct fwq_set *s;
	int64_t cyl;		/* the head's, scaled (fwq_set.scaled) */
	int64_t phase, rev;
	uint32_t batch_end;
};

static inline __attribute__((always_inline)) void walk_init(struct walk *w,
							    const struct fwq_ctx *ctx,
							    const struct fwq_set *s,
							    uint32_t batch_end)
{
	w->ctx = ctx;
	w->s = s;
	w->cyl = (int64_t)ctx->head.cyl * s->scale;
	w->phase = ctx->phase;
	w->rev = s->rev;
	w->batch_end = batch_end;
}

/*
 * The exact positioning time of a command off the head's cylinder whose
 * rotational floor `floor_pass` the floor entry's longest seek may miss:
 * the seek, then the first pass after it (as fwq_positioning_ns() times
 * it). Out of line, its distance found again from the command: one choice
 * in three needs it, and inlined, or handed the distance, it would take
 * registers from the walk.
 */
static __attribute__((noinline)) int64_t after_seek(const struct fwq_ctx *ctx,
						    const struct fwq_cmd *c, int64_t floor_pass)
{
	const struct disk_mech *mc = ctx->mech;
	uint32_t d = c->where.cyl > ctx->head.cyl ? c->where.cyl - ctx->head.cyl :
		ctx->head.cyl - c->where.cyl;
	int64_t earliest = disk_mech_choice_seek_ns(c->write ? &mc->write : &mc->read, d) +
		mc->guard_eff;

	return floor_pass < earliest ? earliest + fwq_mod_rev(ctx, floor_pass - earliest) :
		floor_pass;
}

/*
 * The walk's start when the head is not where the last command to leave
 * was (its access ended on another cylinder, or it was a destage): out of
 * line, the seed's run never takes it.
 */
static __attribute__((noinline)) unsigned set_at_elsewhere(const struct fwq_set *s, int32_t cyl)
{
	return fwq_set_at(s, cyl);
}

/*
 * The first pass of node x's sector at or after its floor entry e's
 * guarded seek floor `guarded`: its rotational floor.
 */
static inline __attribute__((always_inline)) int64_t rotational_floor(const struct fwq_set *s,
								      size_t x, size_t e,
								      int64_t guarded,
								      int64_t phase, int64_t rev)
{
	int64_t cost = s->angle[x] - phase;

	if (cost < 0)
		cost += rev;
	cost -= s->floors.turn[e];
	if (cost < 0)
		cost += rev;
	return cost + guarded;
}

/*
 * One side of the head, nearest first from node x, every node of it at
 * least a cylinder from the head: to_right and batched are constants at
 * each call. Stops at the first seek floor past the best (the sentinel's
 * is: fwq_floors). Nodes are a word wide here: as index registers they
 * then need no widening copy at each step.
 */
static inline __attribute__((always_inline)) void one_side(const struct walk *w, size_t x,
							   bool to_right, bool batched,
							   struct one_best *b)
{
	const struct fwq_set *s = w->s;
	const struct fwq_floors *fl = &s->floors;
	int64_t head = w->cyl, phase = w->phase, rev = w->rev, best = b->cost;
	size_t best_slot = b->slot;

	/*
	 * x as an opaque value: otherwise gcc reads the second side's first
	 * floor before the first side's walk and keeps it on the stack across it.
	 */
	__asm__("" : "+r"(x));

	for (;; x = to_right ? s->next[x] : s->prev[x]) {
		int64_t d, cost, guarded;
		size_t e;	/* a word wide, as the nodes */

		/*
		 * Over the commands whose rotational floor is past the best (most
		 * of them): best does not change in this loop. Two steps a turn,
		 * so that a node and its successor alternate between two
		 * registers rather than being copied at each step.
		 */
		for (;;) {
			d = to_right ? s->scaled[x] - head : head - s->scaled[x];
			e = (uint64_t)d >> 32;
			guarded = fl->guarded[e];
			if (guarded > best)
				goto done;	/* nothing further can win, or the sentinel */
			cost = rotational_floor(s, x, e, guarded, phase, rev);
			if (cost <= best)
				break;
			x = to_right ? s->next[x] : s->prev[x];
			d = to_right ? s->scaled[x] - head : head - s->scaled[x];
			e = (uint64_t)d >> 32;
			guarded = fl->guarded[e];
			if (guarded > best)
				goto done;
			cost = rotational_floor(s, x, e, guarded, phase, rev);
			if (cost <= best)
				break;
			x = to_right ? s->next[x] : s->prev[x];
		}
		/* The command itself only where it is needed (most passes need none). */
		if (batched && s->cmd[x]->seq >= w->batch_end)
			continue;
		/*
		 * The floor's pass is the first after the seek when even the
		 * longest seek of the floor's distances makes it.
		 */
		if (fl->ceil_guarded[e] > cost)
			cost = after_seek(w->ctx, s->cmd[x], cost);
		if (cost < best || (cost == best && fwq_older(s->cmd[x], s->cmd[best_slot]))) {
			best = cost;
			best_slot = x;
		}
	}
done:
	b->cost = best;
	b->slot = best_slot;
}

/*
 * The commands on the head's cylinder, from node x on (no seek: no floor,
 * no guard), into b; returns the first node past them. Out of line: the
 * walk seldom meets one, and its calls would cost the walk registers.
 */
static __attribute__((noinline)) size_t walk_here(const struct fwq_ctx *ctx,
						  const struct fwq_set *s, size_t x,
						  uint32_t batch_end, bool batched,
						  struct one_best *b)
{
	for (; s->cyl[x] == (int32_t)ctx->head.cyl; x = s->next[x]) {
		const struct fwq_cmd *c = s->cmd[x];
		int64_t cost;

		if (batched && c->seq >= batch_end)
			continue;
		cost = fwq_positioning_ns(ctx, c);
		if (cost < b->cost || (cost == b->cost && fwq_older(c, s->cmd[b->slot]))) {
			b->cost = cost;
			b->slot = x;
		}
	}
	return x;
}

/*
 * One class competes (no high-priority command is told apart): the common
 * case — every choice without PRIO. The commands on the head's cylinder
 * first, then the side of the head's nearer neighbour, so that the other
 * starts with a good best. The best's slot starts at the left sentinel,
 * whose pos[] is 0: the index when nothing is priced.
 */
static inline __attribute__((always_inline)) bool one_walk(const struct fwq_ctx *ctx,
							   const struct fwq_set *s,
							   uint32_t batch_end, bool batched,
							   struct fwq_best *out)
{
	struct walk w;
	int32_t here = (int32_t)ctx->head.cyl;
	size_t right, left;
	struct one_best b = { FWQ_NO_COST, FWQ_LEFT };

	/* What the walk reads from ctx first: ctx then need not outlive a call. */
	walk_init(&w, ctx, s, batch_end);
	right = here == s->at_cyl ? fwq_set_at_last(s) : set_at_elsewhere(s, here);
	left = s->prev[right];
	if (s->scaled[right] == w.cyl) {
		/* Through a copy: b itself stays in registers. */
		struct one_best h = b;

		right = walk_here(ctx, s, right, batch_end, batched, &h);
		b = h;
	}
	if (s->scaled[right] - w.cyl <= w.cyl - s->scaled[left]) {
		one_side(&w, right, true, batched, &b);
		one_side(&w, left, false, batched, &b);
	} else {
		one_side(&w, left, false, batched, &b);
		one_side(&w, right, true, batched, &b);
	}
	out->any = b.cost != FWQ_NO_COST;
	out->cost = out->any ? b.cost : INT64_MAX;
	out->index = s->pos[b.slot];
	return out->any;
}

/*
 * Both classes compete: a best for each, and the walk goes on while a
 * class with commands has none priced yet.
 */
static void two_walk(const struct fwq_ctx *ctx, const struct fwq_set *s, unsigned nhigh,
		     uint32_t batch_end, bool batched, struct fwq_best best[2])
{
	const struct disk_mech *mc = ctx->mech;
	int64_t cyl = ctx->head.cyl, maxd = s->sentinel_d, limit, cost[2] = { INT64_MAX, INT64_MAX };
	unsigned right = fwq_set_at(s, (int32_t)cyl), left = s->prev[right], slot[2] = { 0, 0 }, k;
	int64_t dr = s->cyl[right] - cyl, dl = cyl - s->cyl[left];
	bool has[2] = { s->n > nhigh, nhigh > 0 };

	limit = INT64_MAX;
	for (;;) {
		const struct fwq_cmd *c;
		unsigned cls, x;
		int64_t d, price, h, n;

		if (dr <= dl) {
			if ((d = dr) >= maxd)
				break;
			x = right;
			right = s->next[right];
			dr = s->cyl[right] - cyl;
		} else {
			if ((d = dl) >= maxd)
				break;
			x = left;
			left = s->prev[left];
			dl = cyl - s->cyl[left];
		}
		if (d && mc->floors[(unsigned)d >> mc->seek_floor_shift].guarded > limit)
			break;
		c = s->cmd[x];
		cls = c->high;
		if (batched && !cls && c->seq >= batch_end)
			continue;
		if (d && mc->floors[(unsigned)d >> mc->seek_floor_shift].guarded > cost[cls])
			continue;
		price = fwq_positioning_ns(ctx, c);
		if (price < cost[cls] || (price == cost[cls] && fwq_older(c, s->cmd[slot[cls]]))) {
			cost[cls] = price;
			slot[cls] = x;
			h = has[1] ? cost[1] : INT64_MIN;
			n = has[0] ? cost[0] : INT64_MIN;
			limit = h > n ? h : n;
		}
	}
	for (k = 0; k < 2; k++) {
		best[k].any = cost[k] != INT64_MAX;
		best[k].cost = cost[k];
		best[k].index = best[k].any ? s->pos[slot[k]] : 0;
	}
}

/*
 * SATF, pricing only the commands that could win — the same choice as
 * pricing them all (test/t_disk_queue.c checks every pick against a plain
 * implementation; the choice does not depend on the order of pricing,
 * the tie-breaks being a total order). On the seed's 30-deep random queue
 * a choice steps over 8 commands (the two where it stops included), works
 * out the rotational floor of 6 and computes a seek in one choice of three.
 */
static inline __attribute__((always_inline)) unsigned satf_walk_pick(const struct fwq_rules *r,
								     const struct fwq_ctx *ctx,
								     const struct fwq_queue *q,
								     int64_t now, bool batched,
								     enum fwq_reason *reason)
{
	struct fwq_best best[2] = { { INT64_MAX, 0, false }, { INT64_MAX, 0, false } };
	unsigned i;

	if (r->prio->honours && q->nhigh)
		two_walk(ctx, q->set, q->nhigh, q->batch_end, batched, best);
	else
		one_walk(ctx, q->set, q->batch_end, batched, &best[0]);
	/* Destages (never high): each on its own floor. */
	for (i = q->nsorted; i < q->n; i++) {
		if (batched && q->cands[i]->seq >= q->batch_end)
			continue;
		if (!best[0].any || floor_of(ctx, q->cands[i]) <= best[0].cost)
			offer(&best[0], q->cands, i, fwq_positioning_ns(ctx, q->cands[i]));
	}
	return fwq_decide(r, q, now, &best[1], &best[0], reason);
}

static __attribute__((noinline)) unsigned satf_any(const struct fwq_rules *r,
						 const struct fwq_ctx *ctx,
						 const struct fwq_queue *q, int64_t now,
						 enum fwq_reason *reason)
{
	return satf_walk_pick(r, ctx, q, now, false, reason);
}

static __attribute__((noinline)) unsigned satf_batch_any(const struct fwq_rules *r,
						       const struct fwq_ctx *ctx,
						       const struct fwq_queue *q, int64_t now,
						       enum fwq_reason *reason)
{
	return satf_walk_pick(r, ctx, q, now, true, reason);
}

/*
 * The common choice: no destage among the candidates, no high-priority
 * command told apart and none aged — the walk's best is the pick, without
 * fwq_decide(). Anything else takes satf_walk_pick() out of line, so that
 * this function is little more than the walk's loop.
 */
static inline __attribute__((always_inline)) unsigned satf_pick(const struct fwq_rules *r,
								const struct fwq_ctx *ctx,
								const struct fwq_queue *q,
								int64_t now, bool batched,
								enum fwq_reason *reason)
{
	struct fwq_best best;

	if (q->n != q->nsorted || (q->nhigh && r->prio->honours) || fwq_queue_aged(r, q, now))
		return batched ? satf_batch_any(r, ctx, q, now, reason) :
			satf_any(r, ctx, q, now, reason);
	/* Before the walk: the pointer then need not outlive it. */
	*reason = FWQ_PICK_POLICY;
	one_walk(ctx, q->set, q->batch_end, batched, &best);
	return best.index;
}

static unsigned pick_satf(const struct fwq_rules *r, const struct fwq_ctx *ctx,
			  const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	return satf_pick(r, ctx, q, now, false, reason);
}

/* satf_batch: the same walk, passing over normal commands of a later batch. */
static unsigned pick_satf_batch(const struct fwq_rules *r, const struct fwq_ctx *ctx,
				const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	return satf_pick(r, ctx, q, now, true, reason);
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
