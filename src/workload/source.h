/*
 * source — where a job's I/Os come from: an ops table the job engine asks
 * for its next I/O whenever it may issue one (a free slot of its queue
 * depth, no submitter blocked, its runtime not over).
 *
 *   job_fill ──► ops->next(state, now) ──► JOB_SOURCE_IO    issue *io now
 *                                      ├─► JOB_SOURCE_WAIT  ask again at *wake_at
 *                                      └─► JOB_SOURCE_END   no more I/O: the job ends
 *                                                           once its I/Os complete
 *
 * fio's generator (workload/job.c: rw, bs, offsets, rate_iops, thinktime,
 * size and number_ios) is one source; a trace reader is another, keeping
 * its next record until the record's time. The engine does everything
 * else the same for every source: splitting into requests, submission,
 * latencies, reports and logs.
 */
#ifndef NCQSIM_WORKLOAD_SOURCE_H
#define NCQSIM_WORKLOAD_SOURCE_H

#include <stdint.h>

enum job_source_status {
	JOB_SOURCE_IO,		/* *io is the next I/O, to be issued now */
	JOB_SOURCE_WAIT,	/* none before *wake_at (rate, think time, a record's time) */
	JOB_SOURCE_END,		/* no more I/O */
};

/* One I/O as a source describes it. */
struct job_io_desc {
	int ddir;		/* DDIR_READ or DDIR_WRITE */
	uint64_t offset, len;	/* bytes */
	uint16_t ioprio;	/* this I/O's own priority (fio's cmdprio); 0: the job's */
	/*
	 * Open loop: when the I/O arrived, if before now (a trace's record
	 * whose process was still blocked in io_submit() then); its slat and
	 * lat count from there. 0: now.
	 */
	int64_t due;
};

struct job_source_ops {
	const char *name;
	/* `now` in simulated nanoseconds; *wake_at is set only for JOB_SOURCE_WAIT. */
	enum job_source_status (*next)(void *state, int64_t now, struct job_io_desc *io,
				       int64_t *wake_at);
};

/* A job's source as the engine holds it (see job.h's job_source_factory). */
struct job_source {
	const struct job_source_ops *ops;
	void *state;
	uint64_t max_len;	/* the largest I/O it gives, bytes: sizes the job's bio pool */
	bool own_prios;		/* its I/Os carry their own priorities: report each */
};

#endif
