/*
 * steady — fio's steady-state detection (its steadystate.c): a window of
 * the last `dur` one-second samples of a job's IOPS and bandwidth, and the
 * criterion that says whether the job has settled — the least-squares
 * slope of the window, or its largest deviation from the window's mean,
 * absolute or as a percentage of the mean — against a limit. The
 * arithmetic is fio 3.33's, integer steps included (the slope's
 * percentage divides by the mean in whole units), so the criterion is
 * fio's for the same samples.
 *
 * The window is filled oldest to newest in a ring; it is judged once it
 * holds `dur` samples, then at every sample. A window of one sample has
 * no slope (fio divides 0 by 0): a slope criterion then never holds.
 */
#ifndef NCQSIM_STEADY_H
#define NCQSIM_STEADY_H

#include <stdbool.h>
#include <stdint.h>

enum {
	STEADY_IOPS	= 1 << 0,	/* judge IOPS, else bandwidth (bytes/s) */
	STEADY_SLOPE	= 1 << 1,	/* the slope, else the largest deviation from the mean */
	STEADY_PCT	= 1 << 2,	/* the limit is a percentage of the window's mean */
};

struct steady {
	unsigned flags;			/* STEADY_* */
	double limit;
	unsigned dur;			/* samples in the window: fio's ss_dur, in whole seconds */
	bool attained, full;		/* fio's FIO_SS_ATTAINED, FIO_SS_BUFFER_FULL */
	unsigned head, tail;		/* the oldest sample, the slot the next one takes */
	uint64_t *iops, *bw;		/* dur samples each */
	double slope, deviation, criterion;	/* as last judged */
	uint64_t sum_y, sum_xy, sum_x, sum_x_sq, oldest_y;
};

/* A window of dur samples (dur > 0); -1 when out of memory. */
int steady_init(struct steady *s, unsigned flags, double limit, unsigned dur);
void steady_free(struct steady *s);
/* A deep copy (dst uninitialised); -1 when out of memory. */
int steady_copy(struct steady *dst, const struct steady *src);

/* One second's IOPS and bandwidth; true when the criterion now holds (attained). */
bool steady_add(struct steady *s, uint64_t iops, uint64_t bw);

/* The means over the window's dur slots, as fio prints them (unfilled slots count as 0). */
uint64_t steady_bw_mean(const struct steady *s);
uint64_t steady_iops_mean(const struct steady *s);

/* The slot of the i-th sample oldest first, as fio's JSON lists them. */
unsigned steady_slot(const struct steady *s, unsigned i);

#endif
