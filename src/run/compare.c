#include "run/compare.h"

#include "run/runner.h"
#include "run/system.h"
#include "stats/ci.h"
#include "stats/plot.h"
#include "util/clock.h"
#include "util/ioprio.h"
#include "util/json.h"
#include "util/outfile.h"
#include "util/parse.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- variants ---- */

int compare_variants(struct compare *c, const struct host_config *base, const char *const *vary,
		     unsigned nvary, struct err *e)
{
	char keys[CMP_MAX_VARY][64], values[CMP_MAX_VARY][32][128];
	unsigned nvalues[CMP_MAX_VARY], idx[CMP_MAX_VARY] = { 0 }, i, total = 1;
	struct disk_model *model;

	if (nvary > CMP_MAX_VARY)
		return err_set(e, "at most %d --vary options", CMP_MAX_VARY);
	for (i = 0; i < nvary; i++) {
		const char *eq = strchr(vary[i], '='), *p;
		struct parse_fields f;
		size_t klen, len;

		if (!eq || eq == vary[i] || !eq[1])
			return err_set(e, "option '--vary': expected KEY=V1,V2[,...], got '%s'", vary[i]);
		klen = (size_t)(eq - vary[i]);
		if (klen >= sizeof(keys[0]))
			return err_set(e, "option '--vary': key too long in '%s'", vary[i]);
		memcpy(keys[i], vary[i], klen);
		keys[i][klen] = '\0';
		nvalues[i] = 0;
		parse_fields_init(&f, eq + 1, ',');
		while (parse_fields_next(&f, &p, &len)) {
			if (!len || len >= sizeof(values[0][0]) || nvalues[i] == 32)
				return err_set(e, "option '--vary': bad value list in '%s'", vary[i]);
			memcpy(values[i][nvalues[i]], p, len);
			values[i][nvalues[i]][len] = '\0';
			nvalues[i]++;
		}
		total *= nvalues[i];
		if (total > CMP_MAX_VARIANTS)
			return err_set(e, "option '--vary': %u variants or more; at most %d", total,
				       CMP_MAX_VARIANTS);
	}
	model = malloc(sizeof(*model));
	if (!model)
		return err_set(e, "out of memory");
	c->nvariants = 0;
	for (;;) {
		struct cmp_variant *v = &c->variants[c->nvariants];
		size_t n = 0;

		v->cfg = *base;
		if (c->nvariants < 26)
			snprintf(v->label, sizeof(v->label), "%c", 'A' + c->nvariants);
		else
			snprintf(v->label, sizeof(v->label), "V%u", c->nvariants + 1);
		v->desc[0] = '\0';
		for (i = 0; i < nvary; i++) {
			char assignment[256];

			snprintf(assignment, sizeof(assignment), "%s=%s", keys[i], values[i][idx[i]]);
			if (host_config_assign(&v->cfg, assignment, "option '--vary'", e))
				goto fail;
			n += (size_t)snprintf(v->desc + n, sizeof(v->desc) - n, "%s%s", i ? " " : "",
					      assignment);
		}
		if (!nvary)
			snprintf(v->desc, sizeof(v->desc), "(as configured)");
		/* A drive.KEY value can only be checked on the model: before any run. */
		if (system_load_model(&v->cfg, model, e))
			goto fail;
		c->nvariants++;
		/* Next combination: the last --vary changes fastest. */
		for (i = nvary; i-- > 0;) {
			if (++idx[i] < nvalues[i])
				break;
			idx[i] = 0;
		}
		if (i == (unsigned)-1 || !nvary)
			break;
	}
	free(model);
	return 0;
fail:
	free(model);
	return -1;
}

/* ---- running ---- */

struct work {
	unsigned variant, run;
};

struct pool {
	struct compare *c;
	struct work *items;
	unsigned nitems, next, done;
	pthread_mutex_t lock;
	int error;			/* the first run's failure: -1, or RUNNER_REFUSED */
	struct err err;
	double wall0, last_shown, sim_total;
	uint64_t ios_total;
	double *sim_now;		/* per worker */
	uint64_t *ios_now;
	unsigned nworkers;
	double expect_sim;		/* simulated seconds a run takes, if known */
	bool shown;
};

