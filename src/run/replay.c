/*
 * replay — see replay.h: the plan (one pass over the trace), the jobs it
 * becomes, and the per-run stream that feeds them.
 */
#include "run/replay.h"

#include "util/ioprio.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "workload/source.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define KEY_MAX (TRACE_WHO_MAX + 12)
_Static_assert(KEY_MAX <= JOB_NAME_MAX, "a key fits a job name");
#define NSLOTS 1024			/* > 2 * REPLAY_MAX_JOBS: open addressing stays short */

struct replay_job {
	char key[KEY_MAX];
	char name[JOB_NAME_MAX];
	uint64_t ios, bytes;
};

struct replay_plan {
	struct replay_opts o;
	char path[JOB_PATH_MAX];
	char format[32];
	const struct trace_format *fmt;
	bool relative;
	struct replay_job jobs[REPLAY_MAX_JOBS + 1];
	unsigned njobs;
	int other;			/* the shared job of processes past the limit, or -1 */
	int16_t slots[NSLOTS];		/* key hash → job index + 1 */
	uint64_t ios, reads, writes, bytes, bad, ignored, out_of_order, max_len, max_end;
	uint64_t max_end_where;
	bool own_prios;
	struct job_source_factory factory;
};

/* ---- priority rules ---- */

static int parse_class(const char *s, uint16_t *v)
{
	char cls[16];
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t level = 0;

	if (len >= sizeof(cls))
		return -1;
	memcpy(cls, s, len);
	cls[len] = '\0';
	if (colon && (parse_u64(colon + 1, &level) || level > 7))
		return -1;
	if (!strcasecmp(cls, "rt"))
		*v = ioprio_value(IOPRIO_CLASS_RT, 0, (unsigned)level);
	else if (!strcasecmp(cls, "be"))
		*v = ioprio_value(IOPRIO_CLASS_BE, 0, colon ? (unsigned)level : 4);
	else if (!strcasecmp(cls, "idle") && !colon)
		*v = ioprio_value(IOPRIO_CLASS_IDLE, 0, 0);
	else if (!strncasecmp(cls, "cdl", 3) && len == 4 && cls[3] >= '1' && cls[3] <= '7' &&
		 !colon)
		/* A CDL hint on the default best-effort priority (Linux 6.5 ioprio hints). */
		*v = ioprio_value(IOPRIO_CLASS_BE, (unsigned)(cls[3] - '0'), 4);
	else
		return -1;
	return 0;
}

int replay_rule_parse(const char *spec, struct replay_rule *r, struct err *e)
{
	const char *eq = strrchr(spec, '=');
	char lhs[TRACE_WHO_MAX + 16];
	size_t len;
	uint64_t v;

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", spec);
	if (!eq || eq == spec)
		return err_set(e, "--prio '%s': expected PROCESS=CLASS[:LEVEL], PID=CLASS[:LEVEL] or "
			       "size<SIZE=CLASS (CLASS: rt, be, idle, cdl1..cdl7)", spec);
	if (parse_class(eq + 1, &r->ioprio))
		return err_set(e, "--prio '%s': expected a class rt, be or idle with an optional "
			       ":LEVEL 0..7, or a hint cdl1..cdl7, after '=', got '%s'", spec, eq + 1);
	len = (size_t)(eq - spec);
	if (len >= sizeof(lhs))
		return err_set(e, "--prio '%s': the process name is longer than %d characters", spec,
			       TRACE_WHO_MAX - 1);
	memcpy(lhs, spec, len);
	lhs[len] = '\0';
	if (!strncmp(lhs, "size", 4) && (lhs[4] == '<' || lhs[4] == '>')) {
		const char *num = lhs + 5;

		if (*num == '=') {
			num++;
			r->kind = lhs[4] == '<' ? RULE_SIZE_LE : RULE_SIZE_GE;
		} else {
			r->kind = lhs[4] == '<' ? RULE_SIZE_LT : RULE_SIZE_GT;
		}
		if (parse_size(num, 1024, &r->size, NULL))
			return err_set(e, "--prio '%s': expected a size such as 64k after '%.*s', got "
				       "'%s'", spec, (int)(num - lhs), lhs, num);
		return 0;
	}
	if (!parse_u64(lhs, &v)) {
		if (v > UINT32_MAX)
			return err_set(e, "--prio '%s': a process id is at most %u", spec, UINT32_MAX);
		r->kind = RULE_PID;
		r->pid = (uint32_t)v;
		return 0;
	}
	if (len >= TRACE_WHO_MAX)
		return err_set(e, "--prio '%s': the process name is longer than %d characters", spec,
			       TRACE_WHO_MAX - 1);
	r->kind = RULE_NAME;
	memcpy(r->name, lhs, len + 1);
	return 0;
}

