/*
 * fwq — the drive's firmware command queue and the policy that picks the
 * next command for the actuator.
 *
 * Candidates: the tagged NCQ commands (at most queue_depth), a non-queued
 * command, and the oldest FWQ_DESTAGE_WINDOW write-cache destages. A choice
 * is one pass over them, O(queue depth), no allocation.
 *
 * The rule, in order (docs/DRIVES.md):
 *   1. Aging: if the oldest queued command (fwq_queue.oldest; destages do
 *      not age) has waited age_limit or longer, it goes next — whatever its
 *      priority or position (WD US 6,145,052).
 *   2. Priority, an ops table (struct fwq_prio_ops) consulted when a
 *      high-priority command is queued and the policy honours PRIO:
 *        strict  the best high-priority command by the base policy;
 *        soft    the best high-priority command, unless the best normal one
 *                positions more than prio_soft_margin faster;
 *        ignore  no special treatment (PRIO high is not told apart).
 *   3. Base policy, an ops table (struct fwq_policy_ops):
 *        fifo    the oldest;
 *        satf    least positioning time (seek or head switch + rotational
 *                latency) from where the head is when the command could
 *                start — a sector just missed costs a whole revolution;
 *        satf_batch  satf among the commands of the current batch: the
 *                normal-priority commands waiting when a batch begins are
 *                all served before any that arrive later (FSCAN's rule,
 *                applied to SATF). The drive opens a new batch when no
 *                command of the last one waits (disk.c), so no normal
 *                command waits longer than two batches — the age limit is
 *                the backstop, rarely reached. High-priority commands join
 *                at once.
 *      Ties go to the older command (arrival, then tag, then receipt).
 */
#ifndef NCQSIM_DISK_FWQ_H
#define NCQSIM_DISK_FWQ_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/layout.h"
#include "disk/mech.h"
#include "util/plugin.h"

#define FWQ_TAGS		32
#define FWQ_NONQUEUED		32	/* the slot of a non-NCQ command */
#define FWQ_SLOTS		33
#define FWQ_DESTAGE_WINDOW	32

struct fwq_cmd {
	uint64_t lba, nlb;	/* logical */
	uint64_t ps, nps;	/* physical */
	struct disk_chs where;	/* first physical sector */
	int64_t track_ns;	/* its transfer when it stays on that sector's track; -1 not (or unknown) */
	int64_t arrival;
	uint8_t tag;		/* slot index; FWQ_SLOTS for every destage */
	uint32_t seq;		/* order of receipt: the last tie-break */
	bool write, high, fua, destage, rmw;
	uint8_t cdl;		/* CDL descriptor in force, 1..7; 0 none */
	int64_t cdl_start_by;	/* CDL: the latest start that keeps its limits (the cdl row) */
};

/* What the choice sees: when the head would be free and where it is. */
struct fwq_ctx {
	const struct disk_mech *mech;
	int64_t phase;		/* the angle under the head when a command could start */
	struct disk_head head;
};

static inline void fwq_ctx_init(struct fwq_ctx *ctx, const struct disk_mech *mech, int64_t start,
				struct disk_head head)
{
	ctx->mech = mech;
	ctx->phase = start % mech->layout->rev_ns;
	ctx->head = head;
}

/* w mod one revolution, in [0, rev), for |w| up to a few revolutions. */
static inline int64_t fwq_mod_rev(const struct fwq_ctx *ctx, int64_t w)
{
	int64_t rev = ctx->mech->layout->rev_ns;
	int64_t k = (int64_t)((double)(-w) * ctx->mech->inv_rev + 1.0);

	w += k * rev;
	/* The estimate of k can be one off either way at an exact multiple. */
	w -= rev & -(int64_t)(w >= rev);
	w += rev & -(int64_t)(w < 0);
	return w;
}

/*
 * Positioning time: seek or head switch, then rotational latency (with the
 * rpo_guard rule of disk_mech_target_wait: after a seek only). Every pick prices the queued
 * commands that could win, so this is the simulator's innermost loop, written without
 * data-dependent branches (random seek distances make them mispredict
 * about once a candidate): both seek formulas then a select, and the
 * rotational wait reduced modulo a revolution with a multiplication by
 * 1/rev (disk_mech.inv_rev) instead of a division, corrected to the exact value.
 */
