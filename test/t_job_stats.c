/*
 * Statistics through the whole stack, where the answer is known:
 * reads of one cached block take exactly the drive's cache-hit time
 * (command overhead + 4 KiB at interface speed), so percentiles, IOPS and
 * bandwidth are exact; a cmdprio share comes out at its percentage; slat
 * appears exactly when the submitter has to wait for a request.
 */
#include "testlib.h"
#include "runlab.h"
#include "run/runner.h"

#include <math.h>
#include <stdlib.h>

static int run(const char *jobtext, const char *set, struct runner_result *res)
{
	return runlab_run(jobtext, set, 7, res);
}

/* What a cache hit of 4 KiB costs on he8: 0.1 ms + 4096 B at 600 MB/s. */
static uint64_t hit_ns(const struct runner_result *res)
{
	return (uint64_t)res->model.command_overhead +
		(uint64_t)((double)4096 * 1000.0 / res->model.interface_mbs);
}

static void test_constant_latency(const char *engine, unsigned depth)
{
	char job[512];
	struct runner_result res;
	const struct report_dir *rd;
	uint64_t L, bucket, iops;
	double expect_iops;
	unsigned i;

	snprintf(job, sizeof(job), "[j]\nioengine=%s\niodepth=%u\nrw=read\nbs=4k\nsize=4k\n"
		 "time_based\nruntime=10\nramp_time=1\n", engine, depth);
	if (run(job, NULL, &res))
		return;
	rd = &res.report.jobs[0].dir[0];
	L = hit_ns(&res);
	CHECK_EQ_U64(rd->clat.sum.min, L);
	CHECK_EQ_U64(rd->clat.sum.max, L);
	CHECK_NEAR(rd->clat.sum.mean, (double)L, 1e-6);
	CHECK_NEAR(hist_summary_stddev(&rd->clat.sum), 0.0, 1e-6);
	bucket = hist_bucket_value(hist_bucket_index(L));
	for (i = 0; i < res.report.jobs[0].npercentiles; i++)
		CHECK_EQ_U64(hist_percentile(&rd->clat, res.report.jobs[0].percentiles[i]), bucket);
	/* IOPS = depth / L, from fio's integer runtime in ms. */
	expect_iops = depth * 1e9 / (double)L;
	iops = 1000 * rd->total_ios / rd->runtime_ms;
	CHECK_MSG(fabs((double)iops - expect_iops) <= expect_iops * 0.001 + 1,
		  "%s QD%u: %llu IOPS, expected %.1f", engine, depth, (unsigned long long)iops,
		  expect_iops);
	CHECK_EQ_U64(rd->io_bytes, rd->total_ios * 4096);
	CHECK(rd->runtime_ms >= 9999 && rd->runtime_ms <= 10001);
	/* The bandwidth samples (every 500 ms) see the same rate. */
	CHECK(rd->bw.n >= 18);
	CHECK_NEAR(rd->bw.mean, expect_iops * 4096 / 1024, expect_iops * 4096 / 1024 * 0.01);
	CHECK(res.disk.cache_hits > 1000);
	runner_result_free(&res);
}

static void test_cmdprio_share(void)
{
	struct runner_result res;
	const struct report_dir *rd;
	unsigned p;
	uint64_t high = 0, total;

	/*
	 * One pass: fio reseeds between passes, so passes of one I/O would
	 * each draw the same priority (fio 3.33: size=4k io_size=400k, no high).
	 */
	if (run("[j]\nioengine=libaio\niodepth=8\nrw=read\nbs=4k\nsize=400000k\nnumber_ios=100000\n"
		"cmdprio_percentage=25\n", NULL, &res))
		return;
	rd = &res.report.jobs[0].dir[0];
	total = rd->total_ios;
	CHECK_EQ_U64(total, 100000);
	CHECK_EQ_INT(rd->nprios, 2);
	for (p = 0; p < rd->nprios; p++)
		if (rd->prios[p].ioprio >> 13 == 1)
			high = rd->prios[p].h.sum.n;
	CHECK_MSG(fabs((double)high / (double)total - 0.25) <= 0.01, "high share %.4f",
		  (double)high / (double)total);
	/* The host sent exactly those as RT... but without ncq_prio_enable, no PRIO high. */
	CHECK_EQ_U64(res.ata.prio_high_cmds, 0);
	runner_result_free(&res);
}

static void test_slat(void)
{
	struct runner_result res;
	const struct report_dir *rd;

	/* 32 in flight, 4 requests: the submitter waits; that wait is slat. */
	if (run("[j]\nioengine=libaio\niodepth=32\nrw=randread\nbs=4k\nsize=1g\nnumber_ios=2000\n",
		"queue/nr_requests=4", &res))
		return;
	rd = &res.report.jobs[0].dir[0];
	CHECK_EQ_U64(rd->slat.sum.n, 2000);
	CHECK(rd->slat.sum.max > 0);
	CHECK(res.blk.waits > 0);
	CHECK_NEAR(rd->lat.sum.mean, rd->slat.sum.mean + rd->clat.sum.mean, 1.0);
	/* The clat split: host queue + drive = clat. */
	CHECK_NEAR(rd->split.mean[REPORT_HOST_QUEUE] + rd->split.mean[REPORT_DRIVE],
		   rd->clat.sum.mean, 1.0);
	runner_result_free(&res);

	/* A sync engine has no slat: the wait lands in clat. */
	if (run("[j]\nrw=randread\nbs=4k\nsize=1g\nnumber_ios=200\n", NULL, &res))
		return;
	rd = &res.report.jobs[0].dir[0];
	CHECK_EQ_U64(rd->slat.sum.n, 0);
	CHECK_EQ_U64(rd->clat.sum.n, 200);
	CHECK_EQ_U64(rd->lat.sum.n, 200);
	runner_result_free(&res);
}

static void test_mixed_and_limits(void)
{
	struct runner_result res;
	const struct report_job *j;

	if (run("[j]\nioengine=libaio\niodepth=4\nrw=randrw\nrwmixread=70\nbs=4k\nsize=1g\n"
		"number_ios=4000\n", NULL, &res))
		return;
	j = &res.report.jobs[0];
	CHECK_EQ_U64(j->dir[0].total_ios + j->dir[1].total_ios, 4000);
	CHECK_NEAR((double)j->dir[0].total_ios / 4000.0, 0.70, 0.03);
	CHECK(res.disk.write_cached > 0);
	runner_result_free(&res);

	/* size: a sequential job stops after its region. */
	if (run("[j]\nrw=read\nbs=64k\nsize=64m\n", NULL, &res))
		return;
	CHECK_EQ_U64(res.report.jobs[0].dir[0].io_bytes, 64ULL << 20);
	CHECK_EQ_U64(res.report.jobs[0].dir[0].total_ios, 1024);
	runner_result_free(&res);

	/* A random map visits every block once per pass. */
	if (run("[j]\nrw=randread\nbs=4k\nsize=4m\nioengine=libaio\niodepth=4\n", NULL, &res))
		return;
	CHECK_EQ_U64(res.report.jobs[0].dir[0].total_ios, 1024);
	runner_result_free(&res);
}

int main(void)
{
	test_constant_latency("psync", 1);
	test_constant_latency("libaio", 8);
	test_cmdprio_share();
	test_slat();
	test_mixed_and_limits();
	return test_done();
}