static bool rule_matches(const struct replay_rule *r, const struct trace_record *t)
{
	size_t n;

	switch (r->kind) {
	case RULE_NAME:
		n = strlen(r->name);
		if (n && r->name[n - 1] == '*')
			return !strncmp(t->who, r->name, n - 1);
		return !strcmp(t->who, r->name);
	case RULE_PID:
		return t->pid == r->pid;
	case RULE_SIZE_LT:
		return t->len < r->size;
	case RULE_SIZE_LE:
		return t->len <= r->size;
	case RULE_SIZE_GT:
		return t->len > r->size;
	case RULE_SIZE_GE:
		return t->len >= r->size;
	}
	return false;
}

/* The first rule that matches, else the trace's own priority, else none (the job's). */
static uint16_t record_prio(const struct replay_plan *p, const struct trace_record *t)
{
	unsigned i;

	for (i = 0; i < p->o.nrules; i++)
		if (rule_matches(&p->o.rules[i], t))
			return p->o.rules[i].ioprio;
	return t->ioprio;
}

/* ---- jobs by key ---- */

/*
 * A record's job key: "WHO.PID" ("pid.PID" without a name), or WHO where
 * the format has no pid. Built by hand, not with snprintf(): it runs for
 * every record, twice (the check and the replay), and snprintf() was a
 * fifth of a replay's instructions. It always fits: WHO is shorter than
 * TRACE_WHO_MAX, and a '.' and 10 digits leave room in KEY_MAX.
 */
static void record_key(const struct replay_plan *p, const struct trace_record *t, char *key)
{
	const char *who = t->pid && !t->who[0] ? "pid" : t->who;
	char digits[10];
	uint32_t pid = t->pid;
	size_t n = 0;
	int d = 0;

	if (p->o.one_job || p->o.closed) {
		key[0] = '\0';
		return;
	}
	while (*who)
		key[n++] = *who++;
	if (pid) {
		key[n++] = '.';
		do {
			digits[d++] = (char)('0' + pid % 10);
			pid /= 10;
		} while (pid);
		while (d)
			key[n++] = digits[--d];
	}
	key[n] = '\0';
}

static unsigned key_hash(const char *k)
{
	uint32_t h = 2166136261u;

	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h & (NSLOTS - 1);
}

/* The job of a key, or -2 with *slot the free slot it would take. */
static int job_find(const struct replay_plan *p, const char *key, unsigned *slot)
{
	unsigned h = key_hash(key);

	while (p->slots[h]) {
		if (!strcmp(p->jobs[p->slots[h] - 1].key, key))
			return p->slots[h] - 1;
		h = (h + 1) & (NSLOTS - 1);
	}
	*slot = h;
	return -2;
}

/* While the plan is built: the job of a key, a new one, or "other" past the limit. */
static int job_add(struct replay_plan *p, const char *key)
{
	unsigned h;
	int j = job_find(p, key, &h);

	if (j >= 0)
		return j;
	if (p->other >= 0)
		return p->other;
	if (p->njobs == REPLAY_MAX_JOBS) {
		if (p->other < 0) {
			p->other = (int)p->njobs++;
			snprintf(p->jobs[p->other].name, sizeof(p->jobs[p->other].name), "other");
		}
		return p->other;
	}
	snprintf(p->jobs[p->njobs].key, KEY_MAX, "%s", key);
	p->slots[h] = (int16_t)(p->njobs + 1);
	return (int)p->njobs++;
}

