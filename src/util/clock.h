/*
 * clock — the wall and CPU clocks, in seconds, for progress lines, the
 * speed figures ncqsim prints and the benchmarks. Never simulated time.
 */
#ifndef NCQSIM_CLOCK_H
#define NCQSIM_CLOCK_H

#include <time.h>

static inline double clock_seconds(clockid_t which)
{
	struct timespec ts;

	clock_gettime(which, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Monotonic wall time. */
static inline double clock_wall(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

/* CPU time of the calling thread (one simulation runs on one thread). */
static inline double clock_thread_cpu(void)
{
	return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

#endif