struct worker {
	struct pool *p;
	unsigned index;
};

static const char *dir_name(int ddir)
{
	static const char *const names[] = { "read", "write", "trim" };

	return ddir >= 0 && ddir < 3 ? names[ddir] : "?";
}

static void show(struct pool *p)
{
	double elapsed = clock_wall() - p->wall0, sim = p->sim_total, frac;
	/*
	 * A terminal's line: from the first second on (or --eta-interval, if
	 * shorter), rewritten every quarter second (or that interval).
	 */
	double first = p->c->progress_every < 1.0 ? p->c->progress_every : 1.0;
	double every = p->c->progress == 2 ? p->c->progress_every :
		p->c->progress_every < 0.25 ? p->c->progress_every : 0.25;
	uint64_t ios = p->ios_total;
	unsigned i;

	if (!p->c->progress || elapsed < first || elapsed - p->last_shown < every)
		return;
	for (i = 0; i < p->nworkers; i++) {
		sim += p->sim_now[i];
		ios += p->ios_now[i];
	}
	frac = p->expect_sim > 0 ? sim / (p->expect_sim * p->nitems) :
		(double)p->done / p->nitems;
	fprintf(stderr, "%sncqsim: %u/%u runs done, %.0f s simulated, %.1fM I/Os",
		p->c->progress == 2 ? "" : "\r", p->done, p->nitems, sim, (double)ios / 1e6);
	if (frac > 0.01 && frac < 1.0)
		fprintf(stderr, ", ETA %.0f s", elapsed * (1.0 - frac) / frac);
	/* A terminal's line is rewritten in place: blank what a longer one left. */
	fprintf(stderr, p->c->progress == 2 ? "\n" : "          ");
	p->last_shown = elapsed;
	p->shown = p->c->progress != 2;
}

static void progress_cb(void *ctx, double sim_s, uint64_t ios)
{
	struct worker *w = ctx;
	struct pool *p = w->p;

	pthread_mutex_lock(&p->lock);
	p->sim_now[w->index] = sim_s;
	p->ios_now[w->index] = ios;
	show(p);
	pthread_mutex_unlock(&p->lock);
}

static struct cmp_row *find_row(struct compare *c, unsigned order, const char *job, int ddir,
			       int prio, bool lat)
{
	unsigned i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].job, job) && c->rows[i].ddir == ddir && c->rows[i].prio == prio)
			return &c->rows[i];
	if (c->nrows == c->rows_cap) {
		unsigned cap = c->rows_cap ? 2 * c->rows_cap : 16;
		struct cmp_row *rows = realloc(c->rows, cap * sizeof(*rows));

		if (!rows)
			return NULL;
		c->rows = rows;
		c->rows_cap = cap;
	}
	memset(&c->rows[c->nrows], 0, sizeof(c->rows[0]));
	c->rows[c->nrows].order = order;
	snprintf(c->rows[c->nrows].job, sizeof(c->rows[0].job), "%s", job);
	c->rows[c->nrows].ddir = ddir;
	c->rows[c->nrows].prio = prio;
	c->rows[c->nrows].lat = lat;
	return &c->rows[c->nrows++];
}

static void stat_init(struct cmp_stat *s)
{
	unsigned i;

	for (i = 0; i < CMP_MAX_RUNS; i++)
		s->v[i] = NAN;
}

int compare_add_row(struct compare *c, unsigned v, unsigned run, unsigned order, const char *job,
		   int ddir, int prio, bool lat, const struct hist *h, uint64_t runtime_ms)
{
	struct cmp_row *r;
	struct cmp_cell *cell;
	unsigned k;

	if (!h->sum.n || run >= CMP_MAX_RUNS)
		return 0;
	r = find_row(c, order, job, ddir, prio, lat);
	if (!r)
		return -1;
	if (!r->cell[v]) {
		r->cell[v] = calloc(1, sizeof(*r->cell[v]));
		if (!r->cell[v])
			return -1;
		hist_init(&r->cell[v]->merged);
		for (k = 0; k < c->npct; k++)
			stat_init(&r->cell[v]->pct[k]);
		stat_init(&r->cell[v]->max);
		stat_init(&r->cell[v]->iops);
	}
	cell = r->cell[v];
	for (k = 0; k < c->npct; k++)
		cell->pct[k].v[run] = (double)hist_percentile(h, c->pct[k]) / 1e6;
	cell->max.v[run] = (double)h->sum.max / 1e6;
	cell->iops.v[run] = runtime_ms ? 1000.0 * (double)h->sum.n / (double)runtime_ms : 0;
	/* Bucket counts add exactly: the merged histogram is the same in any order. */
	hist_merge(&cell->merged, h);
	return 0;
}