static void name_jobs(struct replay_plan *p)
{
	const char *base = strrchr(p->path, '/');
	unsigned i;

	base = base ? base + 1 : p->path;
	for (i = 0; i < p->njobs; i++) {
		struct replay_job *j = &p->jobs[i];

		if ((int)i == p->other)
			continue;
		if (!j->key[0])
			snprintf(j->name, sizeof(j->name), "%.100s", base);
		else
			memcpy(j->name, j->key, sizeof(j->key));	/* KEY_MAX < JOB_NAME_MAX */
	}
}

/* ---- the plan: one pass ---- */

static int plan_open_source(const void *ctx, void **run, const struct job_options *o,
			    unsigned index, unsigned clone, const struct job_target *t,
			    struct job_source *src, struct err *e);
static int plan_close(const void *ctx, void *run, struct err *e);

struct replay_plan *replay_plan_open(const struct replay_opts *o, struct err *e)
{
	struct replay_plan *p = calloc(1, sizeof(*p));
	struct trace_reader *rd;
	struct trace_record r;
	char key[KEY_MAX];
	int64_t last = INT64_MIN;
	int rc;

	if (!p) {
		err_set(e, "out of memory");
		return NULL;
	}
	p->o = *o;
	snprintf(p->path, sizeof(p->path), "%s", o->path);
	if (access(p->path, F_OK)) {
		/* blktrace's NAME, as blkparse takes it: its per-CPU files NAME.blktrace.N. */
		char cpu0[sizeof(p->path) + 16];

		snprintf(cpu0, sizeof(cpu0), "%s.blktrace.0", o->path);
		if (!access(cpu0, F_OK) && strlen(cpu0) < sizeof(p->path))
			memcpy(p->path, cpu0, strlen(cpu0) + 1);
	}
	snprintf(p->format, sizeof(p->format), "%s", o->format ? o->format : "auto");
	p->o.path = p->path;
	p->o.format = p->format;
	p->other = -1;
	if (!(p->o.speed > 0))
		p->o.speed = 1.0;
	rd = trace_open(p->path, p->format, &p->o.trace, e);
	if (!rd)
		goto fail;
	p->fmt = trace_reader_format(rd);
	p->relative = o->relative && trace_reader_relative_time(rd);
	while ((rc = trace_next(rd, &r, e)) == 1) {
		int j;

		record_key(p, &r, key);
		j = job_add(p, key);
		p->jobs[j].ios++;
		p->jobs[j].bytes += r.len;
		p->ios++;
		p->bytes += r.len;
		if (r.ddir == DDIR_READ)
			p->reads++;
		else
			p->writes++;
		if (r.len > p->max_len)
			p->max_len = r.len;
		if (r.offset + r.len > p->max_end) {
			p->max_end = r.offset + r.len;
			p->max_end_where = r.where;
		}
		if (r.time_ns < last)
			p->out_of_order++;
		else
			last = r.time_ns;
		if (record_prio(p, &r))
			p->own_prios = true;
	}
	if (rc < 0) {
		trace_close(rd);
		goto fail;
	}
	p->bad = trace_reader_bad(rd);
	p->ignored = trace_reader_ignored(rd);
	trace_close(rd);
	if (!p->ios) {
		err_set(e, "%s: no reads or writes to replay%s", p->path,
			p->ignored ? " (only records without data: syncs, trims, flushes)" : "");
		goto fail;
	}
	name_jobs(p);
	p->factory.open = plan_open_source;
	p->factory.close = plan_close;
	p->factory.ctx = p;
	return p;
fail:
	free(p);
	return NULL;
}

void replay_plan_free(struct replay_plan *p)
{
	free(p);
}

uint64_t replay_plan_ios(const struct replay_plan *p)
{
	return p->ios;
}

