/*
 * Trace replay: for every format, a small trace replayed open loop issues
 * every traced I/O once, with its offset, size and direction, at its
 * recorded time and in timestamp order — checked against the trace file
 * read here by a separate, plain reader (sscanf). The blktrace binary
 * files are written by this test from a table (make_blktrace below), two
 * per-CPU files merged by time. Then: priority rules and the trace's own
 * ioprio, closed loop, read_iolog in a job file, and broken input (one
 * message naming file and line, or a count with skip_bad).
 */
#include "testlib.h"

#include "run/replay.h"
#include "run/runner.h"
#include "trace/trace.h"
#include "util/ioprio.h"
#include "workload/source.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_IOS 512

struct io {
	int64_t t;			/* ns from the first record / the jobs' start */
	int ddir;
	uint64_t off, len;
	uint16_t prio;
	unsigned job;
};

/* ---- what the replay issued: a recording wrapper around the replay's sources ---- */

static struct io issued[MAX_IOS];
static unsigned nissued;
static int64_t t_start = -1;
static const struct job_source_factory *inner;

struct wrap {
	const struct job_source_ops *ops;
	void *state;
	unsigned job;
};
static struct wrap wraps[REPLAY_MAX_JOBS + 1];

static enum job_source_status wrap_next(void *state, int64_t now, struct job_io_desc *io,
					int64_t *wake_at)
{
	struct wrap *w = state;
	enum job_source_status s = w->ops->next(w->state, now, io, wake_at);

	if (t_start < 0)
		t_start = now;
	if (s == JOB_SOURCE_IO && nissued < MAX_IOS) {
		struct io *r = &issued[nissued++];

		r->t = now - t_start;
		r->ddir = io->ddir;
		r->off = io->offset;
		r->len = io->len;
		r->prio = io->ioprio;
		r->job = w->job;
	}
	return s;
}

static const struct job_source_ops wrap_ops = { "recording", wrap_next };

static int wrap_open(const void *ctx, void **run, const struct job_options *o, unsigned index,
		     unsigned clone, const struct job_target *t, struct job_source *src,
		     struct err *e)
{
	int rc = inner->open(inner->ctx, run, o, index, clone, t, src, e);

	(void)ctx;
	if (rc || !src->ops)
		return rc;
	wraps[index].ops = src->ops;
	wraps[index].state = src->state;
	wraps[index].job = index;
	src->ops = &wrap_ops;
	src->state = &wraps[index];
	return 0;
}

static int wrap_close(const void *ctx, void *run, struct err *e)
{
	(void)ctx;
	return inner->close(inner->ctx, run, e);
}

static const struct job_source_factory recording = { wrap_open, wrap_close, NULL };

static unsigned nr_requests;		/* 0: the default */

/* Replay a trace with the given options; the report's jobs are kept in *res. */
static int replay(struct replay_opts *o, struct runner_result *res, unsigned *njobs)
{
	struct replay_plan *p;
	struct workload w;
	struct host_config cfg;
	struct runner_opts ro;
	struct err e;
	int rc;

	nissued = 0;
	t_start = -1;
	p = replay_plan_open(o, &e);
	if (!p) {
		fprintf(stderr, "plan: %s\n", e.msg);
		return -1;
	}
	if (replay_workload(p, &w, &e)) {
		fprintf(stderr, "workload: %s\n", e.msg);
		replay_plan_free(p);
		return -1;
	}
	*njobs = w.ndefs;
	host_config_init(&cfg);
	cfg.k.nr_requests = nr_requests;
	memset(&ro, 0, sizeof(ro));
	ro.seed = 1;
	inner = replay_sources(p);
	ro.sources = &recording;
	rc = runner_run(&w, &cfg, &ro, res, &e);
	if (rc)
		fprintf(stderr, "run: %s\n", e.msg);
	workload_free(&w);
	replay_plan_free(p);
	return rc;
}

/* ---- the trace files, read plainly ---- */

