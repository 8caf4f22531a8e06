/*
 * mech — the drive's mechanics (DiskSim's "mechanics" half of diskmodel):
 * seek time as a function of distance, rotational position from simulated
 * time, head switches and media transfer, with a per-phase breakdown of
 * every access.
 *
 * Seek curve, fitted per direction of transfer (read, write) to three data
 * sheet figures: single-track t1, average tavg, full stroke tfull.
 *
 *            { a + b·√d    for 1 ≤ d ≤ d0      (acceleration-limited)
 *     t(d) = {
 *            { c + e·d     for d > d0         (coast at top speed)
 *
 * joined with equal value and slope at d0, through t(1) = t1 and
 * t(max) = tfull, with d0 chosen so that the average over all seeks —
 * hdd.md's definition Σ (max+1−n)·(T_in + T_out) / ((max+1)·max) — equals
 * tavg. Five conditions, five unknowns; d0 by bisection on the closed-form
 * average. A figure set no such curve can meet is an error that says which
 * averages are reachable.
 *
 * A measured drive (model form = measured) gives its seek table instead:
 * distance → time, linear between the rows, the first row's time below
 * its distance, and beyond the table its seek formula (model.h: DiskSim's
 * HPL, three-point curve or constant forms), or else the last two rows'
 * slope. The constant form also times an access that stays on its
 * cylinder, as DiskSim's does. A write adds
 * write_settle to its seek or head switch (DiskSim's "additional write
 * settling delay", which may be negative), never going below zero.
 * Its command overheads depend on the command (read/write, hit/miss) and
 * on the one before (read/write), and a completion overhead follows the
 * data; a datasheet drive has one command_overhead for all.
 *
 * Rotation: the platter turns once every rev_ns; the angle under the head
 * at time t is t mod rev_ns (ns after the index mark), so rotational
 * latency is exact integer arithmetic. A sector just missed costs a full
 * revolution.
 *
 *   command ─┬─ overhead ─┬── seek / head switch ──┬─ rotational wait ─┬─ transfer ─┐
 *            t0           │                        │                   │            done
 */
#ifndef NCQSIM_DISK_MECH_H
#define NCQSIM_DISK_MECH_H

#include <stdbool.h>
#include <stdint.h>

#include "disk/layout.h"
#include "util/err.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct disk_seek_curve {
	double a, b, c, e, d0;
	uint32_t d0_floor;	/* the last whole distance on the √ part */
	int64_t max_distance;
	/* a measured table instead (npts > 0): distances ascending */
	unsigned npts;
	uint32_t pd[DISK_MAX_SEEK_POINTS];
	int64_t pt[DISK_MAX_SEEK_POINTS];
	/* and past its last row, a formula (enum disk_seek_formula), in ns */
	int formula;
	double f_split, f_a, f_b, f_c, f_e;
	int64_t f_settle;
};

/* A measured table's seek over d > 0 cylinders. */
int64_t disk_seek_table_ns(const struct disk_seek_curve *s, uint32_t d);
/* The three-point curve's B and C (mech.c) over n cylinders. */
void disk_seek_curve3(double one, double avg, double full, double n, double *b, double *c);

/* Fit; `what` names the direction ("read") in error messages. */
int disk_seek_fit(struct disk_seek_curve *s, int64_t t1, int64_t tavg, int64_t tfull,
		  int64_t max_distance, const char *what, struct err *e);
/* A datasheet drive's read and write curves fitted, errors under its name (disk_mech_init()). */
int disk_mech_fit_curves(struct disk_seek_curve *read, struct disk_seek_curve *write,
			 const struct disk_model *m, int64_t max_distance, struct err *e);

/*
 * The square root of a seek distance: the same correctly rounded root as
 * sqrt(), without the test for a negative argument that sqrt() makes to
 * set errno (and the registers it saves around that call) — a distance is
 * never negative.
 */