void replay_plan_describe(const struct replay_plan *p, FILE *out)
{
	unsigned i;

	fprintf(out, "replay: %s (%s): %llu I/Os (%llu reads, %llu writes, %.1f MiB) in %u job%s",
		p->path, p->fmt->plugin.name, (unsigned long long)p->ios,
		(unsigned long long)p->reads, (unsigned long long)p->writes,
		(double)p->bytes / 1048576.0, p->njobs, p->njobs == 1 ? "" : "s");
	if (p->other >= 0)
		fprintf(out, " (more than %d processes: those past the first %d share job 'other')",
			REPLAY_MAX_JOBS - 1, REPLAY_MAX_JOBS);
	fprintf(out, "; %s\n", p->o.closed ? "closed loop" : "open loop");
	if (p->ignored)
		fprintf(out, "replay: %llu records without data (syncs, trims, flushes) not replayed\n",
			(unsigned long long)p->ignored);
	if (p->bad)
		fprintf(out, "replay: %llu malformed lines skipped (--skip-bad)\n",
			(unsigned long long)p->bad);
	if (p->out_of_order)
		fprintf(out, "replay: %llu records earlier than the one before: issued at that one's "
			"time\n", (unsigned long long)p->out_of_order);
	for (i = 0; i < p->o.nrules; i++)
		fprintf(out, "replay: --prio %s\n", p->o.rules[i].text);
}

/* ---- the stream: one per run (per job for read_iolog) ---- */

struct replay_item {
	int64_t t;			/* absolute due time, or the trace's time (relative) */
	uint64_t offset;
	uint32_t len;
	uint16_t ioprio;
	uint8_t ddir;
};

struct replay_queue {
	struct replay_item *v;
	size_t cap, head, n;
	uint64_t delivered;
};

struct replay_stream;

struct replay_src {
	struct replay_stream *st;
	unsigned job;
};

struct replay_stream {
	const struct replay_plan *p;
	struct replay_plan *owned;	/* read_iolog: the plan is the stream's */
	struct trace_reader *rd;
	struct replay_queue *q;
	struct replay_src *src;
	bool started, failed;
	struct err err;
	int64_t t0, horizon;
	int64_t last_issue, last_time;	/* relative timing */
	bool have_last;
	uint64_t logical;
	struct replay_stream *next;
	/* The last record's key and job: consecutive records are mostly one process's. */
	char last_key[KEY_MAX];
	int last_job;
	bool merged;			/* read_iolog: its trace is a merge_blktrace_file */
};

static int64_t scaled(const struct replay_stream *st, int64_t dt)
{
	return st->p->o.speed == 1.0 ? dt : (int64_t)((double)dt / st->p->o.speed);
}

static int push(struct replay_queue *q, const struct replay_item *it)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64, i;
		struct replay_item *v = malloc(cap * sizeof(*v));

		if (!v)
			return -1;
		for (i = 0; i < q->n; i++)
			v[i] = q->v[(q->head + i) % q->cap];
		free(q->v);
		q->v = v;
		q->cap = cap;
		q->head = 0;
	}
	q->v[(q->head + q->n) % q->cap] = *it;
	q->n++;
	return 0;
}

/* Read one record into its job's queue: 1, 0 at the end, -1 a failure (st->err). */
static int pull(struct replay_stream *st)
{
	const struct replay_plan *p = st->p;
	struct trace_record r;
	struct replay_item it;
	char key[KEY_MAX];
	int rc = trace_next(st->rd, &r, &st->err), job;

	if (rc <= 0) {
		st->failed = rc < 0;
		return rc;
	}
	record_key(p, &r, key);
	if (st->last_job >= 0 && !strcmp(key, st->last_key)) {
		job = st->last_job;
	} else {
		unsigned slot;

		job = job_find(p, key, &slot);
		if (job < 0)
			job = p->other;
		if (job < 0) {
			st->failed = true;
			err_set(&st->err, "%s: record at %llu belongs to no job: the trace changed "
				"since it was first read", p->path, (unsigned long long)r.where);
			return -1;
		}
		memcpy(st->last_key, key, sizeof(key));
		st->last_job = job;
	}
	it.t = r.time_ns;
	if (!p->relative) {
		/* Times count from the trace's own zero (its start, or its first record). */
		int64_t due = st->t0 + scaled(st, r.time_ns);

		/* Out of order: at the time of the record before it. */
		it.t = due < st->horizon ? st->horizon : due;
		st->horizon = it.t;
	}
	it.offset = r.offset;
	it.len = (uint32_t)r.len;
	it.ddir = (uint8_t)r.ddir;
	it.ioprio = record_prio(p, &r);
	if (push(&st->q[job], &it)) {
		st->failed = true;
		err_set(&st->err, "out of memory for the replay's backlog of I/Os");
		return -1;
	}
	return 1;
}

