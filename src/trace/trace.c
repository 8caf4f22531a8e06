/*
 * trace — the reader every format shares: buffered input, line numbers,
 * the format registry, probing, and skip_bad's count.
 *
 * Memory is one buffer per open file (TRACE_BUF bytes) whatever the
 * trace's length; a line longer than the buffer is refused.
 */
#include "trace/trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TRACE_BUF (1u << 20)
#define TRACE_MAX_LINE 4096

struct trace_in {
	FILE *f;
	char *path;
	char *buf;
	size_t start, end;		/* unread bytes are buf[start, end) */
	bool eof;
	uint64_t lineno, consumed, ignored;
};

struct trace_reader {
	const struct trace_format *fmt;
	struct trace_in *in;
	void *state;
	bool skip_bad;
	uint64_t bad;
};

/*
 * Only a regular file is read; anything else is refused by its type before
 * it is opened (a FIFO would block, /dev/zero would never end), as
 * util/input does for the files it reads whole.
 */
static int regular_file(const char *path, struct stat *st, struct err *e)
{
	if (stat(path, st))
		return err_set(e, "%s: %s", path, strerror(errno));
	if (S_ISREG(st->st_mode))
		return 0;
	return err_set(e, "%s: cannot read trace: it is %s", path,
		       S_ISDIR(st->st_mode) ? "a directory" : S_ISFIFO(st->st_mode) ? "a FIFO" :
		       S_ISCHR(st->st_mode) ? "a character device" :
		       S_ISBLK(st->st_mode) ? "a block device" : "not a regular file");
}

struct trace_in *trace_in_open(const char *path, struct err *e)
{
	struct trace_in *in;
	struct stat st;

	if (regular_file(path, &st, e))
		return NULL;
	in = calloc(1, sizeof(*in));
	if (!in) {
		err_set(e, "%s: out of memory", path);
		return NULL;
	}
	in->path = strdup(path);
	in->buf = malloc(TRACE_BUF + 1);
	if (!in->path || !in->buf) {
		err_set(e, "%s: out of memory", path);
		goto fail;
	}
	in->f = fopen(path, "rb");
	if (!in->f) {
		err_set(e, "%s: %s", path, strerror(errno));
		goto fail;
	}
	return in;
fail:
	trace_in_close(in);
	return NULL;
}

void trace_in_close(struct trace_in *in)
{
	if (!in)
		return;
	if (in->f)
		fclose(in->f);
	free(in->buf);
	free(in->path);
	free(in);
}

/* Move the unread bytes to the front and read more; false when nothing came. */
static bool refill(struct trace_in *in)
{
	size_t got;

	if (in->eof)
		return false;
	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	if (in->end == TRACE_BUF)
		return false;
	got = fread(in->buf + in->end, 1, TRACE_BUF - in->end, in->f);
	if (!got)
		in->eof = true;
	in->end += got;
	return got > 0;
}

long trace_in_line(struct trace_in *in, char **line, struct err *e)
{
	char *nl;
	size_t len;

	for (;;) {
		nl = memchr(in->buf + in->start, '\n', in->end - in->start);
		if (nl)
			break;
		if (in->end - in->start > TRACE_MAX_LINE) {
			err_set(e, "%s:%llu: a line longer than %u bytes: not a text trace", in->path,
				(unsigned long long)in->lineno + 1, TRACE_MAX_LINE);
			return -2;
		}
		if (!refill(in)) {
			if (in->start == in->end)
				return -1;
			/* The last line, without a newline. */
			nl = in->buf + in->end;
			break;
		}
	}
	*line = in->buf + in->start;
	len = (size_t)(nl - *line);
	in->consumed += len + (nl < in->buf + in->end);
	in->start += len + (nl < in->buf + in->end);
	*nl = '\0';
	if (len && (*line)[len - 1] == '\r')
		(*line)[--len] = '\0';
	if (!in->lineno && len >= 3 && !memcmp(*line, "\xef\xbb\xbf", 3)) {
		*line += 3;	/* a UTF-8 byte-order mark, as Windows tools write CSV */
		len -= 3;
	}
	in->lineno++;
	return (long)len;
}

long trace_in_bytes(struct trace_in *in, void *buf, size_t n, struct err *e)
{
	size_t have = in->end - in->start;

	while (have < n && refill(in))
		have = in->end - in->start;
	if (have < n) {
		if (!have)
			return 0;
		err_set(e, "%s: record %llu: the file ends inside it (%zu of %zu bytes)", in->path,
			(unsigned long long)in->lineno + 1, have, n);
		return -1;
	}
	if (buf)
		memcpy(buf, in->buf + in->start, n);
	in->start += n;
	in->consumed += n;
	return (long)n;
}

const char *trace_in_path(const struct trace_in *in)
{
	return in->path;
}

uint64_t trace_in_lineno(const struct trace_in *in)
{
	return in->lineno;
}

