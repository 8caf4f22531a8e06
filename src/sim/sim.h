/*
 * sim — the discrete-event engine every layer runs on.
 *
 * Simulated time is an int64_t count of nanoseconds (sim_time_t). Events
 * are callbacks scheduled at an absolute time; events at the same time run
 * in the order they were scheduled (the heap key is (time, sequence)).
 * An event can be cancelled through the handle sim_at() returns; a handle
 * whose event has run or been cancelled is simply stale, never dangerous.
 *
 * Cost: O(log n) per schedule/cancel/run (a 4-ary heap), no allocation per
 * event once the pool has grown to the peak number of pending events.
 * All state hangs off struct sim: independent simulations may run in
 * separate threads without any locking.
 *
 * The struct is public only so that sim_now() and the debug check can be
 * inlined on the hot path; its fields are the engine's own.
 */
#ifndef NCQSIM_SIM_H
#define NCQSIM_SIM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef int64_t sim_time_t;

#define SIM_NSEC	((sim_time_t)1)
#define SIM_USEC	((sim_time_t)1000)
#define SIM_MSEC	((sim_time_t)1000000)
#define SIM_SEC		((sim_time_t)1000000000)
#define SIM_FOREVER	INT64_MAX

struct sim;
typedef void (*sim_fn)(struct sim *sim, void *arg);

/* An event due within this span of its scheduling goes to the near heap (sim.c). */
#define SIM_NEAR_SPAN	(100 * SIM_MSEC)
/* No slot: sim->running between events, and once sim_again() has taken it back. */
#define SIM_NO_SLOT	UINT32_MAX

/*
 * struct sim's `solo`: the commonest cycle (one drive event re-arming
 * itself) in one field, so its checks are one compare each (sim.c).
 * SIM_SOLO_RUNNING: an event is running whose root is vacant in a near
 * heap that holds nothing else, and it still holds its slot (vacant ==
 * &near, near.len == 1, running != SIM_NO_SLOT). SIM_SOLO_AGAIN: that
 * event has since been put back into its root by sim_again(), and nothing
 * has touched the near heap or cancelled an event since; `running`,
 * `vacant` and `live_events` still read as before that call, for sim_run()
 * to run the event again without storing them twice — sim.c brings them
 * up to date (solo_settle()) before anything else reads them.
 * SIM_SOLO_NONE: anything else.
 */
enum sim_solo {
	SIM_SOLO_NONE,
	SIM_SOLO_RUNNING,
	SIM_SOLO_AGAIN,
};

/* (generation << 32 | slot + 1); 0 is "no event". */
typedef uint64_t sim_handle_t;

/* Debug subsystems, selected with --debug=LIST. */
enum sim_debug_subsystem {
	SIM_DBG_SIM	= 1u << 0,
	SIM_DBG_JOB	= 1u << 1,
	SIM_DBG_BLK	= 1u << 2,
	SIM_DBG_SCHED	= 1u << 3,
	SIM_DBG_ATA	= 1u << 4,
	SIM_DBG_DISK	= 1u << 5,
};

/*
 * A heap entry's key is (time, sequence), compared as one 128-bit integer
 * with the time (never negative) in the high half: two instructions, no
 * branch. Kept as two 64-bit halves so an entry is 24 bytes, not 32.
 */
struct sim_heap_entry {
	uint64_t when;
	uint64_t seq;
	uint32_t slot;
	uint32_t gen;		/* the slot's generation when scheduled */
};

/* A 4-ary min-heap of entries. */
struct sim_heap {
	struct sim_heap_entry *e;
	uint32_t len, cap;
};

struct sim_slot {
	sim_fn fn;
	void *arg;
	/*
	 * Bumped when the event runs or is cancelled: a free slot's generation
	 * has never been handed out, so a handle is pending iff its generation
	 * is its slot's.
	 */
	uint32_t gen;
	uint32_t next_free;
};

struct sim {
	sim_time_t now;
	unsigned debug_mask;
	FILE *debug_out;

	/* Events due within SIM_NEAR_SPAN of their scheduling, and the rest: see sim.c. */
	struct sim_heap near, far;
	struct sim_slot *slots;
	uint32_t slots_cap, free_head;
	uint64_t next_seq;
	/*
	 * Events at `now` with a sequence up to this have run (the running
	 * one's: sim_key_passed()); sequences start at 1, so 0 before any has.
	 * UINT64_MAX once the clock has moved to sim_run()'s `until`, past
	 * every event due by then.
	 */
	uint64_t run_seq;
	uint32_t live_events;
	uint32_t dead_entries;	/* cancelled events still in a heap */
	/* Not beside run_seq: the two stores each event makes stay two scalar ones. */
	uint64_t events_run;
	/*
	 * The running event's slot while its callback runs, until sim_again()
	 * takes it back into the queue; SIM_NO_SLOT otherwise. It is not free
	 * meanwhile: its generation moved on as it began, so its handle is stale.
	 */
	uint32_t running;
	/*
	 * The far heap root's time, SIM_FOREVER when the far heap is empty
	 * (kept while the root is not vacant, and that root is then never a
	 * cancelled entry): what is due next, and whether the near root comes
	 * first, without reading the far heap.
	 */
	sim_time_t far_first;
	/*
	 * min(far_first, run_limit): the solo loop's one bound (sim_run() runs
	 * a lone re-arming event again while it is due before this). run_limit
	 * is sim_run()'s `until` + 1 (SIM_FOREVER for SIM_FOREVER), kept with
	 * far_first by every change of it.
	 */
	sim_time_t solo_limit, run_limit;
	struct sim_heap *vacant;	/* its root is the event being run: see sim.c */
	uint32_t solo;			/* enum sim_solo: running, vacant, live_events may lag */
};