static enum job_source_status replay_next(void *state, int64_t now, struct job_io_desc *io,
					  int64_t *wake_at)
{
	struct replay_src *src = state;
	struct replay_stream *st = src->st;
	struct replay_queue *q = &st->q[src->job];
	const struct replay_item *it;
	uint64_t off, end;
	int64_t due;

	if (!st->started) {
		st->started = true;
		st->t0 = now;
		st->horizon = now;
	}
	if (st->failed || q->delivered == st->p->jobs[src->job].ios)
		return JOB_SOURCE_END;
	if (!q->n) {
		unsigned pulled = 0;

		while (!q->n && pulled < REPLAY_WINDOW && pull(st) > 0)
			pulled++;
		if (st->failed)
			return JOB_SOURCE_END;
		if (!q->n) {
			if (pulled < REPLAY_WINDOW)
				return JOB_SOURCE_END;	/* the trace ended early */
			/* None of this job's before the last pulled record's time. */
			*wake_at = st->horizon > now ? st->horizon : now;
			return JOB_SOURCE_WAIT;
		}
	}
	it = &q->v[q->head];
	if (st->p->o.no_stall || st->p->o.closed) {
		due = now;
	} else if (st->p->relative) {
		/* fio's read_iolog: the gap to the previous record, from its issue. */
		due = now;
		if (st->have_last && it->t > st->last_time)
			due = st->last_issue + scaled(st, it->t - st->last_time);
	} else {
		due = it->t;
	}
	if (due > now) {
		*wake_at = due;
		return JOB_SOURCE_WAIT;
	}
	/* Whole sectors of the drive: a sub-sector trace I/O covers the sectors it touches. */
	off = it->offset / st->logical * st->logical;
	end = (it->offset + it->len + st->logical - 1) / st->logical * st->logical;
	io->ddir = it->ddir;
	io->offset = off;
	io->len = end - off;
	io->ioprio = it->ioprio;
	/* Open loop: latency counts from the recorded time, however late the process issues it. */
	io->due = st->p->o.closed || st->p->o.no_stall || st->p->relative ? 0 : due;
	st->last_issue = now;
	st->last_time = it->t;
	st->have_last = true;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	q->delivered++;
	return JOB_SOURCE_IO;
}

static const struct job_source_ops replay_source_ops = { "trace", replay_next };

static void stream_free(struct replay_stream *st)
{
	unsigned i;

	if (!st)
		return;
	trace_close(st->rd);
	for (i = 0; st->q && i < st->p->njobs; i++)
		free(st->q[i].v);
	free(st->q);
	free(st->src);
	replay_plan_free(st->owned);
	free(st);
}

static struct replay_stream *stream_new(const struct replay_plan *p, const struct job_target *t,
					struct err *e)
{
	struct replay_stream *st = calloc(1, sizeof(*st));
	uint64_t ls = t->logical_size ? t->logical_size : 512;
	uint64_t end = (p->max_end + ls - 1) / ls * ls;
	unsigned i;

	if (!st) {
		err_set(e, "out of memory");
		return NULL;
	}
	st->p = p;
	st->last_job = -1;
	st->logical = ls;
	if (end > t->capacity) {
		err_set(e, "%s: the trace reaches byte %llu (record at %llu), past the drive's %llu "
			"bytes", p->path, (unsigned long long)p->max_end,
			(unsigned long long)p->max_end_where, (unsigned long long)t->capacity);
		goto fail;
	}
	st->q = calloc(p->njobs, sizeof(*st->q));
	st->src = calloc(p->njobs, sizeof(*st->src));
	if (!st->q || !st->src) {
		err_set(e, "out of memory");
		goto fail;
	}
	for (i = 0; i < p->njobs; i++) {
		st->src[i].st = st;
		st->src[i].job = i;
	}
	st->rd = trace_open(p->path, p->format, &p->o.trace, e);
	if (!st->rd)
		goto fail;
	return st;
fail:
	stream_free(st);
	return NULL;
}

static void give(struct replay_stream *st, unsigned job, struct job_source *src)
{
	uint64_t ls = st->logical;

	src->ops = &replay_source_ops;
	src->state = &st->src[job];
	/* Rounded out to whole sectors, an I/O may grow by up to two sectors. */
	src->max_len = (st->p->max_len + 2 * ls - 1) / ls * ls;
	src->own_prios = st->p->own_prios;
}