int compare_report_rows(const struct report *r, compare_row_fn fn, void *ctx)
{
	struct report_job *jobs;
	unsigned n, i;
	int d, rc = 0;

	jobs = report_groups(r, &n);
	if (!jobs)
		return -1;
	for (i = 0; i < n; i++) {
		const struct report_job *j = &jobs[i];

		for (d = 0; d < REPORT_DIRS; d++) {
			const struct report_dir *rd = &j->dir[d];
			const struct hist *h = j->lat_percentiles ? &rd->lat : &rd->clat;
			unsigned p;

			if (!h->sum.n)
				continue;
			rc |= fn(ctx, i, j->name, d, -1, j->lat_percentiles, h, rd->runtime_ms);
			if (report_prios_with_samples(rd) >= 2)
				for (p = 0; p < rd->nprios; p++)
					rc |= fn(ctx, i, j->name, d, rd->prios[p].ioprio,
						 j->lat_percentiles, &rd->prios[p].h, rd->runtime_ms);
		}
	}
	report_jobs_free(jobs, n);
	return rc;
}

struct collect_ctx {
	struct compare *c;
	unsigned v, run;
};

static int collect_row(void *ctx, unsigned order, const char *job, int ddir, int prio, bool lat,
		       const struct hist *h, uint64_t runtime_ms)
{
	struct collect_ctx *cc = ctx;

	return compare_add_row(cc->c, cc->v, cc->run, order, job, ddir, prio, lat, h, runtime_ms);
}

/* Fold one run's report into the table (under the pool's lock); -1 when out of memory. */
static int collect(struct compare *c, unsigned v, unsigned run, const struct report *r)
{
	struct collect_ctx cc = { c, v, run };

	return compare_report_rows(r, collect_row, &cc);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->p;
	struct compare *c = p->c;

	for (;;) {
		struct work item;
		struct runner_opts ro;
		struct runner_result *res = malloc(sizeof(*res));
		char tag[48];
		struct err e;
		int rc;

		pthread_mutex_lock(&p->lock);
		if (!res && !p->error) {
			p->error = -1;
			err_set(&p->err, "out of memory for a run's result");
		}
		if (p->next == p->nitems || p->error || (c->stop && *c->stop)) {
			pthread_mutex_unlock(&p->lock);
			free(res);
			return NULL;
		}
		item = p->items[p->next++];
		pthread_mutex_unlock(&p->lock);

		memset(&ro, 0, sizeof(ro));
		ro.seed = c->seed + item.run;
		ro.runtime_cap = c->runtime_cap;
		ro.progress = progress_cb;
		ro.progress_ctx = w;
		/* Each run its own logs: the variant's letter and the seed in their names. */
		snprintf(tag, sizeof(tag), "%s.seed%llu", c->variants[item.variant].label,
			 (unsigned long long)ro.seed);
		ro.log_tag = tag;
		ro.protect = c->protect;
		ro.nprotect = c->nprotect;
		ro.stop = c->stop;
		ro.sources = c->sources;
		rc = runner_run(c->w, &c->variants[item.variant].cfg, &ro, res, &e);

		pthread_mutex_lock(&p->lock);
		p->sim_now[w->index] = 0;
		p->ios_now[w->index] = 0;
		if (rc) {
			if (!p->error) {
				p->error = rc;
				err_set(&p->err, "variant %s (%s), seed %llu: %s",
					c->variants[item.variant].label, c->variants[item.variant].desc,
					(unsigned long long)ro.seed, e.msg);
			}
			free(res);
		} else if (res->report.interrupted) {
			/* Stopped short: not a run of the length asked for, so it does not count. */
			c->interrupted = true;
			runner_result_free(res);
			free(res);
		} else {
			c->runs_done++;
			if (collect(c, item.variant, item.run, &res->report) && !p->error) {
				p->error = -1;
				err_set(&p->err, "out of memory while collecting the results");
			}
			p->sim_total += res->sim_seconds;
			p->ios_total += res->ios;
			c->cpu_seconds += res->cpu_seconds;
			if (c->keep_reports) {
				c->results[item.variant][item.run] = res;
			} else {
				runner_result_free(res);
				free(res);
			}
		}
		p->done++;
		show(p);
		pthread_mutex_unlock(&p->lock);
	}
}