static inline int64_t fwq_positioning_ns(const struct fwq_ctx *ctx, const struct fwq_cmd *c)
{
	const struct disk_mech *mc = ctx->mech;
	const struct disk_seek_curve *s = c->write ? &mc->write : &mc->read;
	int64_t move, wait, on_sqrt, moved, seeks;
	uint32_t d = c->where.cyl > ctx->head.cyl ? c->where.cyl - ctx->head.cyl :
		ctx->head.cyl - c->where.cyl;
	double dd = (double)d;
	int64_t sq = (int64_t)(s->a + s->b * disk_mech_sqrt(d)), lin = (int64_t)(s->c + s->e * dd);

	/* All-ones masks, so the compiler cannot turn the selects back into branches. */
	on_sqrt = -(int64_t)(d <= s->d0_floor);
	seeks = -(int64_t)(d != 0);
	moved = seeks | -(int64_t)(c->where.head != ctx->head.head);
	move = (seeks & ((sq & on_sqrt) | (lin & ~on_sqrt))) | (~seeks & moved & mc->head_switch);
	/* From the angle under the head once it has moved, round to the target. */
	wait = fwq_mod_rev(ctx, c->where.angle - ctx->phase - move);
	wait += mc->layout->rev_ns & seeks & -(int64_t)(wait < mc->rpo_guard);
	return move + wait;
}

struct fwq_rules;
struct fwq_queue;

enum fwq_reason {
	FWQ_PICK_POLICY,	/* by the base policy */
	FWQ_PICK_PRIO,		/* a high-priority command preferred */
	FWQ_PICK_SOFT_NORMAL,	/* soft priority: a much faster normal command */
	FWQ_PICK_AGED,		/* the oldest, past age_limit */
	FWQ_PICK_STREAM,	/* no choice: it continues the run the head is on (disk.c) */
};

struct fwq_rules {
	const struct fwq_policy_ops *ops;
	const struct fwq_prio_ops *prio;
	int64_t soft_margin;
	int64_t age_limit;
	int cdl_perf_permille;	/* cdl: positioning time given up to serve a CDL command early */
};

/* a is older than b: arrival, then tag, then order of receipt. */
static inline bool fwq_older(const struct fwq_cmd *a, const struct fwq_cmd *b)
{
	/* One expression: a caller's loop or branch then tests the comparisons themselves. */
	return a->arrival < b->arrival ||
		(a->arrival == b->arrival &&
		 (a->tag < b->tag || (a->tag == b->tag && a->seq < b->seq)));
}

/*
 * The waiting commands as the drive keeps them (one per slot; destages are
 * not among them), two ways:
 *   cands[0, n)  in no particular order — a command joins at the end and
 *                the last takes the place of one that leaves — for the
 *                policies, which look at every candidate (pos[] says where
 *                each slot is);
 *   by cylinder  a list through next[] and prev[] (ties in the order they
 *                joined), which SATF walks outwards from the head, reading
 *                per node only what pricing needs first (scaled[], angle[]).
 *                Two sentinel nodes end it, FWQ_LEFT and FWQ_RIGHT, farther
 *                from any head than the stroke, so the walk tests no end.
 *                A command finds its place, and the walk its start, through
 *                cylinder bands: band b holds cylinders [b << band_shift,
 *                (b + 1) << band_shift), `occupied` has bit b when one of
 *                its commands waits, and first[b] is the first of them in
 *                the list. A band is sixteen floor entries (fwq_floors),
 *                at most a sixty-fourth of the stroke, so that `occupied`
 *                is one word (the next occupied band one bit scan) and a
 *                command's band is its scaled cylinder's upper bits: with
 *                at most 33 commands the place is a step or two from a
 *                band's first. And
 *                where the last command to leave was, at_cyl, the walk
 *                finds its start at once: at_node, the node after it,
 *                is at or past at_cyl, and only a command that joined
 *                since can stand between — the head is there at the next
 *                choice, unless the access ended on another cylinder or
 *                served a destage.
 * Joining and leaving are a few instructions each; nothing moves in memory.
 */