/* Close every stream of a run; the first failure is the run's. */
static int streams_close(struct replay_stream *st, struct err *e)
{
	int rc = 0;

	while (st) {
		struct replay_stream *next = st->next;

		if (st->failed && !rc) {
			*e = st->err;
			rc = -1;
		}
		stream_free(st);
		st = next;
	}
	return rc;
}

/* ---- `ncqsim replay` and compare --trace: one stream per run, a job per key ---- */

static int plan_open_source(const void *ctx, void **run, const struct job_options *o,
			    unsigned index, unsigned clone, const struct job_target *t,
			    struct job_source *src, struct err *e)
{
	const struct replay_plan *p = ctx;
	struct replay_stream *st = *run;

	(void)o;
	(void)clone;
	if (index >= p->njobs)
		return 0;
	if (!st) {
		st = stream_new(p, t, e);
		if (!st)
			return -1;
		*run = st;
	}
	give(st, index, src);
	return 0;
}

static int plan_close(const void *ctx, void *run, struct err *e)
{
	(void)ctx;
	return streams_close(run, e);
}

const struct job_source_factory *replay_sources(const struct replay_plan *p)
{
	return &p->factory;
}

int replay_workload(const struct replay_plan *p, struct workload *w, struct err *e)
{
	size_t cap = 256 + (size_t)p->njobs * 160, n;
	char *text = malloc(cap);
	unsigned i;
	int rc;

	if (!text)
		return err_set(e, "out of memory");
	/* Latency counts from each record's time (slat holds any wait to issue): report it. */
	n = (size_t)snprintf(text, cap, "[global]\nioengine=libaio\nrw=randrw\nlat_percentiles=1\n");
	for (i = 0; i < p->njobs; i++) {
		unsigned depth = p->o.closed ? p->o.closed :
			p->jobs[i].ios < REPLAY_OPEN_DEPTH ? (unsigned)p->jobs[i].ios : REPLAY_OPEN_DEPTH;

		n += (size_t)snprintf(text + n, cap - n, "[trace%u]\niodepth=%u\n", i, depth);
	}
	rc = workload_load_text(w, text, "replay", NULL, e);
	free(text);
	if (rc)
		return -1;
	for (i = 0; i < w->ndefs && i < p->njobs; i++) {
		struct job_options *jo = &w->defs[i].o;

		snprintf(jo->name, sizeof(jo->name), "%s", p->jobs[i].name);
		snprintf(jo->description, sizeof(jo->description), "replay of %.200s: %llu I/Os",
			 p->path, (unsigned long long)p->jobs[i].ios);
	}
	return 0;
}

/* ---- read_iolog in job files: a plan and stream per job ---- */

/*
 * read_iolog's list of files, FILE:FILE:... as fio splits it (a '\\'
 * keeps the ':' after it in the name): the names into `names` (one
 * buffer), their count returned, -1 with e set when there are too many.
 */
#define IOLOG_MAX_FILES 64

static int iolog_names(const char *list, char *buf, const char **names, struct err *e)
{
	unsigned n = 0;
	char *w = buf;

	names[n++] = w;
	for (; *list; list++) {
		if (*list == '\\' && list[1] == ':') {
			*w++ = *++list;
		} else if (*list == ':') {
			*w++ = '\0';
			if (n == IOLOG_MAX_FILES)
				return err_set(e, "more than %d files", IOLOG_MAX_FILES);
			names[n++] = w;
		} else {
			*w++ = *list;
		}
	}
	*w = '\0';
	return (int)n;
}

/* Whether this run's streams already merged into `path` (numjobs clones share the merge). */
static bool merged_in_run(const struct replay_stream *st, const char *path)
{
	for (; st; st = st->next)
		if (st->merged && !strcmp(st->p->path, path))
			return true;
	return false;
}

/*
 * merge_blktrace_file: read_iolog's blktrace files merged into it, as
 * fio's documentation describes merge_blktrace_iologs() (fio 3.33's own
 * fails: docs/FIO.md), before the job starts, as fio writes it.
 */
