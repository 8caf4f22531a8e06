/*
 * job_options — the fio job options ncqsim supports, declared in one table
 * (util/opt) like fio's options.c: name, type, where it lives, default,
 * range, help. Parsing, defaults, `ncqsim run --help-options` and
 * docs/FIO.md come from it.
 *
 * Per-direction values are written as fio writes them: `bs=4k,64k` (read,
 * write[, trim]); a single value applies to every direction; an empty one
 * keeps the default.
 */
#ifndef NCQSIM_JOB_OPTIONS_H
#define NCQSIM_JOB_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"
#include "util/err.h"
#include "util/opt.h"

enum { DDIR_READ, DDIR_WRITE, DDIR_COUNT };
/*
 * Trims: a third direction where fio has one — its block sizes and
 * alignment (bs=R,W,T: with two values the trim takes the last), its
 * reports. Options of other kinds keep read and write only.
 */
#define DDIR_TRIM DDIR_COUNT
#define JOB_BS_DIRS (DDIR_COUNT + 1)

enum job_rw {
	JOB_RW_READ, JOB_RW_WRITE, JOB_RW_RW, JOB_RW_RANDREAD, JOB_RW_RANDWRITE, JOB_RW_RANDRW,
	JOB_RW_TRIM, JOB_RW_RANDTRIM, JOB_RW_TRIMWRITE, JOB_RW_RANDTRIMWRITE,
};

enum job_engine_kind {
	JOB_ENGINE_SYNC,	/* psync, sync, pvsync...: one I/O at a time */
	JOB_ENGINE_ASYNC,	/* libaio, io_uring, posixaio: iodepth in flight */
};

enum job_rate_process { JOB_RATE_LINEAR, JOB_RATE_POISSON };

enum job_dist {
	JOB_DIST_RANDOM, JOB_DIST_ZIPF, JOB_DIST_PARETO, JOB_DIST_NORMAL,
	JOB_DIST_ZONED,		/* zoned:ACCESS%/SIZE%:... */
	JOB_DIST_ZONED_ABS,	/* zoned_abs:ACCESS%/BYTES:... */
};

/* zonemode: fio's strided zones; zbd is refused (the simulated drive is not zoned). */
enum job_zonemode { JOB_ZONEMODE_NONE, JOB_ZONEMODE_STRIDED };

/* rw_sequencer: what rw=randread:N does with the N-1 I/Os after a random one. */
enum job_rw_sequencer { JOB_RW_SEQ_SEQUENTIAL, JOB_RW_SEQ_IDENTICAL };

#define JOB_MAX_SPLIT 64
#define JOB_NAME_MAX 128
#define JOB_PATH_MAX 512
#define JOB_MAX_MERGE 20		/* fio's FIO_IO_U_LIST_MAX_LEN: merge_blktrace_* values */

struct job_bssplit {
	uint64_t bs;
	unsigned pct;
};

/* One zone of random_distribution=zoned (size: percent) or zoned_abs (size: bytes). */
#define JOB_MAX_ZONES 256
struct job_zone {
	uint64_t size;
	unsigned access_pct;
};

/* continue_on_error: the kinds of error a job counts and carries on past (fio's). */
enum {
	JOB_ERR_READ	= 1 << 0,
	JOB_ERR_WRITE	= 1 << 1,
	JOB_ERR_VERIFY	= 1 << 2,
};
/* ignore_error: an errno list per kind (read, write, verify: bit N of JOB_ERR_*). */
#define JOB_ERR_KINDS 3
#define JOB_MAX_IGNORE 64

struct job_cmdprio_entry {
	uint64_t bs;
	unsigned pct;
	int cls, level, hint;	/* -1: take cmdprio_class / cmdprio / cmdprio_hint */
};