static unsigned read_blkparse(const char *path, struct io *v)
{
	char line[512], act[8], rwbs[16];
	unsigned n = 0, pid;
	double s;
	unsigned long long sec, cnt;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*u %*u %lf %u %7s %15s %llu + %llu", &s, &pid, act, rwbs, &sec,
			   &cnt) == 6 && !strcmp(act, "Q") && !strchr(rwbs, 'D') && cnt) {
			v[n].t = (int64_t)(s * 1e9 + 0.5);
			v[n].ddir = strchr(rwbs, 'W') ? DDIR_WRITE : DDIR_READ;
			v[n].off = sec * 512;
			v[n].len = cnt * 512;
			n++;
		}
	if (f)
		fclose(f);
	return n;
}

static unsigned read_msr(const char *path, struct io *v)
{
	char line[512], host[64], type[16];
	unsigned n = 0, disk;
	unsigned long long ts, off, size, resp, first = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu,%63[^,],%u,%15[^,],%llu,%llu,%llu", &ts, host, &disk, type, &off,
			   &size, &resp) == 7) {
			if (!n)
				first = ts;
			v[n].t = (int64_t)(ts - first) * 100;
			v[n].ddir = !strcmp(type, "Write") ? DDIR_WRITE : DDIR_READ;
			v[n].off = off;
			v[n].len = size;
			n++;
		}
	if (f)
		fclose(f);
	return n;
}

static unsigned read_disksim(const char *path, struct io *v)
{
	char line[256];
	unsigned n = 0, dev, flags;
	unsigned long long blk, size;
	double ms, first = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lf %u %llu %llu %u", &ms, &dev, &blk, &size, &flags) == 5) {
			if (!n)
				first = ms;
			v[n].t = (int64_t)((ms - first) * 1e6 + 0.5);
			v[n].ddir = flags & 1 ? DDIR_READ : DDIR_WRITE;
			v[n].off = blk * 512;
			v[n].len = size * 512;
			n++;
		}
	if (f)
		fclose(f);
	return n;
}

static unsigned read_iolog(const char *path, int version, struct io *v)
{
	char line[512], file[128], act[16];
	unsigned n = 0;
	unsigned long long us, off, len;
	int64_t wait = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		int got = version == 3 ?
			sscanf(line, "%llu %127s %15s %llu %llu", &us, file, act, &off, &len) - 1 :
			sscanf(line, "%127s %15s %llu %llu", file, act, &off, &len);

		if (version == 2 && got == 4 && !strcmp(act, "wait"))
			wait = (int64_t)off * 1000000;
		if (got != 4 || (strcmp(act, "read") && strcmp(act, "write")))
			continue;
		v[n].t = version == 3 ? (int64_t)us * 1000 : wait;
		v[n].ddir = !strcmp(act, "write") ? DDIR_WRITE : DDIR_READ;
		v[n].off = off;
		v[n].len = len;
		n++;
	}
	if (f)
		fclose(f);
	return n;
}

static unsigned read_csv(const char *path, struct io *v)
{
	char line[512], type[16];
	unsigned n = 0, lun;
	unsigned long long off, size;
	double ms, first = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lf,%*[^,],%15[^,],%u,%llu,%llu", &ms, type, &lun, &off, &size) == 5) {
			if (!n)
				first = ms;
			v[n].t = (int64_t)((ms - first) * 1e6 + 0.5);
			v[n].ddir = (type[0] == 'W' || type[0] == 'w') ? DDIR_WRITE : DDIR_READ;
			v[n].off = off;
			v[n].len = size;
			n++;
		}
	if (f)
		fclose(f);
	return n;
}

/* ---- blktrace binary: written here from a table ---- */

struct bt {
	unsigned cpu;
	uint64_t time, sector;
	uint32_t bytes, action, pid;
	const char *pdu;		/* a process name, for notify records */
};

#define TC(x) ((uint32_t)(x) << 16)
enum { TC_READ = 1, TC_WRITE = 2, TC_QUEUE = 16, TC_ISSUE = 64, TC_PC = 512, TC_NOTIFY = 1024,
       TC_DISCARD = 8192, TA_QUEUE = 1, TA_ISSUE = 7, TA_COMPLETE = 8 };

