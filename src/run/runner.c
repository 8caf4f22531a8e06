#include "run/runner.h"

#include "run/replay.h"
#include "util/clock.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * fio's ioscheduler: each job writes the device's queue/scheduler as it
 * starts, so it overrides the system's setting. ncqsim runs one scheduler
 * for the whole run: the jobs that name one must agree (in fio the last
 * job to start would win, changing the scheduler under the others).
 * Returns the job that set it, with *c = cfg and the scheduler changed,
 * or NULL (c untouched: copying a configuration costs, and most runs name
 * no scheduler).
 */
static const struct job_def *job_ioscheduler(const struct workload *w,
					     const struct host_config *cfg, struct host_config *c,
					     struct err *e)
{
	const struct job_def *first = NULL;
	char assign[64], origin[512];
	unsigned i;

	for (i = 0; i < w->ndefs; i++) {
		const struct job_def *d = &w->defs[i];

		if (!d->o.ioscheduler[0])
			continue;
		if (first && strcmp(first->o.ioscheduler, d->o.ioscheduler)) {
			err_set(e, "%s:%d: job '%s': option 'ioscheduler': '%s', but job '%s' (%s:%d) "
				"sets '%s': ncqsim runs one I/O scheduler for the whole run (in fio each "
				"job switches the device's as it starts, the last one winning); give the "
				"jobs the same one", d->file, d->line, d->o.name, d->o.ioscheduler,
				first->o.name, first->file, first->line, first->o.ioscheduler);
			return NULL;
		}
		if (!first)
			first = d;
	}
	if (!first)
		return NULL;
	snprintf(assign, sizeof(assign), "queue/scheduler=%s", first->o.ioscheduler);
	snprintf(origin, sizeof(origin), "%s:%d: job '%s': option 'ioscheduler'", first->file,
		 first->line, first->o.name);
	*c = *cfg;
	if (host_config_assign(c, assign, origin, e))
		return NULL;
	return first;
}

/*
 * fio's disk_util (on by default): the "Disk stats" of the device under
 * the jobs that keep it on, from the block layer's counts — none when
 * every job turns it off or works on the sg node (/dev/sgN, a character
 * device, which fio keeps none for). fio names the entry after the block device;
 * the simulated drive is the device every job's I/O reaches, named as
 * the first such job's filename names one (/dev/sdb: sdb), else sda.
 */
static bool disk_util_name(const struct workload *w, char *name, size_t len)
{
	bool any = false, named = false;
	unsigned i;

	snprintf(name, len, "sda");
	for (i = 0; i < w->ndefs; i++) {
		const char *f = w->defs[i].o.filename, *base;
		size_t n;

		/* A character device has no disk stats (fio's get_device_numbers()). */
		if (!w->defs[i].o.disk_util || w->defs[i].o.sg_node)
			continue;
		any = true;
		if (named || strncmp(f, "/dev/", 5))
			continue;
		n = strcspn(f, ":");	/* fio's list of files: the first */
		for (base = f + n; base > f && base[-1] != '/'; base--)
			;
		if (base < f + n) {
			snprintf(name, len, "%.*s", (int)(f + n - base), base);
			named = true;
		}
	}
	return any;
}

/*
 * The run's start on the wall clock, ms since 1970: the report's
 * timestamps and the logs' epoch (log_unix_epoch), which the simulation
 * otherwise lacks. SOURCE_DATE_EPOCH (whole seconds, the
 * reproducible-builds convention) fixes it, so that every output is the
 * same from run to run.
 */
