#include "stats/ci.h"

#include <math.h>

double ci_t975(unsigned df)
{
	/* Tabulated to 30, then interpolated in 1/df towards the normal's 1.960. */
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	static const struct { unsigned df; double t; } far[] = {
		{ 30, 2.042 }, { 40, 2.021 }, { 60, 2.000 }, { 120, 1.980 },
	};
	unsigned i;

	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return t[df];
	for (i = 0; i + 1 < sizeof(far) / sizeof(far[0]); i++) {
		if (df <= far[i + 1].df) {
			double x0 = 1.0 / far[i].df, x1 = 1.0 / far[i + 1].df, x = 1.0 / df;

			return far[i].t + (far[i + 1].t - far[i].t) * (x - x0) / (x1 - x0);
		}
	}
	/* Beyond 120: between 1.980 and 1.960 at infinity, linear in 1/df. */
	return 1.960 + (1.980 - 1.960) * 120.0 / df;
}

void ci_mean(const double *v, unsigned n, double *mean, double *half_width, double *sd)
{
	double sum = 0, ss = 0, m, s;
	unsigned i;

	for (i = 0; i < n; i++)
		sum += v[i];
	m = n ? sum / n : 0.0;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	s = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
	*mean = m;
	*half_width = n > 1 ? ci_t975(n - 1) * s / sqrt((double)n) : 0.0;
	if (sd)
		*sd = s;
}
