#include "run/validate.h"

#include "disk/service.h"
#include "util/input.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_FILE_MAX (256 << 20)
#define TRACE_MAX_REQUESTS 50000000u

const double validate_percentiles[VALIDATE_NPCT] = { 10, 50, 90, 99 };

static char *slurp(const char *path, struct err *e)
{
	char *text;
	size_t len;

	if (input_read(path, "trace", TRACE_FILE_MAX, true, &text, &len, e))
		return NULL;
	return text;
}

static int push(struct validate_trace *t, size_t *cap, const struct validate_request *r,
		const char *path, struct err *e)
{
	if (t->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct validate_request *nr;

		if (nc > TRACE_MAX_REQUESTS)
			return err_set(e, "%s: more than %u requests", path, TRACE_MAX_REQUESTS);
		nr = realloc(t->req, nc * sizeof(*nr));
		if (!nr)
			return err_set(e, "%s: out of memory", path);
		t->req = nr;
		*cap = nc;
	}
	t->req[t->n++] = *r;
	return 0;
}

/* Split a line into at most max white-space (and comma) separated fields. */
static unsigned fields(char *line, char **f, unsigned max, const char *seps)
{
	unsigned n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(line, seps, &save); tok; tok = strtok_r(NULL, seps, &save)) {
		if (n == max)
			return max + 1;
		f[n++] = tok;
	}
	return n;
}

static int number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *end || end == s || errno || !isfinite(*v) ? -1 : 0;
}