static double expected_sim_seconds(const struct workload *w, int64_t cap)
{
	double longest = 0;
	unsigned i;

	for (i = 0; i < w->ndefs; i++) {
		const struct job_options *o = &w->defs[i].o;
		int64_t rt = o->runtime;

		if (cap && (!rt || rt > cap))
			rt = cap;
		if (!o->time_based || !rt)
			return 0;	/* ends by size: unknown in advance */
		if ((o->startdelay + o->ramp_time + rt) / 1e9 > longest)
			longest = (o->startdelay + o->ramp_time + rt) / 1e9;
	}
	return longest;
}

/* Run repeats [from, to) of every variant. */
static int run_batch(struct compare *c, unsigned from, unsigned to, struct err *e)
{
	struct pool p;
	pthread_t tids[CMP_MAX_THREADS];
	struct worker workers[CMP_MAX_THREADS];
	unsigned i, v, r, nw;

	memset(&p, 0, sizeof(p));
	p.c = c;
	p.nitems = c->nvariants * (to - from);
	p.items = calloc(p.nitems, sizeof(*p.items));
	nw = c->threads < p.nitems ? c->threads : p.nitems;
	if (nw > CMP_MAX_THREADS)
		nw = CMP_MAX_THREADS;
	p.sim_now = calloc(nw ? nw : 1, sizeof(*p.sim_now));
	p.ios_now = calloc(nw ? nw : 1, sizeof(*p.ios_now));
	if (!p.items || !p.sim_now || !p.ios_now) {
		free(p.items);
		free(p.sim_now);
		free(p.ios_now);
		return err_set(e, "out of memory");
	}
	/* Runs in seed order, variants interleaved: an early stop is still balanced. */
	for (i = 0, r = from; r < to; r++)
		for (v = 0; v < c->nvariants; v++) {
			if (c->nshards && compare_cell_shard(c, v, r) != c->shard)
				continue;
			p.items[i].variant = v;
			p.items[i].run = r;
			i++;
		}
	p.nitems = i;
	p.nworkers = nw;
	p.wall0 = clock_wall();
	p.expect_sim = expected_sim_seconds(c->w, c->runtime_cap);
	pthread_mutex_init(&p.lock, NULL);
	for (i = 0; i < nw; i++) {
		int rc;

		workers[i].p = &p;
		workers[i].index = i;
		/* pthread_create returns its error; it does not set errno. */
		rc = pthread_create(&tids[i], NULL, worker_main, &workers[i]);
		if (rc) {
			nw = i;
			pthread_mutex_lock(&p.lock);	/* the started workers read it */
			p.error = -1;
			err_set(&p.err, "cannot start a thread: %s", strerror(rc));
			pthread_mutex_unlock(&p.lock);
			break;
		}
	}
	for (i = 0; i < nw; i++)
		pthread_join(tids[i], NULL);
	pthread_mutex_destroy(&p.lock);
	if (p.shown)
		fprintf(stderr, "\r\033[K");
	c->sim_seconds += p.sim_total;
	c->ios += p.ios_total;
	free(p.items);
	free(p.sim_now);
	free(p.ios_now);
	if (p.error) {
		*e = p.err;
		return p.error;
	}
	return 0;
}

/* Mean and half-width over the runs present, in run order. */
static void stat_summarise(struct cmp_stat *s, unsigned runs)
{
	double present[CMP_MAX_RUNS];
	unsigned i, n = 0;

	for (i = 0; i < runs && i < CMP_MAX_RUNS; i++)
		if (!isnan(s->v[i]))
			present[n++] = s->v[i];
	s->n = n;
	ci_mean(present, n, &s->mean, &s->hw, NULL);
}

