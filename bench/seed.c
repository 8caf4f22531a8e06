/*
 * bench/seed: the seed experiment (examples/seed.fio on examples/seed.system,
 * ncq_prio_enable=1 and =0) on one thread — simulated I/Os per CPU-second,
 * simulated seconds per wall second, both as a ratio to the baseline run in
 * the same process, and peak RSS after a run 10x longer than the seed's
 * hour (it must not grow with run length: the histograms are fixed-size,
 * latency logs are off and the request pool is bounded).
 *
 *   build/cc/bench/seed [RUNTIME_S] [ROUNDS]     (defaults 3600, 3)
 */
#include "bench.h"
#include "run/runner.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static long peak_rss_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

struct measure {
	double ios_per_cpu_s, sim_per_wall;
	uint64_t ios;
};

static void run_once(const struct workload *w, const struct host_config *cfg, int64_t runtime_s,
		     uint64_t seed, struct measure *m)
{
	struct runner_opts ro;
	struct runner_result *res = malloc(sizeof(*res));
	struct err e;
	double c0, w0, c1, w1;

	memset(&ro, 0, sizeof(ro));
	ro.seed = seed;
	ro.runtime_cap = runtime_s * 1000000000LL;
	c0 = bench_cpu_seconds();
	w0 = bench_wall_seconds();
	if (!res || runner_run(w, cfg, &ro, res, &e)) {
		fprintf(stderr, "bench/seed: %s\n", res ? e.msg : "out of memory");
		exit(1);
	}
	c1 = bench_cpu_seconds();
	w1 = bench_wall_seconds();
	m->ios = res->ios;
	m->ios_per_cpu_s = (double)res->ios / (c1 - c0);
	m->sim_per_wall = res->sim_seconds / (w1 - w0);
	runner_result_free(res);
	free(res);
}

int main(int argc, char **argv)
{
	int64_t runtime_s = argc > 1 ? strtoll(argv[1], NULL, 10) : 3600;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	struct host_config base, cfg[2];
	struct workload w;
	struct err e;
	char *text;
	double base_rate = 0;
	long rss_short, rss_long;
	int prio, i;

	if (runtime_s <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: bench/seed [RUNTIME_S] [ROUNDS]\n");
		return 2;
	}
	if (workload_load(&w, "examples/seed.fio", stderr, &e)) {
		fprintf(stderr, "bench/seed: %s\n", e.msg);
		return 1;
	}
	host_config_init(&base);
	text = test_slurp("examples/seed.system", NULL);
	if (!text || host_config_parse_system(&base, text, "examples/seed.system", &e)) {
		fprintf(stderr, "bench/seed: %s\n", text ? e.msg : "cannot read examples/seed.system");
		return 1;
	}
	free(text);
	for (prio = 0; prio < 2; prio++) {
		cfg[prio] = base;
		if (host_config_set(&cfg[prio], prio ? "device/ncq_prio_enable=1" :
				    "device/ncq_prio_enable=0", &e)) {
			fprintf(stderr, "bench/seed: %s\n", e.msg);
			return 1;
		}
	}
	for (i = 0; i < rounds; i++) {
		double b = bench_baseline_rate();

		if (b > base_rate)
			base_rate = b;
	}
	/* Best of `rounds`: the machine is shared, the best round is the least disturbed. */
	for (prio = 0; prio < 2; prio++) {
		struct measure best = { 0 }, m;

		for (i = 0; i < rounds; i++) {
			run_once(&w, &cfg[prio], runtime_s, 1, &m);
			if (m.ios_per_cpu_s > best.ios_per_cpu_s)
				best = m;
		}
		printf("seed, ncq_prio_enable=%d, %llds simulated: %.2f M I/Os per CPU-second "
		       "(%.3g x baseline), %.0f simulated s per wall s, %llu I/Os per run\n", prio,
		       (long long)runtime_s, best.ios_per_cpu_s / 1e6, best.ios_per_cpu_s / base_rate,
		       best.sim_per_wall, (unsigned long long)best.ios);
	}
	printf("seed: baseline %.1f M steps per CPU-second (bench.h)\n", base_rate / 1e6);
	/* Memory: after the runs above, then after one 10x longer. */
	rss_short = peak_rss_kib();
	{
		struct measure m;

		run_once(&w, &cfg[1], runtime_s * 10, 1, &m);
	}
	rss_long = peak_rss_kib();
	printf("seed: peak RSS %.1f MiB after %llds runs, %.1f MiB after a %llds run\n",
	       rss_short / 1024.0, (long long)runtime_s, rss_long / 1024.0,
	       (long long)runtime_s * 10);
	workload_free(&w);
	return 0;
}
