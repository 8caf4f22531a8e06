#include "stats/hist.h"

#include <float.h>
#include <math.h>
#include <string.h>

void hist_summary_init(struct hist_summary *s)
{
	s->n = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	s->mean = 0.0;
	s->S = 0.0;
}

void hist_init(struct hist *h)
{
	hist_summary_init(&h->sum);
	h->top = 0;
	memset(h->count, 0, sizeof(h->count));
}

void hist_init_zeroed(struct hist *h)
{
	hist_summary_init(&h->sum);
	h->top = 0;
}

void hist_reset(struct hist *h)
{
	memset(h->count, 0, hist_top(h) * sizeof(h->count[0]));	/* before sum forgets its max */
	hist_summary_init(&h->sum);
	h->top = 0;
}

uint64_t hist_bucket_value(unsigned idx)
{
	unsigned error_bits;
	uint64_t base, k;

	if (idx < (HIST_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> HIST_PLAT_BITS) - 1;
	base = (uint64_t)1 << (error_bits + HIST_PLAT_BITS);
	k = idx % HIST_PLAT_VAL;
	/* fio computes base + (k + 0.5) · 2^eb; error_bits >= 1 here. */
	return base + (k << error_bits) + ((uint64_t)1 << (error_bits - 1));
}

void hist_bucket_bounds(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned error_bits;

	if (idx < (HIST_PLAT_VAL << 1)) {
		*lo = *hi = idx;
		return;
	}
	error_bits = (idx >> HIST_PLAT_BITS) - 1;
	*lo = (uint64_t)(idx % HIST_PLAT_VAL + HIST_PLAT_VAL) << error_bits;
	*hi = *lo + (((uint64_t)1 << error_bits) - 1);
}

/* fio's sum_stat() for latency stats: the parallel variance formula. */
void hist_summary_merge(struct hist_summary *dst, const struct hist_summary *src)
{
	double delta, mean, S;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	delta = src->mean - dst->mean;
	mean = (src->mean * (double)src->n + dst->mean * (double)dst->n) /
		(double)(dst->n + src->n);
	S = src->S + dst->S + delta * delta * ((double)dst->n * (double)src->n) /
		(double)(dst->n + src->n);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	dst->mean = mean;
	dst->S = S;
}

void hist_summary_pair_init(struct hist_summary_pair *p)
{
	unsigned k;

	p->count = 0.0;
	for (k = 0; k < 2; k++) {
		p->min[k] = UINT64_MAX;
		p->max[k] = 0;
		p->mean[k] = 0.0;
		p->S[k] = 0.0;
	}
}

struct hist_summary hist_summary_pair_get(const struct hist_summary_pair *p, unsigned k)
{
	struct hist_summary s = {
		.n = hist_summary_pair_n(p), .min = p->min[k], .max = p->max[k], .mean = p->mean[k], .S = p->S[k],
	};

	return s;
}

void hist_summary_pair_merge(struct hist_summary_pair *dst, const struct hist_summary_pair *src)
{
	unsigned k;

	for (k = 0; k < 2; k++) {
		struct hist_summary d = hist_summary_pair_get(dst, k);
		struct hist_summary s = hist_summary_pair_get(src, k);

		hist_summary_merge(&d, &s);
		dst->min[k] = d.min;
		dst->max[k] = d.max;
		dst->mean[k] = d.mean;
		dst->S[k] = d.S;
		if (k)
			dst->count = (double)d.n;	/* both counts are n: the same sum */
	}
}

double hist_summary_stddev(const struct hist_summary *s)
{
	return s->n > 1 ? sqrt(s->S / ((double)s->n - 1.0)) : 0.0;
}

void hist_add_bucket(struct hist *h, unsigned idx, uint64_t count)
{
	uint64_t v = hist_bucket_value(idx), i;

	if (idx >= HIST_NR || !count)
		return;
	h->count[idx] += count;
	if (idx >= h->top)
		h->top = idx + 1;
	for (i = 0; i < count; i++)
		hist_summary_add(&h->sum, v);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i, src_top = hist_top(src), dst_top = hist_top(dst);

	for (i = 0; i < src_top; i++)
		dst->count[i] += src->count[i];
	dst->top = src_top > dst_top ? src_top : dst_top;
	hist_summary_merge(&dst->sum, &src->sum);
}

static void sort_doubles(double *v, unsigned n)
{
	unsigned i, j;

	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

unsigned hist_percentiles(const struct hist *h, const double *plist, unsigned len,
			  double *sorted, uint64_t *out)
{
	double list[HIST_MAX_PERCENTILES];
	uint64_t total = 0, sum = 0;
	unsigned i, j = 0, top = hist_top(h);
	long double at;

	if (len > HIST_MAX_PERCENTILES)
		len = HIST_MAX_PERCENTILES;
	memcpy(list, plist, len * sizeof(list[0]));
	sort_doubles(list, len);
	if (sorted)
		memcpy(sorted, list, len * sizeof(list[0]));
	for (i = 0; i < top; i++)
		total += h->count[i];
	if (!len || !total)
		return 0;
	/*
	 * As fio: compare the running count with p/100 · N in long double, so
	 * a boundary sample falls on the same side as in fio. The bound is
	 * computed once per percentile (the same expression, so the same
	 * value), and an empty bucket after the first is passed over: the
	 * count has not grown since the last comparison came out below.
	 */
	at = (long double)list[0] / 100.0 * (long double)total;
	for (i = 0; i < top; i++) {
		if (!h->count[i] && i)
			continue;
		sum += h->count[i];
		while ((long double)sum >= at) {
			out[j++] = hist_bucket_value(i);
			if (j == len)
				return len;
			at = (long double)list[j] / 100.0 * (long double)total;
		}
	}
	/* Only a percentile above 100 can be left over: give it the maximum. */
	for (; j < len; j++)
		out[j] = hist_bucket_value(top - 1);
	return len;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t v = 0;

	hist_percentiles(h, &p, 1, NULL, &v);
	return v;
}