static inline double disk_mech_sqrt(uint32_t d)
{
#ifdef __SSE2__
	/* Its upper half left undefined: nothing is moved or cleared for it. */
	__m128d v = _mm_move_sd(_mm_undefined_pd(), _mm_set_sd((double)d));

	return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
#else
	return __builtin_sqrt((double)d);
#endif
}

/*
 * The seek over d > 0 cylinders by the fitted curve's two pieces, as the
 * firmware's choice prices it too (fwq_positioning_ns, fwq.c); d <= d0
 * without converting d for the comparison.
 */
static inline int64_t disk_mech_choice_seek_ns(const struct disk_seek_curve *s, uint32_t d)
{
	return d <= s->d0_floor ? (int64_t)(s->a + s->b * disk_mech_sqrt(d)) :
		(int64_t)(s->c + s->e * (double)d);
}

static inline int64_t disk_seek_ns(const struct disk_seek_curve *s, uint32_t d)
{
	if (d == 0)
		return 0;
	if (s->npts)
		return disk_seek_table_ns(s, d);
	return disk_mech_choice_seek_ns(s, d);
}

/* The hdd.md weighted average over all distances, computed by summation. */
double disk_seek_weighted_average(const struct disk_seek_curve *s);

/* Where the actuator is, and what the last command was (for overheads). */
struct disk_head {
	uint32_t cyl, head;
	bool last_write;
};

/*
 * A lower bound on the seek time by distance, for pruning the firmware's
 * choice: seek_floor[d >> seek_floor_shift] <= the read and the write seek
 * over d cylinders (0 for the first entry, which covers d = 0). The curves
 * rise with d (the model requires t1 < tfull), so each entry is the seek
 * at the start of its range.
 */
#define DISK_SEEK_FLOOR_ENTRIES 1024

struct disk_mech {
	const struct disk_layout *layout;
	struct disk_seek_curve read, write;
	int64_t head_switch, head_switch_write;
	bool measured;			/* per-command overheads (a datasheet drive's are all one) */
	/*
	 * [write][miss][after write], model.h DISK_OVH_*: a measured drive's
	 * from its table, a datasheet drive's its command_overhead in every
	 * entry (disk_mech_set_overhead()), so that finding one is one load.
	 */
	int64_t overhead_tab[2][2][2];
	int64_t completion[2];		/* [write] */
	int64_t bus_sector[2];		/* [write]: host transfer per 512 bytes */
	int64_t min_seek;		/* measured: the least positioning of a media access */
	int64_t const_seek[2];		/* [write]: a constant seek form's time (0: none) */
	int64_t pos_floor[2];		/* [write]: the longer of min_seek and const_seek */
	int64_t rpo_guard;
	double inv_rev;		/* 1 / layout->rev_ns, for divisions by multiplication */
	unsigned seek_floor_shift;
	int64_t seek_floor[DISK_SEEK_FLOOR_ENTRIES];
	/*
	 * For the choice's rotational floor (fwq.c): the guard a seek pays in
	 * effect, min(rpo_guard, one revolution) — a wait under rpo_guard
	 * gains one revolution, so a guard past a revolution costs no more
	 * than one — and, per floor entry, seek_floor + that guard (the least
	 * positioning over a seek of that distance; INT64_MAX past the stroke)
	 * and its residue mod rev: how far the platter has turned by the
	 * earliest start of a guarded transfer, so pricing a candidate needs
	 * no division. two_walk() reads the guarded floors here; the usual
	 * walk reads the copy the waiting set keeps of all three, a column
	 * each (fwq_floors, fwq_set_init()).
	 */
	int64_t guard_eff;
	struct disk_floor {
		int64_t guarded, turn;
		/*
		 * The most the choice's seek (disk_mech_choice_seek_ns) takes
		 * over the entry's distances, either direction, plus the guard:
		 * a rotational floor at or past it is the exact positioning
		 * time, found without the seek itself.
		 */
		int64_t ceil_guarded;
	} floors[DISK_SEEK_FLOOR_ENTRIES];
};

