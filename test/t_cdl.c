/*
 * Command Duration Limits end to end, through the ncqsim binary ($NCQSIM):
 *
 * 1. Limits and fio's error counters (test/data/cdl/active20.fio, half the
 *    reads on descriptor 1 with a 20 ms max active time): with policy 0xF
 *    and 0xD some reads fail with ETIME — total_err > 0, first_error 62
 *    (ignore_error=62: fio carries on past EIO and EILSEQ alone), the JSON's
 *    error 62 as fio shows the first error it carried on past, the job's
 *    priority entry says hint 1 — with 0x0 none fail; without
 *    continue_on_error the first ETIME ends the job (error 62, err=62).
 * 2. Guideline and inactive-time limits, with abort and continue-no-limit
 *    (check_other_limits).
 * 3. The check of the hc570 calibration against the published single-limit
 *    run (../shared/reference/cdl/README.md), nothing tuned to it:
 *    examples/cdl.fio with examples/cdl.system over 8 seeds
 *      ncqsim compare examples/cdl.fio --system examples/cdl.system
 *          --vary device/cdl_enable=1 --repeat 8 --output-format=json
 *    50 ms class p99 within ±30 % of 68 ms, p99.99 of 86 ms; the unlimited
 *    class p99 within ±30 % of 434 ms; total IOPS within ±10 % of 154.
 */
#include "testlib.h"
#include "runlab.h"

#include <stdlib.h>

static long long num(const struct json *obj, const char *path)
{
	const struct json *v = json_at(obj, path);

	return v && v->type == JSON_NUMBER ? (long long)v->number : -1;
}

/* One run of active20.fio with a page; the job's error, total_err, first_error. */
static void limits(const char *page, long long *error, long long *total_err,
		   long long *first_error, long long *hint)
{
	char args[512];
	struct json *root;

	snprintf(args, sizeof(args), "run test/data/cdl/active20.fio --drive hc570 "
		 "--set device/cdl_enable=1 --set drive.cdl_t2a=test/data/cdl/%s", page);
	*error = *total_err = *first_error = *hint = -1;
	root = runlab_json(args);
	if (!root)
		return;
	*error = num(root, "jobs.0.error");
	*total_err = num(root, "jobs.0.total_err");
	*first_error = num(root, "jobs.0.first_error");
	*hint = num(root, "jobs.0.read.prios.1.priohint");
	/* What fio counted is what the host saw end with -ETIME, and what the drive ended. */
	if (*total_err >= 0) {
		CHECK_EQ_INT(num(root, "ncqsim.host.cdl_timeouts"), *total_err);
		CHECK_EQ_INT(num(root, "ncqsim.drive_stats.cdl_timeouts"), *total_err);
		CHECK(num(root, "ncqsim.host.cdl_commands") > 1000);
	}
	json_free(root);
}

static void check_limits(void)
{
	long long error, total, first, hint;
	char cmd[512];
	char *text;

	limits("active20-abort.cdl", &error, &total, &first, &hint);
	printf("policy 0xF: error %lld, total_err %lld, first_error %lld\n", error, total, first);
	CHECK_EQ_INT(error, 62);
	CHECK_MSG(total > 0, "policy 0xF: no read failed (total_err %lld)", total);
	CHECK_EQ_INT(first, 62);
	CHECK_EQ_INT(hint, 1);

	limits("active20-unavailable.cdl", &error, &total, &first, &hint);
	printf("policy 0xD: error %lld, total_err %lld, first_error %lld\n", error, total, first);
	CHECK_MSG(total > 0, "policy 0xD: no read failed (total_err %lld)", total);
	CHECK_EQ_INT(first, 62);

	limits("active20-earliest.cdl", &error, &total, &first, &hint);
	printf("policy 0x0: error %lld, total_err %lld, first_error %lld\n", error, total, first);
	CHECK_EQ_INT(error, 0);
	CHECK_EQ_INT(total, 0);
	CHECK_EQ_INT(first, 0);

	/*
	 * Without continue_on_error: the first ETIME is the job's error, as in
	 * fio, which then exits 1 and says so on stderr.
	 */
	snprintf(cmd, sizeof(cmd), "'%s' run test/data/cdl/active20-stop.fio --drive hc570 "
		 "--set device/cdl_enable=1 --set drive.cdl_t2a=test/data/cdl/active20-abort.cdl "
		 "2>&1", getenv("NCQSIM") ? getenv("NCQSIM") : "./ncqsim");
	text = runlab_command_exit(cmd, 1);
	if (text) {
		CHECK_MSG(strstr(text, "err=62 (file:io_u.c, func=io_u error, error=Timer expired)"),
			  "no err=62 line in:\n%.600s", text);
		CHECK(strstr(text, "errors    :") == NULL);
		CHECK_MSG(strstr(text, "ended with error 62 (Timer expired)"),
			  "no message on stderr for the failed job in:\n%.300s", text);
		free(text);
	}
}

