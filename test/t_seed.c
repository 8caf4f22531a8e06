/*
 * The seed result, as the issue states it: with he8, the 4.10 deadline
 * scheduler and examples/seed.fio, the foreground job's clat p99.99 —
 * jobs[fg].read.clat_ns.percentile["99.990000"] in the JSON of
 *
 *   ncqsim run examples/seed.fio --system examples/seed.system
 *       --set device/ncq_prio_enable=0|1 --output-format=json --seed N
 *
 * — over 8 seeds is within ±30 % of the published 2 s (priority off) and
 * 72 ms (on), each mean with a 95 % half-width under 10 %. And with the
 * drive's queue depth at 1, priority changes nothing: no reordering is
 * left for the drive to do.
 *
 * Runs the ncqsim binary ($NCQSIM), all seeds at once.
 */
#include "testlib.h"
#include "json.h"
#include "stats/ci.h"

#include <stdlib.h>

#define SEEDS 8

static FILE *start(int prio, unsigned seed, const char *extra)
{
	const char *bin = getenv("NCQSIM");
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "'%s' run examples/seed.fio --system examples/seed.system "
		 "--set device/ncq_prio_enable=%d %s --output-format=json --seed %u --quiet",
		 bin ? bin : "./ncqsim", prio, extra, seed);
	return popen(cmd, "r");
}

/* fg's read clat p99.99 and max (ms) from one run's JSON; -1 on any failure. */
static double finish(FILE *f, double *max_ms)
{
	char *buf = NULL, err[128];
	size_t len = 0, cap = 0, got;
	struct json *root, *jobs;
	double v = -1;
	size_t i;

	for (;;) {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf)
				return -1;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	buf[len] = '\0';
	if (pclose(f) != 0) {
		fprintf(stderr, "ncqsim run failed\n");
		free(buf);
		return -1;
	}
	root = json_parse(buf, err, sizeof(err));
	free(buf);
	if (!root) {
		fprintf(stderr, "bad JSON: %s\n", err);
		return -1;
	}
	jobs = json_get(root, "jobs");
	for (i = 0; jobs && i < jobs->len; i++) {
		struct json *name = json_get(jobs->items[i], "jobname");

		if (name && name->text && !strcmp(name->text, "fg")) {
			/* The key has dots of its own: json_at() cannot take it in its path. */
			struct json *p = json_get(json_at(jobs->items[i], "read.clat_ns.percentile"),
						  "99.990000");
			struct json *m = json_at(jobs->items[i], "read.clat_ns.max");

			if (p && m) {
				v = (double)json_u64(p) / 1e6;
				*max_ms = (double)json_u64(m) / 1e6;
			}
		}
	}
	json_free(root);
	return v;
}

static void seed_result(int prio, double target_ms)
{
	FILE *runs[SEEDS];
	double p9999[SEEDS], max_ms, mean, hw;
	unsigned s;

	for (s = 0; s < SEEDS; s++)
		runs[s] = start(prio, s + 1, "");
	for (s = 0; s < SEEDS; s++) {
		CHECK(runs[s] != NULL);
		p9999[s] = runs[s] ? finish(runs[s], &max_ms) : -1;
		CHECK_MSG(p9999[s] > 0, "seed %u: no fg clat p99.99 in the JSON", s + 1);
	}
	ci_mean(p9999, SEEDS, &mean, &hw, NULL);
	printf("ncq_prio_enable=%d: fg clat p99.99 %.1f ± %.1f ms (95%%, %d seeds); published %.0f ms\n",
	       prio, mean, hw, SEEDS, target_ms);
	CHECK_MSG(mean >= 0.7 * target_ms && mean <= 1.3 * target_ms,
		  "ncq_prio_enable=%d: p99.99 %.1f ms is not within 30%% of %.0f ms", prio, mean,
		  target_ms);
	CHECK_MSG(hw < 0.10 * mean, "ncq_prio_enable=%d: half-width %.1f ms is not under 10%% of %.1f",
		  prio, hw, mean);
}

/* Drive queue depth 1: the same run whether the commands carry PRIO or not. */
static void depth_one(void)
{
	FILE *off = start(0, 1, "--set device/queue_depth=1 --runtime 600s");
	FILE *on = start(1, 1, "--set device/queue_depth=1 --runtime 600s");
	double max_off = 0, max_on = 0, p_off, p_on;

	CHECK(off && on);
	if (!off || !on)
		return;
	p_off = finish(off, &max_off);
	p_on = finish(on, &max_on);
	printf("device/queue_depth=1: fg clat p99.99 %.1f ms (prio off), %.1f ms (on)\n", p_off, p_on);
	CHECK(p_off > 0);
	CHECK_NEAR(p_on, p_off, 0.0);
	CHECK_NEAR(max_on, max_off, 0.0);
}

int main(void)
{
	seed_result(0, 2000.0);
	seed_result(1, 72.0);
	depth_one();
	return test_done();
}