static int row_cmp(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->ddir != y->ddir)
		return x->ddir < y->ddir ? -1 : 1;
	return (x->prio > y->prio) - (x->prio < y->prio);
}

/*
 * Rows appear in whichever order the threads finish; sort them into the
 * report's order (job, direction, whole job first, then classes) so the
 * output is the same run after run.
 */
void compare_summarise(struct compare *c, unsigned runs)
{
	unsigned r, v, k;

	qsort(c->rows, c->nrows, sizeof(c->rows[0]), row_cmp);
	for (r = 0; r < c->nrows; r++)
		for (v = 0; v < c->nvariants; v++) {
			struct cmp_cell *cell = c->rows[r].cell[v];

			if (!cell)
				continue;
			for (k = 0; k < c->npct; k++)
				stat_summarise(&cell->pct[k], runs);
			stat_summarise(&cell->max, runs);
			stat_summarise(&cell->iops, runs);
		}
}

/* The index of p99.99 in the list (the precision target), or -1. */
static int tail_index(const struct compare *c)
{
	unsigned k;

	for (k = 0; k < c->npct; k++)
		if (fabs(c->pct[k] - 99.99) < 1e-9)
			return (int)k;
	return -1;
}

/* The worst p99.99 half-width relative to its mean, over every cell. */
static double worst_precision(const struct compare *c, unsigned *row, unsigned *var)
{
	int k = tail_index(c);
	double worst = 0;
	unsigned r, v;

	for (r = 0; k >= 0 && r < c->nrows; r++)
		for (v = 0; v < c->nvariants; v++) {
			const struct cmp_cell *cell = c->rows[r].cell[v];
			double rel;

			if (!cell || cell->pct[k].mean <= 0)
				continue;
			rel = cell->pct[k].n < 2 ? INFINITY : cell->pct[k].hw / cell->pct[k].mean;
			if (rel > worst) {
				worst = rel;
				*row = r;
				*var = v;
			}
		}
	return worst;
}

int compare_run(struct compare *c, struct err *e)
{
	unsigned done;
	int rc;

	if (c->repeat > CMP_MAX_RUNS || c->max_repeat > CMP_MAX_RUNS)
		return err_set(e, "at most %d repetitions", CMP_MAX_RUNS);
	rc = run_batch(c, 0, c->repeat, e);
	if (rc)
		return rc;
	done = c->repeat;
	compare_summarise(c, done);
	c->precision_reached = true;
	if (c->stop && *c->stop)
		c->interrupted = true;
	if (c->precision > 0 && !c->interrupted) {
		unsigned row = 0, var = 0;
		double worst = worst_precision(c, &row, &var);

		while (worst > c->precision && done < c->max_repeat) {
			/* Half-widths shrink as 1/sqrt(n): aim for the target, at least one thread round. */
			double factor = isfinite(worst) ? (worst / c->precision) * (worst / c->precision) : 2;
			double aim = ceil(done * factor);
			/* Clamp before converting: a far target asks for more runs than an unsigned holds. */
			unsigned want = aim >= c->max_repeat ? c->max_repeat : (unsigned)aim;

			if (want < done + c->threads)
				want = done + c->threads;
			if (want > c->max_repeat)
				want = c->max_repeat;
			rc = run_batch(c, done, want, e);
			if (rc)
				return rc;
			done = want;
			compare_summarise(c, done);
			worst = worst_precision(c, &row, &var);
			if (c->stop && *c->stop) {
				c->interrupted = true;
				break;
			}
		}
		if (worst > c->precision && !c->interrupted) {
			c->precision_reached = false;
			snprintf(c->precision_note, sizeof(c->precision_note),
				 "precision not reached: p99.99 of %s %s in variant %s is within "
				 "+/-%.1f%% after %u runs (the limit, --max-repeat)", c->rows[row].job,
				 dir_name(c->rows[row].ddir), c->variants[var].label,
				 worst * 100.0, done);
		}
	}
	c->runs_per_variant = done;
	return 0;
}

