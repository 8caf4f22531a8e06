/*
 * blktrace — blktrace's binary output: one file per CPU, NAME.blktrace.N,
 * each a sequence of 48-byte struct blk_io_trace records (the kernel's
 * include/uapi/linux/blktrace_api.h), each followed by pdu_len bytes:
 *
 *   0 magic 0x65617407   4 sequence   8 time (ns)   16 sector (512 B)
 *  24 bytes   28 action (category << 16 | action)   32 pid   36 device
 *  40 cpu     44 error (16 bits)   46 pdu_len (16 bits)
 *
 * Written in the tracing host's byte order: a byte-swapped magic means
 * every field is swapped. Given NAME.blktrace.N, the other CPUs' files
 * beside it are read too and merged by time — but not with one_file:
 * fio's read_iolog reads only the file it is given. As fio does, only queue events
 * of file-system requests are replayed (issue events with at_dispatch);
 * a process-notify record names its pid. Discards and empty requests
 * (flushes) move no data and are counted as ignored. read_iolog's
 * replay_skip, replay_scale and replay_align apply as in fio 3.33, whose
 * replay_align rounds a blktrace I/O's length up as well as its offset
 * down (seen with fio --debug=io; iologs keep their lengths).
 */
#include "trace/trace.h"

#include "workload/job_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BT_MAGIC		0x65617400u
#define BT_VERSION		0x07u
#define BT_SIZE			48
#define BT_TC_SHIFT		16
#define BT_TC_WRITE		(1u << 1)
#define BT_TC_PC		(1u << 9)
#define BT_TC_NOTIFY		(1u << 10)
#define BT_TC_DISCARD		(1u << 13)
#define BT_TA_QUEUE		1u
#define BT_TA_ISSUE		7u
#define BT_TN_PROCESS		0u
#define BT_MAX_CPUS		1024
#define BT_NAMES		1024	/* pid → name slots (a direct-mapped cache) */