#define FWQ_BANDS	64
#define FWQ_BAND_ENTRIES_LOG2	4	/* 1024 floor entries / 64 bands */
_Static_assert(DISK_SEEK_FLOOR_ENTRIES >> FWQ_BAND_ENTRIES_LOG2 == FWQ_BANDS,
	       "a band is a whole number of floor entries");
#define FWQ_NO_BAND	0xff
_Static_assert(FWQ_BANDS <= 64, "fwq_set.occupied is one word");
#define FWQ_LEFT	FWQ_SLOTS
#define FWQ_RIGHT	(FWQ_SLOTS + 1)
#define FWQ_NODES	(FWQ_SLOTS + 2)
/* The most cylinders a drive may have: the sentinels' cylinders then fit in cyl[]. */
#define FWQ_MAX_CYLINDERS	(1u << 30)

/*
 * The walk's floors: the drive's (disk_mech.floors) a column each, so that
 * one index off the set reaches all three, and the guarded floor twice as
 * long. The sentinels stand DISK_SEEK_FLOOR_ENTRIES entries' worth of
 * cylinders beyond the stroke, so from any head their distance falls in
 * the second half, where the guarded floor is INT64_MAX: past every best
 * (the walk's best starts at FWQ_NO_COST), it ends the walk as a far
 * command would, and the walk tests no end.
 */
struct fwq_floors {
	int64_t guarded[2 * DISK_SEEK_FLOOR_ENTRIES];
	int64_t turn[DISK_SEEK_FLOOR_ENTRIES];
	int64_t ceil_guarded[DISK_SEEK_FLOOR_ENTRIES];
};
/* The walk's best before it has priced a command: short of the sentinels' floor. */
#define FWQ_NO_COST	(INT64_MAX - 1)

struct fwq_set {
	const struct fwq_cmd *cands[FWQ_SLOTS + FWQ_DESTAGE_WINDOW];	/* room for destages behind */
	unsigned n;
	uint8_t pos[FWQ_NODES];			/* where each waiting slot is in cands[] */
	const struct fwq_cmd *cmd[FWQ_NODES];	/* per slot, while it waits; the sentinels' NULL */
	int32_t cyl[FWQ_NODES];
	/*
	 * cyl[] times 2^(32 - floor_shift): a distance's floor entry is then
	 * the scaled difference's upper word, one constant shift (the walk's).
	 */
	int64_t scaled[FWQ_NODES];
	int64_t angle[FWQ_NODES];
	uint8_t next[FWQ_NODES], prev[FWQ_NODES];
	unsigned band_shift;	/* floor_shift + FWQ_BAND_ENTRIES_LOG2 */
	uint64_t occupied;			/* bit b: band b holds a command */
	uint8_t first[FWQ_BANDS];
	uint8_t band[FWQ_NODES];	/* each waiting node's; the right sentinel's none (FWQ_NO_BAND) */
	int32_t at_cyl;		/* -1 before any command has left */
	uint8_t at_node;	/* a node at or past at_cyl; fwq_set_at(at_cyl) is it or before it */
	unsigned floor_shift;	/* disk_mech.seek_floor_shift */
	int64_t scale;		/* 2^(32 - floor_shift), for scaled[] */
	int64_t rev;		/* one revolution (disk_layout.rev_ns), for the walk */
	int64_t sentinel_d;	/* no command is this far from the head; a sentinel is at least */
	struct fwq_floors floors;
};

/* Empty, for the drive `mech` moves (at most FWQ_MAX_CYLINDERS cylinders). */
void fwq_set_init(struct fwq_set *s, const struct disk_mech *mech);

/* The first node of the first occupied band after band b < FWQ_BANDS; FWQ_RIGHT if none. */
static inline unsigned fwq_first_after(const struct fwq_set *s, unsigned b)
{
	/* The bands past b: ~1 shifted by b, defined up to b = 63 (then none). */
	uint64_t m = s->occupied & (~1ull << b);

	return m ? s->first[__builtin_ctzll(m)] : FWQ_RIGHT;
}