/* ---- output ---- */

static void fmt_val(char *buf, size_t len, double v)
{
	if (v >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

static void fmt_cell(char *buf, size_t len, const struct cmp_stat *s)
{
	char m[24], h[24];

	if (!s->n) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_val(m, sizeof(m), s->mean);
	if (s->n < 2) {
		snprintf(buf, len, "%s", m);
		return;
	}
	fmt_val(h, sizeof(h), s->hw);
	snprintf(buf, len, "%s ± %s", m, h);
}

/* "C/L", or "C/L/H" with a hint (a CDL descriptor), as fio 3.36 labels priorities. */
static void prio_name(int prio, char *buf, size_t len)
{
	uint16_t v = (uint16_t)prio;

	if (ioprio_hint(v))
		snprintf(buf, len, "%u/%u/%u", ioprio_class(v), ioprio_level(v), ioprio_hint(v));
	else
		snprintf(buf, len, "%u/%u", ioprio_class(v), ioprio_level(v));
}

static void row_title(const struct cmp_row *r, char *buf, size_t len)
{
	char p[32];

	if (r->prio < 0) {
		snprintf(buf, len, "%s %s %s (ms)", r->job, dir_name(r->ddir),
			 r->lat ? "lat" : "clat");
		return;
	}
	prio_name(r->prio, p, sizeof(p));
	snprintf(buf, len, "%s %s %s, prio %s %s (ms)", r->job, dir_name(r->ddir),
		 r->lat ? "lat" : "clat", p, ioprio_class_name(ioprio_class((uint16_t)r->prio)));
}

/* The visible width of a UTF-8 string. */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, int w)
{
	int n = width(s);

	fputs(s, out);
	for (; n < w; n++)
		fputc(' ', out);
}

void compare_print_table(const struct compare *c, FILE *out)
{
	unsigned v, r, k;
	int colw = 22;

	fprintf(out, "ncqsim compare %s: %u variant%s x %u run%s", c->jobfile, c->nvariants,
		c->nvariants == 1 ? "" : "s", c->runs_per_variant, c->runs_per_variant == 1 ? "" : "s");
	if (c->runs_per_variant > 1)
		fprintf(out, " (seeds %llu-%llu)", (unsigned long long)c->seed,
			(unsigned long long)(c->seed + c->runs_per_variant - 1));
	else
		fprintf(out, " (seed %llu)", (unsigned long long)c->seed);
	fprintf(out, ", drive %s\n", c->variants[0].cfg.drive);
	if (c->interrupted)
		fprintf(out, "  INTERRUPTED: %u of %u runs finished; the cells hold those only\n",
			c->runs_done, c->runs_per_variant * c->nvariants);
	for (v = 0; v < c->nvariants; v++)
		fprintf(out, "  %-3s %s\n", c->variants[v].label, c->variants[v].desc);
	if (c->runs_per_variant > 1)
		fprintf(out, "  cells: mean ± 95%% confidence half-width over the runs (Student t);\n"
			"  percentiles are fio's histogram bins (1.6%% wide): runs in one bin give ± 0\n");
	if (c->precision > 0)
		fprintf(out, "  %s\n", c->precision_reached ? "precision reached: every p99.99 within the target" :
			c->precision_note);
	for (r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];
		char title[256];

		row_title(row, title, sizeof(title));
		fprintf(out, "\n");
		pad(out, title, 40);
		for (v = 0; v < c->nvariants; v++) {
			fprintf(out, " ");
			pad(out, c->variants[v].label, colw);
		}
		fprintf(out, "\n");
		for (k = 0; k < c->npct + 2; k++) {
			char name[48];

			if (k < c->npct)
				snprintf(name, sizeof(name), "  p%g", c->pct[k]);
			else
				snprintf(name, sizeof(name), k == c->npct ? "  max" : "  IOPS");
			pad(out, name, 40);
			for (v = 0; v < c->nvariants; v++) {
				const struct cmp_cell *cell = row->cell[v];
				char cellbuf[80];

				if (!cell)
					snprintf(cellbuf, sizeof(cellbuf), "-");
				else
					fmt_cell(cellbuf, sizeof(cellbuf), k < c->npct ? &cell->pct[k] :
						 k == c->npct ? &cell->max : &cell->iops);
				fprintf(out, " ");
				pad(out, cellbuf, colw);
			}
			fprintf(out, "\n");
		}
	}
	/* CPU time varies from machine to machine: the caller reports it, apart from this table. */
	fprintf(out, "\n%.0f s simulated, %.2fM I/Os\n", c->sim_seconds, (double)c->ios / 1e6);
}

