/*
 * Event engine: a 4-ary min-heap of entries keyed on (time, sequence),
 * plus a slot pool holding each event's callback.
 *
 * Cancellation is lazy: sim_cancel() bumps the slot's generation and frees
 * the slot; the heap entry stays until it reaches the top, where its stale
 * generation marks it as dead and it is dropped. This keeps sifting to the
 * heap array alone (no back-pointers to update) and makes cancel O(1); the
 * price is that a cancelled event occupies a heap entry until its time
 * comes, which is harmless for the simulator's few timers.
 *
 * sim_step() also leaves the root in place while the callback runs: most
 * callbacks schedule a follow-up, which then drops into the root and sifts
 * down once instead of the root being refilled from the end (one sift) and
 * the new event sifting up (a second pass).
 */
#include "sim/sim.h"

#include "util/parse.h"

#include <stdlib.h>
#include <string.h>

#define SIM_SLOT_FREE	UINT32_MAX
#define HEAP_ARITY	4

int sim_init(struct sim *sim)
{
	memset(sim, 0, sizeof(*sim));
	sim->free_head = SIM_SLOT_FREE;
	sim->debug_out = stderr;
	return 0;
}

void sim_destroy(struct sim *sim)
{
	free(sim->heap);
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

static uint32_t slot_get(struct sim *sim)
{
	uint32_t s;

	if (sim->free_head == SIM_SLOT_FREE) {
		uint32_t old = sim->slots_cap, i;

		sim->slots = grow(sim->slots, &sim->slots_cap, sizeof(*sim->slots));
		for (i = sim->slots_cap; i-- > old;) {
			sim->slots[i].live = false;
			sim->slots[i].gen = 0;
			sim->slots[i].next_free = sim->free_head;
			sim->free_head = i;
		}
	}
	s = sim->free_head;
	sim->free_head = sim->slots[s].next_free;
	sim->slots[s].live = true;
	return s;
}

static void slot_put(struct sim *sim, uint32_t s)
{
	sim->slots[s].live = false;
	sim->slots[s].gen++;
	sim->slots[s].next_free = sim->free_head;
	sim->free_head = s;
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

static void sift_up(struct sim *sim, uint32_t pos)
{
	struct sim_heap_entry e = sim->heap[pos];

	while (pos > 0) {
		uint32_t parent = (pos - 1) / HEAP_ARITY;

		if (!(entry_key(&e) < entry_key(&sim->heap[parent])))
			break;
		sim->heap[pos] = sim->heap[parent];
		pos = parent;
	}
	sim->heap[pos] = e;
}

static void sift_down(struct sim *sim, uint32_t pos)
{
	struct sim_heap_entry e = sim->heap[pos], *h = sim->heap;
	unsigned __int128 key = entry_key(&e);
	uint32_t n = sim->heap_len;

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
		sim->heap[pos] = sim->heap[best];
		pos = best;
	}
	sim->heap[pos] = e;
}

static void heap_pop(struct sim *sim)
{
	uint32_t last = --sim->heap_len;

	if (last == 0)
		return;
	sim->heap[0] = sim->heap[last];
	sift_down(sim, 0);
}

/*
 * Bring the heap to a state where heap[0] is the next live event (or the
 * heap is empty): fill the root left by sim_step(), drop cancelled entries.
 */
static void heap_settle(struct sim *sim)
{
	if (sim->root_vacant) {
		sim->root_vacant = false;
		heap_pop(sim);
	}
	while (sim->heap_len && entry_dead(sim, &sim->heap[0]))
		heap_pop(sim);
}

static inline sim_handle_t make_handle(const struct sim *sim, uint32_t slot)
{
	return ((uint64_t)sim->slots[slot].gen << 32) | (slot + 1);
}

/* The slot a handle names, if its event is still pending; else UINT32_MAX. */
static uint32_t handle_slot(const struct sim *sim, sim_handle_t h)
{
	uint32_t slot = (uint32_t)h - 1, gen = (uint32_t)(h >> 32);

	if ((uint32_t)h == 0 || slot >= sim->slots_cap)
		return UINT32_MAX;
	if (sim->slots[slot].gen != gen || !sim->slots[slot].live)
		return UINT32_MAX;
	return slot;
}

sim_handle_t sim_at(struct sim *sim, sim_time_t when, sim_fn fn, void *arg)
{
	struct sim_heap_entry e;
	uint32_t slot;

	SIM_ASSERT(when >= sim->now && when >= 0,
		   "event scheduled in the past (at %lld ns, now %lld ns)",
		   (long long)when, (long long)sim->now);
	SIM_ASSERT(fn != NULL, "event without a callback");
	slot = slot_get(sim);
	sim->slots[slot].fn = fn;
	sim->slots[slot].arg = arg;
	e.when = (uint64_t)when;
	e.seq = sim->next_seq++;
	e.slot = slot;
	e.gen = sim->slots[slot].gen;
	sim->live_events++;
	if (sim->root_vacant) {
		/* The new event is no earlier than the one just run: sift it down. */
		sim->root_vacant = false;
		sim->heap[0] = e;
		sift_down(sim, 0);
		return make_handle(sim, slot);
	}
	if (sim->heap_len == sim->heap_cap)
		sim->heap = grow(sim->heap, &sim->heap_cap, sizeof(*sim->heap));
	sim->heap[sim->heap_len++] = e;
	sift_up(sim, sim->heap_len - 1);
	return make_handle(sim, slot);
}

bool sim_cancel(struct sim *sim, sim_handle_t h)
{
	uint32_t slot = handle_slot(sim, h);

	if (slot == UINT32_MAX)
		return false;
	slot_put(sim, slot);	/* its heap entry is now dead */
	sim->live_events--;
	return true;
}

bool sim_is_pending(const struct sim *sim, sim_handle_t h)
{
	return handle_slot(sim, h) != UINT32_MAX;
}

sim_time_t sim_next_time(struct sim *sim)
{
	heap_settle(sim);
	return sim->heap_len ? entry_when(&sim->heap[0]) : SIM_FOREVER;
}

uint32_t sim_pending_count(const struct sim *sim)
{
	return sim->live_events;
}

bool sim_step(struct sim *sim)
{
	struct sim_heap_entry top;
	sim_fn fn;
	void *arg;

	heap_settle(sim);
	if (!sim->heap_len)
		return false;
	top = sim->heap[0];
	SIM_ASSERT(entry_when(&top) >= sim->now, "time went backwards (%lld < %lld)",
		   (long long)entry_when(&top), (long long)sim->now);
	sim->root_vacant = true;
	fn = sim->slots[top.slot].fn;
	arg = sim->slots[top.slot].arg;
	slot_put(sim, top.slot);
	sim->live_events--;
	sim->now = entry_when(&top);
	sim->events_run++;
	fn(sim, arg);
	return true;
}

void sim_run(struct sim *sim, sim_time_t until)
{
	for (;;) {
		sim_time_t next = sim_next_time(sim);

		if (!sim->heap_len || next > until)
			break;
		sim_step(sim);
	}
	if (until != SIM_FOREVER && sim->now < until)
		sim->now = until;
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
