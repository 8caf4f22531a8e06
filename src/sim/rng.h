/*
 * rng — explicit-state random streams.
 *
 * xoshiro256** (Blackman & Vigna) seeded through splitmix64 from the run
 * seed and a stream name, so that every component and every job draws from
 * its own stream: adding a job, or a draw in one component, never shifts
 * another's sequence. No global state; a struct rng is 32 bytes.
 */
#ifndef NCQSIM_RNG_H
#define NCQSIM_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed from (run seed, stream name): e.g. rng_seed(&r, 1, "job/fg/0/offset"). */
void rng_seed(struct rng *r, uint64_t run_seed, const char *stream);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform integer in [0, n) without modulo bias (Lemire); n > 0. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;

		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Exponential with the given mean. */
double rng_exponential(struct rng *r, double mean);
/* Standard normal N(0, 1) (Marsaglia's polar method). */
double rng_normal(struct rng *r);

/*
 * Skewed choices of an index in [0, n), with fio's parameterisation
 * (random_distribution=zipf:θ, pareto:h, normal:σ). Each returns a *rank*
 * (0 = the most likely); callers scatter ranks over the address space.
 */
struct rng_zipf {
	uint64_t n;
	double theta, zetan, zeta2, alpha, eta, two_theta;
};
/*
 * The parameters whose arithmetic holds in doubles. Above θ = 20 the
 * generator's η = (1 - (2/n)^(1-θ)) / ... overflows for the largest drives
 * (n near 2^52 blocks), and every draw is rank 0 long before that. Below
 * h = 1e-15, 1 - h rounds to 1 and log(h) / log(1 - h) divides by zero.
 */
#define RNG_ZIPF_THETA_MAX	20.0
#define RNG_PARETO_H_MIN	1e-15

/*
 * theta in (0, 1) or (1, RNG_ZIPF_THETA_MAX]; n >= 1. Returns -1 on a bad
 * theta, or when a derived constant is not finite.
 */
int rng_zipf_init(struct rng_zipf *z, uint64_t n, double theta);
uint64_t rng_zipf_next(const struct rng_zipf *z, struct rng *r);
/* ζ(n, θ) = Σ_{i=1..n} i^-θ; exact up to 10^6 terms, Euler–Maclaurin beyond. */
double rng_zeta(uint64_t n, double theta);

struct rng_pareto {
	uint64_t n;
	double power;	/* log(h) / log(1 - h), as fio */
};
/* h in [RNG_PARETO_H_MIN, 1). Returns -1 otherwise. */
int rng_pareto_init(struct rng_pareto *p, uint64_t n, double h);
uint64_t rng_pareto_next(const struct rng_pareto *p, struct rng *r);

/* A 64-bit mixing function (splitmix64's finaliser); bijective. */
static inline uint64_t rng_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#endif