struct job_options {
	char name[JOB_NAME_MAX];
	char description[256];
	int rw;				/* enum job_rw */
	uint64_t rw_nr;			/* the :N suffix of rw: I/Os per random offset */
	int64_t rw_skip;		/* the :N suffix of rw: bytes skipped after a sequential I/O */
	unsigned rwmixread;
	uint64_t bs[JOB_BS_DIRS];
	uint64_t bs_min[JOB_BS_DIRS], bs_max[JOB_BS_DIRS];
	bool bsrange;
	struct job_bssplit bssplit[JOB_BS_DIRS][JOB_MAX_SPLIT];
	unsigned nbssplit[JOB_BS_DIRS];
	uint64_t size, offset, io_size;
	bool size_pct, offset_pct;	/* size/offset are percentages of the device */
	uint64_t blockalign[JOB_BS_DIRS];	/* 0: the block size */
	unsigned loops;
	unsigned iodepth, numjobs;
	char ioengine[32];
	int engine_kind;
	bool direct;			/* fio's odirect: direct=1 or buffered=0, the last given */
	char filename[JOB_PATH_MAX];
	int64_t runtime, ramp_time, startdelay, thinktime;
	unsigned thinktime_blocks;	/* think after every this many I/Os */
	uint64_t offset_increment;	/* numjobs clone N starts N times this further */
	bool time_based;
	uint64_t rate_iops[DDIR_COUNT];
	uint64_t rate[DDIR_COUNT];	/* bytes per second (fio's rate), 0: none */
	uint64_t number_ios;
	unsigned fsync_blocks, fdatasync_blocks;	/* a flush after every N writes */
	bool end_fsync;			/* a flush when the job ends */
	unsigned barrier_blocks;	/* write_barrier: every N-th write a barrier */
	int sync_mode;			/* sync=: 0 none, 1 O_SYNC, 2 O_DSYNC */
	unsigned prio, prioclass, priohint;
	bool prio_set, prioclass_set, priohint_set;
	int64_t nice;
	int sched_policy;		/* enum sched_policy */
	unsigned cmdprio_percentage[DDIR_COUNT];
	unsigned cmdprio_class[DDIR_COUNT];
	unsigned cmdprio[DDIR_COUNT];
	unsigned cmdprio_hint[DDIR_COUNT];	/* fio 3.36: the CDL descriptor of those I/Os */
	struct job_cmdprio_entry cmdprio_bssplit[DDIR_COUNT][JOB_MAX_SPLIT];
	unsigned ncmdprio_bssplit[DDIR_COUNT];
	int dist;			/* enum job_dist */
	double dist_param;
	struct job_zone zones[DDIR_COUNT][JOB_MAX_ZONES];	/* zoned, zoned_abs */
	unsigned nzones[DDIR_COUNT];
	uint64_t filesize_lo, filesize_hi;	/* filesize: the region ends there (0: unset) */
	int zonemode;			/* enum job_zonemode */
	uint64_t zonesize, zonerange, zoneskip;
	int rw_sequencer;		/* enum job_rw_sequencer */
	uint64_t offset_align;		/* offset=N% rounds up to this (0: the smallest block) */
	bool norandommap, randrepeat;
	bool softrandommap;		/* accepted: the random map is always there */
	uint64_t randseed;
	bool randseed_set;
	double percentile_list[HIST_MAX_PERCENTILES];
	unsigned npercentiles;
	unsigned percentile_precision;	/* decimals shown: the most the list was given with */
	bool stonewall, new_group, group_reporting;
	char write_lat_log[JOB_PATH_MAX];
	char write_bw_log[JOB_PATH_MAX], write_iops_log[JOB_PATH_MAX];
	unsigned log_avg_msec;		/* 0: a row per I/O */
	char write_iolog[JOB_PATH_MAX];
	char read_iolog[JOB_PATH_MAX];	/* replay this iolog or blktrace (run/replay.c) */
	bool replay_no_stall;
	unsigned replay_time_scale;	/* percent: 200 replays twice as fast */
	unsigned replay_skip;		/* 1 << DDIR_READ | 1 << DDIR_WRITE: left out */
	uint64_t replay_align, replay_scale;
	bool log_offset, log_prio;
	int continue_on_error;		/* JOB_ERR_* bits (an OPT_ENUM): errors that do not end the job */
	bool clat_percentiles, lat_percentiles;
	int kb_base;			/* 1024 or 1000 (an OPT_ENUM) */
	unsigned significant_figures;
	/* Pacing and submission (i13b): fio's rate_*, thinktime_*, latency_*, iodepth_batch_*. */
	uint64_t rate_min[DDIR_COUNT];		/* bytes per second, 0: none */
	uint64_t rate_iops_min[DDIR_COUNT];
	unsigned ratecycle;			/* ms over which rate_min is measured */
	int rate_process;			/* enum job_rate_process */
	bool rate_ignore_thinktime;
	int64_t thinktime_spin;			/* ns of thinktime spent spinning */
	int64_t thinktime_iotime;		/* ns of I/O between think times, 0: none */
	int64_t max_latency[DDIR_COUNT];	/* ns, 0: none */
	int64_t latency_target, latency_window;	/* ns */
	double latency_percentile;
	bool latency_run;
	unsigned iodepth_batch;			/* submit in batches of this many (0: iodepth) */
	unsigned iodepth_batch_complete_min, iodepth_batch_complete_max;
	unsigned iodepth_low;			/* refill when the depth drains to this (0: iodepth) */
	char ioscheduler[32];			/* the queue/scheduler the job asks for, "": none */
	int ioscheduler_line;			/* where it was given, for a conflict's message */
	/* What is measured and how it is reported and logged (fio's, issue 13 part a). */
	char write_hist_log[JOB_PATH_MAX];	/* PREFIX_clat_hist.N.log */
	unsigned log_hist_msec;		/* a histogram row per direction every this many ms */
	unsigned log_hist_coarseness;	/* 0..6: 2^N fio buckets summed per column */
	bool log_max_value;		/* log_avg_msec windows log the maximum, not the mean */
	bool per_job_logs;		/* false: no .N in log names (every job writes one file) */
	bool slat_percentiles;
	int unified_rw_reporting;	/* enum job_unified */
	bool disable_lat, disable_clat, disable_slat, disable_bw;
	/* Job control (i13a): fio's exits, waits, steady state, flow, error lists, submission. */
	bool allrandrepeat;		/* accepted: every stream repeats from the seed anyway */
	char wait_for[JOB_NAME_MAX];	/* start once every job of this name has finished */
	bool exitall;			/* fio's global: when any job ends, end others (exit_what) */
	bool exitall_on_error;		/* the same when this job ends with an error */
	int exit_what;			/* enum job_exit_what: which jobs end */
	/* ignore_error: errnos continue_on_error carries on past, per kind (none: EIO, EILSEQ) */
	int ignore_error[JOB_ERR_KINDS][JOB_MAX_IGNORE];
	unsigned nignore_error[JOB_ERR_KINDS];
	int thinktime_blocks_type;	/* enum job_think_type */
	int io_submit_mode;		/* enum job_submit_mode */
	bool serialize_overlap;		/* an I/O overlapping one in flight waits for it */
	unsigned flow;			/* weight in its flow_id's token flow control, 0: none */
	unsigned flow_id;
	unsigned flow_sleep;		/* us a held job sleeps before it checks again, 0: spin */
	/* steadystate: STEADY_* (stats/steady.h) criterion and limit, window, delay */
	unsigned ss_flags;
	double ss_limit;
	int64_t ss_dur, ss_ramp;	/* ns; the window counts whole seconds, 0: off */
	/* Reporting and logging (i13b): fio's bwavgtime, iopsavgtime, ... */
	unsigned bw_avg_time, iops_avg_time;	/* ms between bw / iops samples (default 500) */
	bool bw_avg_time_set, iops_avg_time_set;	/* given: fio then keeps them beside a log's log_avg_msec */
	bool stats;				/* 0: the job is left out of the report */
	bool disk_util;				/* the report's disk statistics (default on) */
	int unit_base;				/* 8 (or 0: auto) bytes, 1 bits: the text's BW (OPT_ENUM) */
	bool block_error_percentiles;		/* fio's trim-count histogram section */
	bool log_unix_epoch, log_alternate_epoch;	/* log times from a clock's epoch */
	unsigned log_alternate_epoch_clock_id;	/* that clock: clock_gettime()'s id */
	uint64_t log_compression;		/* bytes per compressed chunk, 0: none */
	bool log_store_compressed;		/* logs kept as fio's .fz store */
	bool read_iolog_chunked;		/* accepted: ncqsim always streams the log */
	char merge_blktrace_file[JOB_PATH_MAX];	/* read_iolog's blktrace files merged here */
	unsigned merge_scalars[JOB_MAX_MERGE], merge_iters[JOB_MAX_MERGE];	/* per file */
	unsigned nmerge_scalars, nmerge_iters;
	/* I/O shape (i13c): sequential and random mixed, block sizes per kind, filling the drive. */
	unsigned perc_rand[DDIR_COUNT];	/* percentage_random: share of random offsets (100) */
	bool bs_is_seq_rand;		/* bs's read,write sizes are sequential,random sizes */
	bool fill_device;		/* without size: write on to the drive's end (fio's ENOSPC) */
	/* Engine and file flags (i13c): what the kernel does with them on this path. */
	bool hipri;			/* io_uring: IOPOLL; pvsync2: RWF_HIPRI */
	unsigned hipri_percentage;	/* pvsync2: the share of I/Os with RWF_HIPRI (100) */
	bool nowait;			/* RWF_NOWAIT: EAGAIN instead of waiting for a request */
	bool uncached;			/* fio 3.33's RWF_UNCACHED on buffered I/O */
	bool atomic;			/* O_DIRECT | fio's O_ATOMIC (an open flag Linux ignores) */
	/* The sg engine (i13c): SCSI READ/WRITE through the block device's SG_IO ioctl. */
	bool sg;			/* ioengine=sg */
	bool sg_node;			/* ... on the simulated disk's sg node (/dev/sgN) */
	bool readfua, writefua;		/* the CDB's FUA bit on every read / write */
	int sg_write_mode;		/* enum job_sg_write_mode: the CDB of every write */
	unsigned stream_id;		/* WRITE STREAM(16)'s stream (0: fio opens one) */
	int write_hint;			/* enum job_write_hint: fcntl write-life hint, 0 unset */
	/* verify (i13c): fio's read-back of what was written; the data check always passes. */
	int verify;			/* 0 none, else the method (JOB_VERIFY_PATTERN: verify_pattern's) */
	bool do_verify;			/* run the read-back phase (default 1) */
	bool verify_only;		/* no writes: only the read-back of what they would be */
	unsigned verify_backlog;	/* read back after every N written blocks (0: at the end) */
	unsigned verify_backlog_batch;	/* that many at a time (0: verify_backlog) */
	bool verify_pattern_set;	/* verify_pattern was given (verify=pattern needs it) */
	/* trim_percentage and trim_backlog: trims of logged writes (trimwrite jobs only). */
	unsigned trim_percentage;	/* share of logged writes queued for trimming */
	unsigned trim_backlog;		/* trim after every N logged writes (0: never) */
	unsigned trim_backlog_batch;	/* that many at a time (0: trim_backlog) */
	bool trim_verify_zero;		/* trimmed blocks are still read back (default 1) */
};

