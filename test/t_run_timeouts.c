/*
 * Timeouts through the whole stack: a QD32 random-read job on he8, whose
 * firmware lets a command wait up to its 2 s aging limit. With
 * device/timeout=1 some commands time out (at the next whole second past
 * their deadline) and the host recovers — the latencies fio sees include
 * the recovery (the drain while EH waits, a reset when one is needed);
 * with the default 30 s nothing times out and the run is the same as
 * before timeouts existed.
 */
#include "testlib.h"
#include "runlab.h"

static const char job[] = "[qd32]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
	"norandommap\ntime_based\nruntime=300\niodepth=32\n";

static int run(const char *set, struct runner_result *res)
{
	return runlab_run(job, set, 1, res);
}

int main(void)
{
	struct runner_result one, def;

	if (run("device/timeout=1", &one) || run(NULL, &def))
		return test_done();
	CHECK(one.ata.timeouts > 0);
	CHECK(one.ata.resets + one.ata.retries <= one.ata.timeouts * 2);
	CHECK_EQ_INT(one.report.jobs[0].error, 0);
	/*
	 * While a timed-out command waits for EH the host sends nothing new
	 * (scsi_host_in_recovery), so the drive drains and often serves it
	 * before EH runs (a late completion is honoured): the run differs from
	 * the 30 s one, and its worst latency still lies past the timeout.
	 * The reset and retry sequence itself is checked in t_host_eh.
	 */
	CHECK(one.report.jobs[0].dir[0].clat.sum.max != def.report.jobs[0].dir[0].clat.sum.max);
	CHECK(one.report.jobs[0].dir[0].clat.sum.max > 1000000000ULL);
	CHECK_EQ_U64(def.ata.timeouts, 0);
	CHECK_EQ_U64(def.ata.resets, 0);
	CHECK_EQ_U64(def.ata.retries, 0);
	CHECK_EQ_U64(def.disk.resets, 0);
	CHECK_EQ_U64(one.disk.resets, one.ata.resets);
	runner_result_free(&one);
	runner_result_free(&def);
	return test_done();
}