struct bt_rec {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

struct bt_cpu {
	struct trace_in *in;
	bool have, done;
	struct bt_rec rec;
	char pdu[64];
	uint64_t recno;
};

struct blktrace_state {
	struct bt_cpu *cpus;
	unsigned ncpus;
	struct trace_in *own;		/* the reader's file: counts, and is closed by the reader */
	unsigned want;			/* BT_TA_QUEUE or BT_TA_ISSUE */
	const struct trace_opts *o;
	bool started;
	uint64_t first;
	struct { uint32_t pid; char name[TRACE_WHO_MAX]; } names[BT_NAMES];
};

static uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint16_t get16(const unsigned char *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static int magic_swap(uint32_t raw)
{
	if ((raw & 0xffffff00u) == BT_MAGIC)
		return 0;
	if ((__builtin_bswap32(raw) & 0xffffff00u) == BT_MAGIC)
		return 1;
	return -1;
}

static int blktrace_probe(const unsigned char *head, size_t len)
{
	uint32_t raw;

	if (len < BT_SIZE)
		return 0;
	memcpy(&raw, head, 4);
	return magic_swap(raw) >= 0 ? 100 : 0;
}

/* Read one record of a CPU's file into c->rec: 1, 0 at its end, -1 an error. */
static int read_one(struct bt_cpu *c, struct err *e)
{
	unsigned char b[BT_SIZE];
	long n = trace_in_bytes(c->in, b, sizeof(b), e);
	uint32_t raw;
	int swap;
	struct bt_rec *r = &c->rec;
	size_t keep;

	if (n <= 0)
		return (int)n;
	c->recno++;
	memcpy(&raw, b, 4);
	swap = magic_swap(raw);
	if (swap < 0)
		return err_set(e, "%s: record %llu (byte %llu): expected the blk_io_trace magic "
			       "0x654174xx, got 0x%08x", trace_in_path(c->in),
			       (unsigned long long)c->recno,
			       (unsigned long long)(trace_in_offset(c->in) - BT_SIZE), raw);
	r->magic = get32(b, swap);
	if ((r->magic & 0xff) != BT_VERSION)
		return err_set(e, "%s: record %llu: expected blk_io_trace version %u, got %u",
			       trace_in_path(c->in), (unsigned long long)c->recno, BT_VERSION,
			       r->magic & 0xff);
	r->sequence = get32(b + 4, swap);
	r->time = get64(b + 8, swap);
	r->sector = get64(b + 16, swap);
	r->bytes = get32(b + 24, swap);
	r->action = get32(b + 28, swap);
	r->pid = get32(b + 32, swap);
	r->device = get32(b + 36, swap);
	r->cpu = get32(b + 40, swap);
	r->error = get16(b + 44, swap);
	r->pdu_len = get16(b + 46, swap);
	keep = r->pdu_len < sizeof(c->pdu) - 1 ? r->pdu_len : sizeof(c->pdu) - 1;
	memset(c->pdu, 0, sizeof(c->pdu));
	if (keep && trace_in_bytes(c->in, c->pdu, keep, e) != (long)keep)
		return err_set(e, "%s: record %llu: the file ends inside its %u-byte payload",
			       trace_in_path(c->in), (unsigned long long)c->recno, r->pdu_len);
	if (r->pdu_len > keep && trace_in_bytes(c->in, NULL, r->pdu_len - keep, e) !=
	    (long)(r->pdu_len - keep))
		return err_set(e, "%s: record %llu: the file ends inside its %u-byte payload",
			       trace_in_path(c->in), (unsigned long long)c->recno, r->pdu_len);
	return 1;
}

/* NAME.blktrace.N → the sibling for CPU k; false if the name has no such form. */
static bool sibling(const char *path, unsigned k, char *out, size_t len)
{
	const char *mark = strstr(path, ".blktrace.");
	const char *last = mark;

	while (mark) {
		last = mark;
		mark = strstr(mark + 1, ".blktrace.");
	}
	if (!last)
		return false;
	snprintf(out, len, "%.*s.blktrace.%u", (int)(last - path), path, k);
	return true;
}

static int blktrace_begin(void *state, struct trace_in *in, const struct trace_opts *o,
			  struct err *e)
{
	struct blktrace_state *s = state;
	char path[4096];
	unsigned k;

	s->want = o->at_dispatch ? BT_TA_ISSUE : BT_TA_QUEUE;
	s->o = o;
	s->cpus = calloc(BT_MAX_CPUS, sizeof(*s->cpus));
	if (!s->cpus)
		return err_set(e, "out of memory");
	s->own = in;
	s->cpus[0].in = in;
	s->ncpus = 1;
	/* The other CPUs' files: NAME.blktrace.0, .1, ... while they exist. */
	if (!o->one_file && sibling(trace_in_path(in), 0, path, sizeof(path))) {
		s->ncpus = 0;
		for (k = 0; k < BT_MAX_CPUS; k++) {
			struct stat st;

			sibling(trace_in_path(in), k, path, sizeof(path));
			if (!strcmp(path, trace_in_path(in))) {
				s->cpus[s->ncpus++].in = in;
				continue;
			}
			if (stat(path, &st))
				break;
			s->cpus[s->ncpus].in = trace_in_open(path, e);
			if (!s->cpus[s->ncpus].in)
				return -1;
			s->ncpus++;
		}
		if (!s->ncpus) {	/* the given file's number was past a gap: read it alone */
			s->cpus[0].in = in;
			s->ncpus = 1;
		}
	}
	return 0;
}

static void blktrace_end(void *state)
{
	struct blktrace_state *s = state;
	unsigned k;

	for (k = 0; s->cpus && k < s->ncpus; k++)
		if (s->cpus[k].in != s->own)
			trace_in_close(s->cpus[k].in);
	free(s->cpus);
}

static void remember_name(struct blktrace_state *s, uint32_t pid, const char *name)
{
	unsigned slot = pid % BT_NAMES;

	s->names[slot].pid = pid;
	snprintf(s->names[slot].name, sizeof(s->names[slot].name), "%.*s", TRACE_WHO_MAX - 1, name);
}

static void name_of(const struct blktrace_state *s, uint32_t pid, char *out, size_t len)
{
	unsigned slot = pid % BT_NAMES;

	if (s->names[slot].pid == pid && s->names[slot].name[0])
		snprintf(out, len, "%s", s->names[slot].name);
	else
		out[0] = '\0';
}

static int blktrace_next(void *state, struct trace_in *in, struct trace_record *r, struct err *e)
{
	struct blktrace_state *s = state;

	(void)in;
	for (;;) {
		struct bt_cpu *c = NULL;
		struct bt_rec *t;
		unsigned k, cat;

		/* The earliest pending record over the CPUs (ties: the lower CPU). */
		for (k = 0; k < s->ncpus; k++) {
			struct bt_cpu *x = &s->cpus[k];

			if (!x->have && !x->done) {
				int rc = read_one(x, e);

				if (rc < 0)
					return -1;
				x->have = rc == 1;
				x->done = rc == 0;
			}
			if (x->have && (!c || x->rec.time < c->rec.time))
				c = x;
		}
		if (!c)
			return 0;
		c->have = false;
		t = &c->rec;
		cat = t->action >> BT_TC_SHIFT;
		if (cat & BT_TC_NOTIFY) {
			if ((t->action & 0xffff) == BT_TN_PROCESS)
				remember_name(s, t->pid, c->pdu);
			continue;
		}
		if ((t->action & 0xffff) != s->want || (cat & BT_TC_PC))
			continue;
		if ((cat & BT_TC_DISCARD) || !t->bytes) {
			trace_in_ignored(s->own);
			continue;
		}
		if (t->sector > (UINT64_MAX >> 10))
			return err_set(e, "%s: record %llu: sector %llu is beyond any drive",
				       trace_in_path(c->in), (unsigned long long)c->recno,
				       (unsigned long long)t->sector);
		if (s->o->replay_skip & (1u << (cat & BT_TC_WRITE ? DDIR_WRITE : DDIR_READ)))
			continue;
		if (!s->started) {
			s->started = true;
			s->first = t->time;
		}
		r->time_ns = (int64_t)(t->time - s->first);
		r->offset = t->sector * 512;
		if (s->o->replay_scale > 1)
			r->offset /= s->o->replay_scale;
		r->len = t->bytes;
		if (s->o->replay_align) {
			/* fio 3.33 (measured: --debug=io) also rounds a blktrace I/O's length up. */
			r->offset -= r->offset % s->o->replay_align;
			r->len = (r->len + s->o->replay_align - 1) / s->o->replay_align *
				 s->o->replay_align;
		}
		r->ddir = cat & BT_TC_WRITE ? DDIR_WRITE : DDIR_READ;
		r->pid = t->pid;
		r->ioprio = 0;
		name_of(s, t->pid, r->who, sizeof(r->who));
		r->where = c->recno;
		return 1;
	}
}

static bool blktrace_relative(const void *state)
{
	(void)state;
	return true;	/* fio replays the gaps between records */
}

const struct trace_format trace_blktrace_format = {
	.plugin = { "blktrace", "blktrace's binary per-CPU files NAME.blktrace.N (queue events; "
		    "issue events with --at=dispatch)", NULL },
	.probe = blktrace_probe,
	.state_size = sizeof(struct blktrace_state),
	.begin = blktrace_begin,
	.next = blktrace_next,
	.end = blktrace_end,
	.relative_time = blktrace_relative,
};

/* ---- merge_blktrace_file (fio's merge_blktrace_iologs()) ---- */

#define BT_TC_READ		(1u << 0)
#define BT_MERGE_MAX		64

struct bt_cursor {
	struct bt_cpu c;
	const char *path;
	unsigned scalar, iters, iter;
	uint64_t length;		/* the file's last record's time: where an iteration ends */
	uint64_t time;			/* the pending record's, scaled */
};

/* The file read again from its start (the next iteration). */
static int cursor_open(struct bt_cursor *b, struct err *e)
{
	trace_in_close(b->c.in);
	memset(&b->c, 0, sizeof(b->c));
	b->c.in = trace_in_open(b->path, e);
	return b->c.in ? 0 : -1;
}

/*
 * The cursor's next queue event of a read, write or discard (fio's
 * read_trace()), its time scaled: 1, 0 when the file is done (every
 * iteration), -1 an error. An iteration starts where the last record of
 * the file's first one was.
 */
static int cursor_next(struct bt_cursor *b, struct err *e)
{
	for (;;) {
		int rc = read_one(&b->c, e);
		unsigned cat;
		uint64_t t;

		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (++b->iter >= b->iters)
				return 0;
			if (cursor_open(b, e))
				return -1;
			continue;
		}
		if (!b->iter)
			b->length = b->c.rec.time;
		cat = b->c.rec.action >> BT_TC_SHIFT;
		if ((b->c.rec.action & 0xffff) != BT_TA_QUEUE ||
		    !(cat & (BT_TC_READ | BT_TC_WRITE | BT_TC_DISCARD)))
			continue;
		t = b->c.rec.time;
		if (b->iter && b->length > (UINT64_MAX - t) / b->iter)
			return err_set(e, "%s: record %llu: its time, %u iterations on, overflows",
				       b->path, (unsigned long long)b->c.recno, b->iter);
		t += b->iter * b->length;
		if (t > UINT64_MAX / b->scalar)
			return err_set(e, "%s: record %llu: its time scaled by %u%% overflows", b->path,
				       (unsigned long long)b->c.recno, b->scalar);
		b->time = t * b->scalar / 100;
		return 1;
	}
}

static void put_record(FILE *out, const struct bt_rec *r, uint64_t time)
{
	unsigned char b[BT_SIZE];
	uint16_t none = 0;

	memcpy(b, &r->magic, 4);
	memcpy(b + 4, &r->sequence, 4);
	memcpy(b + 8, &time, 8);
	memcpy(b + 16, &r->sector, 8);
	memcpy(b + 24, &r->bytes, 4);
	memcpy(b + 28, &r->action, 4);
	memcpy(b + 32, &r->pid, 4);
	memcpy(b + 36, &r->device, 4);
	memcpy(b + 40, &r->cpu, 4);
	memcpy(b + 44, &r->error, 2);
	memcpy(b + 46, &none, 2);	/* the payload is not kept (fio's write_trace()) */
	fwrite(b, 1, sizeof(b), out);
}

/*
 * The earliest pending record goes next, the first cursor winning a tie;
 * a cursor that is done takes the last one's place, as fio's
 * merge_finish_file() moves it (which decides later ties).
 */
int trace_blktrace_merge(const struct trace_merge *m, FILE *out, struct err *e)
{
	struct bt_cursor *cur = calloc(m->n ? m->n : 1, sizeof(*cur));
	unsigned live = 0, i;
	int rc = -1;

	if (!cur)
		return err_set(e, "out of memory");
	if (m->n > BT_MERGE_MAX) {
		err_set(e, "%u blktrace files to merge; at most %d", m->n, BT_MERGE_MAX);
		goto out;
	}
	for (i = 0; i < m->n; i++) {
		struct bt_cursor *b = &cur[live++];	/* closed at out from here on */
		unsigned char head[BT_SIZE];
		long got;
		uint32_t raw;
		int r;

		b->path = m->paths[i];
		b->scalar = m->scalar ? m->scalar[i] : 100;
		b->iters = m->iters ? m->iters[i] : 1;
		if (cursor_open(b, e))
			goto out;
		got = trace_in_bytes(b->c.in, head, sizeof(head), e);
		if (got < 0)
			goto out;
		if (got == (long)sizeof(head))
			memcpy(&raw, head, 4);
		if (got != (long)sizeof(head) || magic_swap(raw) < 0) {
			err_set(e, "%s: not a blktrace file (no blk_io_trace record at its start)",
				b->path);
			goto out;
		}
		if (cursor_open(b, e))
			goto out;
		r = cursor_next(b, e);
		if (r < 0)
			goto out;
		if (!r) {
			trace_in_close(b->c.in);
			live--;
		}
	}
	while (live) {
		struct bt_cursor *b = &cur[0];
		int r;

		for (i = 1; i < live; i++)
			if (cur[i].time < b->time)
				b = &cur[i];
		put_record(out, &b->c.rec, b->time);
		r = cursor_next(b, e);
		if (r < 0)
			goto out;
		if (!r) {
			trace_in_close(b->c.in);
			*b = cur[--live];
		}
	}
	rc = 0;
out:
	for (i = 0; i < live; i++)
		trace_in_close(cur[i].c.in);
	free(cur);
	return rc;
}