int disk_mech_init(struct disk_mech *mc, const struct disk_layout *l,
		   const struct disk_model *m, struct err *e);

/* Seek or head-switch time to reach (cyl, head). */
static inline int64_t disk_mech_move_ns(const struct disk_mech *mc, const struct disk_head *from,
					uint32_t cyl, uint32_t head, bool write)
{
	uint32_t d = from->cyl > cyl ? from->cyl - cyl : cyl - from->cyl;

	if (d) {
		int64_t seek = disk_seek_ns(write ? &mc->write : &mc->read, d);

		/* A measured drive switches heads while it seeks: the longer of the two. */
		if (mc->measured && from->head != head) {
			int64_t hs = write ? mc->head_switch_write : mc->head_switch;

			return hs > seek ? hs : seek;
		}
		return seek;
	}
	return from->head != head ? (write ? mc->head_switch_write : mc->head_switch) : 0;
}

/* Wait from time t until `angle` comes under the head. */
static inline int64_t disk_mech_rot_wait(const struct disk_mech *mc, int64_t t, int64_t angle)
{
	int64_t rev = mc->layout->rev_ns, w = angle - t % rev;

	return w < 0 ? w + rev : w;
}

/*
 * Rotational wait after a seek: a target that would come under the head
 * less than rpo_guard after the seek settles is not attempted — the
 * firmware cannot count on making it (seek and settle times vary) and takes
 * it one revolution later. An access that needs no seek (the same track, or
 * a head switch on the same cylinder) pays no guard: the head switch is the
 * move every track skew is laid out for (layout.h), so firmware plans on it.
 * The same rule prices candidates in the firmware's choice and times the
 * access.
 */
static inline int64_t disk_mech_target_wait(const struct disk_mech *mc, int64_t t,
					    int64_t angle, bool seeked)
{
	int64_t w = disk_mech_rot_wait(mc, t, angle);

	return seeked && w < mc->rpo_guard ? w + mc->layout->rev_ns : w;
}

struct disk_access {
	int64_t overhead, seek, rotate, transfer, extra;	/* ns */
	int64_t completion;	/* after the data (measured drives) */
	int64_t total;
};

/* The overhead of a command before its mechanics start. */
static inline int64_t disk_mech_overhead_ns(const struct disk_mech *mc, bool write, bool miss,
					    bool after_write)
{
	return mc->overhead_tab[write][miss][after_write];
}

/* A datasheet drive's one command overhead, in every entry of overhead_tab (a measured one keeps its table). */
static inline void disk_mech_set_overhead(struct disk_mech *mc, int64_t overhead)
{
	unsigned i;

	if (mc->measured)
		return;
	for (i = 0; i < 8; i++)
		mc->overhead_tab[i >> 2][(i >> 1) & 1][i & 1] = overhead;
}

/* Host transfer of n 512-byte sectors. */
static inline int64_t disk_mech_bus_ns(const struct disk_mech *mc, bool write, uint64_t n)
{
	return (int64_t)n * mc->bus_sector[write];
}

/*
 * A media access of physical sectors [ps, ps + n) starting at time t0 with
 * the head at *head: fills the breakdown and moves *head to the last
 * sector's track. `extra_revs` adds whole revolutions (a 512e
 * read-modify-write).
 */
void disk_mech_access(const struct disk_mech *mc, struct disk_head *head, int64_t t0,
		      uint64_t ps, uint64_t n, bool write, unsigned extra_revs,
		      struct disk_access *acc);
/*
 * The same, from the first sector's location already found by
 * disk_layout_locate(), the media transfer starting no sooner than
 * `not_before` (a write whose data is still coming over the bus): the head,
 * once there, waits for the first sector's next pass after that time.
 */
void disk_mech_access_after(const struct disk_mech *mc, struct disk_head *head, int64_t t0,
			    int64_t not_before, const struct disk_chs *where, uint64_t n,
			    bool write, unsigned extra_revs, struct disk_access *acc);