static const struct bt bt_table[] = {
	{ 0, 1000, 0, 0, TC(TC_NOTIFY), 77, "mysqld" },
	{ 0, 2000, 2048, 4096, TC(TC_READ | TC_QUEUE) | TA_QUEUE, 77, NULL },
	{ 1, 2500, 999424, 65536, TC(TC_WRITE | TC_QUEUE) | TA_QUEUE, 88, NULL },
	{ 0, 3000, 2048, 4096, TC(TC_READ | TC_ISSUE) | TA_ISSUE, 77, NULL },
	{ 1, 400000, 50000, 8192, TC(TC_READ | TC_QUEUE) | TA_QUEUE, 88, NULL },
	{ 0, 600000, 4096, 512, TC(TC_WRITE | TC_QUEUE) | TA_QUEUE, 77, NULL },
	{ 1, 700000, 70000, 4096, TC(TC_WRITE | TC_DISCARD | TC_QUEUE) | TA_QUEUE, 88, NULL },
	{ 0, 800000, 0, 0, TC(TC_PC | TC_READ | TC_QUEUE) | TA_QUEUE, 77, NULL },
	{ 1, 900000, 999424, 65536, TC(TC_WRITE) | TA_COMPLETE, 0, NULL },
	{ 0, 2000000, 123456, 16384, TC(TC_READ | TC_QUEUE) | TA_QUEUE, 77, NULL },
};

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* NAME.blktrace.0 and .1 in dir; returns the path of .0. */
static const char *make_blktrace(const char *dir)
{
	static char path0[512];
	unsigned cpu, i, seq = 0;

	for (cpu = 0; cpu < 2; cpu++) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/t.blktrace.%u", dir, cpu);
		f = fopen(path, "wb");
		for (i = 0; f && i < sizeof(bt_table) / sizeof(bt_table[0]); i++) {
			const struct bt *b = &bt_table[i];
			unsigned char rec[48];
			uint16_t pdu = b->pdu ? (uint16_t)(strlen(b->pdu) + 1) : 0;

			if (b->cpu != cpu)
				continue;
			memset(rec, 0, sizeof(rec));
			put32(rec, 0x65617407u);
			put32(rec + 4, ++seq);
			put64(rec + 8, b->time);
			put64(rec + 16, b->sector);
			put32(rec + 24, b->bytes);
			put32(rec + 28, b->action);
			put32(rec + 32, b->pid);
			put32(rec + 36, 8u << 20);
			put32(rec + 40, cpu);
			memcpy(rec + 46, &pdu, 2);
			fwrite(rec, 1, sizeof(rec), f);
			if (pdu)
				fwrite(b->pdu, 1, pdu, f);
		}
		if (f)
			fclose(f);
		if (!cpu)
			snprintf(path0, sizeof(path0), "%s", path);
	}
	return path0;
}

static unsigned read_bt_table(struct io *v)
{
	unsigned i, n = 0;
	uint64_t first = 0;

	for (i = 0; i < sizeof(bt_table) / sizeof(bt_table[0]); i++) {
		const struct bt *b = &bt_table[i];
		uint32_t cat = b->action >> 16;

		if ((b->action & 0xffff) != TA_QUEUE || (cat & (TC_NOTIFY | TC_PC | TC_DISCARD)) ||
		    !b->bytes)
			continue;
		if (!n)
			first = b->time;
		v[n].t = (int64_t)(b->time - first);
		v[n].ddir = cat & TC_WRITE ? DDIR_WRITE : DDIR_READ;
		v[n].off = b->sector * 512;
		v[n].len = b->bytes;
		n++;
	}
	return n;
}

/* ---- checks ---- */

/* By time, then offset: I/Os of different jobs recorded at one time may go in either order. */
static int by_time(const void *a, const void *b)
{
	const struct io *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->len < y->len ? -1 : x->len > y->len;
}

