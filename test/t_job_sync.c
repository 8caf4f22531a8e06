/*
 * fio's fsync, fdatasync, end_fsync, write_barrier and sync=1 through the
 * whole stack, counted where they must show: FLUSH CACHE EXT commands
 * libata sent and the drive received, FUA writes, fio's "sync" entries —
 * per kernel where libata.fua differs, and with the drive's write cache
 * off (nothing to flush: no command at all).
 */
#include "testlib.h"
#include "run/runner.h"

struct counts {
	uint64_t writes, host_flushes, drive_flushes, fua, syncs, ncq;
	int error;
};

static int run(const char *options, const char *set1, const char *set2, struct counts *c)
{
	char job[512];
	struct workload w;
	struct host_config cfg;
	struct runner_opts ro;
	struct runner_result res;
	struct err e;

	snprintf(job, sizeof(job), "[w]\nioengine=libaio\ndirect=1\nrw=write\nbs=1m\nsize=64m\n"
		 "iodepth=4\n%s\n", options);
	memset(&ro, 0, sizeof(ro));
	memset(c, 0, sizeof(*c));
	ro.seed = 3;
	host_config_init(&cfg);
	if ((set1 && host_config_set(&cfg, set1, &e)) || (set2 && host_config_set(&cfg, set2, &e)) ||
	    workload_load_text(&w, job, "t.fio", NULL, &e)) {
		CHECK_MSG(0, "%s", e.msg);
		return -1;
	}
	if (runner_run(&w, &cfg, &ro, &res, &e)) {
		CHECK_MSG(0, "%s", e.msg);
		workload_free(&w);
		return -1;
	}
	c->writes = res.report.jobs[0].dir[1].total_ios;
	c->host_flushes = res.ata.flushes;
	c->drive_flushes = res.disk.flushes;
	c->fua = res.ata.fua_cmds;
	c->ncq = res.ata.ncq_cmds;
	c->syncs = res.report.jobs[0].sync_lat.n;
	c->error = res.report.jobs[0].error;
	runner_result_free(&res);
	workload_free(&w);
	return 0;
}

int main(void)
{
	struct counts c;

	/* fsync=8: one FLUSH CACHE EXT per 8 writes, sent and received. */
	if (!run("fsync=8", NULL, NULL, &c)) {
		CHECK_EQ_U64(c.writes, 64);
		CHECK_EQ_U64(c.host_flushes, 8);
		CHECK_EQ_U64(c.drive_flushes, 8);
		CHECK_EQ_U64(c.syncs, 8);
		CHECK_EQ_U64(c.fua, 0);
		CHECK_EQ_INT(c.error, 0);
	}
	if (!run("fdatasync=16\nend_fsync=1", NULL, NULL, &c)) {
		/* After 16, 32, 48 and 64 writes; end_fsync adds one more at the end. */
		CHECK_EQ_U64(c.drive_flushes, 5);
		CHECK_EQ_U64(c.syncs, 5);
	}
	/* No volatile cache: an fsync returns at once, nothing reaches the drive. */
	if (!run("fsync=8", "drive.write_cache=0", NULL, &c)) {
		CHECK_EQ_U64(c.syncs, 8);
		CHECK_EQ_U64(c.drive_flushes, 0);
	}
	/* sync=1: FUA writes from 6.2; before, each write and a flush. */
	if (!run("sync=1", "kernel=6.12", NULL, &c)) {
		CHECK_EQ_U64(c.fua, 64);
		CHECK_EQ_U64(c.drive_flushes, 0);
	}
	if (!run("sync=1", "kernel=6.1", NULL, &c)) {
		CHECK_EQ_U64(c.fua, 0);
		CHECK_EQ_U64(c.drive_flushes, 64);
	}
	/* write_barrier=4: a flush before every 4th write, FUA on it (or a post-flush). */
	if (!run("write_barrier=4", "kernel=6.12", NULL, &c)) {
		CHECK_EQ_U64(c.drive_flushes, 16);
		CHECK_EQ_U64(c.fua, 16);
	}
	if (!run("write_barrier=4", "kernel=4.10", "queue/scheduler=deadline", &c)) {
		CHECK_EQ_U64(c.drive_flushes, 32);
		CHECK_EQ_U64(c.fua, 0);
		CHECK_EQ_U64(c.ncq, 64);
	}
	return test_done();
}