/*
 * The other limits at QD 32 (test/data/cdl/qd32.fio, 20 % on descriptor 1):
 * a 50 ms guideline with 0xF aborts some reads and no read of the class
 * completes later than 50 ms; with 0x2 none fails and, no longer urgent
 * once late, some take far longer; with 0x1 a late command takes descriptor
 * 2's limits (100 ms, abort), so none ends past 100 ms; a 10 ms max inactive time with 0xF
 * aborts some, and those that run started within 10 ms, so none takes
 * longer than 10 ms plus the longest access (a full-stroke seek, a
 * revolution and the transfer: under 26 ms on hc570).
 */
static void other_limits(const char *page, long long *total_err, double *class_max_ms)
{
	char args[512];
	struct json *root, *prios;
	size_t i;

	snprintf(args, sizeof(args), "run test/data/cdl/qd32.fio --drive hc570 "
		 "--set device/cdl_enable=1 --set drive.cdl_t2a=test/data/cdl/%s", page);
	*total_err = -1;
	*class_max_ms = -1;
	root = runlab_json(args);
	if (!root)
		return;
	*total_err = num(root, "jobs.0.total_err");
	prios = json_at(root, "jobs.0.read.prios");
	for (i = 0; prios && i < prios->len; i++)
		if (num(prios->items[i], "priohint") == 1)
			*class_max_ms = (double)num(prios->items[i], "clat_ns.max") / 1e6;
	json_free(root);
	printf("%s: total_err %lld, descriptor 1 class max %.1f ms\n", page, *total_err,
	       *class_max_ms);
}

static void check_other_limits(void)
{
	long long total;
	double max_ms;

	other_limits("guide50-abort.cdl", &total, &max_ms);
	CHECK(total > 0);
	CHECK(max_ms > 0 && max_ms <= 50.0);
	other_limits("guide50-nolimit.cdl", &total, &max_ms);
	CHECK_EQ_INT(total, 0);
	CHECK(max_ms > 100.0);
	/* 0x1: late for 50 ms, the command carries on under descriptor 2 (100 ms, abort). */
	other_limits("guide50-next.cdl", &total, &max_ms);
	CHECK(max_ms > 50.0 && max_ms <= 100.0);
	other_limits("inactive10-abort.cdl", &total, &max_ms);
	CHECK(total > 0);
	CHECK(max_ms > 0 && max_ms <= 36.0);
}

struct figure {
	const char *what;
	int hint;		/* the priority row's hint; -1: the job's total row */
	const char *key;	/* "iops" or a percentile */
	double measured, tolerance;
};

static void check_single_limit(void)
{
	static const struct figure figs[] = {
		{ "50 ms class p99", 1, "99.000000", 68, 0.30 },
		{ "50 ms class p99.99", 1, "99.990000", 86, 0.30 },
		{ "unlimited class p99", 0, "99.000000", 434, 0.30 },
		{ "total IOPS", -1, "iops", 154, 0.10 },
	};
	struct json *root = runlab_json("compare examples/cdl.fio --system examples/cdl.system "
				     "--vary device/cdl_enable=1 --repeat 8");
	struct json *rows;
	size_t f, r;

	if (!root)
		return;
	rows = json_at(root, "variants.0.summary");
	CHECK(rows != NULL);
	for (f = 0; rows && f < sizeof(figs) / sizeof(figs[0]); f++) {
		const struct figure *g = &figs[f];
		struct json *cell = NULL;

		for (r = 0; r < rows->len; r++) {
			const struct json *h = json_get(rows->items[r], "priohint");

			if (g->hint < 0 ? h && h->type == JSON_NULL :
			    h && h->type == JSON_NUMBER && (int)h->number == g->hint)
				cell = rows->items[r];
		}
		CHECK_MSG(cell != NULL, "%s: no such row", g->what);
		if (cell) {
			struct json *v = strcmp(g->key, "iops") ? json_get(json_get(cell,
					"percentiles_ms"), g->key) : json_get(cell, "iops");
			double mean = v ? json_get(v, "mean")->number : -1;
			double hw = v ? json_get(v, "half_width")->number : -1;

			printf("%-22s %7.1f ± %.1f (published %3.0f, %+5.1f %%)\n", g->what, mean, hw,
			       g->measured, 100 * (mean / g->measured - 1));
			CHECK_MSG(mean >= (1 - g->tolerance) * g->measured &&
				  mean <= (1 + g->tolerance) * g->measured,
				  "%s: %.1f is not within %.0f %% of %.0f", g->what, mean,
				  100 * g->tolerance, g->measured);
		}
	}
	json_free(root);
}

int main(void)
{
	check_limits();
	check_other_limits();
	check_single_limit();
	return test_done();
}
