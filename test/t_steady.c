/*
 * stats/steady against fio 3.33's own figures and against a plain
 * computation: the criterion fio printed for the samples it took (its
 * JSON's data arrays), and, over a long run of samples, the sliding sums
 * checked at every step against the window summed afresh (a least-squares
 * slope and a largest deviation computed the textbook way). fio's JSON
 * order of the samples, and a window of one.
 */
#include "testlib.h"
#include "stats/steady.h"

#include <math.h>
#include <stdlib.h>

/* The window's values oldest first, as steady_slot() orders them. */
static void window(const struct steady *s, uint64_t *y)
{
	unsigned i;

	for (i = 0; i < s->dur; i++)
		y[i] = s->flags & STEADY_IOPS ? s->iops[steady_slot(s, i)] : s->bw[steady_slot(s, i)];
}

static double plain_slope(const uint64_t *y, unsigned n)
{
	double sx = 0, sy = 0, sxy = 0, sxx = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		sx += i;
		sy += (double)y[i];
		sxy += (double)i * (double)y[i];
		sxx += (double)i * i;
	}
	return (sxy - sx * sy / n) / (sxx - sx * sx / n);
}

static double plain_deviation(const uint64_t *y, unsigned n)
{
	double mean = 0, dev = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		mean += (double)y[i];
	mean /= n;
	for (i = 0; i < n; i++)
		dev = fabs((double)y[i] - mean) > dev ? fabs((double)y[i] - mean) : dev;
	return dev;
}

static void fio_figures(void)
{
	struct steady s;
	char buf[32];

	/* fio 3.33, ss=iops:5% ss_dur=3: data 1001, 1001, 1000; criterion "0.066622%". */
	CHECK(steady_init(&s, STEADY_IOPS | STEADY_PCT, 5.0, 3) == 0);
	CHECK(!steady_add(&s, 1001, 4100576));
	CHECK(!steady_add(&s, 1001, 4100096));
	CHECK(steady_add(&s, 1000, 4096000));
	snprintf(buf, sizeof(buf), "%f", (float)s.criterion);
	CHECK_EQ_STR(buf, "0.066622");
	CHECK_NEAR(s.deviation, 0.666667, 1e-6);
	CHECK_EQ_U64(steady_bw_mean(&s), 4098890);
	CHECK_EQ_U64(steady_iops_mean(&s), 1000);
	CHECK(s.attained);
	CHECK_EQ_INT(steady_slot(&s, 0), 0);	/* attained: the window from head */
	steady_free(&s);

	/* fio 3.33, ss=iops_slope:0% ss_dur=2: data 1000, 1001; slope 1, criterion "0.100000%". */
	CHECK(steady_init(&s, STEADY_IOPS | STEADY_SLOPE | STEADY_PCT, 0.0, 2) == 0);
	CHECK(!steady_add(&s, 1000, 4096000));
	CHECK(!steady_add(&s, 1001, 4100100));
	snprintf(buf, sizeof(buf), "%f", (float)s.criterion);
	CHECK_EQ_STR(buf, "0.100000");
	CHECK_NEAR(s.slope, 1.0, 1e-12);
	/* Not attained and full: fio's JSON starts one slot behind head. */
	CHECK_EQ_U64(s.iops[steady_slot(&s, 0)], 1000);
	CHECK_EQ_U64(s.iops[steady_slot(&s, 1)], 1001);
	steady_free(&s);

	/* A window of one: fio's slope is 0 / 0, so a slope criterion never holds. */
	CHECK(steady_init(&s, STEADY_IOPS | STEADY_SLOPE, 1e9, 1) == 0);
	CHECK(!steady_add(&s, 5, 5));
	CHECK(isnan(s.slope));
	steady_free(&s);
}

/* The sliding sums against the window summed afresh, at every sample. */
static void sliding(unsigned flags, unsigned dur)
{
	struct steady s;
	uint64_t *y = malloc(dur * sizeof(*y)), x = 12345;
	unsigned k;

	CHECK(y != NULL && steady_init(&s, flags, -1.0, dur) == 0);	/* never attained */
	for (k = 0; y && k < 5000; k++) {
		bool judged = k + 1 >= dur;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		CHECK(!steady_add(&s, 900 + (x >> 60) * 17 + k % 7, 4000000 + (x >> 40) % 99991));
		if (!judged)
			continue;
		window(&s, y);
		if (flags & STEADY_SLOPE)
			CHECK_NEAR(s.slope, plain_slope(y, dur), 1e-6 * (1 + fabs(s.slope)));
		else
			CHECK_NEAR(s.deviation, plain_deviation(y, dur), 1e-6);
	}
	free(y);
	steady_free(&s);
}

int main(void)
{
	struct steady a, b;

	fio_figures();
	sliding(STEADY_IOPS | STEADY_SLOPE, 2);
	sliding(STEADY_IOPS | STEADY_SLOPE, 7);
	sliding(STEADY_SLOPE, 60);
	sliding(STEADY_IOPS, 3);
	sliding(0, 30);
	/* A copy is deep. */
	CHECK(steady_init(&a, STEADY_IOPS, 1.0, 4) == 0);
	steady_add(&a, 7, 8);
	CHECK(steady_copy(&b, &a) == 0);
	a.iops[0] = 99;
	CHECK_EQ_U64(b.iops[0], 7);
	steady_free(&a);
	steady_free(&b);
	return test_done();
}
