/*
 * Helpers shared by the benchmarks: CPU time, and a fixed baseline workload
 * measured in the same process so that results can be read as a ratio that
 * does not depend on how busy the shared machine is.
 */
#ifndef NCQSIM_BENCH_H
#define NCQSIM_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "sim/rng.h"
#include "util/clock.h"

static inline double bench_cpu_seconds(void)
{
	return clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

static inline double bench_wall_seconds(void)
{
	return clock_wall();
}

/*
 * Baseline: 20 million steps of a small integer workload (random draws into
 * a 64-entry table). Returns steps per CPU-second.
 */
static inline double bench_baseline_rate(void)
{
	struct rng r;
	uint64_t table[64] = { 0 }, i, n = 20000000, sink = 0;
	double t0, t1;

	rng_seed(&r, 1, "bench/baseline");
	t0 = bench_cpu_seconds();
	for (i = 0; i < n; i++) {
		uint64_t x = rng_next(&r);

		table[x & 63] += x >> 32;
		sink ^= table[(x >> 8) & 63];
	}
	t1 = bench_cpu_seconds();
	if (sink == 42)
		fputs("", stderr);	/* keep the loop */
	return (double)n / (t1 - t0);
}

#endif
