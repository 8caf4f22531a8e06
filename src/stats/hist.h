/*
 * hist — latency histogram with fio's bucket layout, extended upwards.
 *
 * fio (stat.h) keeps FIO_IO_U_PLAT_BITS = 6: values below 128 ns have a
 * bucket each; above, every power-of-two range ("group") is cut into 64
 * equal buckets, so a bucket's width is at most 1/64 of its value and its
 * midpoint is within 1/128. fio stops after 29 groups (1856 buckets):
 * everything from 2^34 - 2^27 ns (≈ 17.1 s) up lands in its last bucket
 * and is reported as 17113 ms. A starved disk's tail can be longer, so
 * ncqsim keeps going with the same rule up to 2^64 ns (59 groups, 3776
 * buckets). Below fio's last bucket the two layouts are identical, so for
 * the same samples the percentiles are equal to the nanosecond.
 *
 * Percentiles follow fio's calc_clat_percentiles(): walk the buckets,
 * adding counts, and report the first bucket whose running sum reaches
 * p/100 · N as that bucket's midpoint. No interpolation.
 *
 * Mean and variance are Welford running sums exactly as fio updates them
 * (add_stat_sample), so mean/stddev match fio's too.
 */
#ifndef NCQSIM_HIST_H
#define NCQSIM_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HIST_PLAT_BITS	6
#define HIST_PLAT_VAL	(1u << HIST_PLAT_BITS)
#define HIST_FIO_NR	1856u	/* fio's FIO_IO_U_PLAT_NR */
#define HIST_NR		((64u - HIST_PLAT_BITS + 1u) << HIST_PLAT_BITS)	/* 3776 */
#define HIST_MAX_PERCENTILES 20	/* fio's FIO_IO_U_LIST_MAX_LEN */

/* Running summary without buckets (fio's struct io_stat). */
struct hist_summary {
	uint64_t n;
	uint64_t min, max;
	double mean, S;
};

struct hist {
	struct hist_summary sum;
	/*
	 * The highest bucket index counted, + 1, except for samples counted
	 * by hist_count_as(), which leaves it behind: those are in sum too,
	 * at most sum.max. Read it through hist_top().
	 */
	uint32_t top;
	uint64_t count[HIST_NR];
};

void hist_init(struct hist *h);
/*
 * hist_init() of a histogram whose bytes are all zero already (calloc,
 * memset): its 30 KB of counts are not cleared a second time.
 */
void hist_init_zeroed(struct hist *h);
void hist_reset(struct hist *h);

static inline unsigned hist_bucket_index(uint64_t v)
{
	unsigned msb, error_bits;

	if (v < (2u << HIST_PLAT_BITS))
		return (unsigned)v;
	/* 63 ^ clz (not 63 - clz): the bit scan's own result, one instruction. */
	msb = 63u ^ (unsigned)__builtin_clzll(v);
	error_bits = msb - HIST_PLAT_BITS;
	/*
	 * fio's ((error_bits + 1) << 6) + ((v >> error_bits) & 63): v's top 7
	 * bits, v >> error_bits, are 64 + those low 6, so the group's 64 is
	 * already in them and the mask is not needed.
	 */
	return (error_bits << HIST_PLAT_BITS) + (unsigned)(v >> error_bits);
}

/*
 * hist_bucket_index() with v also as a double (val == (double)v). From 128
 * up to 2^53, where the conversion is exact, the double's exponent is
 * 1023 + msb and its top 6 fraction bits are v's 6 below the msb: bits 46
 * and up are ((1023 + msb) << 6) + those, the bucket index plus
 * HIST_DOUBLE_BIAS. One shift instead of the bit scan's five.
 */
#define HIST_DOUBLE_BIAS	((1023u << HIST_PLAT_BITS) + ((HIST_PLAT_BITS - 1u) << HIST_PLAT_BITS))
static inline unsigned hist_bucket_index_as(uint64_t v, double val)
{
	uint64_t bits;

	if (__builtin_expect(v - (2u << HIST_PLAT_BITS) >=
			     ((uint64_t)1 << 53) - (2u << HIST_PLAT_BITS), 0))
		return hist_bucket_index(v);
	memcpy(&bits, &val, sizeof(bits));
	return (unsigned)(bits >> 46) - HIST_DOUBLE_BIAS;
}

/* The value fio reports for a bucket: its midpoint (exact below 128 ns). */
uint64_t hist_bucket_value(unsigned idx);
/* The least and the greatest value bucket idx holds. */
void hist_bucket_bounds(unsigned idx, uint64_t *lo, uint64_t *hi);

void hist_summary_init(struct hist_summary *s);
/*
 * hist_summary_add_as() with the count's conversion done by the caller:
 * `next` is (double)s->n + 1.0. Summaries that are always fed and reset
 * together have one count, converted once for all of them.
 */
static inline void hist_summary_add_next(struct hist_summary *s, uint64_t v, double val,
					 double next)
{
	double delta = val - s->mean;

	if (v > s->max)
		s->max = v;
	if (v < s->min)
		s->min = v;
	/*
	 * fio updates mean and S only when delta != 0; without the test the
	 * result is the same to the bit (mean + 0.0 / (n + 1) is mean, S +
	 * 0.0 · 0.0 is S: neither is ever -0.0), one branch less per sample.
	 */
	s->mean += delta / next;
	s->S += delta * (val - s->mean);
	s->n++;
}
/* The count after one more sample, as hist_summary_add_next() wants it. */
static inline double hist_summary_next(const struct hist_summary *s)
{
	/* A count is far below 2^63: the signed conversion, one instruction. */
	return (double)(int64_t)s->n + 1.0;
}
/* hist_summary_add() with the sample also as a double (val == v). */
static inline void hist_summary_add_as(struct hist_summary *s, uint64_t v, double val)
{
	hist_summary_add_next(s, v, val, hist_summary_next(s));
}
static inline void hist_summary_add(struct hist_summary *s, uint64_t v)
{
	hist_summary_add_as(s, v, (double)v);
}
/* A time span (ns, never negative): its conversion to double is one instruction. */
static inline void hist_summary_add_span(struct hist_summary *s, int64_t ns)
{
	hist_summary_add_as(s, (uint64_t)ns, (double)ns);
}
void hist_summary_merge(struct hist_summary *dst, const struct hist_summary *src);