static int iolog_merge(const struct job_options *o, const char *const *names, unsigned n,
		       struct err *e)
{
	struct trace_merge m = { names, n, o->nmerge_scalars ? o->merge_scalars : NULL,
		o->nmerge_iters ? o->merge_iters : NULL };
	struct outfile out;
	char what[JOB_NAME_MAX + 64];
	unsigned i;

	if (o->nmerge_scalars && o->nmerge_scalars != n)
		return err_set(e, "job '%s': option 'merge_blktrace_scalars': %u values for the %u "
			       "files of read_iolog; give one per file", o->name, o->nmerge_scalars, n);
	if (o->nmerge_iters && o->nmerge_iters != n)
		return err_set(e, "job '%s': option 'merge_blktrace_iters': %u values for the %u "
			       "files of read_iolog; give one per file", o->name, o->nmerge_iters, n);
	for (i = 0; i < n; i++)
		if (outfile_same_target(o->merge_blktrace_file, names[i]))
			return err_set(e, "job '%s': option 'merge_blktrace_file': %s is one of the "
				       "files it merges; refusing to overwrite it", o->name, names[i]);
	snprintf(what, sizeof(what), "job '%s': merge_blktrace_file", o->name);
	if (outfile_open(&out, o->merge_blktrace_file, what, e))
		return -1;
	if (trace_blktrace_merge(&m, out.f, e)) {
		outfile_abort(&out);
		return err_prefix(e, "job '%s': option 'merge_blktrace_file': ", o->name);
	}
	return outfile_commit(&out, e);
}

static int iolog_open_source(const void *ctx, void **run, const struct job_options *o,
			     unsigned index, unsigned clone, const struct job_target *t,
			     struct job_source *src, struct err *e)
{
	struct replay_opts ro;
	struct replay_plan *p;
	struct replay_stream *st;
	const char *fmt, *names[IOLOG_MAX_FILES];
	char buf[JOB_PATH_MAX];
	int n;

	(void)ctx;
	(void)index;
	if (!o->read_iolog[0])
		return 0;
	n = iolog_names(o->read_iolog, buf, names, e);
	if (n < 0)
		return err_prefix(e, "job '%s': option 'read_iolog': ", o->name);
	memset(&ro, 0, sizeof(ro));
	if (o->merge_blktrace_file[0]) {
		if (!merged_in_run(*run, o->merge_blktrace_file) &&
		    iolog_merge(o, names, (unsigned)n, e))
			return -1;
		ro.path = o->merge_blktrace_file;
	} else {
		/*
		 * fio gives each numjobs clone a file of the list by its subjob
		 * number, which counts the clones down: the first job 0, the
		 * next numjobs - 1, then numjobs - 2, ... (a:b with numjobs=3:
		 * a, a, b).
		 */
		ro.path = names[(clone ? o->numjobs - clone : 0) % (unsigned)n];
	}
	ro.format = "auto";
	ro.trace.replay_skip = o->replay_skip;
	ro.trace.one_file = true;	/* fio reads the blktrace file it is given, no other CPU's */
	ro.trace.replay_align = o->replay_align;
	ro.trace.replay_scale = o->replay_scale;
	ro.relative = true;
	ro.no_stall = o->replay_no_stall;
	ro.speed = o->replay_time_scale / 100.0;
	ro.one_job = true;
	p = replay_plan_open(&ro, e);
	if (!p)
		return err_prefix(e, "job '%s': option 'read_iolog': ", o->name);
	fmt = p->fmt->plugin.name;
	if (strcmp(fmt, "iolog") && strcmp(fmt, "blktrace")) {
		replay_plan_free(p);
		return err_set(e, "job '%s': option 'read_iolog': %s looks like a %s trace; fio reads "
			       "only its iologs and blktrace binaries here (use 'ncqsim replay')",
			       o->name, o->read_iolog, fmt);
	}
	st = stream_new(p, t, e);
	if (!st) {
		replay_plan_free(p);
		return err_prefix(e, "job '%s': option 'read_iolog': ", o->name);
	}
	st->owned = p;
	st->merged = o->merge_blktrace_file[0] != '\0';
	st->next = *run;
	*run = st;
	give(st, 0, src);
	return 0;
}

const struct job_source_factory replay_iolog_sources = {
	iolog_open_source, plan_close, NULL,
};
