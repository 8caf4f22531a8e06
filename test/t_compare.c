/*
 * compare: the variants are the cartesian product of the --vary lists, in
 * order; bad --vary values are refused by name; the results do not depend
 * on the number of threads; every cell's mean and half-width are those of
 * its per-run values (Student t); the per-run values are what a single
 * `run` with that seed reports; the JSON holds every run's full report;
 * --precision stops when reached and says so when its limit is hit; the
 * plot is a whole SVG with a line per variant and job.
 */
#include "testlib.h"
#include "json.h"

#include "run/compare.h"
#include "run/runner.h"
#include "stats/ci.h"

#include <stdlib.h>
#include <unistd.h>

static struct workload w;
static struct host_config base;

static char *slurp_or_die(const char *path)
{
	char *text = test_slurp(path, NULL);

	if (!text) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	return text;
}

static struct compare *new_compare(unsigned repeat, unsigned threads)
{
	struct compare *c = calloc(1, sizeof(*c));
	static const double pct[] = { 50, 99, 99.9, 99.99 };

	if (!c)
		exit(1);
	c->w = &w;
	c->jobfile = "examples/seed.fio";
	memcpy(c->pct, pct, sizeof(pct));
	c->npct = 4;
	c->repeat = repeat;
	c->max_repeat = 64;
	c->threads = threads;
	c->seed = 1;
	c->runtime_cap = 120LL * 1000000000;
	return c;
}

/* Text of a table or JSON document, via a memory stream. */
static char *render(const struct compare *c, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (json)
		compare_write_json(c, f, false);
	else
		compare_print_table(c, f);
	fclose(f);
	return buf;
}

static void check_variants(void)
{
	const char *vary[] = { "device/ncq_prio_enable=0,1", "queue/scheduler=deadline,none,mq-deadline" };
	const char *bad[][2] = {
		{ "device/ncq_prio_enable", "expected KEY=V1,V2" },
		{ "device/ncq_prio_enable=", "expected KEY=V1,V2" },
		{ "device/ncq_prio_enable=0,,1", "bad value list" },
		{ "device/ncq_prio_enable=0,1,", "bad value list" },
		{ "no/such_knob=1,2", "--vary" },
		{ "queue/scheduler=deadline,cfq", "cfq" },
		{ "device/queue_depth=1,99", "99" },
		{ "queue/scheduler=deadline,cfq", "option '--vary': knob 'queue/scheduler'" },
		/* Only the drive model can refuse this one: still before any run, naming --vary. */
		{ "drive.rpm=7200,fast", "option '--vary': drive 'he8': key 'rpm'" },
	};
	const char *many[] = { "device/queue_depth=1,2,3,4,5,6,7,8", "queue/fifo_batch=1,2,3,4,5,6,7,8,9" };
	struct compare *c = new_compare(1, 1);
	struct err e;
	size_t i;

	CHECK_EQ_INT(compare_variants(c, &base, vary, 2, &e), 0);
	CHECK_EQ_INT(c->nvariants, 6);
	/* The last --vary changes fastest. */
	CHECK_EQ_STR(c->variants[0].label, "A");
	CHECK_EQ_STR(c->variants[0].desc, "device/ncq_prio_enable=0 queue/scheduler=deadline");
	CHECK_EQ_STR(c->variants[1].desc, "device/ncq_prio_enable=0 queue/scheduler=none");
	CHECK_EQ_STR(c->variants[2].desc, "device/ncq_prio_enable=0 queue/scheduler=mq-deadline");
	CHECK_EQ_STR(c->variants[5].label, "F");
	CHECK_EQ_STR(c->variants[5].desc, "device/ncq_prio_enable=1 queue/scheduler=mq-deadline");
	CHECK(!c->variants[0].cfg.k.ncq_prio_enable && c->variants[3].cfg.k.ncq_prio_enable);
	CHECK(c->variants[1].cfg.k.scheduler != c->variants[0].cfg.k.scheduler);
	CHECK(c->variants[4].cfg.k.scheduler == c->variants[1].cfg.k.scheduler);
	/* Settings not varied stay as configured (seed.system's queue depth 31). */
	CHECK_EQ_INT(c->variants[5].cfg.k.queue_depth, 31);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = compare_variants(c, &base, &bad[i][0], 1, &e);

		CHECK_MSG(rc != 0, "--vary %s accepted", bad[i][0]);
		CHECK_MSG(rc == 0 || strstr(e.msg, bad[i][1]), "--vary %s: message '%s' lacks '%s'",
			  bad[i][0], e.msg, bad[i][1]);
	}
	CHECK(compare_variants(c, &base, many, 2, &e) != 0);
	CHECK_MSG(strstr(e.msg, "at most 64"), "too many variants: '%s'", e.msg);
	compare_free(c);
	free(c);
}

