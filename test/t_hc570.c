/*
 * The hc570 firmware queue against the measured queue-depth sweep
 * (../shared/reference/cdl/README.md, "Baseline"): 128 KiB random reads
 * over the whole drive, libaio, scheduler none, ramp 60 s, 300 s. At every
 * queue depth, the mean over 8 seeds of
 *
 *   QD=N ncqsim compare examples/hc570-qd.fio --system examples/hc570.system
 *       --vary device/ncq_prio_enable=0 --repeat 8 --output-format=json
 *
 * has IOPS within ±10 % and clat p99 within ±20 % of the measured figures.
 * QD 1 and QD 2 were the calibration data of two constants (docs/DRIVES.md),
 * QD 4..32 are the check of the queue policy chosen for the drive.
 */
#include "testlib.h"
#include "runlab.h"

#include <stdlib.h>

struct point {
	unsigned qd;
	double iops, p99_ms;	/* measured */
};

static const struct point sweep[] = {
	{ 1, 82, 20 }, { 2, 88, 40 }, { 4, 97, 65 }, { 8, 115, 110 },
	{ 16, 141, 185 }, { 24, 154, 255 }, { 32, 165, 323 },
};

static void check_point(const struct point *p)
{
	char qd[16];
	struct json *root, *cell, *p99, *iops;

	/* examples/hc570-qd.fio takes its depth from ${QD}. */
	snprintf(qd, sizeof(qd), "%u", p->qd);
	setenv("QD", qd, 1);
	root = runlab_json("compare examples/hc570-qd.fio --system examples/hc570.system "
			   "--vary device/ncq_prio_enable=0 --repeat 8");
	if (!root)
		return;
	cell = json_at(root, "variants.0.summary.0");
	/* The percentile key has dots of its own: json_at() cannot take it. */
	p99 = json_get(json_at(cell, "percentiles_ms"), "99.000000");
	iops = json_at(cell, "iops");
	CHECK_MSG(p99 && iops, "QD %u: no p99 or IOPS in the summary", p->qd);
	if (p99 && iops) {
		double p99_ms = json_get(p99, "mean")->number, p99_hw = json_get(p99, "half_width")->number;
		double rate = json_get(iops, "mean")->number, rate_hw = json_get(iops, "half_width")->number;

		printf("QD %2u: IOPS %6.1f ± %.1f (measured %3.0f, %+5.1f %%), p99 %6.1f ± %.1f ms "
		       "(measured %3.0f, %+5.1f %%)\n", p->qd, rate, rate_hw, p->iops,
		       100 * (rate / p->iops - 1), p99_ms, p99_hw, p->p99_ms,
		       100 * (p99_ms / p->p99_ms - 1));
		CHECK_MSG(rate >= 0.9 * p->iops && rate <= 1.1 * p->iops,
			  "QD %u: IOPS %.1f is not within 10 %% of %.0f", p->qd, rate, p->iops);
		CHECK_MSG(p99_ms >= 0.8 * p->p99_ms && p99_ms <= 1.2 * p->p99_ms,
			  "QD %u: p99 %.1f ms is not within 20 %% of %.0f ms", p->qd, p99_ms,
			  p->p99_ms);
	}
	json_free(root);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++)
		check_point(&sweep[i]);
	return test_done();
}
