/*
 * iolog — fio's I/O logs, as fio's iolog.c reads them (version 1 is
 * refused, as fio refuses it):
 *
 *   fio version 2 iolog                 fio version 3 iolog
 *   FILE add|open|close                 USEC FILE add|open|close
 *   FILE read|write|sync|datasync|trim OFFSET LENGTH
 *                                       USEC FILE read|write|... OFFSET LENGTH
 *   FILE wait MSEC                      (wait is ignored in version 3, as fio does)
 *
 * Version 3's USEC is the time since the log started; fio replays it as
 * the delay between one line and the next (relative_time). Version 2 has
 * no times: its I/Os go back to back, and "wait N" holds the next ones
 * until N ms after the start. Every FILE is the one simulated drive.
 * replay_align and replay_scale apply as fio applies them; replay_skip
 * does not: fio 3.33 honours it for blktrace files only (later fio
 * versions read it for iologs too).
 */
#include "trace/trace.h"

#include "workload/job_options.h"

#include <string.h>

struct iolog_state {
	int version;
	int64_t wait_ns;		/* version 2: the last wait's time */
	const struct trace_opts *o;
};

static int iolog_probe(const unsigned char *head, size_t len)
{
	static const char v2[] = "fio version 2 iolog", v3[] = "fio version 3 iolog";

	if ((len >= sizeof(v2) - 1 && !memcmp(head, v2, sizeof(v2) - 1)) ||
	    (len >= sizeof(v3) - 1 && !memcmp(head, v3, sizeof(v3) - 1)))
		return 100;
	return 0;
}

static int iolog_begin(void *state, struct trace_in *in, const struct trace_opts *o,
		       struct err *e)
{
	struct iolog_state *s = state;
	char *line;
	long n = trace_in_line(in, &line, e);

	s->o = o;
	if (n == -2)
		return -1;
	if (n >= 0 && !strncmp(line, "fio version 2 iolog", 19))
		s->version = 2;
	else if (n >= 0 && !strncmp(line, "fio version 3 iolog", 19))
		s->version = 3;
	else
		return err_set(e, "%s:1: expected 'fio version 2 iolog' or 'fio version 3 iolog' "
			       "(fio no longer reads version 1), got '%.40s'", trace_in_path(in),
			       n >= 0 ? line : "");
	return 0;
}

static int iolog_next(void *state, struct trace_in *in, struct trace_record *r, struct err *e)
{
	struct iolog_state *s = state;
	char *line, *p, *f[6];
	long n;

	while ((n = trace_in_line(in, &line, e)) >= 0) {
		unsigned nf = 0, k = 0;
		uint64_t usec = 0, off, len;
		const char *act;
		int ddir;

		p = line;
		while (nf < 6 && (f[nf] = trace_field(&p)))
			nf++;
		if (!nf)
			continue;	/* an empty line */
		if (nf == 6)
			return trace_bad(in, e, "expected at most %d fields, got more",
					 s->version == 3 ? 5 : 4);
		if (s->version == 3) {
			if (trace_u64(f[0], &usec))
				return trace_bad(in, e, "expected a time in microseconds first, got "
						 "'%s'", f[0]);
			k = 1;
		}
		if (nf < k + 2)
			return trace_bad(in, e, "expected %sFILE ACTION [OFFSET LENGTH]",
					 s->version == 3 ? "USEC " : "");
		act = f[k + 1];
		if (nf == k + 2) {
			if (strcmp(act, "add") && strcmp(act, "open") && strcmp(act, "close"))
				return trace_bad(in, e, "expected add, open or close after the file "
						 "name, got '%s'", act);
			continue;	/* file actions: the drive is always open */
		}
		if (nf != k + 4)
			return trace_bad(in, e, "expected %sFILE ACTION OFFSET LENGTH, got %u fields",
					 s->version == 3 ? "USEC " : "", nf);
		if (trace_u64(f[k + 2], &off))
			return trace_bad(in, e, "expected an offset in bytes, got '%s'", f[k + 2]);
		if (trace_u64(f[k + 3], &len) || len > UINT32_MAX)
			return trace_bad(in, e, "expected a length in bytes (at most 4 GiB), got '%s'",
					 f[k + 3]);
		if (!strcmp(act, "wait")) {
			/* fio: ignored in version 3; in version 2, hold until N ms after the start. */
			if (s->version == 2)
				s->wait_ns = (int64_t)(off > INT64_MAX / 1000000 ? INT64_MAX / 1000000 :
						       off) * 1000000;
			else
				trace_in_ignored(in);
			continue;
		}
		if (!strcmp(act, "read"))
			ddir = DDIR_READ;
		else if (!strcmp(act, "write"))
			ddir = DDIR_WRITE;
		else if (!strcmp(act, "sync") || !strcmp(act, "datasync") || !strcmp(act, "trim")) {
			trace_in_ignored(in);
			continue;
		} else {
			return trace_bad(in, e, "expected read, write, sync, datasync, trim or wait, "
					 "got '%s'", act);
		}
		if (!len) {
			trace_in_ignored(in);
			continue;
		}
		if (s->o->replay_scale > 1)
			off /= s->o->replay_scale;
		if (s->o->replay_align)
			off -= off % s->o->replay_align;
		r->time_ns = s->version == 3 ? (int64_t)(usec > INT64_MAX / 1000 ? INT64_MAX / 1000 :
							  usec) * 1000 : s->wait_ns;
		r->offset = off;
		r->len = len;
		r->ddir = ddir;
		r->pid = 0;
		r->ioprio = 0;
		r->who[0] = '\0';
		r->where = trace_in_lineno(in);
		return 1;
	}
	return n == -2 ? -1 : 0;
}

static bool iolog_relative_time(const void *state)
{
	return ((const struct iolog_state *)state)->version == 3;
}

const struct trace_format trace_iolog_format = {
	.plugin = { "iolog", "fio's iolog, version 2 or 3 (write_iolog's output)", NULL },
	.probe = iolog_probe,
	.state_size = sizeof(struct iolog_state),
	.begin = iolog_begin,
	.next = iolog_next,
	.relative_time = iolog_relative_time,
};
