/*
 * msr — the MSR Cambridge block traces (SNIA IOTTA), one CSV line per I/O
 * and no header:
 *
 *   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 *   128166372003061629,src1,0,Read,7014609920,24576,41286
 *
 * Timestamp is a Windows filetime (100 ns ticks since 1601), Offset and
 * Size are bytes, Type is Read or Write, ResponseTime (ticks) is what the
 * traced system took and is not used. The job key is HOST_DISK ("src1_0").
 */
#include "trace/trace.h"

#include "workload/job_options.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

struct msr_state {
	bool started;
	uint64_t first;			/* the first record's ticks: times count from it */
};

static int msr_probe(const unsigned char *head, size_t len)
{
	char line[512], *f[8];
	size_t n = 0;
	uint64_t v;

	while (n < len && n < sizeof(line) - 1 && head[n] != '\n' && head[n] != '\r')
		n++;
	memcpy(line, head, n);
	line[n] = '\0';
	if (trace_csv_split(line, f, 7) != 7 || trace_u64(f[0], &v) ||
	    (strcasecmp(f[3], "Read") && strcasecmp(f[3], "Write")))
		return 0;
	return 95;
}

static int msr_next(void *state, struct trace_in *in, struct trace_record *r, struct err *e)
{
	struct msr_state *s = state;
	char *line, *f[8];
	long n;

	while ((n = trace_in_line(in, &line, e)) >= 0) {
		uint64_t ticks, disk, off, size, resp;
		unsigned nf;

		if (!n)
			continue;
		nf = trace_csv_split(line, f, 7);
		if (nf != 7)
			return trace_bad(in, e, "expected 7 fields Timestamp,Hostname,DiskNumber,"
					 "Type,Offset,Size,ResponseTime, got %s%u", nf > 7 ? "more than " :
					 "", nf > 7 ? 7 : nf);
		if (trace_u64(f[0], &ticks) || ticks > (uint64_t)INT64_MAX)
			return trace_bad(in, e, "field 1 (Timestamp): expected 100 ns ticks, got '%s'",
					 f[0]);
		if (s->started && ((int64_t)ticks - (int64_t)s->first > INT64_MAX / 100 ||
				   (int64_t)ticks - (int64_t)s->first < -(INT64_MAX / 100)))
			return trace_bad(in, e, "field 1 (Timestamp): %s is more than 29 000 years from "
					 "the first record's", f[0]);
		if (!f[1][0])
			return trace_bad(in, e, "field 2 (Hostname): expected a name, got nothing");
		if (trace_u64(f[2], &disk) || disk > 1000000)
			return trace_bad(in, e, "field 3 (DiskNumber): expected a number, got '%s'",
					 f[2]);
		if (strcasecmp(f[3], "Read") && strcasecmp(f[3], "Write"))
			return trace_bad(in, e, "field 4 (Type): expected Read or Write, got '%s'",
					 f[3]);
		if (trace_u64(f[4], &off) || off > (UINT64_MAX >> 1))
			return trace_bad(in, e, "field 5 (Offset): expected bytes, got '%s'", f[4]);
		if (trace_u64(f[5], &size) || size > UINT32_MAX)
			return trace_bad(in, e, "field 6 (Size): expected bytes (at most 4 GiB), got "
					 "'%s'", f[5]);
		if (trace_u64(f[6], &resp))
			return trace_bad(in, e, "field 7 (ResponseTime): expected 100 ns ticks, got "
					 "'%s'", f[6]);
		if (!size) {
			trace_in_ignored(in);
			continue;
		}
		if (!s->started) {
			s->started = true;
			s->first = ticks;
		}
		r->time_ns = ((int64_t)ticks - (int64_t)s->first) * 100;
		r->offset = off;
		r->len = size;
		r->ddir = strcasecmp(f[3], "Read") ? DDIR_WRITE : DDIR_READ;
		r->pid = 0;
		r->ioprio = 0;
		snprintf(r->who, sizeof(r->who), "%.*s_%llu", (int)sizeof(r->who) - 22, f[1],
			 (unsigned long long)disk);
		r->where = trace_in_lineno(in);
		return 1;
	}
	return n == -2 ? -1 : 0;
}

const struct trace_format trace_msr_format = {
	.plugin = { "msr", "MSR Cambridge CSV: Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
		    "ResponseTime (100 ns ticks)", NULL },
	.probe = msr_probe,
	.state_size = sizeof(struct msr_state),
	.next = msr_next,
};