static void check_replay(const char *what, const char *path, const char *format, struct io *want,
			 unsigned nwant, int64_t tol_ns, unsigned want_jobs)
{
	struct replay_opts o;
	struct runner_result *res = malloc(sizeof(*res));
	static struct io got[MAX_IOS];
	unsigned i, njobs = 0;

	memset(&o, 0, sizeof(o));
	o.path = path;
	o.format = format;
	CHECK_MSG(nwant > 0, "%s: the plain reader found nothing in %s", what, path);
	if (!res || replay(&o, res, &njobs)) {
		CHECK_MSG(0, "%s: replay of %s failed", what, path);
		free(res);
		return;
	}
	CHECK_MSG(njobs == want_jobs, "%s: %u jobs, expected %u", what, njobs, want_jobs);
	CHECK_MSG(nissued == nwant, "%s: %u I/Os issued, the trace has %u", what, nissued, nwant);
	for (i = 1; i < nissued; i++)
		CHECK_MSG(issued[i].t >= issued[i - 1].t, "%s: I/O %u issued before the one before it",
			  what, i);
	memcpy(got, issued, sizeof(got));
	qsort(got, nissued, sizeof(got[0]), by_time);
	qsort(want, nwant, sizeof(want[0]), by_time);
	for (i = 0; i < nissued && i < nwant; i++) {
		const struct io *g = &got[i], *x = &want[i];

		CHECK_MSG(g->ddir == x->ddir && g->off == x->off && g->len == x->len,
			  "%s: I/O %u issued as %s %llu+%llu, the trace has %s %llu+%llu", what, i,
			  g->ddir ? "write" : "read", (unsigned long long)g->off,
			  (unsigned long long)g->len, x->ddir ? "write" : "read",
			  (unsigned long long)x->off, (unsigned long long)x->len);
		CHECK_MSG(g->t >= x->t - tol_ns && g->t <= x->t + tol_ns,
			  "%s: I/O %u issued at %lld ns, recorded at %lld ns", what, i,
			  (long long)g->t, (long long)x->t);
	}
	runner_result_free(res);
	free(res);
}

static void test_formats(const char *dir)
{
	struct io want[MAX_IOS];
	unsigned n;

	n = read_blkparse(test_data("traces/small.blkparse"), want);
	check_replay("blkparse", test_data("traces/small.blkparse"), "blkparse", want, n, 0, 3);
	n = read_msr(test_data("traces/small.msr"), want);
	check_replay("msr", test_data("traces/small.msr"), "auto", want, n, 0, 2);
	n = read_disksim(test_data("traces/small.disksim"), want);
	check_replay("disksim", test_data("traces/small.disksim"), "disksim", want, n, 1, 2);
	n = read_iolog(test_data("traces/small-v3.iolog"), 3, want);
	check_replay("iolog v3", test_data("traces/small-v3.iolog"), "auto", want, n, 0, 1);
	n = read_iolog(test_data("traces/small-v2.iolog"), 2, want);
	check_replay("iolog v2", test_data("traces/small-v2.iolog"), "iolog", want, n, 0, 1);
	n = read_csv(test_data("traces/small.csv"), want);
	check_replay("snia-csv", test_data("traces/small.csv"), "auto", want, n, 1, 2);
	n = read_bt_table(want);
	check_replay("blktrace", make_blktrace(dir), "auto", want, n, 0, 2);
	{
		char name[512];

		/* NAME alone, as blkparse takes it: NAME.blktrace.0 and .1 are read. */
		snprintf(name, sizeof(name), "%s/t", dir);
		n = read_bt_table(want);
		check_replay("blktrace NAME", name, "blktrace", want, n, 0, 2);
	}
}