int sim_init(struct sim *sim);
void sim_destroy(struct sim *sim);

static inline sim_time_t sim_now(const struct sim *sim)
{
	return sim->now;
}

/*
 * Schedule fn(sim, arg) at absolute time `when` (>= sim_now(): scheduling
 * in the past is a bug and aborts). Returns a handle for sim_cancel().
 */
sim_handle_t sim_at(struct sim *sim, sim_time_t when, sim_fn fn, void *arg);
static inline sim_handle_t sim_after(struct sim *sim, sim_time_t delay,
				     sim_fn fn, void *arg)
{
	return sim_at(sim, sim->now + delay, fn, arg);
}

/*
 * From inside an event's callback: schedule that same event (its callback
 * and argument) again at `when` — exactly sim_at(sim, when, fn, arg) with
 * the running event's fn and arg, in the same place in the order, but it
 * keeps its slot: nothing to allocate or fill in. At most once per run of
 * the event. Returns the new handle (the old one went stale as it began).
 *
 * Inline, its commonest case: the near heap holds only the running event's
 * vacant root, which is still its entry; the follow-up takes it back, even
 * one due past the near span (which heap holds an entry never changes the
 * order, sim.c; a lone entry costs no sifting wherever it is). A `when` in
 * the past goes to sim_again_any(), which aborts.
 */
sim_handle_t sim_again_any(struct sim *sim, sim_time_t when);
static inline sim_handle_t sim_again(struct sim *sim, sim_time_t when)
{
	struct sim_heap_entry *root = sim->near.e;
	uint32_t slot = sim->running;

	if (sim->solo != SIM_SOLO_RUNNING || when < sim->now)
		return sim_again_any(sim, when);
	sim->solo = SIM_SOLO_AGAIN;	/* running, vacant, live_events: see enum sim_solo */
	root->when = (uint64_t)when;
	root->seq = sim->next_seq++;
	root->gen++;		/* as its slot's did when the event began */
	return (uint64_t)root->gen << 32 | (slot + 1);
}

/*
 * An event's place in the order, taken now for an event that may never be
 * scheduled. A component that can tell from the key alone whether the
 * event would have run by now (sim_key_passed()) does the event's work
 * when it is next called instead, and schedules the event (sim_at_key())
 * only when nothing would call it in time — in the place it would have
 * had, so the order of everything else is what it would have been.
 */
static inline uint64_t sim_reserve_seq(struct sim *sim)
{
	return sim->next_seq++;
}

/* Whether an event keyed (when, seq) would have run by now (or be the one running). */
static inline bool sim_key_passed(const struct sim *sim, sim_time_t when, uint64_t seq)
{
	return when < sim->now || (when == sim->now && seq <= sim->run_seq);
}

/* Schedule fn at (when, seq), a sequence from sim_reserve_seq() whose key has not passed. */
sim_handle_t sim_at_key(struct sim *sim, sim_time_t when, uint64_t seq, sim_fn fn, void *arg);

/* Cancel a pending event; false if it already ran or was cancelled. */
bool sim_cancel(struct sim *sim, sim_handle_t h);
bool sim_is_pending(const struct sim *sim, sim_handle_t h);
uint32_t sim_pending_count(const struct sim *sim);
/*
 * Time of the next event, or SIM_FOREVER when none is pending. Inline,
 * the commonest case (asked inside an event that was the only near one):
 * the far heap's first.
 */
sim_time_t sim_next_time_any(struct sim *sim);
static inline sim_time_t sim_next_time(struct sim *sim)
{
	if (sim->solo == SIM_SOLO_RUNNING)
		return sim->far_first;	/* the earliest live far event's (sim.c) */
	return sim_next_time_any(sim);
}

/* Run one event; false when none is pending. */
bool sim_step(struct sim *sim);
/*
 * Run events until none is pending or the next event
 * is later than `until`; the clock then stands at min(until, last event).
 */
void sim_run(struct sim *sim, sim_time_t until);

/* Debug tracing: one line per event, prefixed with the simulated time. */
void sim_set_debug(struct sim *sim, unsigned mask, FILE *out);
static inline bool sim_debugging(const struct sim *sim, unsigned subsystem)
{
	return (sim->debug_mask & subsystem) != 0;
}
void sim_debug_print(struct sim *sim, unsigned subsystem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Costs one branch when the subsystem is off. */
#define sim_debug(sim, sub, ...) do { \
	if (sim_debugging((sim), (sub))) \
		sim_debug_print((sim), (sub), __VA_ARGS__); } while (0)

/*
 * Parse "blk,sched,ata" (or "all", "help") into a mask. On error writes a
 * message naming the bad entry into err and returns -1.
 */
int sim_debug_parse(const char *list, unsigned *mask, char *err, size_t errlen);
const char *sim_debug_names(void);

/* An always-on assertion for invariants whose failure is a simulator bug. */
#define SIM_ASSERT(cond, ...) do { if (!(cond)) \
	sim_assert_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); } while (0)
void sim_assert_fail(const char *file, int line, const char *expr,
		     const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

#endif
