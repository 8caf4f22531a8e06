#include "sim/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
	*state += 0x9e3779b97f4a7c15ULL;
	return rng_mix64(*state);
}

void rng_seed(struct rng *r, uint64_t run_seed, const char *stream)
{
	/* FNV-1a of the stream name, then splitmix64 over (seed, name). */
	uint64_t h = 0xcbf29ce484222325ULL, state;
	const unsigned char *p = (const unsigned char *)stream;
	int i;

	while (*p) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	state = rng_mix64(run_seed) ^ h;
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&state);
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;	/* the all-zero state is xoshiro's only fixed point */
}

double rng_exponential(struct rng *r, double mean)
{
	/* 1 - U is in (0, 1], so the log is finite. */
	return -mean * log(1.0 - rng_uniform(r));
}

double rng_normal(struct rng *r)
{
	double u, v, s;

	do {
		u = 2.0 * rng_uniform(r) - 1.0;
		v = 2.0 * rng_uniform(r) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	/* The second variate (v * factor) is dropped to keep the state small. */
	return u * sqrt(-2.0 * log(s) / s);
}

double rng_zeta(uint64_t n, double theta)
{
	const uint64_t exact = 1000000;
	double sum = 0.0, a, fa, tail;
	uint64_t i;

	for (i = 1; i <= n && i <= exact; i++)
		sum += pow((double)i, -theta);
	if (n <= exact)
		return sum;
	/*
	 * Euler–Maclaurin for Σ_{i=a+1..n} f(i), f(x) = x^-θ:
	 * ∫_a^n f + (f(n) - f(a))/2 + (f'(n) - f'(a))/12 - (f'''(n) - f'''(a))/720.
	 */
	a = (double)exact;
	fa = pow(a, -theta);
	{
		double nn = (double)n, fn = pow(nn, -theta);
		double d1a = -theta * pow(a, -theta - 1), d1n = -theta * pow(nn, -theta - 1);
		double k3 = -theta * (-theta - 1) * (-theta - 2);
		double d3a = k3 * pow(a, -theta - 3), d3n = k3 * pow(nn, -theta - 3);
		double integral = fabs(theta - 1.0) < 1e-12 ? log(nn / a) :
			(pow(nn, 1.0 - theta) - pow(a, 1.0 - theta)) / (1.0 - theta);

		tail = integral + (fn - fa) / 2.0 + (d1n - d1a) / 12.0 - (d3n - d3a) / 720.0;
	}
	return sum + tail;
}

/*
 * Gray et al., "Quickly generating billion-record synthetic databases"
 * (SIGMOD 1994), the generator fio uses for zipf:θ.
 */
int rng_zipf_init(struct rng_zipf *z, uint64_t n, double theta)
{
	if (!(theta > 0.0) || fabs(theta - 1.0) < 1e-9 || n == 0 || !(theta <= RNG_ZIPF_THETA_MAX))
		return -1;
	z->n = n;
	z->theta = theta;
	z->zetan = rng_zeta(n, theta);
	z->zeta2 = 1.0 + pow(0.5, theta);
	z->two_theta = pow(0.5, theta);
	z->alpha = 1.0 / (1.0 - theta);
	/* η serves only n > 2: a draw settles ranks 0 and 1 without it (0/0 at n = 2). */
	z->eta = n > 2 ? (1.0 - pow(2.0 / (double)n, 1.0 - theta)) /
		(1.0 - z->zeta2 / z->zetan) : 0.0;
	/* A draw casts n * pow(...) to an integer: never from a NaN or an infinity. */
	return isfinite(z->zetan) && isfinite(z->eta) && isfinite(z->alpha) ? 0 : -1;
}

uint64_t rng_zipf_next(const struct rng_zipf *z, struct rng *r)
{
	double u = rng_uniform(r), uz = u * z->zetan;
	double v;
	uint64_t rank;

	if (uz < 1.0 || z->n == 1)
		return 0;
	if (uz < 1.0 + z->two_theta || z->n == 2)
		return 1;
	v = (double)z->n * pow(z->eta * u - z->eta + 1.0, z->alpha);
	rank = (uint64_t)v;
	return rank >= z->n ? z->n - 1 : rank;
}

int rng_pareto_init(struct rng_pareto *p, uint64_t n, double h)
{
	if (!(h >= RNG_PARETO_H_MIN && h < 1.0) || n == 0)
		return -1;
	p->n = n;
	p->power = log(h) / log(1.0 - h);
	return isfinite(p->power) && p->power > 0 ? 0 : -1;
}

uint64_t rng_pareto_next(const struct rng_pareto *p, struct rng *r)
{
	double v = (double)(p->n - 1) * pow(rng_uniform(r), p->power);
	uint64_t rank = (uint64_t)v;

	return rank >= p->n ? p->n - 1 : rank;
}