/* verify=pattern: the one method that needs an option of its own (verify_pattern). */
#define JOB_VERIFY_PATTERN 17

/* write_hint: RWH_WRITE_LIFE_NONE..EXTREME (1..5) as fio passes them; 0: not given. */
enum job_write_hint {
	JOB_HINT_UNSET, JOB_HINT_NONE, JOB_HINT_SHORT, JOB_HINT_MEDIUM, JOB_HINT_LONG,
	JOB_HINT_EXTREME,
};

/*
 * sg_write_mode: the SCSI command fio's sg engine sends for a write
 * (fio_sgio_prep()); verify and same are fio's old names of
 * write_and_verify and write_same.
 */
enum job_sg_write_mode {
	JOB_SG_WRITE,			/* WRITE(10)/(16) */
	JOB_SG_WRITE_AND_VERIFY,	/* WRITE AND VERIFY(10)/(16), BYTCHK 0 */
	JOB_SG_WRITE_SAME,		/* WRITE SAME(10)/(16), one block of data */
	JOB_SG_WRITE_SAME_NDOB,		/* WRITE SAME(16) with NDOB: no data */
	JOB_SG_VERIFY_BYTCHK_00,	/* VERIFY(10)/(16): the media only, no data */
	JOB_SG_VERIFY_BYTCHK_01,	/* VERIFY, BYTCHK 01b: compare with the I/O's data */
	JOB_SG_VERIFY_BYTCHK_11,	/* VERIFY, BYTCHK 11b: compare with one block */
	JOB_SG_WRITE_STREAM,		/* WRITE STREAM(16) of stream_id */
};

