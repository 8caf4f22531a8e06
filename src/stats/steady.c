#include "stats/steady.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int steady_init(struct steady *s, unsigned flags, double limit, unsigned dur)
{
	uint64_t n = dur;

	memset(s, 0, sizeof(*s));
	s->flags = flags;
	s->limit = limit;
	s->dur = dur;
	/* fio's sums of x = 0 .. dur-1 and of x squared, in integers. */
	s->sum_x = n * (n - 1) / 2;
	s->sum_x_sq = (n - 1) * n * (2 * n - 1) / 6;
	s->iops = calloc(dur, sizeof(*s->iops));
	s->bw = calloc(dur, sizeof(*s->bw));
	if (!s->iops || !s->bw) {
		steady_free(s);
		return -1;
	}
	return 0;
}

void steady_free(struct steady *s)
{
	free(s->iops);
	free(s->bw);
	s->iops = s->bw = NULL;
}

int steady_copy(struct steady *dst, const struct steady *src)
{
	*dst = *src;
	dst->iops = malloc(src->dur * sizeof(*dst->iops));
	dst->bw = malloc(src->dur * sizeof(*dst->bw));
	if (!dst->iops || !dst->bw) {
		steady_free(dst);
		return -1;
	}
	memcpy(dst->iops, src->iops, src->dur * sizeof(*dst->iops));
	memcpy(dst->bw, src->bw, src->dur * sizeof(*dst->bw));
	return 0;
}

static uint64_t value(const struct steady *s, unsigned slot)
{
	return s->flags & STEADY_IOPS ? s->iops[slot] : s->bw[slot];
}

/*
 * fio's steadystate_slope(): the sums are kept as the window slides (the
 * new sum of x*y is the old one less the new sum of y plus dur times the
 * new value, as every sample moves one x down).
 */
static bool judge_slope(struct steady *s, uint64_t y)
{
	unsigned i;

	if (!s->full) {
		for (i = 0, s->sum_y = 0; i < s->dur; i++) {
			s->sum_y += value(s, i);
			s->sum_xy += i * value(s, (s->head + i) % s->dur);
		}
		s->full = true;
	} else {
		s->sum_y -= s->oldest_y;
		s->sum_y += y;
		s->sum_xy = s->sum_xy - s->sum_y + s->dur * y;
	}
	s->oldest_y = value(s, s->head);
	s->slope = ((double)s->sum_xy - (double)s->sum_x * (double)s->sum_y / s->dur) /
		((double)s->sum_x_sq - (double)s->sum_x * (double)s->sum_x / s->dur);
	/* fio divides by the mean in whole units (sum_y / dur, integers). */
	s->criterion = s->flags & STEADY_PCT ?
		100.0 * s->slope / (double)(s->sum_y / s->dur) : s->slope;
	return fabs(s->criterion) < s->limit;
}

/* fio's steadystate_deviation(): the largest distance of a sample from the mean. */
static bool judge_deviation(struct steady *s)
{
	double mean;
	unsigned i;

	if (!s->full) {
		for (i = 0, s->sum_y = 0; i < s->dur; i++)
			s->sum_y += value(s, i);
		s->full = true;
	} else {
		s->sum_y -= s->oldest_y;
		s->sum_y += value(s, s->tail);
	}
	s->oldest_y = value(s, s->head);
	mean = (double)s->sum_y / s->dur;
	s->deviation = 0.0;
	for (i = 0; i < s->dur; i++) {
		double diff = fabs((double)value(s, i) - mean);

		if (diff > s->deviation)
			s->deviation = diff;
	}
	s->criterion = s->flags & STEADY_PCT ? 100.0 * s->deviation / mean : s->deviation;
	return s->criterion < s->limit;
}

bool steady_add(struct steady *s, uint64_t iops, uint64_t bw)
{
	s->iops[s->tail] = iops;
	s->bw[s->tail] = bw;
	if (s->full || s->tail - s->head == s->dur - 1) {
		bool held = s->flags & STEADY_SLOPE ? judge_slope(s, value(s, s->tail)) :
			judge_deviation(s);

		if (held) {
			s->attained = true;
			return true;	/* the window stays as judged: head is its oldest */
		}
	}
	s->tail = (s->tail + 1) % s->dur;
	if (s->tail <= s->head)
		s->head = (s->head + 1) % s->dur;
	return false;
}

uint64_t steady_bw_mean(const struct steady *s)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < s->dur; i++)
		sum += s->bw[i];
	return sum / s->dur;
}

uint64_t steady_iops_mean(const struct steady *s)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < s->dur; i++)
		sum += s->iops[i];
	return sum / s->dur;
}

/*
 * fio's JSON order: attained, or not yet full, the window starts at head;
 * full and still judging, head has moved past the oldest, one slot back.
 */
unsigned steady_slot(const struct steady *s, unsigned i)
{
	unsigned first = s->attained || !s->full ? s->head :
		s->head == 0 ? s->dur - 1 : s->head - 1;

	return (first + i) % s->dur;
}