/* fg's read clat p99.99 (ms) from a single run, as `ncqsim run --seed` would. */
static double single_run_p9999(const struct host_config *cfg, uint64_t seed)
{
	struct runner_opts ro;
	struct runner_result *res = malloc(sizeof(*res));
	struct err e;
	double v = -1;
	unsigned i;

	memset(&ro, 0, sizeof(ro));
	ro.seed = seed;
	ro.runtime_cap = 120LL * 1000000000;
	if (!res || runner_run(&w, cfg, &ro, res, &e)) {
		fprintf(stderr, "run: %s\n", res ? e.msg : "out of memory");
		free(res);
		return -1;
	}
	for (i = 0; i < res->report.njobs; i++)
		if (!strcmp(res->report.jobs[i].name, "fg"))
			v = (double)hist_percentile(&res->report.jobs[i].dir[0].clat, 99.99) / 1e6;
	runner_result_free(res);
	free(res);
	return v;
}

static void check_runs(void)
{
	const char *vary[] = { "device/ncq_prio_enable=0,1" };
	struct compare *one = new_compare(3, 1), *two = new_compare(3, 2);
	char *t1, *t2, *j1, *j2, err[128];
	struct json *root, *variants, *summary;
	struct err e;
	unsigned v, r, k;

	two->keep_reports = true;
	CHECK_EQ_INT(compare_variants(one, &base, vary, 1, &e), 0);
	CHECK_EQ_INT(compare_variants(two, &base, vary, 1, &e), 0);
	CHECK_EQ_INT(compare_run(one, &e), 0);
	CHECK_EQ_INT(compare_run(two, &e), 0);
	CHECK_EQ_INT(one->runs_per_variant, 3);

	/* Threads change nothing. */
	t1 = render(one, 0);
	t2 = render(two, 0);
	CHECK_EQ_STR(t1, t2);
	CHECK(strstr(t1, "2 variants x 3 runs (seeds 1-3)") != NULL);
	CHECK(strstr(t1, "A   device/ncq_prio_enable=0") != NULL);
	CHECK(strstr(t1, "fg read clat (ms)") != NULL);
	CHECK(strstr(t1, "  p99.99") != NULL);
	CHECK(strstr(t1, " ± ") != NULL);

	/* Every cell: the mean and half-width of its runs; run r is the single run with seed 1 + r. */
	CHECK_EQ_INT(one->nrows, 2);
	for (r = 0; r < one->nrows; r++)
		for (v = 0; v < one->nvariants; v++) {
			const struct cmp_cell *cell = one->rows[r].cell[v];

			CHECK(cell != NULL);
			if (!cell)
				continue;
			for (k = 0; k < one->npct; k++) {
				double mean, hw;

				CHECK_EQ_INT(cell->pct[k].n, 3);
				ci_mean(cell->pct[k].v, 3, &mean, &hw, NULL);
				CHECK_NEAR(cell->pct[k].mean, mean, 1e-9);
				CHECK_NEAR(cell->pct[k].hw, hw, 1e-9);
			}
		}
	CHECK_EQ_STR(one->rows[0].job, "fg");
	for (v = 0; v < 2; v++)
		for (r = 0; r < 3; r++)
			CHECK_NEAR(one->rows[0].cell[v]->pct[3].v[r],
				   single_run_p9999(&one->variants[v].cfg, 1 + r), 0.0);
	/* Priority helps fg even in two minutes. */
	CHECK(one->rows[0].cell[1]->pct[3].mean < one->rows[0].cell[0]->pct[3].mean / 5);

	/* JSON: the summary as in the table, and every run's fio report. */
	j1 = render(two, 1);
	root = json_parse(j1, err, sizeof(err));
	CHECK_MSG(root != NULL, "compare JSON does not parse: %s", err);
	variants = json_get(root, "variants");
	CHECK(variants && variants->len == 2);
	for (v = 0; variants && v < variants->len; v++) {
		struct json *runs = json_get(variants->items[v], "runs"), *p, *vals;
		double vv[3], mean, hw;
		unsigned i;

		summary = json_get(variants->items[v], "summary");
		CHECK(summary && summary->len == 2);
		CHECK(runs && runs->len == 3);
		CHECK(runs && runs->len && json_at(runs->items[0], "jobs.0.read.clat_ns.percentile"));
		CHECK_EQ_STR(json_get(summary->items[0], "job")->text, "fg");
		p = json_get(json_get(summary->items[0], "percentiles_ms"), "99.990000");
		CHECK(p != NULL);
		if (!p)
			continue;
		vals = json_get(p, "values");
		CHECK(vals && vals->len == 3);
		for (i = 0; vals && i < 3 && i < vals->len; i++)
			vv[i] = vals->items[i]->number;
		ci_mean(vv, 3, &mean, &hw, NULL);
		CHECK_REL(json_get(p, "mean")->number, mean, 1e-6);	/* JSON keeps 8 digits */
		CHECK_REL(json_get(p, "half_width")->number, hw, 1e-6);
		CHECK_EQ_INT(json_u64(json_get(p, "runs")), 3);
	}
	json_free(root);
	/* Without the reports, the rest of the JSON is the same whatever the threads. */
	two->keep_reports = false;
	j2 = render(two, 1);
	free(j1);
	j1 = render(one, 1);
	CHECK_EQ_STR(j1, j2);

	/* The plot: a whole SVG, a line per variant and job. */
	{
		char path[] = "/tmp/ncqsim-plot-XXXXXX";
		int fd = mkstemp(path);
		char *svg;
		const char *p;
		unsigned lines = 0;

		CHECK(fd >= 0);
		close(fd);
		CHECK_EQ_INT(compare_plot(one, path, &e), 0);
		svg = test_slurp(path, NULL);
		CHECK(svg && !strncmp(svg, "<?xml", 5));
		CHECK(svg && strstr(svg, "</svg>\n") && !strcmp(strstr(svg, "</svg>\n"), "</svg>\n"));
		for (p = svg; p && (p = strstr(p, "<polyline")); p++)
			lines++;
		CHECK_EQ_INT(lines, 4);
		CHECK(svg && strstr(svg, "latency (ms)") && strstr(svg, "A: fg read"));
		CHECK(svg && strstr(svg, "A   device/ncq_prio_enable=0"));
		free(svg);
		unlink(path);
		CHECK(compare_plot(one, "/nonexistent-dir/x.svg", &e) != 0);
		CHECK(strstr(e.msg, "--plot") != NULL);
	}
	free(t1);
	free(t2);
	free(j1);
	free(j2);
	compare_free(one);
	compare_free(two);
	free(one);
	free(two);
}