static void json_stat(struct json_writer *w, const char *key, const struct cmp_stat *s,
		      unsigned runs)
{
	unsigned i;

	json_object_begin(w, key);
	json_double(w, "mean", s->mean);
	json_double(w, "half_width", s->hw);
	json_uint(w, "runs", s->n);
	json_array_begin(w, "values");	/* in seed order; null for a run without this row */
	for (i = 0; i < runs; i++)
		if (isnan(s->v[i]))
			json_null(w, NULL);
		else
			json_double(w, NULL, s->v[i]);
	json_array_end(w);
	json_object_end(w);
}

int compare_write_json(const struct compare *c, FILE *out, bool plus)
{
	struct json_writer w;
	unsigned v, r, k, i;
	int rc = 0;

	json_writer_init(&w, out);
	json_object_begin(&w, NULL);
	json_string(&w, "ncqsim version", "ncqsim-0.1");
	json_string(&w, "job file", c->jobfile);
	json_uint(&w, "runs per variant", c->runs_per_variant);
	if (c->interrupted) {
		json_bool(&w, "interrupted", true);
		json_uint(&w, "runs finished", c->runs_done);
	}
	json_uint(&w, "first seed", c->seed);
	json_string(&w, "confidence", "95% Student t half-width over the runs");
	if (c->precision > 0) {
		json_double(&w, "precision target", c->precision);
		json_bool(&w, "precision reached", c->precision_reached);
	}
	json_array_begin(&w, "variants");
	for (v = 0; v < c->nvariants; v++) {
		json_object_begin(&w, NULL);
		json_string(&w, "label", c->variants[v].label);
		json_string(&w, "settings", c->variants[v].desc);
		json_array_begin(&w, "summary");
		for (r = 0; r < c->nrows; r++) {
			const struct cmp_cell *cell = c->rows[r].cell[v];

			if (!cell)
				continue;
			json_object_begin(&w, NULL);
			json_string(&w, "job", c->rows[r].job);
			json_string(&w, "direction", dir_name(c->rows[r].ddir));
			json_string(&w, "latency", c->rows[r].lat ? "lat" : "clat");
			if (c->rows[r].prio < 0) {
				json_null(&w, "prioclass");
				json_null(&w, "prio");
				json_null(&w, "priohint");
			} else {
				json_uint(&w, "prioclass", ioprio_class((uint16_t)c->rows[r].prio));
				json_uint(&w, "prio", ioprio_level((uint16_t)c->rows[r].prio));
				json_uint(&w, "priohint", ioprio_hint((uint16_t)c->rows[r].prio));
			}
			json_object_begin(&w, "percentiles_ms");
			for (k = 0; k < c->npct; k++) {
				char key[32];

				json_format_f(key, sizeof(key), c->pct[k]);
				json_stat(&w, key, &cell->pct[k], c->runs_per_variant);
			}
			json_object_end(&w);
			json_stat(&w, "max_ms", &cell->max, c->runs_per_variant);
			json_stat(&w, "iops", &cell->iops, c->runs_per_variant);
			json_object_end(&w);
		}
		json_array_end(&w);
		if (c->keep_reports) {
			json_array_begin(&w, "runs");
			for (i = 0; i < c->runs_per_variant; i++) {
				const struct runner_result *res = c->results[v][i];

				if (res && report_json_member(&w, NULL, &res->report, plus))
					rc = -1;
				else if (!res && c->run_json[v][i])
					json_raw_member(&w, c->run_json[v][i]);	/* merged from a shard */
			}
			json_array_end(&w);
		}
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	json_writer_finish(&w);
	return rc;
}

int compare_plot(const struct compare *c, const char *path, struct err *e)
{
	/* A line per row and variant: every row of the table, however many. */
	size_t max_series = (size_t)(c->nrows ? c->nrows : 1) * c->nvariants;
	struct plot_series *s = calloc(max_series, sizeof(*s));
	char (*labels)[160] = calloc(max_series, sizeof(*labels));
	char (*note_text)[160] = calloc(CMP_MAX_VARIANTS * (CMP_MAX_VARY + 1), sizeof(*note_text));
	const char *notes[CMP_MAX_VARIANTS * (CMP_MAX_VARY + 1)];
	unsigned nnotes = 0;
	unsigned n = 0, r, v;
	struct outfile out;
	char title[300];
	int rc = -1;

	if (!s || !labels || !note_text) {
		err_set(e, "option '--plot': out of memory");
		goto done;
	}

	for (r = 0; r < c->nrows; r++) {
		/* A job's whole-job line only when it has no per-priority lines. */
		if (c->rows[r].prio < 0) {
			unsigned k;
			bool split = false;

			for (k = 0; k < c->nrows; k++)
				split |= k != r && c->rows[k].prio >= 0 && !strcmp(c->rows[k].job, c->rows[r].job) &&
					c->rows[k].ddir == c->rows[r].ddir;
			if (split)
				continue;
		}
		for (v = 0; v < c->nvariants; v++) {
			if (!c->rows[r].cell[v])
				continue;
			if (c->rows[r].prio < 0)
				snprintf(labels[n], sizeof(labels[n]), "%s: %s %s", c->variants[v].label,
					 c->rows[r].job, dir_name(c->rows[r].ddir));
			else {
				char p[16];

				prio_name(c->rows[r].prio, p, sizeof(p));
				snprintf(labels[n], sizeof(labels[n]), "%s: %s %s prio %s",
					 c->variants[v].label, c->rows[r].job,
					 dir_name(c->rows[r].ddir), p);
			}
			s[n].label = labels[n];
			s[n].h = &c->rows[r].cell[v]->merged;
			n++;
		}
	}
	if (outfile_open(&out, path, "option '--plot'", e))
		goto done;
	snprintf(title, sizeof(title), "%s: latency exceedance, %u run%s per variant", c->jobfile,
		 c->runs_per_variant, c->runs_per_variant == 1 ? "" : "s");
	/* The legend's key to the letters, one setting per line so it fits. */
	for (v = 0; v < c->nvariants; v++) {
		const char *p = c->variants[v].desc;
		bool first = true;

		while (*p && nnotes < CMP_MAX_VARIANTS * (CMP_MAX_VARY + 1)) {
			size_t len = strcspn(p, " ");

			snprintf(note_text[nnotes], sizeof(note_text[0]), "%-3s %.*s", first ?
				 c->variants[v].label : "", (int)len, p);
			notes[nnotes] = note_text[nnotes];
			nnotes++;
			first = false;
			p += len;
			p += strspn(p, " ");
		}
	}
	if (plot_exceedance_svg(out.f, title, s, n, notes, nnotes)) {
		outfile_abort(&out);
		err_set(e, "option '--plot': no latencies to plot");
		goto done;
	}
	if (outfile_commit(&out, e)) {
		err_prefix(e, "option '--plot': ");
		goto done;
	}
	rc = 0;
done:
	free(s);
	free(labels);
	free(note_text);
	return rc;
}

void compare_free(struct compare *c)
{
	unsigned r, v, i;

	for (r = 0; r < c->nrows; r++)
		for (v = 0; v < c->nvariants; v++) {
			free(c->rows[r].cell[v]);
			c->rows[r].cell[v] = NULL;
		}
	free(c->rows);
	c->rows = NULL;
	c->nrows = c->rows_cap = 0;
	for (v = 0; v < c->nvariants; v++)
		for (i = 0; i < CMP_MAX_RUNS; i++)
			if (c->results[v][i]) {
				runner_result_free(c->results[v][i]);
				free(c->results[v][i]);
				c->results[v][i] = NULL;
			}
	for (v = 0; v < c->nvariants; v++)
		for (i = 0; i < CMP_MAX_RUNS; i++) {
			free(c->run_json[v][i]);
			c->run_json[v][i] = NULL;
		}
}
