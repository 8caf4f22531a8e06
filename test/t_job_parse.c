/*
 * The job-file rules, each with an input that must work: [global] applies
 * to the jobs below it, comments and ; # cuts, include, ${VAR}, size and
 * time suffixes (kb_base), ranges, per-direction lists, bare flags,
 * numjobs, stonewall and new_group, "job options" echoes.
 */
#include "testlib.h"
#include "host/ioprio.h"
#include "workload/job.h"

#include <stdlib.h>
#include <unistd.h>

static struct workload w;

static const struct job_options *load(const char *text)
{
	struct err e;

	workload_free(&w);
	if (workload_load_text(&w, text, "t.fio", NULL, &e)) {
		CHECK_MSG(0, "rejected: %s", e.msg);
		return NULL;
	}
	return &w.defs[0].o;
}

static void test_globals_and_comments(void)
{
	const struct job_options *o;

	o = load("; a comment\n# another\n[global]\nbs=8k ; cut here\nrw=randread # and here\n"
		 "iodepth = 16\n\n[first]\n[global]\nbs=64k\n[second]\niodepth=4\n");
	if (!o)
		return;
	CHECK_EQ_INT(w.ndefs, 2);
	CHECK_EQ_U64(w.defs[0].o.bs[0], 8192);
	CHECK_EQ_INT(w.defs[0].o.rw, JOB_RW_RANDREAD);
	CHECK_EQ_INT(w.defs[0].o.iodepth, 16);
	CHECK_EQ_STR(w.defs[0].o.name, "first");
	/* The second [global] changes only the jobs below it. */
	CHECK_EQ_U64(w.defs[1].o.bs[0], 65536);
	CHECK_EQ_INT(w.defs[1].o.iodepth, 4);
	CHECK_EQ_INT(w.defs[1].o.rw, JOB_RW_RANDREAD);
	/* "global options" echo every [global] line; "job options" the job's own. */
	CHECK_EQ_INT(w.nglobal, 3);
	CHECK_EQ_STR(w.global_opts[0].key, "bs");
	CHECK_EQ_STR(w.global_opts[0].value, "64k");
	CHECK_EQ_INT(w.defs[1].nopts, 1);
	CHECK_EQ_STR(w.defs[1].opts[0].key, "iodepth");
	CHECK_EQ_STR(w.defs[1].opts[0].value, "4");
}

static void test_sizes_times(void)
{
	const struct job_options *o;

	o = load("[j]\nbs=4KiB\nsize=1g\noffset=0x1000\nruntime=2m\nramp_time=500ms\n"
		 "thinktime=250\nstartdelay=1\n");
	if (!o)
		return;
	CHECK_EQ_U64(o->bs[0], 4000);		/* fio 3.33: kib is the other base */
	CHECK_EQ_U64(o->size, 1ULL << 30);
	CHECK_EQ_U64(o->offset, 4096);
	CHECK_EQ_INT(o->runtime, 120LL * 1000000000LL);
	CHECK_EQ_INT(o->ramp_time, 500000000LL);
	CHECK_EQ_INT(o->thinktime, 250000);	/* thinktime counts in microseconds */
	CHECK_EQ_INT(o->startdelay, 1000000000LL);
	/* kb_base applies to the whole section, wherever it is written. */
	o = load("[j]\nbs=4k\nkb_base=1000\n");
	if (o)
		CHECK_EQ_U64(o->bs[0], 4000);
	o = load("[j]\nsize=50%\noffset=10%\n");
	if (o)
		CHECK(o->size_pct && o->size == 50 && o->offset_pct && o->offset == 10);
}