/* thinktime_blocks_type: what thinktime_blocks counts, completed or issued I/Os. */
enum job_think_type { JOB_THINK_COMPLETE, JOB_THINK_ISSUE };

/* io_submit_mode: fio's job thread submits (inline) or hands I/Os to worker threads. */
enum job_submit_mode { JOB_SUBMIT_INLINE, JOB_SUBMIT_OFFLOAD };

/* exit_what: the jobs exitall ends (fio's TERMINATE_GROUP, _STONEWALL, _ALL). */
enum job_exit_what { JOB_EXIT_GROUP, JOB_EXIT_STONEWALL, JOB_EXIT_ALL };

/* unified_rw_reporting: reads and writes apart, merged into "mixed", or both. */
enum job_unified { JOB_UNIFIED_NONE, JOB_UNIFIED_MIXED, JOB_UNIFIED_BOTH };

const struct opt_def *job_option_table(void);
void job_options_defaults(struct job_options *o);
/* Whether fio 3.33 has an option of this name (for refusals). */
bool job_fio_knows(const char *name);

/* fio options accepted without effect in a simulation, and why (NULL-terminated). */
struct job_no_effect {
	const char *name, *why;
};
const struct job_no_effect *job_no_effect_table(void);

/*
 * Set one option from a job file line; the message names the option
 * ("option 'bs': expected ...") — the caller adds file and line.
 */
int job_option_set(struct job_options *o, const char *key, const char *value, struct err *e);

/*
 * fio's engine options are only options of some engines: fio 3.33 refuses
 * one the section's engine lacks ("Bad option"). NULL when `key` is not an
 * engine option or the engine has it; else the engines that have it.
 */
const char *job_engine_option_lacking(const struct job_options *o, const char *key);

/* A warning the option deserves (e.g. direct=0), or NULL. */
const char *job_option_warning(const char *key, const char *value);

/* The smallest and largest block a direction may use: bs, bsrange or bssplit. */
void job_bs_extent(const struct job_options *o, int dir, uint64_t *lo, uint64_t *hi);

#endif