static int whole(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

typedef int (*line_fn)(void *ctx, char *line, int line_no, const char *path,
		       struct validate_request *r, struct err *e);

static int read_lines(const char *path, const char *text, line_fn fn, void *ctx,
		      struct validate_trace *t, struct err *e)
{
	char *owned = NULL, *p, *line;
	size_t cap = 0;
	int line_no = 0;

	memset(t, 0, sizeof(*t));
	if (!text) {
		owned = slurp(path, e);
		if (!owned)
			return -1;
		text = owned;
	} else {
		owned = strdup(text);
		if (!owned)
			return err_set(e, "%s: out of memory", path);
	}
	for (p = owned; p; ) {
		struct validate_request r;
		char *nl = strchr(p, '\n');
		int rc;

		line = p;
		if (nl)
			*nl = '\0';
		p = nl ? nl + 1 : NULL;
		line_no++;
		if (strchr(line, '\r'))
			*strchr(line, '\r') = '\0';
		rc = fn(ctx, line, line_no, path, &r, e);
		if (rc < 0 || (rc > 0 && push(t, &cap, &r, path, e))) {
			free(owned);
			validate_trace_free(t);
			return -1;
		}
	}
	free(owned);
	if (!t->n)
		return err_set(e, "%s: no requests", path);
	return 0;
}

/* 1: a request; 0: a blank line; -1: an error. */
static int disksim_line(void *ctx, char *line, int line_no, const char *path,
			struct validate_request *r, struct err *e)
{
	char *f[7];
	unsigned n = fields(line, f, 6, " \t");
	uint64_t lbn, sectors;
	double measured, think;

	(void)ctx;
	if (n == 0)
		return 0;
	if (n != 6)
		return err_set(e, "%s:%d: expected 6 fields 'R|W LABEL LBN SECTORS MEASURED_US "
			       "THINK_US', got %s%u", path, line_no, n > 6 ? "more than " : "",
			       n > 6 ? 6 : n);
	if (strcmp(f[0], "R") && strcmp(f[0], "W"))
		return err_set(e, "%s:%d: field 1: expected R or W, got '%s'", path, line_no, f[0]);
	if (whole(f[2], &lbn))
		return err_set(e, "%s:%d: field 3: expected an LBN, got '%s'", path, line_no, f[2]);
	if (whole(f[3], &sectors) || sectors < 1 || sectors > 65536)
		return err_set(e, "%s:%d: field 4: expected 1..65536 sectors, got '%s'", path,
			       line_no, f[3]);
	if (number(f[4], &measured) || measured < 0)
		return err_set(e, "%s:%d: field 5: expected a measured time in microseconds, got "
			       "'%s'", path, line_no, f[4]);
	if (number(f[5], &think) || think < 0)
		return err_set(e, "%s:%d: field 6: expected a think time in microseconds, got '%s'",
			       path, line_no, f[5]);
	r->write = f[0][0] == 'W';
	r->lba = lbn;
	r->sectors = (uint32_t)sectors;
	r->measured_ms = measured / 1000.0;
	r->think_ms = think / 1000.0;
	return 1;
}

int validate_read_disksim(const char *path, const char *text, struct validate_trace *t,
			  struct err *e)
{
	return read_lines(path, text, disksim_line, NULL, t, e);
}

struct fio_ctx {
	unsigned sector_size;
	double think_ms;
};

static int fio_line(void *ctx, char *line, int line_no, const char *path,
		    struct validate_request *r, struct err *e)
{
	struct fio_ctx *c = ctx;
	char *f[7];
	unsigned n = fields(line, f, 6, ", \t");
	uint64_t time_ms, lat_ns, ddir, bs, offset;

	if (n == 0)
		return 0;
	if (n < 5 || n > 6)
		return err_set(e, "%s:%d: expected 'TIME_MS, LATENCY_NS, DDIR, BS, OFFSET' (a "
			       "write_lat_log with log_offset=1), got %u fields", path, line_no, n);
	if (whole(f[0], &time_ms) || whole(f[1], &lat_ns) || whole(f[2], &ddir) ||
	    whole(f[3], &bs) || whole(f[4], &offset))
		return err_set(e, "%s:%d: expected whole numbers 'TIME_MS, LATENCY_NS, DDIR, BS, "
			       "OFFSET'", path, line_no);
	if (ddir > 1)
		return err_set(e, "%s:%d: field 3: expected 0 (read) or 1 (write), got %llu", path,
			       line_no, (unsigned long long)ddir);
	if (!bs || bs % c->sector_size || offset % c->sector_size || bs / c->sector_size > 65536)
		return err_set(e, "%s:%d: expected a size and offset in whole %u-byte sectors", path,
			       line_no, c->sector_size);
	(void)time_ms;
	r->write = ddir == 1;
	r->lba = offset / c->sector_size;
	r->sectors = (uint32_t)(bs / c->sector_size);
	r->measured_ms = (double)lat_ns / 1e6;
	r->think_ms = c->think_ms;
	return 1;
}

int validate_read_fio_log(const char *path, const char *text, unsigned sector_size,
			  double think_ms, struct validate_trace *t, struct err *e)
{
	struct fio_ctx c = { sector_size, think_ms };

	return read_lines(path, text, fio_line, &c, t, e);
}

void validate_trace_free(struct validate_trace *t)
{
	free(t->req);
	t->req = NULL;
	t->n = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double validate_quantile(const double *x, size_t n, double p)
{
	double pos = p * (double)n;
	size_t i;

	/* CDF points (x[i], (i + 1) / n), linear between them; x[0] below the first. */
	if (pos <= 1.0)
		return x[0];
	if (pos >= (double)n)
		return x[n - 1];
	i = (size_t)ceil(pos);	/* x[i - 1] at fraction i / n */
	return x[i - 2] + (x[i - 1] - x[i - 2]) * (pos - (double)(i - 1));
}

double validate_rms(const double *a, size_t na, const double *b, size_t nb)
{
	double sum = 0;
	int k;

	for (k = 1; k <= 10000; k++) {
		double p = k / 10000.0, d = validate_quantile(a, na, p) - validate_quantile(b, nb, p);

		sum += d * d;
	}
	return sqrt(sum / 10000.0);
}

int validate_run(const struct disk_model *m, const struct validate_trace *t,
		 const char *trace_name, struct validate_result *r, struct err *e)
{
	struct disk_service *s = malloc(sizeof(*s));
	double sum_m = 0, sum_s = 0;
	int64_t now = 0;
	size_t i;
	unsigned k;

	memset(r, 0, sizeof(*r));
	r->measured = malloc(t->n * sizeof(double));
	r->simulated = malloc(t->n * sizeof(double));
	if (!s || !r->measured || !r->simulated) {
		free(s);
		validate_result_free(r);
		return err_set(e, "out of memory");
	}
	if (disk_service_init(s, m, e)) {
		free(s);
		validate_result_free(r);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		const struct validate_request *q = &t->req[i];
		enum disk_service_kind kind;
		int64_t done;

		if (q->lba + q->sectors > s->layout.logical_sectors) {
			err_set(e, "%s: request %zu: sectors %llu..%llu are beyond the drive's %llu "
				"(is this the trace of drive '%s'?)", trace_name, i + 1,
				(unsigned long long)q->lba,
				(unsigned long long)(q->lba + q->sectors - 1),
				(unsigned long long)s->layout.logical_sectors, m->name);
			free(s);
			validate_result_free(r);
			return -1;
		}
		done = disk_service_command(s, now, q->write, q->lba, q->sectors, &kind);
		r->hits += kind == DISK_SERVED_HIT;
		r->streamed += kind == DISK_SERVED_STREAM;
		r->media += kind == DISK_SERVED_MEDIA;
		r->cached += kind == DISK_SERVED_CACHED;
		r->measured[i] = q->measured_ms;
		r->simulated[i] = (double)(done - now) / 1e6;
		sum_m += r->measured[i];
		sum_s += r->simulated[i];
		now = done + (int64_t)llround(q->think_ms * 1e6);
	}
	free(s);
	r->requests = t->n;
	qsort(r->measured, t->n, sizeof(double), cmp_double);
	qsort(r->simulated, t->n, sizeof(double), cmp_double);
	r->measured_mean_ms = sum_m / (double)t->n;
	r->simulated_mean_ms = sum_s / (double)t->n;
	r->rms_ms = validate_rms(r->simulated, t->n, r->measured, t->n);
	r->rms_percent = r->measured_mean_ms > 0 ? 100.0 * r->rms_ms / r->measured_mean_ms : 0;
	for (k = 0; k < VALIDATE_NPCT; k++) {
		r->measured_pct[k] = validate_quantile(r->measured, t->n,
						       validate_percentiles[k] / 100.0);
		r->simulated_pct[k] = validate_quantile(r->simulated, t->n,
							validate_percentiles[k] / 100.0);
	}
	return 0;
}

void validate_result_free(struct validate_result *r)
{
	free(r->measured);
	free(r->simulated);
	r->measured = r->simulated = NULL;
}