uint64_t trace_in_offset(const struct trace_in *in)
{
	return in->consumed;
}

void trace_in_ignored(struct trace_in *in)
{
	in->ignored++;
}

int trace_bad(struct trace_in *in, struct err *e, const char *fmt, ...)
{
	char msg[sizeof(e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_set(e, "%s:%llu: %s", in->path, (unsigned long long)in->lineno, msg);
	return TRACE_BAD;
}

char *trace_field(char **p)
{
	char *s = *p, *start;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*p = s;
		return NULL;
	}
	start = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

int trace_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* ---- the registry ---- */

extern const struct trace_format trace_iolog_format, trace_blkparse_format,
	trace_blktrace_format, trace_msr_format, trace_snia_format, trace_disksim_format;

static const struct plugin *const builtin_formats[] = {
	&trace_iolog_format.plugin,
	&trace_blkparse_format.plugin,
	&trace_blktrace_format.plugin,
	&trace_msr_format.plugin,
	&trace_snia_format.plugin,
	&trace_disksim_format.plugin,
	NULL,
};

struct plugin_registry trace_formats = { "trace format", builtin_formats, { NULL }, 0 };

const struct trace_format *trace_format_find(const char *name)
{
	const struct plugin *p = plugin_find(&trace_formats, name);

	return p ? plugin_ops(p, struct trace_format) : NULL;
}

static const struct trace_format *probe(const char *path, struct err *e)
{
	unsigned char head[4096];
	const struct trace_format *best = NULL;
	const struct plugin *p;
	int best_score = 0;
	size_t n, skip = 0;
	unsigned i;
	struct stat st;
	FILE *f;

	if (regular_file(path, &st, e))
		return NULL;
	f = fopen(path, "rb");
	if (!f) {
		err_set(e, "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		skip = 3;
	for (i = 0; (p = plugin_at(&trace_formats, i)); i++) {
		const struct trace_format *t = plugin_ops(p, struct trace_format);
		int score = t->probe ? t->probe(head + skip, n - skip) : 0;

		if (score > best_score) {
			best = t;
			best_score = score;
		}
	}
	if (!best) {
		char names[256];

		plugin_names(&trace_formats, names, sizeof(names));
		err_set(e, "%s: not a trace format ncqsim recognises (%s); name it with --format",
			path, names);
	}
	return best;
}

struct trace_reader *trace_open(const char *path, const char *format, const struct trace_opts *o,
				struct err *e)
{
	struct trace_reader *rd;
	const struct trace_format *fmt;
	static const struct trace_opts none;

	if (!o)
		o = &none;
	if (!format || !strcmp(format, "auto")) {
		fmt = probe(path, e);
	} else {
		fmt = trace_format_find(format);
		if (!fmt) {
			char names[256];

			plugin_names(&trace_formats, names, sizeof(names));
			err_set(e, "unknown trace format '%s' (expected auto, %s)", format, names);
		}
	}
	if (!fmt)
		return NULL;
	rd = calloc(1, sizeof(*rd));
	if (!rd) {
		err_set(e, "out of memory");
		return NULL;
	}
	rd->fmt = fmt;
	rd->skip_bad = o->skip_bad;
	rd->state = calloc(1, fmt->state_size ? fmt->state_size : 1);
	rd->in = trace_in_open(path, e);
	if (!rd->state || !rd->in) {
		if (!rd->state)
			err_set(e, "out of memory");
		goto fail;
	}
	if (fmt->begin && fmt->begin(rd->state, rd->in, o, e))
		goto fail;
	return rd;
fail:
	trace_close(rd);
	return NULL;
}

int trace_next(struct trace_reader *rd, struct trace_record *r, struct err *e)
{
	for (;;) {
		int rc = rd->fmt->next(rd->state, rd->in, r, e);

		if (rc != TRACE_BAD)
			return rc;
		if (!rd->skip_bad)
			return -1;
		rd->bad++;
	}
}

void trace_close(struct trace_reader *rd)
{
	if (!rd)
		return;
	if (rd->fmt->end && rd->state)
		rd->fmt->end(rd->state);
	trace_in_close(rd->in);
	free(rd->state);
	free(rd);
}

const struct trace_format *trace_reader_format(const struct trace_reader *rd)
{
	return rd->fmt;
}

bool trace_reader_relative_time(const struct trace_reader *rd)
{
	return rd->fmt->relative_time && rd->fmt->relative_time(rd->state);
}

uint64_t trace_reader_bad(const struct trace_reader *rd)
{
	return rd->bad;
}

uint64_t trace_reader_ignored(const struct trace_reader *rd)
{
	return rd->in->ignored;
}

unsigned trace_csv_split(char *line, char **f, unsigned max)
{
	unsigned n = 0;
	char *p = line;

	for (;;) {
		char *c = strchr(p, ',');

		if (n == max)
			return max + 1;
		f[n++] = p;
		if (!c)
			return n;
		*c = '\0';
		p = c + 1;
	}
}