static int run_start_ms(int64_t *ms, struct err *e)
{
	const char *fixed = getenv("SOURCE_DATE_EPOCH");
	struct timespec ts;
	uint64_t s;

	if (fixed) {
		if (parse_u64(fixed, &s) || s > INT64_MAX / 1000)
			return err_set(e, "SOURCE_DATE_EPOCH: expected whole seconds since 1970, got "
				       "'%s'", fixed);
		*ms = (int64_t)s * 1000;
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	*ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	return 0;
}

/*
 * runner_run() zeroes the members before the model but report.global_opts,
 * and from disk on: nothing between model and disk, and the report first.
 */
_Static_assert(offsetof(struct runner_result, report) == 0 &&
	       offsetof(struct report, nglobal) ==
	       offsetof(struct report, global_opts) + sizeof(((struct report *)0)->global_opts),
	       "struct runner_result: the report first; its nglobal right after global_opts");
_Static_assert(offsetof(struct runner_result, disk) ==
	       offsetof(struct runner_result, model) + sizeof(((struct runner_result *)0)->model),
	       "struct runner_result: disk right after model");

int runner_run(const struct workload *w, const struct host_config *cfg,
	       const struct runner_opts *ro, struct runner_result *res, struct err *e)
{
	static __thread struct system sys;
	static __thread struct host_config job_cfg;
	const struct job_def *sched_job;
	struct job_target t;
	struct workload_run_opts wo;
	double cpu0 = clock_thread_cpu();
	int rc;

	/*
	 * All but the model and the report's global options zeroed: a run
	 * that succeeds copies the model whole (from ro->model before the run,
	 * or from the system's after it) and workload_run() the options (40 KB
	 * of the 41 the report holds), and a failed one's result holds nothing
	 * the callers read.
	 */
	memset(res, 0, offsetof(struct runner_result, report.global_opts));
	memset(&res->report.nglobal, 0,
	       offsetof(struct runner_result, model) - offsetof(struct runner_result, report.nglobal));
	memset(&res->disk, 0, sizeof(*res) - offsetof(struct runner_result, disk));
	e->msg[0] = '\0';
	if (run_start_ms(&res->report.wall_ms, e))
		return RUNNER_REFUSED;
	sched_job = job_ioscheduler(w, cfg, &job_cfg, e);
	if (sched_job)
		cfg = &job_cfg;
	else if (e->msg[0])
		return RUNNER_REFUSED;
	/*
	 * A model given is copied once, into the result, and the system reads
	 * that copy; else the system loads its own, copied out after the run.
	 */
	if (ro->model)
		disk_model_copy(&res->model, ro->model);
	if (system_init(&sys, cfg, ro->model ? &res->model : NULL, ro->debug_mask, ro->debug_out,
			e)) {
		/* A scheduler the kernel lacks: name the job that asked for it. */
		if (sched_job && !strncmp(e->msg, "knob 'queue/scheduler'", 22)) {
			struct err why = *e;

			err_set(e, "%s:%d: job '%s': option 'ioscheduler': %s", sched_job->file,
				sched_job->line, sched_job->o.name, why.msg);
		}
		return RUNNER_REFUSED;
	}
	t.sim = &sys.sim;
	t.q = sys.q;
	t.kernel = sys.knobs.kernel;
	t.logical_size = libata_logical_sector_size(sys.ata);
	t.capacity = libata_capacity(sys.ata) * t.logical_size;
	t.max_request = (uint64_t)sys.knobs.max_sectors_kb * 1024 / t.logical_size * t.logical_size;
	if (!t.max_request)
		t.max_request = t.logical_size;
	t.max_discard = blk_max_discard_sectors(sys.q) * t.logical_size;
	memset(&wo, 0, sizeof(wo));
	wo.seed = ro->seed;
	wo.runtime_cap = ro->runtime_cap;
	wo.progress = ro->progress;
	wo.progress_ctx = ro->progress_ctx;
	wo.log_tag = ro->log_tag;
	wo.protect = ro->protect;
	wo.nprotect = ro->nprotect;
	wo.stop = ro->stop;
	wo.sources = ro->sources ? ro->sources : &replay_iolog_sources;
	wo.wall_ms = res->report.wall_ms;
	/* Job times count from the end of the drive's probe. */
	rc = workload_run(w, &t, &wo, &res->report, e);
	if (rc == WORKLOAD_REFUSED)
		rc = RUNNER_REFUSED;
	if (!rc) {
		const struct blk_stats *bs = blk_get_stats(sys.q);
		struct report_disk *dk = &res->report.disk;
		double elapsed = (double)(sim_now(&sys.sim) - sys.probe_ns);
		int d;

		res->knobs = sys.knobs;
		if (!ro->model)
			disk_model_copy(&res->model, sys.model);
		res->disk = *disk_get_stats(sys.disk);
		res->blk = *bs;
		res->ata = *libata_get_stats(sys.ata);
		res->seed = ro->seed;
		res->sim_seconds = elapsed / 1e9;
		res->ncq = libata_ncq_enabled(sys.ata);
		res->ios = bs->completed;
		dk->present = disk_util_name(w, dk->name, sizeof(dk->name));
		for (d = 0; d < 2; d++) {
			dk->ios[d] = bs->ios[d];
			dk->merges[d] = bs->merges[d];
			dk->ticks_ms[d] = (uint64_t)(bs->ticks_ns[d] / 1000000);
		}
		/* in_queue: every request's time, discards' too (fio shows no column of theirs). */
		dk->in_queue_ms = dk->ticks_ms[0] + dk->ticks_ms[1] +
			(uint64_t)(bs->ticks_ns[2] / 1000000);
		dk->util = elapsed > 0 ? 100.0 * (double)bs->io_ticks_ns / elapsed : 0.0;
		if (dk->util > 100.0)
			dk->util = 100.0;
		res->report.version = "ncqsim-" "0.1";
		res->report.ncqsim_json = runner_json;
		res->report.ncqsim_ctx = res;
	}
	system_destroy(&sys);
	res->cpu_seconds = clock_thread_cpu() - cpu0;
	return rc;
}

void runner_result_free(struct runner_result *res)
{
	report_jobs_free(res->report.jobs, res->report.njobs);
	res->report.jobs = NULL;
	res->report.njobs = 0;
}

static void json_knob(void *w, const char *name, const char *value)
{
	json_string(w, name, value);
}

void runner_json(struct json_writer *w, void *ctx)
{
	const struct runner_result *res = ctx;

	json_string(w, "drive", res->model.name);
	json_string(w, "drive_model", res->model.model);
	json_uint(w, "seed", res->seed);
	json_double(w, "simulated_seconds", res->sim_seconds);
	json_bool(w, "ncq", res->ncq);
	if (res->report.interrupted)
		json_bool(w, "interrupted", true);
	json_object_begin(w, "knobs");
	host_knobs_each(&res->knobs, json_knob, w);
	json_uint(w, "queue/nr_requests (effective)",
		  res->knobs.nr_requests ? res->knobs.nr_requests :
		  host_default_nr_requests(&res->knobs));
	json_object_end(w);
	json_object_begin(w, "host");
	json_uint(w, "requests", res->blk.requests);
	json_uint(w, "merged", res->blk.merged);
	json_uint(w, "request_waits", res->blk.waits);
	json_double(w, "request_wait_ms", res->blk.wait_ns / 1e6);
	json_uint(w, "ncq_commands", res->ata.ncq_cmds);
	json_uint(w, "prio_high_commands", res->ata.prio_high_cmds);
	json_uint(w, "dma_ext_commands", res->ata.dma_cmds);
	json_uint(w, "errors", res->ata.errors);
	json_uint(w, "timeouts", res->ata.timeouts);
	json_uint(w, "resets", res->ata.resets);
	json_uint(w, "retries", res->ata.retries);
	json_uint(w, "ncq_errors", res->ata.ncq_errors);
	json_uint(w, "flushes", res->ata.flushes);
	json_uint(w, "fua_writes", res->ata.fua_cmds);
	json_uint(w, "fua_reads", res->ata.fua_reads);
	json_uint(w, "illegal_requests", res->ata.illegal);
	json_uint(w, "trims", res->ata.trims);
	json_uint(w, "verify_commands", res->ata.verify_cmds);
	json_uint(w, "cdl_commands", res->ata.cdl_cmds);
	json_uint(w, "cdl_timeouts", res->ata.cdl_timeouts);
	json_object_end(w);
	json_object_begin(w, "drive_stats");
	json_uint(w, "commands", res->disk.commands);
	json_uint(w, "media_reads", res->disk.media_reads);
	json_uint(w, "media_writes", res->disk.media_writes);
	json_uint(w, "destages", res->disk.destages);
	json_uint(w, "cache_hits", res->disk.cache_hits);
	json_uint(w, "write_cached", res->disk.write_cached);
	json_uint(w, "stream_reads", res->disk.stream_reads);
	json_uint(w, "coalesced_writes", res->disk.coalesced_writes);
	json_uint(w, "stream_writes", res->disk.stream_writes);
	json_uint(w, "picks", res->disk.picks);
	json_uint(w, "picks_aged", res->disk.picks_aged);
	json_uint(w, "picks_priority", res->disk.picks_prio);
	json_uint(w, "picks_soft_normal", res->disk.picks_soft_normal);
	json_double(w, "busy_ms", res->disk.busy_ns / 1e6);
	json_double(w, "seek_ms", res->disk.seek_ns / 1e6);
	json_double(w, "rotate_ms", res->disk.rotate_ns / 1e6);
	json_double(w, "transfer_ms", res->disk.transfer_ns / 1e6);
	json_uint(w, "aborted", res->disk.aborted);
	json_uint(w, "flushes", res->disk.flushes);
	json_uint(w, "trims", res->disk.trims);
	json_uint(w, "verifies", res->disk.verifies);
	json_uint(w, "resets", res->disk.resets);
	json_uint(w, "cdl_commands", res->disk.cdl_commands);
	json_uint(w, "cdl_timeouts", res->disk.cdl_timeouts);
	json_object_end(w);
}