/* --prio rules, first match wins, then the trace's own ioprio. */
static void test_prio(void)
{
	struct replay_opts o;
	struct runner_result *res = malloc(sizeof(*res));
	struct err e;
	unsigned i, njobs, rt = 0, idle = 0, none = 0, cdl = 0;

	memset(&o, 0, sizeof(o));
	o.path = test_data("traces/small.blkparse");
	o.format = "auto";
	CHECK(!replay_rule_parse("postgres=rt", &o.rules[0], &e));
	CHECK(!replay_rule_parse("size>=128k=idle", &o.rules[1], &e));
	CHECK(!replay_rule_parse("kworker*=cdl3", &o.rules[2], &e));
	o.nrules = 3;
	if (!res || replay(&o, res, &njobs)) {
		CHECK_MSG(0, "replay with --prio failed");
		free(res);
		return;
	}
	for (i = 0; i < nissued; i++) {
		unsigned c = ioprio_class(issued[i].prio);

		if (issued[i].len >= 131072)
			CHECK_MSG(c == IOPRIO_CLASS_IDLE, "a %llu-byte I/O of class %u",
				  (unsigned long long)issued[i].len, c);
		rt += c == IOPRIO_CLASS_RT;
		idle += c == IOPRIO_CLASS_IDLE;
		none += issued[i].prio == 0;
		cdl += ioprio_hint(issued[i].prio) == 3;
	}
	CHECK_EQ_INT(rt, 3);	/* postgres' three reads */
	CHECK_EQ_INT(idle, 3);	/* backup's three 128 KiB writes */
	CHECK_EQ_INT(cdl, 1);	/* the kworker's read */
	CHECK_EQ_INT(none, 0);
	/* Per-priority statistics, as run gives with cmdprio. */
	CHECK(res->report.njobs >= 1 && res->report.jobs[0].multi_prio);
	runner_result_free(res);

	/* The trace's own priorities: the CSV's IOPrio column. */
	memset(&o, 0, sizeof(o));
	o.path = test_data("traces/small.csv");
	o.format = "snia-csv";
	if (replay(&o, res, &njobs) == 0) {
		static const struct { uint64_t off; uint16_t prio; } want[] = {
			{ 4096, 0 }, { 1048576, 2 << 13 | 4 }, { 8192, 1 << 13 }, { 409600, 8196 },
			{ 0, 0 },
		};
		unsigned k;

		CHECK_EQ_INT(nissued, 5);
		for (k = 0; k < 5; k++)
			for (i = 0; i < nissued; i++)
				if (issued[i].off == want[k].off)
					CHECK_MSG(issued[i].prio == want[k].prio, "offset %llu: ioprio %u, "
						  "the CSV says %u", (unsigned long long)want[k].off,
						  issued[i].prio, want[k].prio);
		runner_result_free(res);
	} else {
		CHECK_MSG(0, "replay of small.csv failed");
	}
	free(res);

	{
		static const char *const bad[][2] = {
			{ "postgres", "expected PROCESS=CLASS" },
			{ "postgres=urgent", "expected a class rt, be or idle" },
			{ "postgres=rt:9", "expected a class" },
			{ "size<64q=rt", "expected a size such as 64k" },
			{ "=rt", "expected PROCESS=CLASS" },
			{ "x=cdl8", "cdl1..cdl7" },
		};
		struct replay_rule r;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			int rc = replay_rule_parse(bad[i][0], &r, &e);

			CHECK_MSG(rc != 0, "--prio %s accepted", bad[i][0]);
			CHECK_MSG(rc == 0 || strstr(e.msg, bad[i][1]), "--prio %s: '%s' lacks '%s'",
				  bad[i][0], e.msg, bad[i][1]);
		}
	}
}

/* --closed N: one job, every I/O, the trace's order, no waiting for times. */
static void test_closed(void)
{
	struct replay_opts o;
	struct runner_result *res = malloc(sizeof(*res));
	struct io want[MAX_IOS];
	unsigned n = read_blkparse(test_data("traces/small.blkparse"), want), i, njobs;

	memset(&o, 0, sizeof(o));
	o.path = test_data("traces/small.blkparse");
	o.closed = 2;
	if (!res || replay(&o, res, &njobs)) {
		CHECK_MSG(0, "closed replay failed");
		free(res);
		return;
	}
	CHECK_EQ_INT(njobs, 1);
	CHECK_EQ_INT(nissued, n);
	CHECK_EQ_INT(issued[0].t, 0);
	CHECK_EQ_INT(issued[1].t, 0);	/* two outstanding at once */
	for (i = 0; i < n && i < nissued; i++)
		CHECK(issued[i].off == want[i].off && issued[i].len == want[i].len);
	CHECK(nissued > 2 && issued[2].t > 0);	/* the third after a completion */
	runner_result_free(res);
	free(res);
}

/*
 * Open loop, a process blocked in io_submit(): eight reads recorded at
 * once, four requests in the host. The later reads go out late, and
 * their latency counts from the recorded time.
 */