/* The first node (FWQ_RIGHT past the last) with a cylinder >= cyl. */
static inline unsigned fwq_set_at(const struct fwq_set *s, int32_t cyl)
{
	int b = cyl < 0 ? 0 : (int)((uint32_t)cyl >> s->band_shift);
	unsigned x;

	if (b < FWQ_BANDS && s->occupied >> b & 1) {
		for (x = s->first[b]; s->cyl[x] < cyl; x = s->next[x])
			;
		return x;
	}
	return b < FWQ_BANDS ? fwq_first_after(s, (unsigned)b) : FWQ_RIGHT;
}

/*
 * fwq_set_at(s, s->at_cyl), the cylinder the last command to leave was on,
 * in a step or two: back from at_node over the commands that joined before
 * it since (the left sentinel's cylinder is short of any).
 */
static inline unsigned fwq_set_at_last(const struct fwq_set *s)
{
	unsigned x = s->at_node;

	while (s->cyl[s->prev[x]] >= s->at_cyl)
		x = s->prev[x];
	return x;
}

/*
 * Command c (of slot c->tag) starts waiting; inline, as its leaving: each
 * runs once per command in the drive's hot path.
 */
static inline void fwq_set_add(struct fwq_set *s, const struct fwq_cmd *c)
{
	int32_t cyl = (int32_t)c->where.cyl;
	int64_t scaled = cyl * s->scale;
	/* cyl >> band_shift, band_shift being floor_shift + FWQ_BAND_ENTRIES_LOG2. */
	unsigned x = c->tag, b = (unsigned)((uint64_t)scaled >> (32 + FWQ_BAND_ENTRIES_LOG2)), y;

	s->pos[x] = (uint8_t)s->n;
	s->cands[s->n++] = c;
	s->cmd[x] = c;
	s->cyl[x] = cyl;
	s->scaled[x] = scaled;
	s->angle[x] = c->where.angle;
	s->band[x] = (uint8_t)b;
	/* y: the node it goes before — after every node of its cylinder or less. */
	if (s->occupied >> b & 1) {
		y = s->first[b];
		if (s->cyl[y] <= cyl) {
			while (s->cyl[y] <= cyl)
				y = s->next[y];
		} else {
			s->first[b] = (uint8_t)x;
		}
	} else {
		y = fwq_first_after(s, b);
		s->first[b] = (uint8_t)x;
		s->occupied |= 1ull << b;
	}
	s->next[x] = (uint8_t)y;
	s->prev[x] = s->prev[y];
	s->next[s->prev[y]] = (uint8_t)x;
	s->prev[y] = (uint8_t)x;
}

/* cands[pos] stops waiting; the last takes its place. */
static inline void fwq_set_remove(struct fwq_set *s, unsigned pos)
{
	const struct fwq_cmd *last = s->cands[s->n - 1];
	unsigned x = s->cands[pos]->tag, b = s->band[x];
	unsigned nx = s->next[x];

	s->next[s->prev[x]] = (uint8_t)nx;
	s->prev[nx] = s->prev[x];
	/* The head goes where x is (nodes of its cylinder may be before nx). */
	s->at_cyl = s->cyl[x];
	s->at_node = (uint8_t)nx;
	if (s->first[b] == x) {
		/* The right sentinel's band is none: never b. */
		if (s->band[nx] == b)
			s->first[b] = (uint8_t)nx;
		else
			s->occupied &= ~(1ull << b);
	}
	s->cands[pos] = last;
	s->pos[last->tag] = (uint8_t)pos;
	s->n--;
}

/* The queue for one choice. */
struct fwq_queue {
	const struct fwq_cmd *const *cands;
	unsigned n;		/* > 0 */
	unsigned nsorted;	/* cands[0, nsorted) are the waiting commands (set); the rest destages */
	const struct fwq_set *set;
	const struct fwq_cmd *oldest;	/* the oldest queued command (not a destage); NULL none */
	unsigned nhigh;		/* candidates with PRIO high */
	uint32_t batch_end;	/* batched policies: a normal command with seq >= this waits */
	int64_t now;		/* when the choice is made */
};

