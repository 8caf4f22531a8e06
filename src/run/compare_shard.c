/*
 * compare's shards: `compare --shard I/N` runs the cells (variant v, run r)
 * whose number r * nvariants + v leaves I - 1 divided by N, and writes each
 * run's table rows (as histograms, so the merge recomputes every figure the
 * way compare does) and its fio report (already rendered) to a JSON file;
 * compare_merge() reads N such files and rebuilds the struct compare the
 * unsharded run would have built.
 *
 * Doubles that are summed (simulated and CPU seconds) and the histogram's
 * running mean are written as C99 hex floats, so they read back exactly.
 */
#include "run/compare.h"

#include "run/runner.h"
#include "util/input.h"
#include "util/json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SHARD_FORMAT 1
#define SHARD_MAX_BYTES ((size_t)1 << 31)

static void hexfloat(struct json_writer *w, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%a", v);
	json_string(w, key, buf);
}

/* The identity every shard of one sweep shares, as (key, value) text. */
static void identity(const struct compare *c, bool plus,
		     void (*fn)(void *ctx, const char *key, const char *value), void *ctx)
{
	char buf[1100];
	unsigned i, k;
	size_t len;

	for (i = 0; i < c->nident; i++)
		fn(ctx, c->ident[i].key, c->ident[i].value);
	snprintf(buf, sizeof(buf), "%" PRIu64, c->seed);
	fn(ctx, "first seed", buf);
	snprintf(buf, sizeof(buf), "%u", c->repeat);
	fn(ctx, "runs per variant", buf);
	for (len = 0, k = 0; k < c->npct && len < sizeof(buf); k++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%a", k ? ":" : "", c->pct[k]);
	fn(ctx, "percentiles", buf);
	snprintf(buf, sizeof(buf), "%" PRId64, c->runtime_cap);
	fn(ctx, "runtime cap ns", buf);
	fn(ctx, "drive", c->variants[0].cfg.drive);
	fn(ctx, "report", plus ? "json+" : "json");
	snprintf(buf, sizeof(buf), "%u", c->nvariants);
	fn(ctx, "variants", buf);
	for (i = 0; i < c->nvariants; i++) {
		char key[32];

		snprintf(key, sizeof(key), "variant %s", c->variants[i].label);
		fn(ctx, key, c->variants[i].desc);
	}
}

static void ident_write(void *ctx, const char *key, const char *value)
{
	json_string(ctx, key, value);
}

static int row_write(void *ctx, unsigned order, const char *job, int ddir, int prio, bool lat,
		     const struct hist *h, uint64_t runtime_ms)
{
	struct json_writer *w = ctx;
	unsigned i, top = hist_top(h);

	json_object_begin(w, NULL);
	json_uint(w, "order", order);
	json_string(w, "job", job);
	json_int(w, "ddir", ddir);
	json_int(w, "prio", prio);
	json_bool(w, "lat", lat);
	json_uint(w, "runtime_ms", runtime_ms);
	json_uint(w, "n", h->sum.n);
	json_uint(w, "min", h->sum.min);
	json_uint(w, "max", h->sum.max);
	hexfloat(w, "mean", h->sum.mean);
	hexfloat(w, "S", h->sum.S);
	json_uint(w, "top", top);
	json_array_begin(w, "buckets");		/* index, count, ... for the counts above 0 */
	for (i = 0; i < top; i++)
		if (h->count[i]) {
			json_uint(w, NULL, i);
			json_uint(w, NULL, h->count[i]);
		}
	json_array_end(w);
	json_object_end(w);
	return 0;
}

/* The run's fio report as compare_write_json() would write it in place. */
static char *render_report(const struct runner_result *res, bool plus)
{
	struct json_writer w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return NULL;
	json_writer_init(&w, f);
	w.depth = CMP_RUN_DEPTH;
	w.first[CMP_RUN_DEPTH] = true;
	rc = report_json_member(&w, NULL, &res->report, plus);
	json_writer_flush(&w);
	if (fclose(f) || rc) {
		free(text);
		return NULL;
	}
	return text;
}

int compare_write_shard(const struct compare *c, FILE *out, bool plus, struct err *e)
{
	struct json_writer w;
	unsigned v, r;

	json_writer_init(&w, out);
	json_object_begin(&w, NULL);
	json_uint(&w, "ncqsim shard", SHARD_FORMAT);
	json_uint(&w, "shard", c->shard);
	json_uint(&w, "shards", c->nshards);
	json_string(&w, "job file", c->jobfile);
	json_object_begin(&w, "sweep");
	identity(c, plus, ident_write, &w);
	json_object_end(&w);
	json_array_begin(&w, "cells");
	for (r = 0; r < c->runs_per_variant; r++)
		for (v = 0; v < c->nvariants; v++) {
			const struct runner_result *res = c->results[v][r];
			char *text;

			if (compare_cell_shard(c, v, r) != c->shard)
				continue;
			if (!res) {
				err_set(e, "variant %s, seed %" PRIu64 ": no result to write",
					c->variants[v].label, c->seed + r);
				goto fail;
			}
			text = render_report(res, plus);
			if (!text)
				goto out_of_memory;
			json_object_begin(&w, NULL);
			json_uint(&w, "variant", v);
			json_uint(&w, "run", r);
			hexfloat(&w, "sim_seconds", res->sim_seconds);
			hexfloat(&w, "cpu_seconds", res->cpu_seconds);
			json_uint(&w, "ios", res->ios);
			json_array_begin(&w, "rows");
			if (compare_report_rows(&res->report, row_write, &w)) {
				free(text);
				goto out_of_memory;
			}
			json_array_end(&w);
			json_string(&w, "report", text);
			free(text);
			json_object_end(&w);
		}
	json_array_end(&w);
	json_object_end(&w);
	json_writer_finish(&w);
	return 0;

out_of_memory:
	err_set(e, "out of memory while writing the shard");
fail:
	/* What was written so far still reaches the output, as unbuffered it did. */
	json_writer_flush(&w);
	return -1;
}

/* ---- merging ---- */

struct merge_file {
	const char *path;
	struct json_value root;
};

static int num_u64(const struct json_value *v, uint64_t *out)
{
	char *end;

	if (!v || v->type != JV_NUMBER || v->text[0] == '-')
		return -1;
	errno = 0;
	*out = strtoull(v->text, &end, 10);
	return errno || *end ? -1 : 0;
}

static int num_int(const struct json_value *v, long long *out)
{
	char *end;

	if (!v || v->type != JV_NUMBER)
		return -1;
	errno = 0;
	*out = strtoll(v->text, &end, 10);
	return errno || *end ? -1 : 0;
}

static int hex_double(const struct json_value *v, double *out)
{
	char *end;

	if (!v || v->type != JV_STRING)
		return -1;
	*out = strtod(v->text, &end);
	return *end || end == v->text ? -1 : 0;
}

static const char *str_of(const struct json_value *v)
{
	return v && v->type == JV_STRING ? v->text : NULL;
}

/* One row of a cell into the table; "what" names the field on failure. */
static int merge_row(struct compare *c, unsigned v, unsigned r, const struct json_value *row,
		     struct hist *h, const char **what)
{
	uint64_t order, runtime_ms, top, n, min, max;
	double mean, S;
	long long ddir, prio;
	const struct json_value *b = json_member(row, "buckets"), *lat = json_member(row, "lat");
	const char *job = str_of(json_member(row, "job"));
	unsigned i;

	*what = "a row's fields";
	if (num_u64(json_member(row, "order"), &order) || !job ||
	    num_int(json_member(row, "ddir"), &ddir) || ddir < 0 || ddir > 1 ||
	    num_int(json_member(row, "prio"), &prio) || prio < -1 || prio > 0xffff ||
	    !lat || lat->type != JV_BOOL ||
	    num_u64(json_member(row, "runtime_ms"), &runtime_ms) ||
	    num_u64(json_member(row, "n"), &n) || num_u64(json_member(row, "min"), &min) ||
	    num_u64(json_member(row, "max"), &max) || num_u64(json_member(row, "top"), &top) ||
	    top > HIST_NR || hex_double(json_member(row, "mean"), &mean) ||
	    hex_double(json_member(row, "S"), &S) || !b || b->type != JV_ARRAY || b->n % 2)
		return -1;
	hist_reset(h);		/* the previous row's buckets, up to its top */
	h->sum.n = n;
	h->sum.min = min;
	h->sum.max = max;
	h->sum.mean = mean;
	h->sum.S = S;
	h->top = (uint32_t)top;
	*what = "a row's buckets";
	for (i = 0; i < b->n; i += 2) {
		uint64_t idx, count;

		if (num_u64(&b->items[i], &idx) || num_u64(&b->items[i + 1], &count) || idx >= top)
			return -1;
		h->count[idx] = count;
	}
	*what = "memory";
	return compare_add_row(c, v, r, (unsigned)order, job, (int)ddir, (int)prio, lat->b, h,
			       runtime_ms);
}

/* Set up c's variants and settings from the first shard's identity. */
static int merge_setup(struct compare *c, const struct merge_file *f, struct err *e)
{
	const struct json_value *sweep = json_member(&f->root, "sweep");
	const char *s;
	char *end;
	unsigned i, k;
	uint64_t u;

	if (!(s = str_of(json_member(sweep, "first seed"))) || (c->seed = strtoull(s, &end, 10), *end))
		return err_set(e, "%s: no 'first seed' in its 'sweep'", f->path);
	if (!(s = str_of(json_member(sweep, "runs per variant"))) ||
	    (u = strtoull(s, &end, 10), *end) || !u || u > CMP_MAX_RUNS)
		return err_set(e, "%s: 'runs per variant' is missing or not 1..%d", f->path,
			       CMP_MAX_RUNS);
	c->repeat = c->runs_per_variant = (unsigned)u;
	if (!(s = str_of(json_member(sweep, "variants"))) || (u = strtoull(s, &end, 10), *end) || !u ||
	    u > CMP_MAX_VARIANTS)
		return err_set(e, "%s: 'variants' is missing or not 1..%d", f->path,
			       CMP_MAX_VARIANTS);
	c->nvariants = (unsigned)u;
	if (!(s = str_of(json_member(sweep, "percentiles"))))
		return err_set(e, "%s: no 'percentiles' in its 'sweep'", f->path);
	for (c->npct = 0; *s && c->npct < CMP_MAX_PCT; s = *end == ':' ? end + 1 : end) {
		c->pct[c->npct++] = strtod(s, &end);
		if (end == s)
			return err_set(e, "%s: bad 'percentiles' in its 'sweep'", f->path);
	}
	if (!(s = str_of(json_member(sweep, "drive"))))
		return err_set(e, "%s: no 'drive' in its 'sweep'", f->path);
	snprintf(c->variants[0].cfg.drive, sizeof(c->variants[0].cfg.drive), "%s", s);
	/* The variants' keys in their order: "variant A", "variant B", ... */
	for (i = 0, k = 0; k < sweep->n; k++) {
		if (strncmp(sweep->keys[k], "variant ", 8))
			continue;
		if (i == c->nvariants || !(s = str_of(&sweep->items[k])))
			return err_set(e, "%s: its 'sweep' has more variants than 'variants' says",
				       f->path);
		snprintf(c->variants[i].label, sizeof(c->variants[i].label), "%s",
			 sweep->keys[k] + 8);
		snprintf(c->variants[i].desc, sizeof(c->variants[i].desc), "%s", s);
		i++;
	}
	if (i != c->nvariants)
		return err_set(e, "%s: its 'sweep' has fewer variants than 'variants' says", f->path);
	if (!(s = str_of(json_member(&f->root, "job file"))))
		return err_set(e, "%s: no 'job file'", f->path);
	snprintf(c->ident[0].value, sizeof(c->ident[0].value), "%s", s);
	c->jobfile = c->ident[0].value;
	return 0;
}

/* Every key of a's sweep is in b's with the same value, and the other way round. */
static int same_sweep(const struct merge_file *a, const struct merge_file *b, struct err *e)
{
	const struct json_value *sa = json_member(&a->root, "sweep"), *sb = json_member(&b->root, "sweep");
	unsigned i;

	for (i = 0; i < sa->n; i++) {
		const char *va = str_of(&sa->items[i]), *vb = str_of(json_member(sb, sa->keys[i]));

		if (!va || !vb || strcmp(va, vb))
			return err_set(e, "%s and %s are not shards of one sweep: their '%s' "
				       "differs ('%s' and '%s')", a->path, b->path, sa->keys[i],
				       va ? va : "?", vb ? vb : "(none)");
	}
	if (sa->n != sb->n)
		return err_set(e, "%s and %s are not shards of one sweep: %s has settings the "
			       "other has not", a->path, b->path, sa->n < sb->n ? b->path : a->path);
	return 0;
}

static int merge_load(struct merge_file *f, struct err *e)
{
	const struct json_value *fmt, *sweep;
	char *text, msg[160];
	size_t len;
	unsigned line;
	uint64_t u;

	if (input_read(f->path, "shard file", SHARD_MAX_BYTES, true, &text, &len, e))
		return -1;
	if (json_read(text, &f->root, &line, msg, sizeof(msg))) {
		free(text);
		return err_set(e, "%s:%u: not a shard's JSON: %s", f->path, line, msg);
	}
	free(text);
	fmt = json_member(&f->root, "ncqsim shard");
	sweep = json_member(&f->root, "sweep");
	if (num_u64(fmt, &u) || !sweep || sweep->type != JV_OBJECT ||
	    !json_member(&f->root, "cells") || json_member(&f->root, "cells")->type != JV_ARRAY)
		return err_set(e, "%s: not a shard written by 'ncqsim compare --shard I/N' "
			       "(no 'ncqsim shard', 'sweep' or 'cells')", f->path);
	if (u != SHARD_FORMAT)
		return err_set(e, "%s: shard format %" PRIu64 ", this ncqsim reads %d", f->path, u,
			       SHARD_FORMAT);
	return 0;
}

int compare_merge(struct compare *c, const char *const *files, unsigned nfiles, bool *plus,
		  struct err *e)
{
	struct merge_file *f = calloc(nfiles, sizeof(*f));
	/* Which file each cell came from, to name both in a duplicate. */
	int (*from)[CMP_MAX_RUNS] = calloc(CMP_MAX_VARIANTS, sizeof(*from));
	struct hist *h = malloc(sizeof(*h));
	uint64_t nshards = 0;
	const char *report_kind;
	unsigned i, k, v, r;
	int rc = -1;

	if (!f || !from || !h) {
		err_set(e, "out of memory");
		goto out;
	}
	hist_init(h);
	for (i = 0; i < nfiles; i++) {
		uint64_t shard, n;

		f[i].path = files[i];
		if (merge_load(&f[i], e))
			goto out;
		if (num_u64(json_member(&f[i].root, "shard"), &shard) ||
		    num_u64(json_member(&f[i].root, "shards"), &n) || !n || !shard || shard > n) {
			err_set(e, "%s: 'shard' and 'shards' are missing or not 1 <= shard <= shards",
				f[i].path);
			goto out;
		}
		if (i && n != nshards) {
			err_set(e, "%s is a shard of %" PRIu64 ", %s of %" PRIu64 ": not one sweep",
				f[i].path, n, f[0].path, nshards);
			goto out;
		}
		nshards = n;
		if (i && same_sweep(&f[0], &f[i], e))
			goto out;
		for (k = 0; k < i; k++)
			if (!strcmp(json_member(&f[k].root, "shard")->text,
				    json_member(&f[i].root, "shard")->text)) {
				err_set(e, "%s and %s are both shard %" PRIu64 " of %" PRIu64,
					f[k].path, f[i].path, shard, n);
				goto out;
			}
	}
	if (!nfiles) {
		err_set(e, "no shard files");
		goto out;
	}
	if (merge_setup(c, &f[0], e))
		goto out;
	report_kind = str_of(json_member(json_member(&f[0].root, "sweep"), "report"));
	*plus = report_kind && !strcmp(report_kind, "json+");
	c->nshards = (unsigned)nshards;
	for (i = 0; i < nfiles; i++) {
		const struct json_value *cells = json_member(&f[i].root, "cells");

		for (k = 0; k < cells->n; k++) {
			const struct json_value *cell = &cells->items[k], *rows = json_member(cell, "rows");
			const char *report = str_of(json_member(cell, "report")), *what = "its fields";
			uint64_t uv, ur, ios;
			double sim, cpu;
			unsigned j;

			if (num_u64(json_member(cell, "variant"), &uv) || uv >= c->nvariants ||
			    num_u64(json_member(cell, "run"), &ur) || ur >= c->runs_per_variant ||
			    hex_double(json_member(cell, "sim_seconds"), &sim) ||
			    hex_double(json_member(cell, "cpu_seconds"), &cpu) ||
			    num_u64(json_member(cell, "ios"), &ios) || !report || !rows ||
			    rows->type != JV_ARRAY)
				goto bad_cell;
			v = (unsigned)uv;
			r = (unsigned)ur;
			if (from[v][r]) {
				err_set(e, "variant %s, seed %" PRIu64 " is in both %s and %s",
					c->variants[v].label, c->seed + r, f[from[v][r] - 1].path,
					f[i].path);
				goto out;
			}
			from[v][r] = (int)i + 1;
			for (j = 0; j < rows->n; j++)
				if (merge_row(c, v, r, &rows->items[j], h, &what))
					goto bad_cell;
			c->run_json[v][r] = strdup(report);
			if (!c->run_json[v][r]) {
				what = "memory";
				goto bad_cell;
			}
			c->sim_seconds += sim;
			c->cpu_seconds += cpu;
			c->ios += ios;
			c->runs_done++;
			continue;
bad_cell:
			err_set(e, "%s: cell %u of 'cells': bad or missing %s", f[i].path, k + 1, what);
			goto out;
		}
	}
	for (r = 0; r < c->runs_per_variant; r++)
		for (v = 0; v < c->nvariants; v++)
			if (!from[v][r]) {
				err_set(e, "variant %s, seed %" PRIu64 " is in none of the files: shard "
					"%u of %" PRIu64 " is missing or incomplete", c->variants[v].label,
					c->seed + r, compare_cell_shard(c, v, r), nshards);
				goto out;
			}
	compare_summarise(c, c->runs_per_variant);
	c->precision_reached = true;
	rc = 0;
out:
	for (i = 0; f && i < nfiles; i++)
		json_value_free(&f[i].root);
	free(f);
	free(from);
	free(h);
	return rc;
}