static void test_backlog(const char *dir)
{
	char path[512];
	struct replay_opts o;
	struct runner_result *res = malloc(sizeof(*res));
	unsigned i, njobs;
	FILE *f;

	snprintf(path, sizeof(path), "%s/burst.disksim", dir);
	f = fopen(path, "w");
	for (i = 0; f && i < 8; i++)
		fprintf(f, "0.0 0 %u 8 1\n", 1000000 * (i + 1));
	if (f)
		fclose(f);
	memset(&o, 0, sizeof(o));
	o.path = path;
	nr_requests = 4;
	if (res && replay(&o, res, &njobs) == 0) {
		const struct report_dir *rd = &res->report.jobs[0].dir[DDIR_READ];

		CHECK_EQ_INT(nissued, 8);
		CHECK_MSG(nissued == 8 && issued[7].t > 0, "the 8th read went out at %lld ns",
			  (long long)issued[7].t);
		CHECK_MSG(nissued == 8 && rd->slat.sum.max >= (uint64_t)issued[7].t,
			  "slat max %llu ns, but the last read waited %lld ns to go out",
			  (unsigned long long)rd->slat.sum.max, (long long)issued[7].t);
		CHECK(res->report.jobs[0].lat_percentiles);
		runner_result_free(res);
	} else {
		CHECK_MSG(0, "burst replay failed");
	}
	nr_requests = 0;
	free(res);
	unlink(path);
}

/* Past REPLAY_MAX_JOBS processes, the rest share a job "other"; every I/O still goes out. */
static void test_many_processes(const char *dir)
{
	char path[512];
	struct replay_opts o;
	struct runner_result *res = malloc(sizeof(*res));
	unsigned i, njobs = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/many.blkparse", dir);
	f = fopen(path, "w");
	for (i = 0; f && i < 300; i++)
		fprintf(f, "  8,0 0 %u 0.%09u %u Q R %u + 8 [p%u]\n", i + 1, i * 1000, 1000 + i,
			i * 64, i);
	if (f)
		fclose(f);
	memset(&o, 0, sizeof(o));
	o.path = path;
	if (res && replay(&o, res, &njobs) == 0) {
		CHECK_EQ_INT(njobs, REPLAY_MAX_JOBS + 1);
		CHECK_EQ_INT(nissued, 300);
		CHECK_EQ_STR(res->report.jobs[REPLAY_MAX_JOBS].name, "other");
		CHECK_EQ_U64(res->report.jobs[REPLAY_MAX_JOBS].dir[DDIR_READ].total_ios,
			     300 - REPLAY_MAX_JOBS);
		runner_result_free(res);
	} else {
		CHECK_MSG(0, "replay of 300 processes failed");
	}
	free(res);
	unlink(path);
}