/* The same with no such wait. */
static inline void disk_mech_access_at(const struct disk_mech *mc, struct disk_head *head,
				       int64_t t0, const struct disk_chs *where, uint64_t n,
				       bool write, unsigned extra_revs, struct disk_access *acc)
{
	disk_mech_access_after(mc, head, t0, INT64_MIN, where, n, write, extra_revs, acc);
}

/*
 * disk_mech_access_at() for an access that stays on its first track, whose
 * transfer takes track_ns (disk_layout_sectors_ns() of its sectors, found
 * when the command came in): the same breakdown, without the walk from
 * track to track.
 */
static inline __attribute__((always_inline)) void disk_mech_access_track(const struct disk_mech *mc, struct disk_head *head,
					  int64_t t0, const struct disk_chs *where, int64_t track_ns,
					  bool write, unsigned extra_revs, struct disk_access *acc)
{
	int64_t t;

	if (__builtin_expect(!mc->measured, 1)) {
		/*
		 * A datasheet drive (disk_mech_init()): one overhead in every
		 * entry of overhead_tab (disk_mech_set_overhead()), its fitted
		 * curve, no table, no positioning floor — disk_mech_move_ns()
		 * without the tests for those.
		 */
		uint32_t d = head->cyl > where->cyl ? head->cyl - where->cyl :
			where->cyl - head->cyl;

		acc->overhead = mc->overhead_tab[0][0][0];
		if (__builtin_expect(d != 0, 1))
			acc->seek = disk_mech_choice_seek_ns(write ? &mc->write : &mc->read, d);
		else
			acc->seek = head->head != where->head ?
				(write ? mc->head_switch_write : mc->head_switch) : 0;
	} else {
		acc->overhead = disk_mech_overhead_ns(mc, write, true, head->last_write);
		acc->seek = disk_mech_move_ns(mc, head, where->cyl, where->head, write);
		if (acc->seek < mc->pos_floor[write])
			acc->seek = mc->pos_floor[write];
	}
	t = t0 + acc->overhead + acc->seek;
	acc->rotate = disk_mech_target_wait(mc, t, where->angle, where->cyl != head->cyl);
	acc->transfer = track_ns;
	acc->extra = (int64_t)extra_revs * mc->layout->rev_ns;
	head->cyl = where->cyl;
	head->head = where->head;
	head->last_write = write;
	acc->completion = mc->completion[write];
	acc->total = acc->overhead + acc->seek + acc->rotate + acc->transfer + acc->extra +
		acc->completion;
}

/*
 * A sequential transfer in progress — read-ahead, or destaging contiguous
 * dirty data — with the head following the layout from track to track as
 * a media access does (skews across switches, a real seek and rotational
 * wait into the next zone). `ps` is the next physical sector to pass under
 * the head and `t` when it starts to; `sector` may equal the track's sector
 * count: the head is at the track's end and switches at the next step.
 *
 *   stream_after(last, t)        the head has just finished `last` at t
 *   stream_run(limit, until)     it reads on, whole sectors, up to `limit`
 *                                and no later than `until`
 */
struct disk_stream {
	uint64_t ps;
	int64_t t;
	uint32_t zone, cyl, head, sector;
	/*
	 * The head has read continuously on this track since `from_sector` at
	 * `from_t`: times count from there, as a media access's transfer does,
	 * so how the run is cut into steps does not change them.
	 */
	uint32_t from_sector;
	int64_t from_t;
};

void disk_mech_stream_after(const struct disk_mech *mc, struct disk_stream *s, uint64_t last_ps,
			    int64_t t);
void disk_mech_stream_run(const struct disk_mech *mc, struct disk_stream *s, uint64_t limit,
			  int64_t until, bool write);
/*
 * A stream that stopped (the head idle where it got to) starts again at t:
 * a head switch or seek if its next sector is on another track, then the
 * wait for that sector to come round.
 */
void disk_mech_stream_resume(const struct disk_mech *mc, struct disk_stream *s, int64_t t);

#endif
