/*
 * Event engine: two 4-ary min-heaps of entries keyed on (time, sequence),
 * plus a slot pool holding each event's callback.
 *
 * Cancellation is lazy: sim_cancel() bumps the slot's generation and frees
 * the slot; the heap entry stays until it reaches the top, where its stale
 * generation marks it as dead and it is dropped. This keeps sifting to the
 * heap array alone (no back-pointers to update) and makes cancel O(1); the
 * price is that a cancelled event occupies a heap entry until its time
 * comes, which is harmless for the simulator's few timers.
 *
 * Near and far: an event due within SIM_NEAR_SPAN of when it is scheduled
 * (a drive's phases, a zero-delay hand-over) goes to the near heap, a later
 * one (sample ticks, the run's end, the command timer) to the far heap; the
 * next event is the earlier of the two roots. Which heap an entry sits in
 * never changes the order events run in — both are exact on (time,
 * sequence) — only what sifting costs: the few long timers no longer
 * deepen the heap every drive event is pushed into and popped from.
 *
 * sim_step() also leaves the root in place while the callback runs: most
 * callbacks schedule a follow-up, which then drops into the root and sifts
 * down once instead of the root being refilled from the end (one sift) and
 * the new event sifting up (a second pass). The running event's slot is
 * not freed until its callback returns, so sim_again() can put that same
 * event back into the queue — usually into the vacant root, which is still
 * its entry — without taking a slot or filling one in.
 */
#include "sim/sim.h"

#include "util/parse.h"

#include <stdlib.h>
#include <string.h>

#define SIM_SLOT_FREE	UINT32_MAX
#define HEAP_ARITY	4
/* SIM_NEAR_SPAN (sim.h): longer than a drive's mechanical access, shorter than the periodic timers. */

int sim_init(struct sim *sim)
{
	memset(sim, 0, sizeof(*sim));
	sim->free_head = SIM_SLOT_FREE;
	sim->running = SIM_NO_SLOT;
	sim->far_first = SIM_FOREVER;
	sim->solo_limit = sim->run_limit = SIM_FOREVER;
	sim->next_seq = 1;	/* run_seq = 0: no event has run (sim.h) */
	sim->debug_out = stderr;
	return 0;
}

void sim_destroy(struct sim *sim)
{
	free(sim->near.e);
	free(sim->far.e);
	free(sim->slots);
	memset(sim, 0, sizeof(*sim));
}