/* read_iolog in a job file: every I/O of the log, fio's gaps between them. */
static void test_read_iolog(void)
{
	char text[1024];
	struct workload w;
	struct host_config cfg;
	struct runner_opts ro;
	struct runner_result *res = malloc(sizeof(*res));
	struct err e;

	snprintf(text, sizeof(text), "[replay]\nioengine=libaio\niodepth=4\nread_iolog=%s\n",
		 test_data("traces/small-v3.iolog"));
	if (!res || workload_load_text(&w, text, "t.fio", NULL, &e)) {
		CHECK_MSG(0, "job file: %s", e.msg);
		free(res);
		return;
	}
	host_config_init(&cfg);
	memset(&ro, 0, sizeof(ro));
	ro.seed = 1;
	/* Watch the I/Os: fio's timing is the log's gaps, from each issue to the next. */
	inner = &replay_iolog_sources;
	ro.sources = &recording;
	nissued = 0;
	t_start = -1;
	if (runner_run(&w, &cfg, &ro, res, &e)) {
		CHECK_MSG(0, "read_iolog run: %s", e.msg);
	} else {
		const struct report_job *j = &res->report.jobs[0];
		static const int64_t at_us[] = { 0, 250, 250, 2400, 8900 };
		unsigned k;

		CHECK_EQ_INT(nissued, 5);
		for (k = 0; k < 5 && k < nissued; k++)
			CHECK_MSG(issued[k].t == at_us[k] * 1000, "read_iolog I/O %u at %lld ns, "
				  "expected %lld us", k, (long long)issued[k].t, (long long)at_us[k]);

		CHECK_EQ_U64(j->dir[DDIR_READ].total_ios, 3);
		CHECK_EQ_U64(j->dir[DDIR_WRITE].total_ios, 2);
		CHECK_EQ_U64(j->dir[DDIR_READ].io_bytes, 4096 + 8192 + 4096);
		CHECK_EQ_U64(j->dir[DDIR_WRITE].io_bytes, 65536 + 512);
		runner_result_free(res);
	}
	workload_free(&w);
	ro.sources = NULL;
	/* A read_iolog that is not an iolog or a blktrace: refused by name. */
	snprintf(text, sizeof(text), "[replay]\nread_iolog=%s\n", test_data("traces/small.msr"));
	if (!workload_load_text(&w, text, "t.fio", NULL, &e)) {
		int rc = runner_run(&w, &cfg, &ro, res, &e);

		CHECK(rc == RUNNER_REFUSED);
		CHECK_MSG(rc == 0 || strstr(e.msg, "read_iolog"), "message: %s", e.msg);
		if (!rc)
			runner_result_free(res);
		workload_free(&w);
	}
	free(res);
}