static void check_precision(void)
{
	const char *vary[] = { "device/ncq_prio_enable=1" };
	struct compare *c = new_compare(2, 2);
	struct err e;

	/* A loose target: reached after the first runs. */
	c->precision = 0.5;
	CHECK_EQ_INT(compare_variants(c, &base, vary, 1, &e), 0);
	CHECK_EQ_INT(compare_run(c, &e), 0);
	CHECK(c->precision_reached);
	compare_free(c);
	free(c);

	/* An impossible one: stops at --max-repeat and says so. */
	c = new_compare(2, 2);
	c->precision = 1e-6;
	c->max_repeat = 5;
	CHECK_EQ_INT(compare_variants(c, &base, vary, 1, &e), 0);
	CHECK_EQ_INT(compare_run(c, &e), 0);
	CHECK(!c->precision_reached);
	CHECK_EQ_INT(c->runs_per_variant, 5);
	CHECK_MSG(strstr(c->precision_note, "precision not reached") &&
		  strstr(c->precision_note, "after 5 runs"), "note: %s", c->precision_note);
	compare_free(c);
	free(c);
}

int main(void)
{
	struct err e;
	char *system = slurp_or_die("examples/seed.system");

	if (workload_load(&w, "examples/seed.fio", stderr, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	host_config_init(&base);
	CHECK_EQ_INT(host_config_parse_system(&base, system, "examples/seed.system", &e), 0);
	free(system);
	check_variants();
	check_runs();
	check_precision();
	workload_free(&w);
	return test_done();
}
