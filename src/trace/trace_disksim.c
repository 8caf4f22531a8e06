/*
 * disksim — DiskSim 4.0's ascii trace format (its manual, "ascii" input),
 * five white-space separated fields per request:
 *
 *   ARRIVAL_MS  DEVNO  BLKNO  SIZE  FLAGS
 *   0.000000    0      1234   8     1
 *
 * Arrival time in milliseconds (a decimal fraction), block number and
 * size in 512-byte blocks, and flags whose bit 0 is set for a read (the
 * other bits are DiskSim's own and are not used). The job key is the
 * device number ("dev0").
 */
#include "trace/trace.h"

#include "workload/job_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct disksim_state {
	bool started;
	double first;
};

static int disksim_probe(const unsigned char *head, size_t len)
{
	char line[256], *p = line, *f[6], *end;
	size_t n = 0;
	unsigned nf = 0, i;
	uint64_t v;

	while (n < len && n < sizeof(line) - 1 && head[n] != '\n' && head[n] != '\r')
		n++;
	memcpy(line, head, n);
	line[n] = '\0';
	while (nf < 6 && (f[nf] = trace_field(&p)))
		nf++;
	if (nf != 5)
		return 0;
	strtod(f[0], &end);
	if (end == f[0] || *end)
		return 0;
	for (i = 1; i < 5; i++)
		if (trace_u64(f[i], &v))
			return 0;
	return 60;
}

static int disksim_next(void *state, struct trace_in *in, struct trace_record *r, struct err *e)
{
	struct disksim_state *s = state;
	char *line;
	long n;

	while ((n = trace_in_line(in, &line, e)) >= 0) {
		char *p = line, *f[6], *end;
		unsigned nf = 0;
		uint64_t dev, blk, size, flags;
		double ms;

		while (nf < 6 && (f[nf] = trace_field(&p)))
			nf++;
		if (!nf)
			continue;
		if (nf != 5)
			return trace_bad(in, e, "expected 5 fields ARRIVAL_MS DEVNO BLKNO SIZE FLAGS, "
					 "got %s%u", nf > 5 ? "more than " : "", nf > 5 ? 5 : nf);
		ms = strtod(f[0], &end);
		if (end == f[0] || *end || !(ms >= 0) || ms > 9e12)
			return trace_bad(in, e, "field 1 (arrival time): expected milliseconds, got "
					 "'%s'", f[0]);
		if (trace_u64(f[1], &dev) || dev > 1000000)
			return trace_bad(in, e, "field 2 (device): expected a device number, got '%s'",
					 f[1]);
		if (trace_u64(f[2], &blk) || blk > (UINT64_MAX >> 10))
			return trace_bad(in, e, "field 3 (block): expected a block number, got '%s'",
					 f[2]);
		if (trace_u64(f[3], &size) || size > (UINT32_MAX >> 9))
			return trace_bad(in, e, "field 4 (size): expected a count of 512-byte blocks, "
					 "got '%s'", f[3]);
		if (trace_u64(f[4], &flags))
			return trace_bad(in, e, "field 5 (flags): expected a number, got '%s'", f[4]);
		if (!size) {
			trace_in_ignored(in);
			continue;
		}
		if (!s->started) {
			s->started = true;
			s->first = ms;
		}
		r->time_ns = (int64_t)((ms - s->first) * 1e6 + (ms >= s->first ? 0.5 : -0.5));
		r->offset = blk * 512;
		r->len = size * 512;
		r->ddir = flags & 1 ? DDIR_READ : DDIR_WRITE;
		r->pid = 0;
		r->ioprio = 0;
		snprintf(r->who, sizeof(r->who), "dev%llu", (unsigned long long)dev);
		r->where = trace_in_lineno(in);
		return 1;
	}
	return n == -2 ? -1 : 0;
}

const struct trace_format trace_disksim_format = {
	.plugin = { "disksim", "DiskSim ascii: ARRIVAL_MS DEVNO BLKNO SIZE FLAGS (bit 0: read)",
		    NULL },
	.probe = disksim_probe,
	.state_size = sizeof(struct disksim_state),
	.next = disksim_next,
};