static void test_lists_and_ranges(void)
{
	const struct job_options *o;

	o = load("[j]\nbs=4k,64k\nrate_iops=100,50\n");
	if (o) {
		CHECK_EQ_U64(o->bs[0], 4096);
		CHECK_EQ_U64(o->bs[1], 65536);
		CHECK_EQ_U64(o->rate_iops[0], 100);
		CHECK_EQ_U64(o->rate_iops[1], 50);
	}
	o = load("[j]\nbs=,16k\n");
	if (o) {
		CHECK_EQ_U64(o->bs[0], 4096);		/* empty keeps the default */
		CHECK_EQ_U64(o->bs[1], 16384);
	}
	o = load("[j]\nbsrange=8k-1k\n");
	if (o) {
		CHECK(o->bsrange);
		CHECK_EQ_U64(o->bs_min[0], 1024);	/* swapped as fio does */
		CHECK_EQ_U64(o->bs_max[1], 8192);
	}
	o = load("[j]\nbssplit=4k/10:64k/50:32k\n");
	if (o) {
		CHECK_EQ_INT(o->nbssplit[0], 3);
		CHECK_EQ_INT(o->bssplit[0][2].pct, 40);	/* the rest */
		CHECK_EQ_INT(o->nbssplit[1], 3);
	}
	o = load("[j]\nioengine=libaio\ncmdprio_bssplit=64k/25/1/1:64k/75/3/2,1m/0\n");
	if (o) {
		CHECK_EQ_INT(o->ncmdprio_bssplit[0], 2);
		CHECK_EQ_INT(o->cmdprio_bssplit[0][1].cls, 3);
		CHECK_EQ_INT(o->cmdprio_bssplit[0][1].level, 2);
		CHECK_EQ_INT(o->ncmdprio_bssplit[1], 1);
	}
	o = load("[j]\npercentile_list=99:99.9:99.999\n");
	if (o) {
		CHECK_EQ_INT(o->npercentiles, 3);
		CHECK_EQ_INT(o->percentile_precision, 3);
	}
	o = load("[j]\nrw=randread:8\nrandom_distribution=zipf:1.2\n");
	if (o) {
		CHECK_EQ_U64(o->rw_nr, 8);
		CHECK_EQ_INT(o->dist, JOB_DIST_ZIPF);
		CHECK_NEAR(o->dist_param, 1.2, 1e-12);
	}
	o = load("[j]\nrw=read:-8k\n");
	if (o)
		CHECK_EQ_INT(o->rw_skip, -8192);
}

static void test_flags_and_prio(void)
{
	const struct job_options *o;

	o = load("[j]\ntime_based\nruntime=1\nnorandommap\ngroup_reporting=1\nrandrepeat=0\n"
		 "direct=1\nfilename=/dev/sdb\nioengine=io_uring\niodepth=32\nprioclass=1\nprio=0\n"
		 "cmdprio_percentage=25\nsched_policy=fifo\nthread\n");
	if (!o)
		return;
	CHECK(o->time_based && o->norandommap && o->group_reporting && !o->randrepeat);
	CHECK_EQ_INT(o->engine_kind, JOB_ENGINE_ASYNC);
	CHECK(o->prioclass_set && o->prioclass == 1 && o->prio_set && o->prio == 0);
	CHECK_EQ_INT(o->cmdprio_percentage[0], 25);
	CHECK_EQ_INT(o->cmdprio_class[0], IOPRIO_CLASS_RT);
	CHECK_EQ_INT(o->sched_policy, SCHED_POLICY_FIFO);
	/* Bare flags are not echoed in "job options" (as fio). */
	{
		unsigned i;

		for (i = 0; i < w.defs[0].nopts; i++)
			CHECK(strcmp(w.defs[0].opts[i].key, "time_based") &&
			      strcmp(w.defs[0].opts[i].key, "norandommap"));
	}
	o = load("[j]\ntime_based=0\n");
	if (o)
		CHECK(!o->time_based);
	o = load("[j]\nrwmixwrite=30\n");
	if (o)
		CHECK_EQ_INT(o->rwmixread, 70);
	o = load("[j]\nreadwrite=randrw\nblocksize=8k\n");	/* fio's aliases */
	if (o)
		CHECK(o->rw == JOB_RW_RANDRW && o->bs[0] == 8192);
}

static void test_groups(void)
{
	if (!load("[a]\nnumjobs=3\n[b]\nnew_group\n[c]\nstonewall\n[d]\n[a]\n"))
		return;
	CHECK_EQ_INT(w.ndefs, 5);
	CHECK_EQ_INT(w.njobs, 7);
	CHECK_EQ_INT(w.defs[0].groupid, 0);
	CHECK_EQ_INT(w.defs[1].groupid, 1);
	CHECK_EQ_INT(w.defs[1].segment, 0);	/* new_group does not wait */
	CHECK_EQ_INT(w.defs[2].groupid, 2);
	CHECK_EQ_INT(w.defs[2].segment, 1);	/* stonewall waits */
	CHECK_EQ_INT(w.defs[3].groupid, 2);
	CHECK_EQ_INT(w.defs[4].occurrence, 1);	/* the second job called "a" */
}