void sim_assert_fail(const char *file, int line, const char *expr,
		     const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "ncqsim: internal error at %s:%d: %s: ", file, line, expr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void *grow(void *p, uint32_t *cap, size_t elem)
{
	uint32_t ncap = *cap ? *cap * 2 : 64;
	void *np;

	SIM_ASSERT(ncap > *cap, "event pool overflow (%u events)", *cap);
	np = realloc(p, (size_t)ncap * elem);
	SIM_ASSERT(np != NULL, "out of memory growing the event pool to %u", ncap);
	*cap = ncap;
	return np;
}

/* Out of line: it runs a few times per simulation, sim_at() millions. */
static __attribute__((noinline, cold)) void slot_pool_grow(struct sim *sim)
{
	uint32_t old = sim->slots_cap, i;

	sim->slots = grow(sim->slots, &sim->slots_cap, sizeof(*sim->slots));
	for (i = sim->slots_cap; i-- > old;) {
		sim->slots[i].gen = 0;
		sim->slots[i].next_free = sim->free_head;
		sim->free_head = i;
	}
}

static inline uint32_t slot_get(struct sim *sim)
{
	uint32_t s;

	if (sim->free_head == SIM_SLOT_FREE)
		slot_pool_grow(sim);
	s = sim->free_head;
	sim->free_head = sim->slots[s].next_free;
	return s;
}

/* Onto the free list a slot whose generation has already moved on. */
static inline void slot_release(struct sim *sim, uint32_t s)
{
	sim->slots[s].next_free = sim->free_head;
	sim->free_head = s;
}

static void slot_put(struct sim *sim, uint32_t s)
{
	sim->slots[s].gen++;
	slot_release(sim, s);
}

static inline sim_time_t entry_when(const struct sim_heap_entry *e)
{
	return (sim_time_t)e->when;
}

static inline unsigned __int128 entry_key(const struct sim_heap_entry *e)
{
	return (unsigned __int128)e->when << 64 | e->seq;
}

/* The earlier of two entries (index), without a branch. */
static inline uint32_t earlier(const struct sim_heap_entry *h, uint32_t a, uint32_t b)
{
	return entry_key(&h[b]) < entry_key(&h[a]) ? b : a;
}

static inline bool entry_dead(const struct sim *sim, const struct sim_heap_entry *e)
{
	return sim->slots[e->slot].gen != e->gen;
}

static void sift_up(struct sim_heap *hp, uint32_t pos)
{
	struct sim_heap_entry e = hp->e[pos];

	while (pos > 0) {
		uint32_t parent = (pos - 1) / HEAP_ARITY;

		if (!(entry_key(&e) < entry_key(&hp->e[parent])))
			break;
		hp->e[pos] = hp->e[parent];
		pos = parent;
	}
	hp->e[pos] = e;
}

static void sift_down(struct sim_heap *hp, uint32_t pos)
{
	struct sim_heap_entry e = hp->e[pos], *h = hp->e;
	unsigned __int128 key = entry_key(&e);
	uint32_t n = hp->len;

	for (;;) {
		uint32_t first = pos * HEAP_ARITY + 1, best, c;

		if (first + HEAP_ARITY <= n) {
			/* All four children: a two-round tournament, no branches. */
			best = earlier(h, earlier(h, first, first + 1),
				       earlier(h, first + 2, first + 3));
		} else if (first < n) {
			best = first;
			for (c = first + 1; c < n; c++)
				best = earlier(h, best, c);
		} else {
			break;
		}
		if (!(entry_key(&h[best]) < key))
			break;
		h[pos] = h[best];
		pos = best;
	}
	h[pos] = e;
}

static void heap_pop(struct sim_heap *hp)
{
	uint32_t last = --hp->len;

	if (last == 0)
		return;
	hp->e[0] = hp->e[last];
	if (last > 1)
		sift_down(hp, 0);
}

static __attribute__((noinline, cold)) void heap_grow(struct sim_heap *hp)
{
	hp->e = grow(hp->e, &hp->cap, sizeof(*hp->e));
}

static inline void heap_push(struct sim_heap *hp, const struct sim_heap_entry *e)
{
	if (hp->len == hp->cap)
		heap_grow(hp);
	hp->e[hp->len++] = *e;
	sift_up(hp, hp->len - 1);
}

/* Drop cancelled entries from the top of a heap. */
static void heap_purge(struct sim *sim, struct sim_heap *hp)
{
	while (hp->len && entry_dead(sim, &hp->e[0])) {
		heap_pop(hp);
		sim->dead_entries--;
	}
}

/* The solo loop's one bound: the far root's time or the run's limit, the earlier. */
static inline void solo_limit_update(struct sim *sim)
{
	sim->solo_limit = sim->far_first < sim->run_limit ? sim->far_first : sim->run_limit;
}

/*
 * After the far heap's root changed or an event was cancelled (never while
 * the far root is vacant): cancelled entries off its top first, so that
 * far_first is the earliest live far event's time — all sim_next_time()
 * reads when the near heap holds only the running event.
 */
static inline void far_first_update(struct sim *sim)
{
	if (sim->dead_entries)
		heap_purge(sim, &sim->far);
	sim->far_first = sim->far.len ? entry_when(&sim->far.e[0]) : SIM_FOREVER;
	solo_limit_update(sim);
}

/*
 * What sim_again() left for later (SIM_SOLO_AGAIN, sim.h): the event is
 * back in the queue, no longer running, its root no longer vacant. Every
 * entry point that reads `running`, `vacant` or `live_events` and can be
 * reached in that state calls this first.
 */
static inline void solo_settle(struct sim *sim)
{
	if (sim->solo == SIM_SOLO_AGAIN) {
		sim->solo = SIM_SOLO_NONE;
		sim->running = SIM_NO_SLOT;
		sim->vacant = NULL;
		sim->live_events++;
	}
}

/*
 * The heap whose root is the next live event, or NULL when none is pending:
 * fill the root left by sim_step(), drop cancelled entries from the tops
 * (only while there are any: cancelling is rare, stepping is not).
 */
static inline struct sim_heap *next_live(struct sim *sim)
{
	if (sim->vacant) {
		heap_pop(sim->vacant);
		if (sim->vacant == &sim->far)
			far_first_update(sim);
		sim->vacant = NULL;
		sim->solo = SIM_SOLO_NONE;
	}
	if (sim->dead_entries) {
		heap_purge(sim, &sim->near);
		heap_purge(sim, &sim->far);
		far_first_update(sim);
	}
	/* Earlier in time than the far root: the near root, whatever the sequences. */
	if (sim->near.len && entry_when(&sim->near.e[0]) < sim->far_first)
		return &sim->near;
	if (!sim->far.len)
		return sim->near.len ? &sim->near : NULL;
	if (!sim->near.len)
		return &sim->far;
	return entry_key(&sim->far.e[0]) < entry_key(&sim->near.e[0]) ? &sim->far : &sim->near;
}

/* The slot a handle names, if its event is still pending; else UINT32_MAX. */
static uint32_t handle_slot(const struct sim *sim, sim_handle_t h)
{
	uint32_t slot = (uint32_t)h - 1, gen = (uint32_t)(h >> 32);

	if ((uint32_t)h == 0 || slot >= sim->slots_cap)
		return UINT32_MAX;
	if (sim->slots[slot].gen != gen)
		return UINT32_MAX;
	return slot;
}

/* Put the event in `slot` (filled in, generation current) into the queue at (when, seq). */
static inline __attribute__((always_inline)) sim_handle_t place(struct sim *sim, sim_time_t when,
								uint64_t seq, uint32_t slot)
{
	struct sim_heap_entry e;
	struct sim_heap *hp;

	e.when = (uint64_t)when;
	e.seq = seq;
	e.slot = slot;
	e.gen = sim->slots[slot].gen;
	sim->live_events++;
	hp = when - sim->now <= SIM_NEAR_SPAN ? &sim->near : &sim->far;
	/* (a far event leaves the near heap, and so `solo`, as it was) */
	if (hp == &sim->near)
		sim->solo = SIM_SOLO_NONE;
	if (sim->vacant == hp) {
		/* The new event is no earlier than the one just run: sift it down. */
		sim->vacant = NULL;
		hp->e[0] = e;
		if (hp->len > 1)
			sift_down(hp, 0);
	} else {
		heap_push(hp, &e);
	}
	if (hp == &sim->far)
		far_first_update(sim);
	return (uint64_t)e.gen << 32 | (slot + 1);
}

static inline __attribute__((always_inline)) sim_handle_t schedule(struct sim *sim, sim_time_t when,
								   uint64_t seq, sim_fn fn, void *arg)
{
	uint32_t slot;

	SIM_ASSERT(fn != NULL, "event without a callback");
	slot = slot_get(sim);
	sim->slots[slot].fn = fn;
	sim->slots[slot].arg = arg;
	return place(sim, when, seq, slot);
}

static __attribute__((noinline)) sim_handle_t schedule_any(struct sim *sim, sim_time_t when,
							     uint64_t seq, sim_fn fn, void *arg)
{
	solo_settle(sim);
	return schedule(sim, when, seq, fn, arg);
}

sim_handle_t sim_at(struct sim *sim, sim_time_t when, sim_fn fn, void *arg)
{
	struct sim_heap *hp = &sim->near;
	struct sim_heap_entry *e;
	uint32_t slot = sim->free_head;

	/* (sim->now is never negative) */
	SIM_ASSERT(when >= sim->now,
		   "event scheduled in the past (at %lld ns, now %lld ns)",
		   (long long)when, (long long)sim->now);
	if (sim->solo != SIM_SOLO_RUNNING || when - sim->now > SIM_NEAR_SPAN ||
	    slot == SIM_SLOT_FREE || !fn)
		return schedule_any(sim, when, sim->next_seq++, fn, arg);
	/*
	 * schedule() as it runs for the commonest event: a running event's
	 * near follow-up, in a near heap that holds nothing else. It takes
	 * the vacant root; no sifting, no call.
	 */
	sim->solo = SIM_SOLO_NONE;	/* the root is another event's now */
	sim->free_head = sim->slots[slot].next_free;
	sim->slots[slot].fn = fn;
	sim->slots[slot].arg = arg;
	sim->live_events++;
	sim->vacant = NULL;
	e = &hp->e[0];
	e->when = (uint64_t)when;
	e->seq = sim->next_seq++;
	e->slot = slot;
	e->gen = sim->slots[slot].gen;
	return (uint64_t)e->gen << 32 | (slot + 1);
}

/* sim_again() past its inline case: a check of the call, then wherever the event goes. */
sim_handle_t sim_again_any(struct sim *sim, sim_time_t when)
{
	uint32_t slot;

	solo_settle(sim);
	slot = sim->running;
	SIM_ASSERT(slot != SIM_NO_SLOT, "sim_again() outside an event, or twice in one");
	SIM_ASSERT(when >= sim->now,
		   "event scheduled in the past (at %lld ns, now %lld ns)",
		   (long long)when, (long long)sim->now);
	sim->running = SIM_NO_SLOT;
	sim->solo = SIM_SOLO_NONE;
	return place(sim, when, sim->next_seq++, slot);
}

sim_handle_t sim_at_key(struct sim *sim, sim_time_t when, uint64_t seq, sim_fn fn, void *arg)
{
	SIM_ASSERT(!sim_key_passed(sim, when, seq) && seq < sim->next_seq,
		   "event keyed (%lld ns, %llu) scheduled after its place (now %lld ns)",
		   (long long)when, (unsigned long long)seq, (long long)sim->now);
	solo_settle(sim);
	return schedule(sim, when, seq, fn, arg);
}

bool sim_cancel(struct sim *sim, sim_handle_t h)
{
	uint32_t slot = handle_slot(sim, h);

	if (slot == UINT32_MAX)
		return false;
	solo_settle(sim);
	slot_put(sim, slot);	/* its heap entry is now dead */
	sim->solo = SIM_SOLO_NONE;	/* (it may be the root sim_again() refilled) */
	sim->live_events--;
	sim->dead_entries++;
	if (sim->vacant != &sim->far)
		far_first_update(sim);	/* (it may have been the far root) */
	return true;
}

bool sim_is_pending(const struct sim *sim, sim_handle_t h)
{
	return handle_slot(sim, h) != UINT32_MAX;
}

/*
 * The earliest time in a heap whose root is vacant (the event being run):
 * its children's, the root's own successors. SIM_FOREVER when it has none.
 */
static inline sim_time_t vacant_next_time(const struct sim_heap *hp)
{
	uint64_t best = UINT64_MAX;
	uint32_t c, end = hp->len < 1 + HEAP_ARITY ? hp->len : 1 + HEAP_ARITY;

	for (c = 1; c < end; c++)
		if (hp->e[c].when < best)
			best = hp->e[c].when;
	return best == UINT64_MAX ? SIM_FOREVER : (sim_time_t)best;
}

sim_time_t sim_next_time_any(struct sim *sim)
{
	struct sim_heap *hp;

	solo_settle(sim);
	if (sim->vacant && !sim->dead_entries) {
		/*
		 * Asked from inside an event (a drive checking whether anything
		 * else is due now): peek past the vacant root instead of filling
		 * it, so the follow-up the event schedules can still drop into
		 * the root (see schedule()).
		 */
		struct sim_heap *other = sim->vacant == &sim->near ? &sim->far : &sim->near;
		sim_time_t t = vacant_next_time(sim->vacant);

		if (other->len && entry_when(&other->e[0]) < t)
			t = entry_when(&other->e[0]);
		return t;
	}
	hp = next_live(sim);
	return hp ? entry_when(&hp->e[0]) : SIM_FOREVER;
}

uint32_t sim_pending_count(const struct sim *sim)
{
	/* (the event sim_again() put back is not counted yet: enum sim_solo) */
	return sim->live_events + (sim->solo == SIM_SOLO_AGAIN);
}

/* The event in `slot` at hp's root (key top) begins: the root stays vacant meanwhile. */
static inline void begin_event(struct sim *sim, struct sim_heap *hp, uint32_t slot,
			       const struct sim_heap_entry *top)
{
	sim->vacant = hp;
	sim->solo = hp == &sim->near && hp->len == 1 ? SIM_SOLO_RUNNING : SIM_SOLO_NONE;
	sim->slots[slot].gen++;	/* its handle is stale from now on */
	sim->running = slot;
	sim->live_events--;
	sim->now = entry_when(top);
	sim->run_seq = top->seq;
	sim->events_run++;
}

/* After an event's callback: not scheduled again (sim_again()), its slot is free. */
static inline void end_event(struct sim *sim)
{
	solo_settle(sim);
	sim->solo = SIM_SOLO_NONE;
	if (sim->running != SIM_NO_SLOT) {
		slot_release(sim, sim->running);
		sim->running = SIM_NO_SLOT;
	}
}

bool sim_step(struct sim *sim)
{
	struct sim_heap *hp = next_live(sim);
	struct sim_heap_entry top;
	struct sim_slot *s;

	if (!hp)
		return false;
	top = hp->e[0];
	SIM_ASSERT(entry_when(&top) >= sim->now, "time went backwards (%lld < %lld)",
		   (long long)entry_when(&top), (long long)sim->now);
	s = &sim->slots[top.slot];
	begin_event(sim, hp, top.slot, &top);
	s->fn(sim, s->arg);
	end_event(sim);
	return true;
}

void sim_run(struct sim *sim, sim_time_t until)
{
	/* A callback that runs the engine itself gets its own bound, and this one's back after. */
	sim_time_t outer_limit = sim->run_limit;

	sim->run_limit = until == SIM_FOREVER ? SIM_FOREVER : until + 1;
	solo_limit_update(sim);
	for (;;) {
		struct sim_heap *hp = next_live(sim);
		struct sim_heap_entry *root;
		uint32_t slot;
		sim_fn fn;
		void *arg;

		if (!hp || entry_when(&hp->e[0]) > until)
			break;
		root = &hp->e[0];
		SIM_ASSERT(entry_when(root) >= sim->now, "time went backwards (%lld < %lld)",
			   (long long)entry_when(root), (long long)sim->now);
		slot = root->slot;
		fn = sim->slots[slot].fn;
		arg = sim->slots[slot].arg;
		begin_event(sim, hp, slot, root);
		fn(sim, arg);
		/*
		 * The event put itself back into its root, the only near entry
		 * (SIM_SOLO_AGAIN): it is next if it is due before the far root
		 * (a tie needs the sequences: the general path); far_first is
		 * never later than the earliest live far event (a dead far root
		 * only makes it earlier, and the general path then decides). Same
		 * slot, so same callback and argument; sim_again() checked that
		 * it is not in the past. Run it without next_live(). Due before
		 * the far root and by `until` is one compare: solo_limit.
		 */
		while (sim->solo == SIM_SOLO_AGAIN) {
			root = sim->near.e;
			if (entry_when(root) >= sim->solo_limit)
				break;
			/*
			 * begin_event() for it: vacant, running and live_events
			 * already read so (enum sim_solo), and the near heap
			 * holds only it.
			 */
			sim->solo = SIM_SOLO_RUNNING;
			sim->slots[slot].gen++;
			sim->now = entry_when(root);
			sim->run_seq = root->seq;
			sim->events_run++;
			fn(sim, arg);
		}
		end_event(sim);
	}
	if (until != SIM_FOREVER && sim->now < until) {
		sim->now = until;
		sim->run_seq = UINT64_MAX;	/* every event due by `until` has run */
	}
	sim->run_limit = outer_limit;
	solo_limit_update(sim);
}

/* ---- debug tracing ---- */

static const struct {
	const char *name;
	unsigned mask;
} debug_names[] = {
	{ "sim",   SIM_DBG_SIM },
	{ "job",   SIM_DBG_JOB },
	{ "blk",   SIM_DBG_BLK },
	{ "sched", SIM_DBG_SCHED },
	{ "ata",   SIM_DBG_ATA },
	{ "disk",  SIM_DBG_DISK },
};

void sim_set_debug(struct sim *sim, unsigned mask, FILE *out)
{
	sim->debug_mask = mask;
	sim->debug_out = out ? out : stderr;
}

static const char *debug_name(unsigned sub)
{
	size_t i;

	for (i = 0; i < sizeof(debug_names) / sizeof(debug_names[0]); i++)
		if (debug_names[i].mask == sub)
			return debug_names[i].name;
	return "?";
}

void sim_debug_print(struct sim *sim, unsigned subsystem, const char *fmt, ...)
{
	va_list ap;
	sim_time_t t = sim->now;

	fprintf(sim->debug_out, "%6lld.%06lld ms %-5s ", (long long)(t / SIM_MSEC),
		(long long)(t % SIM_MSEC), debug_name(subsystem));
	va_start(ap, fmt);
	vfprintf(sim->debug_out, fmt, ap);
	va_end(ap);
	fputc('\n', sim->debug_out);
}

const char *sim_debug_names(void)
{
	return "sim, job, blk, sched, ata, disk, all";
}

int sim_debug_parse(const char *list, unsigned *mask, char *err, size_t errlen)
{
	struct parse_fields f;
	const char *p;
	size_t len;
	unsigned m = 0;

	if (!*list) {
		snprintf(err, errlen, "option '--debug': expected a comma list of %s, got ''",
			 sim_debug_names());
		return -1;
	}
	parse_fields_init(&f, list, ',');
	while (parse_fields_next(&f, &p, &len)) {
		bool found = false;
		size_t i;

		if (len == 3 && !strncmp(p, "all", 3)) {
			m = ~0u;
			found = true;
		}
		for (i = 0; !found && i < sizeof(debug_names) / sizeof(debug_names[0]); i++) {
			if (strlen(debug_names[i].name) == len &&
			    !strncmp(p, debug_names[i].name, len)) {
				m |= debug_names[i].mask;
				found = true;
			}
		}
		if (!found) {
			snprintf(err, errlen, "option '--debug': unknown subsystem '%.*s' "
				 "(expected a comma list of %s)", (int)len, p, sim_debug_names());
			return -1;
		}
	}
	*mask = m;
	return 0;
}