/* Broken input: one message with file, line and what was expected; skip_bad counts. */
static void test_broken(const char *dir)
{
	static const struct {
		const char *format, *text, *msg;
		unsigned line, good;	/* the bad line; records before and after it */
	} cases[] = {
		{ "iolog", "fio version 1 iolog\n", "expected 'fio version 2 iolog'", 1, 0 },
		{ "iolog", "fio version 3 iolog\nx /dev/sdb read 0 4096\n", "time in microseconds", 2, 0 },
		{ "iolog", "fio version 2 iolog\n/dev/sdb read 0 4096\n/dev/sdb jump 0 4096\n"
		  "/dev/sdb write 0 4096\n", "expected read, write", 3, 2 },
		{ "iolog", "fio version 2 iolog\n/dev/sdb read zero 4096\n", "expected an offset", 2, 0 },
		{ "iolog", "fio version 2 iolog\n/dev/sdb read 0\n", "OFFSET LENGTH", 2, 0 },
		{ "blkparse", "  8,0 0 1 0.000000000 1 Q R 0 + 8 [a]\n  8,0 0 2 x 1 Q R 0 + 8 [a]\n",
		  "expected a time in seconds", 2, 1 },
		{ "blkparse", "  8,0 0 1 0.1 1 Q R 0 - 8 [a]\n", "expected SECTOR + COUNT", 1, 0 },
		{ "blkparse", "  8:0 0 1 0.1 1 Q R 0 + 8 [a]\n", "MAJOR,MINOR", 1, 0 },
		{ "blkparse", "  8,0 0 1 0.1 1 Q R 0 + 8x [a]\n", "sector count", 1, 0 },
		{ "msr", "1,h,0,Read,0,4096,1\n2,h,0,Read,0,4096\n3,h,0,Write,0,512,1\n",
		  "expected 7 fields", 2, 2 },
		{ "msr", "1,h,0,Trim,0,4096,1\n", "expected Read or Write", 1, 0 },
		{ "msr", "1,h,0,Read,-5,4096,1\n", "Offset", 1, 0 },
		{ "snia-csv", "Time,Offset,Size\n", "naming at least", 1, 0 },
		{ "snia-csv", "Timestamp(h),Type,Offset,Size\n", "time unit", 1, 0 },
		{ "snia-csv", "Timestamp,Type,Offset,Size\n0.1,R,0,4096\n0.2,X,0,4096\n",
		  "expected R, W", 3, 1 },
		{ "snia-csv", "Timestamp,Type,Offset,Size\n0.1,R,0\n", "expected 4 columns", 2, 0 },
		{ "snia-csv", "Timestamp,Type,Offset,Size,IOPrio\n0.1,R,0,512,urgent\n", "priority", 2, 0 },
		{ "disksim", "0.0 0 8 8 1\n0.5 0 8 8\n", "expected 5 fields", 2, 1 },
		{ "disksim", "zero 0 8 8 1\n", "arrival time", 1, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512], where[600];
		struct trace_opts o;
		struct trace_reader *rd;
		struct trace_record r;
		struct err e;
		unsigned good = 0, pass;
		int rc = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/broken%u.trace", dir, i);
		f = fopen(path, "w");
		if (f) {
			fputs(cases[i].text, f);
			fclose(f);
		}
		snprintf(where, sizeof(where), "%s:%u: ", path, cases[i].line);
		for (pass = 0; pass < 2; pass++) {
			memset(&o, 0, sizeof(o));
			o.skip_bad = pass == 1;
			good = 0;
			e.msg[0] = '\0';
			rd = trace_open(path, cases[i].format, &o, &e);
			if (rd) {
				while ((rc = trace_next(rd, &r, &e)) == 1)
					good++;
			}
			if (!pass || !rd) {
				CHECK_MSG(!rd || rc < 0, "case %u (%s): accepted", i, cases[i].format);
				CHECK_MSG(strstr(e.msg, cases[i].msg) && strstr(e.msg, where),
					  "case %u (%s): message '%s' lacks '%s' or '%s'", i,
					  cases[i].format, e.msg, where, cases[i].msg);
			} else {
				CHECK_MSG(rc == 0 && trace_reader_bad(rd) == 1 && good == cases[i].good,
					  "case %u (%s), skip_bad: rc %d, %llu bad, %u good (want 1, %u)",
					  i, cases[i].format, rc,
					  (unsigned long long)trace_reader_bad(rd), good, cases[i].good);
			}
			trace_close(rd);
			if (!rd)
				break;	/* a bad header: skip_bad does not apply */
		}
		unlink(path);
	}
	/* blktrace: a bad magic stops the reader, skip_bad or not. */
	{
		char path[512];
		unsigned char junk[48] = { 0x07, 0x74, 0x61, 0x65 };
		struct trace_reader *rd;
		struct trace_record r;
		struct trace_opts o;
		struct err e;
		FILE *f;
		int rc = 0;

		snprintf(path, sizeof(path), "%s/bad.blktrace.0", dir);
		f = fopen(path, "wb");
		if (f) {
			fwrite(junk, 1, sizeof(junk), f);
			junk[3] = 0x12;
			fwrite(junk, 1, sizeof(junk), f);
			fwrite(junk, 1, 10, f);
			fclose(f);
		}
		memset(&o, 0, sizeof(o));
		o.skip_bad = true;
		rd = trace_open(path, "blktrace", &o, &e);
		CHECK(rd != NULL);
		while (rd && (rc = trace_next(rd, &r, &e)) == 1)
			;
		CHECK_MSG(rc < 0 && strstr(e.msg, "record 2") && strstr(e.msg, "magic"),
			  "blktrace bad magic: '%s'", e.msg);
		trace_close(rd);
		unlink(path);
	}
	/* A trace past the drive's end is refused before the run. */
	{
		char path[512];
		struct replay_opts o;
		struct runner_result res;
		unsigned njobs;
		FILE *f;

		snprintf(path, sizeof(path), "%s/far.msr", dir);
		f = fopen(path, "w");
		if (f) {
			fputs("1,h,0,Read,99999999999999,4096,1\n", f);
			fclose(f);
		}
		memset(&o, 0, sizeof(o));
		o.path = path;
		CHECK(replay(&o, &res, &njobs) == RUNNER_REFUSED);
		unlink(path);
	}
}

int main(void)
{
	char dir[] = "/tmp/t_trace.XXXXXX";

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_formats(dir);
	test_prio();
	test_closed();
	test_backlog(dir);
	test_many_processes(dir);
	test_read_iolog();
	test_broken(dir);
	unlink(make_blktrace(dir));
	{
		char p1[600];

		snprintf(p1, sizeof(p1), "%s/t.blktrace.1", dir);
		unlink(p1);
	}
	rmdir(dir);
	return test_done();
}
