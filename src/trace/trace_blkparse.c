/*
 * blkparse — the default text output of blkparse (blktrace's formatter):
 *
 *   DEV  CPU  SEQ  SECONDS.NANOSECONDS  PID  ACTION  RWBS  SECTOR + COUNT [PROCESS]
 *   8,0    3    1     0.000000000        697  Q       WS   3417048 + 8 [kjournald]
 *
 * The replayed event is Q (the I/O as the process queued it), or D (as the
 * block layer issued it to the driver) with at_dispatch. Every other
 * action (merges, plugs, completions, messages) is another stage of an I/O
 * already counted and is passed over. RWBS: R read, W write; D (discard),
 * or no sectors (a flush alone) moves no data and is counted as ignored.
 * Sectors are 512 bytes, as blkparse prints them whatever the device.
 * The summary blkparse prints at the end ("CPU0 (8,0):", "Total ...")
 * ends the trace. Devices (DEV) all map to the one simulated drive.
 */
#include "trace/trace.h"

#include "workload/job_options.h"

#include <ctype.h>
#include <string.h>

struct blkparse_state {
	char event;			/* 'Q' or 'D' */
};

/* "8,0" */
static bool is_dev(const char *s)
{
	const char *c = strchr(s, ',');
	uint64_t v;
	char maj[16];

	if (!c || c == s || (size_t)(c - s) >= sizeof(maj))
		return false;
	memcpy(maj, s, (size_t)(c - s));
	maj[c - s] = '\0';
	return !trace_u64(maj, &v) && !trace_u64(c + 1, &v);
}

/* "12.345678901" → ns */
static int seconds_ns(const char *s, int64_t *ns)
{
	const char *dot = strchr(s, '.');
	uint64_t whole = 0, frac = 0;
	char buf[24];
	size_t n, i;

	n = dot ? (size_t)(dot - s) : strlen(s);
	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (trace_u64(buf, &whole) || whole > 9000000000ULL)
		return -1;
	if (dot) {
		const char *f = dot + 1;

		n = strlen(f);
		if (!n || n > 9 || trace_u64(f, &frac))
			return -1;
		for (i = n; i < 9; i++)
			frac *= 10;
	}
	*ns = (int64_t)(whole * 1000000000ULL + frac);
	return 0;
}

static int blkparse_probe(const unsigned char *head, size_t len)
{
	char line[256], *p = line, *f;
	size_t n = 0;
	int64_t t;

	while (n < len && n < sizeof(line) - 1 && head[n] != '\n')
		n++;
	memcpy(line, head, n);
	line[n] = '\0';
	if (!(f = trace_field(&p)) || !is_dev(f))
		return 0;
	trace_field(&p);	/* cpu */
	trace_field(&p);	/* sequence */
	if (!(f = trace_field(&p)) || seconds_ns(f, &t))
		return 0;
	return 90;
}

static int blkparse_begin(void *state, struct trace_in *in, const struct trace_opts *o,
			  struct err *e)
{
	struct blkparse_state *s = state;

	(void)in;
	(void)e;
	s->event = o->at_dispatch ? 'D' : 'Q';
	return 0;
}

static int blkparse_next(void *state, struct trace_in *in, struct trace_record *r, struct err *e)
{
	struct blkparse_state *s = state;
	char *line;
	long n;

	while ((n = trace_in_line(in, &line, e)) >= 0) {
		char *p = line, *dev, *cpu, *seq, *time, *pid, *act, *rwbs, *sector, *plus, *count;
		char *name, *close;
		uint64_t v, sec, cnt;
		int64_t ns;
		bool read, write;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			continue;
		if (isalpha((unsigned char)*p))
			return 0;	/* blkparse's closing summary */
		dev = trace_field(&p);
		cpu = trace_field(&p);
		seq = trace_field(&p);
		time = trace_field(&p);
		pid = trace_field(&p);
		act = trace_field(&p);
		if (!act)
			return trace_bad(in, e, "expected DEV CPU SEQUENCE SECONDS PID ACTION ..., "
					 "got too few fields");
		if (!is_dev(dev))
			return trace_bad(in, e, "expected a device MAJOR,MINOR first, got '%s'", dev);
		if (trace_u64(cpu, &v) || trace_u64(seq, &v))
			return trace_bad(in, e, "expected a CPU and a sequence number after the "
					 "device, got '%s %s'", cpu, seq);
		if (seconds_ns(time, &ns))
			return trace_bad(in, e, "expected a time in seconds such as 0.000123456, got "
					 "'%s'", time);
		if (trace_u64(pid, &v) || v > UINT32_MAX)
			return trace_bad(in, e, "expected a process id, got '%s'", pid);
		if (act[0] != s->event || act[1])
			continue;	/* another stage of some I/O */
		rwbs = trace_field(&p);
		sector = trace_field(&p);
		plus = trace_field(&p);
		count = trace_field(&p);
		if (!rwbs)
			return trace_bad(in, e, "expected RWBS flags after '%c'", s->event);
		read = strchr(rwbs, 'R') != NULL;
		write = strchr(rwbs, 'W') != NULL;
		if (strchr(rwbs, 'D') || strchr(rwbs, 'N') || strchr(rwbs, 'E') || (!read && !write)) {
			trace_in_ignored(in);	/* discard, secure erase, flush: no data */
			continue;
		}
		if (read && write)
			return trace_bad(in, e, "expected R or W in RWBS, got both in '%s'", rwbs);
		if (!sector || !plus || !count || strcmp(plus, "+"))
			return trace_bad(in, e, "expected SECTOR + COUNT after '%s'", rwbs);
		if (trace_u64(sector, &sec) || sec > (UINT64_MAX >> 10))
			return trace_bad(in, e, "expected a sector number, got '%s'", sector);
		if (trace_u64(count, &cnt) || cnt > (UINT32_MAX >> 9))
			return trace_bad(in, e, "expected a sector count, got '%s'", count);
		if (!cnt) {
			trace_in_ignored(in);	/* a flush: no sectors */
			continue;
		}
		name = strchr(p, '[');
		close = name ? strrchr(name, ']') : NULL;
		r->who[0] = '\0';
		if (name && close) {
			size_t len = (size_t)(close - name - 1);

			if (len >= sizeof(r->who))
				len = sizeof(r->who) - 1;
			memcpy(r->who, name + 1, len);
			r->who[len] = '\0';
		}
		trace_u64(pid, &v);
		r->pid = (uint32_t)v;
		r->time_ns = ns;
		r->offset = sec * 512;
		r->len = cnt * 512;
		r->ddir = read ? DDIR_READ : DDIR_WRITE;
		r->ioprio = 0;
		r->where = trace_in_lineno(in);
		return 1;
	}
	return n == -2 ? -1 : 0;
}

const struct trace_format trace_blkparse_format = {
	.plugin = { "blkparse", "blkparse's default text output (Q events; D with --at=dispatch)",
		    NULL },
	.probe = blkparse_probe,
	.state_size = sizeof(struct blkparse_state),
	.begin = blkparse_begin,
	.next = blkparse_next,
};