/*
 * Two running summaries always fed together, one sample each (ncqsim's
 * split of clat into host queue and drive): one count, and each field's
 * two side by side, so that each step of the two Welford updates is one
 * two-lane vector operation. Lane by lane these are the IEEE operations
 * of hist_summary_add_next() on the same values (division and the rest
 * are exact per lane; -ffp-contract=off keeps them unfused), so each
 * summary's bits are what two struct hist_summary would hold.
 */
struct hist_summary_pair {
	/*
	 * The count as the double the updates divide by: exact, as a count
	 * stays far below 2^53, so (double)n + 1.0 is count + 1.0 and no
	 * conversion is made per sample. hist_summary_pair_n() reads it.
	 */
	double count;
	uint64_t min[2], max[2];
	double mean[2], S[2];
};
typedef double hist_v2df __attribute__((vector_size(16)));

void hist_summary_pair_init(struct hist_summary_pair *p);
/* Summary k (0 or 1) of the pair, as a struct hist_summary. */
struct hist_summary hist_summary_pair_get(const struct hist_summary_pair *p, unsigned k);
/* hist_summary_merge() of each of src's two into dst's. */
void hist_summary_pair_merge(struct hist_summary_pair *dst, const struct hist_summary_pair *src);

/*
 * hist_summary_add_next() of v0 into the first summary and v1 into the
 * second (val_k == v_k); `next` is hist_summary_pair_next(p), the count after.
 */
static inline void hist_summary_pair_add_next(struct hist_summary_pair *p, uint64_t v0,
					      double val0, uint64_t v1, double val1, double next)
{
	hist_v2df val = { val0, val1 }, count = { next, next }, mean, S, delta;

	if (v0 > p->max[0])
		p->max[0] = v0;
	if (v0 < p->min[0])
		p->min[0] = v0;
	if (v1 > p->max[1])
		p->max[1] = v1;
	if (v1 < p->min[1])
		p->min[1] = v1;
	/* Unaligned loads and stores: a report need not be 16-byte aligned. */
	memcpy(&mean, p->mean, sizeof(mean));
	memcpy(&S, p->S, sizeof(S));
	delta = val - mean;
	mean += delta / count;
	S += delta * (val - mean);
	memcpy(p->mean, &mean, sizeof(mean));
	memcpy(p->S, &S, sizeof(S));
	p->count = next;
}
static inline double hist_summary_pair_next(const struct hist_summary_pair *p)
{
	return p->count + 1.0;	/* hist_summary_next()'s value */
}
static inline uint64_t hist_summary_pair_n(const struct hist_summary_pair *p)
{
	return (uint64_t)p->count;
}
/* Two time spans (ns, never negative). */
static inline void hist_summary_pair_add_spans(struct hist_summary_pair *p, int64_t ns0,
					       int64_t ns1)
{
	hist_summary_pair_add_next(p, (uint64_t)ns0, (double)ns0, (uint64_t)ns1, (double)ns1,
				   hist_summary_pair_next(p));
}
double hist_summary_stddev(const struct hist_summary *s);

/*
 * The highest bucket index with a count, + 1 (0 for none): top, or the
 * highest count at or below sum.max's bucket above it.
 */
static inline unsigned hist_top(const struct hist *h)
{
	unsigned top = h->top, i;

	if (!h->sum.n)
		return top;
	for (i = hist_bucket_index(h->sum.max) + 1; i > top; i--)
		if (h->count[i - 1])
			return i;
	return top;
}

/*
 * hist_count() of a sample the caller adds to sum as well (val == (double)v),
 * without moving top (hist_top() finds it from sum.max): its bucket index.
 */
static inline unsigned hist_count_as(struct hist *h, uint64_t v, double val)
{
	unsigned idx = hist_bucket_index_as(v, val);

	h->count[idx]++;
	return idx;
}

static inline void hist_count(struct hist *h, uint64_t v)
{
	unsigned idx = hist_bucket_index(v);

	h->count[idx]++;
	if (idx >= h->top)
		h->top = idx + 1;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	hist_count(h, v);
	hist_summary_add(&h->sum, v);
}

/* hist_add() of a time span (ns, never negative). */
static inline void hist_add_span(struct hist *h, int64_t ns)
{
	hist_count(h, (uint64_t)ns);
	hist_summary_add_span(&h->sum, ns);
}

/* Add `count` samples of one bucket value (rebuilding from fio's bins). */
void hist_add_bucket(struct hist *h, unsigned idx, uint64_t count);
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * Percentiles of `plist` (in percent, need not be sorted; at most
 * HIST_MAX_PERCENTILES) into out[], in the order of the sorted list, which
 * is written back to sorted[] when it is not NULL. Returns the number of
 * values, 0 when the histogram is empty.
 */
unsigned hist_percentiles(const struct hist *h, const double *plist, unsigned len,
			  double *sorted, uint64_t *out);
/* One percentile (p in percent). 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