static void test_include_and_env(void)
{
	char dir[] = "/tmp/ncqsim-jobXXXXXX", path[256], inc[256];
	struct err e;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(inc, sizeof(inc), "%s/common.fio", dir);
	f = fopen(inc, "w");
	fprintf(f, "[global]\nbs=${NCQSIM_TEST_BS}\nrw=${NCQSIM_UNSET_VAR}randwrite\n");
	fclose(f);
	snprintf(path, sizeof(path), "%s/main.fio", dir);
	f = fopen(path, "w");
	fprintf(f, "include common.fio\n[j]\n");
	fclose(f);
	setenv("NCQSIM_TEST_BS", "16k", 1);
	workload_free(&w);
	CHECK_MSG(workload_load(&w, path, NULL, &e) == 0, "%s", e.msg);
	if (w.ndefs) {
		CHECK_EQ_U64(w.defs[0].o.bs[0], 16384);
		CHECK_EQ_INT(w.defs[0].o.rw, JOB_RW_RANDWRITE);	/* unset is empty, as fio */
	}
	unlink(inc);
	unlink(path);
	rmdir(dir);
}

/* fio 3.36's CDL hints: cmdprio_hint per direction, priohint, the hint field of cmdprio_bssplit. */
static void test_hints(void)
{
	const struct job_options *o;

	o = load("[j]\nioengine=libaio\ncmdprio_percentage=20\ncmdprio_class=2\ncmdprio_hint=1,3\n"
		 "priohint=5\ncontinue_on_error=io\n");
	if (o) {
		CHECK_EQ_INT(o->cmdprio_hint[0], 1);
		CHECK_EQ_INT(o->cmdprio_hint[1], 3);
		CHECK_EQ_INT(o->priohint, 5);
		CHECK(o->priohint_set);
		CHECK_EQ_INT(o->continue_on_error, JOB_ERR_READ | JOB_ERR_WRITE);
	}
	o = load("[j]\nioengine=libaio\ncmdprio_bssplit=64k/25:64k/25/2/0:64k/50/2/0/7\n"
		 "continue_on_error=1\n");
	if (o) {
		CHECK_EQ_INT(o->cmdprio_bssplit[0][0].hint, -1);	/* cmdprio_hint's */
		CHECK_EQ_INT(o->cmdprio_bssplit[0][1].hint, 0);
		CHECK_EQ_INT(o->cmdprio_bssplit[0][2].hint, 7);
		CHECK_EQ_INT(o->continue_on_error, JOB_ERR_READ | JOB_ERR_WRITE | JOB_ERR_VERIFY);
	}
}

/* ignore_error: per kind lists, by name or number; each turns continue_on_error on for its kind. */
static void test_ignore_error(void)
{
	const struct job_options *o;

	o = load("[j]\nignore_error=EIO:-62,,ENOSPC\n");
	if (o) {
		CHECK_EQ_INT(o->nignore_error[0], 2);
		CHECK_EQ_INT(o->ignore_error[0][0], 5);
		CHECK_EQ_INT(o->ignore_error[0][1], 62);	/* the sign dropped, as fio's */
		CHECK_EQ_INT(o->nignore_error[1], 0);
		CHECK_EQ_INT(o->nignore_error[2], 1);
		CHECK_EQ_INT(o->ignore_error[2][0], 28);
		CHECK_EQ_INT(o->continue_on_error, JOB_ERR_READ | JOB_ERR_VERIFY);
	}
	/* A later continue_on_error sets the kinds anew; the lists stay. */
	o = load("[j]\nignore_error=EAGAIN:ERANGE\ncontinue_on_error=write\n");
	if (o) {
		CHECK_EQ_INT(o->continue_on_error, JOB_ERR_WRITE);
		CHECK_EQ_INT(o->ignore_error[0][0], 11);
		CHECK_EQ_INT(o->ignore_error[0][1], 34);
	}
}

int main(void)
{
	test_ignore_error();
	test_globals_and_comments();
	test_sizes_times();
	test_lists_and_ranges();
	test_flags_and_prio();
	test_hints();
	test_groups();
	test_include_and_env();
	workload_free(&w);
	return test_done();
}
