/*
 * Random streams: reproducibility, independence, no modulo bias, and the
 * moments of every distribution.
 */
#include "testlib.h"
#include "sim/rng.h"

#include <math.h>

#define DRAWS 1000000

static void test_reproducible(void)
{
	struct rng a, b, c;
	int i, same = 1, diff_seed = 0, diff_name = 0;

	rng_seed(&a, 42, "job/fg/0");
	rng_seed(&b, 42, "job/fg/0");
	for (i = 0; i < 1000; i++)
		if (rng_next(&a) != rng_next(&b))
			same = 0;
	CHECK(same);

	rng_seed(&a, 42, "job/fg/0");
	rng_seed(&c, 43, "job/fg/0");
	for (i = 0; i < 100; i++)
		diff_seed += rng_next(&a) != rng_next(&c);
	CHECK(diff_seed >= 99);

	rng_seed(&a, 42, "job/fg/0");
	rng_seed(&c, 42, "job/fg/1");
	for (i = 0; i < 100; i++)
		diff_name += rng_next(&a) != rng_next(&c);
	CHECK(diff_name >= 99);
}

/* Independence: streams' sequences are uncorrelated. */
static void test_independent(void)
{
	struct rng a, b;
	double sxy = 0, sx = 0, sy = 0, sxx = 0, syy = 0, r;
	int i, n = 200000;

	rng_seed(&a, 1, "disk/rotation");
	rng_seed(&b, 1, "job/bg/0");
	for (i = 0; i < n; i++) {
		double x = rng_uniform(&a), y = rng_uniform(&b);

		sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y;
	}
	r = (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
	/* |r| of independent streams is ~ 1/sqrt(n) = 0.0022. */
	CHECK_MSG(fabs(r) < 0.01, "correlation %g", r);
}

static void test_below_unbiased(void)
{
	struct rng r;
	uint64_t counts[7] = { 0 };
	double chi2 = 0, expect = DRAWS / 7.0;
	int i;

	rng_seed(&r, 3, "test/below");
	for (i = 0; i < DRAWS; i++)
		counts[rng_below(&r, 7)]++;
	for (i = 0; i < 7; i++)
		chi2 += (counts[i] - expect) * (counts[i] - expect) / expect;
	/* 6 degrees of freedom: P(chi2 > 22.46) = 0.001. */
	CHECK_MSG(chi2 < 22.46, "chi2 %g", chi2);

	/* A range that is not a power of two near 2^64: the top half is hit as often. */
	{
		uint64_t n = (UINT64_MAX / 3) * 2, hi = 0;

		for (i = 0; i < 100000; i++)
			hi += rng_below(&r, n) >= n / 2;
		CHECK_NEAR(hi / 100000.0, 0.5, 0.01);
	}
	for (i = 0; i < 1000; i++)
		CHECK(rng_below(&r, 1) == 0);
}

static void moments(double *v, int n, double *mean, double *var, double *m4)
{
	double s = 0, s2 = 0, s4 = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (i = 0; i < n; i++) {
		double d = v[i] - *mean;

		s2 += d * d;
		s4 += d * d * d * d;
	}
	*var = s2 / (n - 1);
	*m4 = s4 / n;
}

static double samples[DRAWS];

static void test_continuous(void)
{
	struct rng r;
	double mean, var, m4;
	int i;

	rng_seed(&r, 5, "test/uniform");
	for (i = 0; i < DRAWS; i++) {
		samples[i] = rng_uniform(&r);
		CHECK(samples[i] >= 0.0 && samples[i] < 1.0);
	}
	moments(samples, DRAWS, &mean, &var, &m4);
	CHECK_NEAR(mean, 0.5, 0.002);
	CHECK_NEAR(var, 1.0 / 12.0, 0.0005);

	rng_seed(&r, 5, "test/exp");
	for (i = 0; i < DRAWS; i++)
		samples[i] = rng_exponential(&r, 3.0);
	moments(samples, DRAWS, &mean, &var, &m4);
	CHECK_REL(mean, 3.0, 0.01);
	CHECK_REL(var, 9.0, 0.02);

	rng_seed(&r, 5, "test/normal");
	for (i = 0; i < DRAWS; i++)
		samples[i] = rng_normal(&r);
	moments(samples, DRAWS, &mean, &var, &m4);
	CHECK_NEAR(mean, 0.0, 0.005);
	CHECK_REL(var, 1.0, 0.01);
	CHECK_REL(m4, 3.0, 0.03);	/* kurtosis of a normal */
}

static void test_zipf(void)
{
	struct rng r;
	struct rng_zipf z;
	const uint64_t n = 1000;
	static uint64_t counts[1000];
	double theta = 1.2, zeta, mean = 0, expect_mean = 0;
	uint64_t i;

	CHECK(rng_zipf_init(&z, n, 1.0) < 0);
	CHECK(rng_zipf_init(&z, n, -0.5) < 0);
	CHECK(rng_zipf_init(&z, n, theta) == 0);
	zeta = rng_zeta(n, theta);
	rng_seed(&r, 9, "test/zipf");
	for (i = 0; i < DRAWS; i++) {
		uint64_t k = rng_zipf_next(&z, &r);

		CHECK(k < n);
		counts[k]++;
		mean += (double)k;
	}
	mean /= DRAWS;
	/* Ranks 0 and 1 are exact in Gray's method: p(k) = (k+1)^-θ / ζ. */
	CHECK_REL(counts[0] / (double)DRAWS, 1.0 / zeta, 0.01);
	CHECK_REL(counts[1] / (double)DRAWS, pow(2.0, -theta) / zeta, 0.02);
	for (i = 0; i < n; i++)
		expect_mean += (double)i * pow((double)(i + 1), -theta) / zeta;
	/* The tail is approximate in Gray's method; the mean within 10 %. */
	CHECK_REL(mean, expect_mean, 0.10);

	/* ζ beyond the exact range: Euler–Maclaurin against a direct sum. */
	{
		double direct = 0;
		uint64_t m = 3000000;

		for (i = 1; i <= m; i++)
			direct += pow((double)i, -0.8);
		CHECK_REL(rng_zeta(m, 0.8), direct, 1e-9);
	}
}

static void test_pareto(void)
{
	struct rng r;
	struct rng_pareto p;
	const uint64_t n = 1000000;
	double h = 0.3, mean = 0, expect;
	int i;

	CHECK(rng_pareto_init(&p, n, 1.5) < 0);
	CHECK(rng_pareto_init(&p, n, h) == 0);
	rng_seed(&r, 11, "test/pareto");
	for (i = 0; i < DRAWS; i++) {
		uint64_t k = rng_pareto_next(&p, &r);

		CHECK(k < n);
		mean += (double)k;
	}
	mean /= DRAWS;
	/* E[(n-1) U^a] = (n-1) / (a + 1), a = log h / log(1-h). */
	expect = (double)(n - 1) / (p.power + 1.0);
	CHECK_REL(mean, expect, 0.01);
}

/*
 * The generators at the edges of what they accept: every draw in range
 * (a NaN or infinity cast to an integer would be undefined: the sanitizer
 * build stops on it), and the first values past the edges refused.
 */
static void test_edges(void)
{
	static const uint64_t sizes[] = { 1, 2, 3, 1000, 1ULL << 31, 1ULL << 40, 1ULL << 51 };
	static const double thetas[] = { 1e-9, 0.5, 0.999, 1.001, 2.0, 10.0, RNG_ZIPF_THETA_MAX };
	static const double hs[] = { RNG_PARETO_H_MIN, 1e-9, 0.5, 0.999999, 1.0 - 1e-15 };
	struct rng_zipf z;
	struct rng_pareto p;
	struct rng r;
	unsigned i, k, d, bad = 0;

	rng_seed(&r, 3, "test/edges");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (k = 0; k < sizeof(thetas) / sizeof(thetas[0]); k++) {
			CHECK_MSG(rng_zipf_init(&z, sizes[i], thetas[k]) == 0, "zipf:%g over %llu",
				  thetas[k], (unsigned long long)sizes[i]);
			for (d = 0; d < 2000; d++)
				bad += rng_zipf_next(&z, &r) >= sizes[i];
		}
		for (k = 0; k < sizeof(hs) / sizeof(hs[0]); k++) {
			CHECK_MSG(rng_pareto_init(&p, sizes[i], hs[k]) == 0, "pareto:%g over %llu", hs[k],
				  (unsigned long long)sizes[i]);
			for (d = 0; d < 2000; d++)
				bad += rng_pareto_next(&p, &r) >= sizes[i];
		}
	}
	CHECK_EQ_INT(bad, 0);
	CHECK(rng_zipf_init(&z, 1000, RNG_ZIPF_THETA_MAX * 1.01) < 0);
	CHECK(rng_zipf_init(&z, 1000, 1e200) < 0);
	CHECK(rng_zipf_init(&z, 1000, NAN) < 0);
	CHECK(rng_zipf_init(&z, 1000, INFINITY) < 0);
	CHECK(rng_pareto_init(&p, 1000, 1e-20) < 0);
	CHECK(rng_pareto_init(&p, 1000, RNG_PARETO_H_MIN / 2) < 0);
	CHECK(rng_pareto_init(&p, 1000, NAN) < 0);
}

int main(void)
{
	test_edges();
	test_reproducible();
	test_independent();
	test_below_unbiased();
	test_continuous();
	test_zipf();
	test_pareto();
	return test_done();
}