/* The best command of one class (PRIO high, or normal) by the base policy's cost. */
struct fwq_best {
	int64_t cost;
	unsigned index;		/* in fwq_queue.cands */
	bool any;
};

/* a goes before b: lower cost, then older. */
static inline bool fwq_better(int64_t ca, const struct fwq_cmd *a, int64_t cb,
			      const struct fwq_cmd *b)
{
	return ca < cb || (ca == cb && fwq_older(a, b));
}

/*
 * A base policy (drive key fw_sched): what it costs to serve a command next
 * (lower first), and how to find the command the rule picks — pricing every
 * candidate, or only those that can win. Registered in fwq_policies.
 */
struct fwq_policy_ops {
	struct plugin plugin;
	int64_t (*cost)(const struct fwq_ctx *ctx, const struct fwq_cmd *c);
	unsigned (*pick)(const struct fwq_rules *r, const struct fwq_ctx *ctx,
			 const struct fwq_queue *q, int64_t now, enum fwq_reason *reason);
	/*
	 * The cost is the positioning time: a command that continues the run
	 * the head is on (no seek, no wait) would win, so the drive may serve
	 * it without a choice (disk.c, FWQ_PICK_STREAM). Otherwise every
	 * command goes through pick().
	 */
	bool positional;
	/*
	 * Commands are served in batches (fwq_queue.batch_end): a run may only
	 * be continued by a command of the batch in progress.
	 */
	bool batched;
};

/*
 * A priority policy (drive key prio_policy), registered in
 * fwq_prio_policies. `honours` false: PRIO high is not told apart, every
 * command competes as normal. Otherwise, when a high-priority command is
 * queued (and none has aged past age_limit), choose() gets the best of each
 * class and returns the index to serve with its reason.
 */
struct fwq_prio_ops {
	struct plugin plugin;
	bool honours;
	unsigned (*choose)(const struct fwq_rules *r, const struct fwq_queue *q,
			   const struct fwq_best *high, const struct fwq_best *norm,
			   enum fwq_reason *reason);
};

/*
 * The registries. A drive plug-in's constants (prio_soft_margin, say) are
 * drive-model keys: a drive file names every constant with its source.
 * Adding a policy: docs/ARCHITECTURE.md, "Adding a plug-in".
 */
extern struct plugin_registry fwq_policies, fwq_prio_policies;

static inline const struct fwq_policy_ops *fwq_policy_ops(const struct plugin *p)
{
	return plugin_ops(p, struct fwq_policy_ops);
}

static inline const struct fwq_prio_ops *fwq_prio_ops(const struct plugin *p)
{
	return plugin_ops(p, struct fwq_prio_ops);
}

/* Why a command was picked, for --debug=disk: "aged", "priority", or the base policy's name. */
const char *fwq_reason_name(const struct fwq_rules *r, enum fwq_reason reason);

/* Whether the queue's oldest command has waited age_limit: the choice must serve it. */
static inline bool fwq_queue_aged(const struct fwq_rules *r, const struct fwq_queue *q,
				  int64_t now)
{
	return q->oldest && now - q->oldest->arrival >= r->age_limit;
}

/*
 * For plug-ins: the rule's last steps (aging, then priority) given each
 * class's best (inline: every choice ends here).
 */
static inline unsigned fwq_decide(const struct fwq_rules *r, const struct fwq_queue *q,
				  int64_t now, const struct fwq_best *high,
				  const struct fwq_best *norm, enum fwq_reason *reason)
{
	const struct fwq_cmd *const *cands = q->cands;
	unsigned i;

	if (fwq_queue_aged(r, q, now)) {
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

/*
 * Pick a candidate; returns its index in q->cands, and the reason. SATF
 * prices the waiting commands band by band outwards from the head and stops
 * where the seek alone costs more than the best found; the rest (write-cache
 * destages) are priced in any order. The choice does not depend on the
 * order of cands[].
 */
static inline unsigned fwq_pick(const struct fwq_rules *r, const struct fwq_ctx *ctx,
				const struct fwq_queue *q, int64_t now, enum fwq_reason *reason)
{
	return r->ops->pick(r, ctx, q, now, reason);
}

#endif
