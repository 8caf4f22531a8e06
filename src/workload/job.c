/*
 * The job engine: fio jobs running against the simulated block layer.
 *
 * Each job is a small state machine driven by events: it starts after its
 * startdelay (when its stonewall segment starts), fills its queue depth,
 * refills on every completion, pauses for thinktime and rate_iops, stops
 * issuing at its time, size or I/O count, and finishes when its last I/O
 * completes; the next stonewall segment starts when every job of this one
 * has finished. Nothing is allocated per I/O: each job has its iodepth of
 * I/O units, each with room for the bios the largest block splits into.
 */
#include "workload/job.h"

#include "workload/randmap.h"
#include "workload/source.h"
#include "workload/verifylog.h"

#include "host/ioprio.h"
#include "host/kernel.h"
#include "util/outfile.h"
#include "util/zstore.h"
#include "sim/rng.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct job;

/* The time-series logs a job may write; bw and iops sum bytes and I/Os. */
enum log_kind { LOG_CLAT, LOG_SLAT, LOG_LAT, LOG_BW, LOG_IOPS, LOG_KINDS };

/*
 * A log kept as fio's compressed store (log_store_compressed): zlib
 * streams of fio's binary samples, a new stream every `per_stream`
 * samples (log_compression's chunk; 0: the whole log in one).
 */
struct log_store {
	struct zstore z;
	uint64_t per_stream, in_stream;
};

struct job_io {
	struct job *job;
	struct blk_bio *bios;
	unsigned nbios, next_bio, left;
	int ddir;
	uint64_t offset, len;
	uint16_t prio_report, prio_eff;
	int prio_index;			/* in the report's priority entries, or -1 */
	int error;			/* errno of the first failed part, 0 when all went well */
	const char *err_site;		/* fio's td_verror() site when it is not the usual one */
	int64_t t_start, t_issue, t_dispatch;
	bool in_flight;			/* submitted, not reaped: fio's IO_U_F_FLIGHT (serialize_overlap) */
	bool read_back;			/* verify's read of a logged write, not the job's own I/O */
	bool read_ready;		/* holds a read_loop job's read (read_prepare()): reused as is */
	struct verifylog_piece *piece;	/* a write a verifying job logged, and its number */
	uint64_t piece_seq;
	struct job_io *next;
};

/*
 * fio's verify, as thread_main() runs it: each pass of writes (do_io)
 * logs what it writes; once it is over and its I/O has completed, an
 * fsync, then the log read back (do_verify) until it is empty and those
 * reads completed; then the next pass, or the end.
 */
enum verify_state {
	VERIFY_NONE,		/* writing (or reading back a verify_backlog batch) */
	VERIFY_DRAIN,		/* the pass is over: waiting for its I/O */
	VERIFY_SYNC,		/* do_verify()'s fsync */
	VERIFY_READING,		/* the log read back */
	VERIFY_TAIL,		/* the log empty: waiting for its last reads */
};

/* A random permutation of [0, n): fio's "random map" without the map. */
struct perm {
	uint64_t n, half_mask;
	unsigned half_bits;
	uint64_t keys[4];
};

/*
 * fio's bw and iops samples, behind the report's bw and iops lines (stat.c
 * __add_samples(), run by fio's helper thread): at the end of every
 * window, for each direction that completed anything in it, KiB/s or I/Os
 * per second over the window; a window without I/O gives no sample. With
 * a log of that kind written per I/O (no log_avg_msec, or a compressed
 * log: fio's per_unit_log()) fio samples each I/O instead: its bytes *
 * 10^6 / clat ns (add_bw_sample()), or 1 (add_iops_sample()).
 */
struct rate_sampler {
	struct job *job;
	bool iops;			/* I/Os, else bytes */
	bool per_io;			/* a sample per I/O, no window */
	int64_t period, start;		/* ns: the window, and when this one began */
	uint64_t acc[JOB_BS_DIRS];	/* completed in this window */
	sim_handle_t tick;
	/* Same windows: the iops sampler rides on the bw one's event (one event, not two). */
	struct rate_sampler *rider;
	bool carried;
};

struct job {
	const struct job_def *def;
	const struct job_options *o;
	struct report_job *rep;
	const struct job_target *t;
	struct workload_runner *run;
	/*
	 * t->sim, one load nearer, and whether it traces jobs (the mask is
	 * set before any job is: the block layer keeps its own the same way).
	 */
	struct sim *sim;
	bool debug;
	unsigned number, clone;
	uint64_t start, end;			/* region, bytes */
	uint64_t align[JOB_BS_DIRS];
	struct rng r_off, r_bs, r_ddir, r_prio;
	struct rng r_zone;			/* random_distribution=zoned: which zone */
	struct rng r_seqrand[JOB_BS_DIRS];	/* percentage_random: random or sequential */
	struct rng r_trim;			/* trim_percentage: which logged writes to trim */
	uint64_t zone_base;			/* fio's f->file_offset: moves with strided zones */
	uint64_t zone_bytes;			/* bytes done in this strided zone */
	uint64_t zone_range;			/* zonerange, else zonesize */
	uint64_t amount;			/* bytes per pass when no io_size: the region, or size under filesize */
	struct perm perm;
	uint64_t perm_i;
	struct rng_zipf zipf;
	struct rng_pareto pareto;
	uint64_t last_pos[JOB_BS_DIRS];		/* fio's f->last_pos: where the last I/O ended */
	uint64_t min_bs[JOB_BS_DIRS], max_bs;	/* max_bs: over both directions */
	struct randmap map;			/* fio's random map, when lengths vary */
	bool use_map;
	bool norandommap;			/* norandommap, or a blockalign that turns the map off */
	bool fill;				/* fill_device without size: no end but the drive's */
	/*
	 * Trims: fio's BLKDISCARD ioctl, which the submitter waits for; the
	 * sg engine's failed calls too, which fio completes inline.
	 */
	bool trimming;				/* a trim is under way: nothing else is issued */
	bool trim_pending;			/* trimwrite: the write of the range just trimmed is next */
	uint64_t tw_off, tw_len;		/* that range */
	/* Engine and file flags: what every bio carries, what the kernel refuses. */
	uint8_t io_flags;			/* BLK_NOWAIT, BLK_POLLED */
	int io_refused;				/* errno of every I/O's system call, 0 none */
	uint8_t file_hint;			/* F_SET_FILE_RW_HINT (5.15, direct I/O) */
	uint8_t hint_rule;			/* enum hint_rule: the kernel's, worked out once */
	/*
	 * None of issue()'s rarer cases can arise (no verify, sg, cmdprio
	 * report rows, serialize_overlap or refused system calls): a read
	 * without a priority of its own in one bio takes issue_read().
	 */
	bool issue_plain;
	/*
	 * Nothing of io_reaped()'s but the five summaries and the counts can
	 * apply to a sampled I/O without an error (an async engine, no
	 * disable_*lat, *_percentiles, cmdprio rows, per-I/O samples, logs,
	 * max_latency, rate_min, latency_target or verify): io_reaped_plain().
	 */
	bool reap_plain;
	/*
	 * Per direction, for a reap_plain job: every sample since the report
	 * was last cleared had a slat of 0 (the block layer took the bio at
	 * once), so each lat equalled its clat and went into the same sums
	 * with the same count. The slat and lat summaries are then left as
	 * cleared, standing for that many zeros and for a copy of clat's, and
	 * io_reaped_plain_as() feeds three summaries instead of five;
	 * slat_lat_settle() writes the two out before anything else feeds or
	 * reads them (io_reaped(), a slat that is not 0, job_finish()).
	 * report_job_reset() clears all five, which holds either way.
	 */
	bool lat_is_clat[JOB_BS_DIRS];
	/* No rate, rate_iops, trimwrite or verify: fio_next() draws the I/O at once. */
	bool next_plain;
	/* Not paced, no verify, fsync or fdatasync: job_fill_queue() asks the source at once. */
	bool fill_plain;
	/*
	 * Per direction, the random starts of a plain uniform random job
	 * (norandommap, one block size, no zones, percentage_random 100,
	 * no rw=...:N): last_block(), worked out once; 0 takes next_io()'s
	 * general path.
	 */
	uint64_t plain_lastb[JOB_BS_DIRS];
	/*
	 * All of the above for a uniform random read job of fio's own
	 * generator (rw=randread, one block size, no cmdprio, iolog or
	 * iodepth_low), whose region ends inside the drive: job_fill_queue()
	 * draws and issues its reads itself (read_loop_next()), each into an
	 * I/O unit whose fixed fields were filled once (read_prepare()).
	 */
	bool read_loop;
	uint8_t lba_shift;			/* read_loop: log2 of the logical block size */
	bool read_limited;			/* read_loop: a size or number_ios ends it */
	/*
	 * read_loop and none of what its loop tests for each read: no size or
	 * number_ios limit, no write hint rule, no submit batching (nothing is
	 * ever held), no batched reaping, a depth of at most 64 (its own
	 * loop_depth_count bucket: the depth never changes without a
	 * latency_target, which read_loop rules out). read_done() then runs
	 * fill_reads() without those tests, and without job_fill_tail(),
	 * which has nothing to do.
	 */
	bool read_lean;
	/*
	 * read_loop: its reads' io_u_map and io_u_submit counts kept by the
	 * depth each was issued at (the last: 64 and over, one bucket),
	 * added to the report by loop_depths_fold() before anything reads or
	 * clears those (job_finish(), report_job_reset()). Reads of the ramp
	 * count too, and are dropped with it (ramp_end(), or a job_finish()
	 * in the ramp): fio counts none of them.
	 */
	uint64_t loop_depth_count[65];
	bool cmdprio_any;			/* cmdprio_percentage or cmdprio_bssplit given */
	/* verify (fio's io_hist and do_verify()). */
	bool verify_on;				/* verify, do_verify, and the job writes */
	bool dry;				/* verify_only: the writes are not issued */
	struct verifylog vlog;
	int vstate;				/* enum verify_state */
	bool verify_final;			/* the read-back ends the job (else a new pass) */
	unsigned verify_batch;			/* verify_backlog: reads left of this batch */
	unsigned trim_batch;			/* trim_backlog: trims left of this batch */
	int last_ddir;				/* fio's td->last_ddir: the direction last completed */
	bool issuing_verify;			/* issue(): a read-back, not the generator's */
	bool resume_pass;			/* a read-back between passes ended: new_pass() next */
	bool sync_uncounted;			/* the fsync is do_verify()'s, which fio does not report */
	uint64_t pass_bytes, pass_limit;	/* bytes issued this pass; where do_io() stops */
	uint64_t pass_stop;			/* pass_limit where do_io() counts it, else UINT64_MAX */
	bool pass_over;				/* a loop's pass ended: its I/O completes first */
	bool pass_synced;			/* that pass's end_fsync is done */
	uint64_t seed;				/* the streams' seed: randseed, else --seed */
	bool pass_trimmed;			/* the pass trimmed (fio's verify_bytes count trims) */
	int64_t phase_start;			/* this phase's start (fio's td->start) */
	int64_t dir_runtime[JOB_BS_DIRS];	/* fio's ts->runtime: write phases, read-backs */
	uint64_t phase_ios[JOB_BS_DIRS];		/* done_ios at the phase's start */
	uint64_t map_unit;			/* bytes per block of the map */
	unsigned passes;			/* passes over the region started */
	uint64_t rand_left;			/* rw=randread:N */
	uint64_t rand_pos;
	uint16_t task_prio, job_prio;		/* the task's ioprio; fio's reported default */
	unsigned depth, inflight;
	struct job_io *ios, *free_ios, *blocked_io;
	struct blk_bio *bio_pool;
	unsigned bios_per_io;
	int64_t t_begin, t_stats, t_end, t_finish;
	/*
	 * Each count beside its limit, not the two counts side by side: gcc's
	 * SLP vectorizer otherwise adds len and 1 to the pair with eight SSE
	 * instructions where two plain adds do (account_issue_as()).
	 */
	uint64_t issued_bytes, size_limit, issued_ios, ios_limit;
	uint64_t ios_reaped;			/* all, ramp too: the progress report's sum (ios_done()) */
	bool map_oom;				/* the random map ran out of memory */
	bool started, issuing_done, finished, in_ramp;
	/* Either sends a completion to the general reap: read_done() tests both at once. */
	union {
		struct {
			bool unsampled;		/* in_ramp, or stats=0: completions take no sample */
			bool full_wait;		/* the queue filled: waiting in getevents */
		};
		uint16_t reap_aside;		/* nonzero: unsampled or full_wait */
	};
	bool timed_out;				/* its runtime ended its issuing */
	/* Job control (i13a). */
	bool waiting;				/* wait_for: its waitee has not finished yet */
	bool terminated;			/* ended by another's exitall (fio's td->terminate) */
	bool never_ran;				/* terminated before it started */
	bool offload;				/* io_submit_mode=offload: a worker thread per I/O */
	bool serialize;				/* serialize_overlap, where fio keeps it */
	struct job_io *parked_head, *parked_tail;	/* inline: an I/O overlapping one in flight */
	/* flow, flow_id, flow_sleep: fio's token-based flow control between jobs. */
	int flow_index;				/* in run->flows, -1: none */
	uint64_t flow_count;			/* fio's td->flow_counter: its passes */
	bool flow_passed;			/* the next I/O passed the check already */
	bool flow_waiting;			/* held, woken when its flow's counts change */
	bool flow_drain;			/* held with flow_sleep: draining before the sleep */
	int64_t flow_until;			/* held with flow_sleep: checks again then */
	/* steadystate (stats/steady): fio's td->ss; the window itself is j->rep->ss. */
	bool ss_holder;				/* its window is judged (fio's FIO_SS_DATA) */
	bool ss_ramp_over;
	int64_t ss_epoch, ss_prev_time;		/* its start (or ramp_time's end); the last sample */
	uint64_t ss_prev_ios, ss_prev_bytes;
	bool paced;				/* think times, flow control or a rate's drain to check */
	bool rate_drain;			/* ahead of its rate: inline mode drains the queue first */
	int64_t rate_left, rate_until;		/* then sleeps what was left, until then */
	/* fsync, fdatasync, end_fsync: a flush the job waits for. */
	uint64_t writes_issued;
	bool syncing, last_was_sync, end_synced;
	struct blk_bio sync_bio;
	int64_t sync_start;
	int64_t next_issue[JOB_BS_DIRS], think_until;
	/*
	 * fio's handle_thinktime(): checked after each I/O against the I/Os
	 * issued or completed (thinktime_blocks_type) since the last think;
	 * both counts restart after ramp_time, as fio's reset_all_stats().
	 */
	uint64_t think_issued, think_done, think_b, last_think_b;
	bool think_check, think_pending;	/* an I/O to check after; a think waiting for the drain */
	int think_dir;				/* the direction of the I/O it follows */
	/* Pacing and submission (i13b). */
	struct rng r_rate;			/* rate_process=poisson's gaps */
	int64_t think_start;			/* when the last think began (thinktime_iotime) */
	uint64_t done_bytes[JOB_BS_DIRS], done_ios[JOB_BS_DIRS];	/* completed, for rate_min */
	uint64_t rate_chk_bytes[DDIR_COUNT], rate_chk_ios[DDIR_COUNT];
	int64_t rate_chk_t[DDIR_COUNT];
	bool rate_chk_set[DDIR_COUNT];
	/* iodepth_batch_*, iodepth_low (fio's, after fixup_options()). */
	unsigned submit_batch, complete_min, complete_max, depth_low;
	unsigned held;				/* queued since the last submit call */
	bool reap_batches;			/* completions wait to be reaped in batches */
	/* full_wait, beside unsampled (reap_aside). */
	unsigned reap_need, unreaped;		/* completions to wait for; completed, held */
	struct job_io *done_head, *done_tail;	/* completed and not yet reaped, in order */
	/* latency_target: fio's queue-depth search (io_u.c lat_target_*). */
	unsigned qd;				/* the depth the job fills to now */
	unsigned lat_qd_low, lat_qd_high;
	int64_t lat_ts;				/* the window's start */
	uint64_t lat_ios, lat_failed;		/* I/Os done at its start; over target since */
	bool lat_end_run, lat_quiesce;
	const struct job_source_ops *source;	/* fio_source: the job generates its own */
	void *source_state;
	bool source_prios;			/* the source sets each I/O's priority */
	sim_handle_t wake;
	struct rate_sampler bw_s, iops_s;
	bool per_io_samples;			/* either sampler's per_io */
	/* The time-series logs, NULL where not written, and those kept as fio's store. */
	FILE *log_f[LOG_KINDS];
	struct log_store *log_z[LOG_KINDS];
	FILE *iolog;
	int64_t log_epoch_ms;			/* added to every log time (log_unix_epoch) */
	/*
	 * Logs of a value per I/O averaged over windows (log_avg_msec): each
	 * log's window (0: a row per I/O), when its current one ends, and its
	 * sums, per log (enum log_kind) and direction.
	 */
	unsigned lw_ms[LOG_KINDS];
	int64_t lw_due[LOG_KINDS];
	uint64_t lw_sum[LOG_KINDS][JOB_BS_DIRS], lw_n[LOG_KINDS][JOB_BS_DIRS];
	uint64_t lw_max[LOG_KINDS][JOB_BS_DIRS];	/* log_max_value */
	/* write_hist_log: clat counts in fio's buckets since the direction's last row. */
	FILE *hist_log;
	uint64_t *hist_win[JOB_BS_DIRS];
	int64_t hist_last[JOB_BS_DIRS];		/* ms of the last row, -1 before the first I/O */
	/* Written under temporary names, put in place when the run ends well. */
	struct outfile logs[7];
	struct log_store stores[7];		/* logs[i]'s, when it is a compressed store */
	unsigned nlogs;
	bool writes_logs;		/* to its own log files or ones it shares (per_job_logs=0) */
	const char *iolog_name;
	/* Worked out once (job_setup), for every I/O. */
	uint64_t fixed_bs[JOB_BS_DIRS];		/* the block size when it never varies, else 0 */
	uint16_t prio_eff_task;			/* io->prio_eff of an I/O without its own priority */
	bool rate_min_checked;			/* rate_min or rate_iops_min in a direction */
};

/* fio's struct fio_flow: the jobs sharing a flow_id, their passes and weights. */
struct job_flow {
	unsigned id;
	uint64_t counter;		/* starts at 1, as fio's */
	uint64_t weight;		/* of every job with it not yet ended */
};

struct workload_runner {
	const struct workload *w;
	const struct workload_run_opts *ro;
	struct job *jobs;
	unsigned njobs;
	const struct job_target *t;
	int64_t t0;			/* the run's start: fio's genesis, startdelay counts from it */
	unsigned segment, nsegments;
	unsigned running;
	bool interrupted;		/* by ro->stop */
	bool exitall;			/* some job has exitall: fio's global exitall_on_terminate */
	/* serialize_overlap in offload mode: waiting I/Os of every such job, oldest first. */
	struct job_io *parked_head, *parked_tail;
	struct job_flow *flows;
	unsigned nflows;
	const struct job *flow_stuck;	/* held by flow control for ever: the run is refused */
	sim_handle_t ss_tick;		/* steady-state samples, every second (fio's helper thread) */
	bool log_oom;			/* a compressed log ran out of memory */
	int error;
	struct err *e;
	const struct job_source_factory *sources;
	void *source_run;
	uint8_t inode_hint;		/* F_SET_RW_HINT on the drive's inode (shared by every job) */
};

static void job_fill(struct job *j);

/*
 * A system call the kernel refuses at once (EAGAIN, EOPNOTSUPP) still
 * takes the submitter this long before it tries again: without it a job
 * under continue_on_error would loop at one instant. An assumption (a
 * syscall's order of magnitude), not a measurement.
 */
#define JOB_REFUSED_RETRY_NS 1000
/* SG_IO refuses a transfer over queue/max_hw_sectors_kb: 32767 KiB on a libata disk. */
#define SG_MAX_HW_BYTES (32767ULL * 1024)
/* The sg driver's commands outstanding (written, not yet read back) per open file. */
#define SG_MAX_QUEUE 16

/* ---- random permutation (4-round Feistel with cycle walking) ---- */

static void perm_init(struct perm *p, uint64_t n, struct rng *r)
{
	unsigned bits = 2, i;

	p->n = n;
	while (bits < 64 && (1ULL << bits) < n)
		bits += 2;
	p->half_bits = bits / 2;
	p->half_mask = (1ULL << p->half_bits) - 1;
	for (i = 0; i < 4; i++)
		p->keys[i] = rng_next(r);
}

static uint64_t perm_round(uint64_t x, uint64_t key)
{
	return rng_mix64(x ^ key);
}

static uint64_t perm_at(const struct perm *p, uint64_t i)
{
	uint64_t x = i;

	do {
		uint64_t l = x >> p->half_bits, rr = x & p->half_mask;
		unsigned k;

		for (k = 0; k < 4; k++) {
			uint64_t t = rr;

			rr = (l ^ perm_round(rr, p->keys[k])) & p->half_mask;
			l = t;
		}
		x = l << p->half_bits | rr;
	} while (x >= p->n);	/* cycle walking: stays a permutation of [0, n) */
	return x;
}

/* ---- choosing what to do next ---- */

static bool is_random(const struct job_options *o)
{
	return o->rw == JOB_RW_RANDREAD || o->rw == JOB_RW_RANDWRITE || o->rw == JOB_RW_RANDRW ||
		o->rw == JOB_RW_RANDTRIM || o->rw == JOB_RW_RANDTRIMWRITE;
}

/* trimwrite, randtrimwrite: each range trimmed, then written. */
static bool is_trimwrite(const struct job_options *o)
{
	return o->rw == JOB_RW_TRIMWRITE || o->rw == JOB_RW_RANDTRIMWRITE;
}

static const char *ddir_name(int d)
{
	return d == DDIR_READ ? "read" : d == DDIR_WRITE ? "write" : "trim";
}

/* Whether the job issues I/O of this direction (DDIR_TRIM included). */
static bool does_dir(const struct job_options *o, int d)
{
	switch (o->rw) {
	case JOB_RW_READ:
	case JOB_RW_RANDREAD:
		return d == DDIR_READ;
	case JOB_RW_WRITE:
	case JOB_RW_RANDWRITE:
		return d == DDIR_WRITE;
	case JOB_RW_TRIM:
	case JOB_RW_RANDTRIM:
		return d == DDIR_TRIM;
	case JOB_RW_TRIMWRITE:
	case JOB_RW_RANDTRIMWRITE:
		return d != DDIR_READ;
	default:
		return d != DDIR_TRIM;
	}
}

static int next_ddir(struct job *j)
{
	switch (j->o->rw) {
	case JOB_RW_READ:
	case JOB_RW_RANDREAD:
		return DDIR_READ;
	case JOB_RW_WRITE:
	case JOB_RW_RANDWRITE:
		return DDIR_WRITE;
	case JOB_RW_TRIM:
	case JOB_RW_RANDTRIM:
		return DDIR_TRIM;
	case JOB_RW_TRIMWRITE:
	case JOB_RW_RANDTRIMWRITE:
		/* fio's set_rw_ddir(): a trim, then the write of what it trimmed. */
		return j->trim_pending ? DDIR_WRITE : DDIR_TRIM;
	default:
		return rng_below(&j->r_ddir, 100) < j->o->rwmixread ? DDIR_READ : DDIR_WRITE;
	}
}

/*
 * Whose block sizes an I/O takes: its direction's, or with bs_is_seq_rand
 * the read sizes for a sequential I/O and the write sizes for a random
 * one, whatever its direction (fio's get_next_buflen()).
 */
static int bs_dir(const struct job *j, int d, bool random)
{
	if (!j->o->bs_is_seq_rand)
		return d;
	return random ? DDIR_WRITE : DDIR_READ;
}

/*
 * fio's get_next_buflen(): a block size for an I/O at `off`, only among
 * those that fit before the region's end (0: not even the smallest does).
 * bsrange draws min + U[0, max) and aligns down to the smallest, capped at
 * the largest, so every multiple of the smallest up to the largest is
 * reachable; bssplit takes the first entry of the drawn share that fits.
 * `random`: the offset was drawn at random (bs_is_seq_rand).
 */
static uint64_t draw_len(struct job *j, int dir, uint64_t off, bool random)
{
	const struct job_options *o = j->o;
	uint64_t lo, hi, len = 0, fit_end = j->end;
	int d = bs_dir(j, dir, random);

	/*
	 * A fixed size is not fitted to the region: on a block device fio
	 * checks it against the device's end only (fill_io_u()'s
	 * real_file_size), so the last sequential I/O of a region that is
	 * not a multiple of bs runs past the region's end.
	 */
	if (j->fixed_bs[d])
		return off + j->fixed_bs[d] <= j->t->capacity ? j->fixed_bs[d] : 0;
	job_bs_extent(o, d, &lo, &hi);
	if (lo == hi)
		return off + lo <= j->t->capacity ? lo : 0;
	if (off + lo > j->end)
		return 0;
	/*
	 * fill_device: fio's region has no end but the drive's (size -1), so
	 * the first size drawn is taken, and one past the drive's end ends
	 * the pass (next_io()).
	 */
	if (j->fill)
		fit_end = UINT64_MAX;
	do {
		if (o->nbssplit[d]) {
			unsigned r = (unsigned)rng_below(&j->r_bs, 100), sum = 0, i;

			for (i = 0; i < o->nbssplit[d]; i++) {
				if (!o->bssplit[d][i].pct)
					continue;
				len = o->bssplit[d][i].bs;
				sum += o->bssplit[d][i].pct;
				if (r < sum && off + len <= fit_end)
					break;
			}
		} else {
			len = lo + rng_below(&j->r_bs, hi);
		}
		len -= len % lo;
		if (len > hi)
			len = hi;
	} while (off + len > fit_end);
	return off + len <= j->t->capacity ? len : 0;
}

static uint64_t rank_to_block(struct job *j, uint64_t rank, uint64_t nblocks)
{
	/* As fio: hash the rank so popular blocks are scattered over the region. */
	return rng_mix64(rank ^ j->perm.keys[0]) % nblocks;
}

/*
 * fio's get_next_seq_offset(): where the next sequential I/O starts,
 * relative to the region, from where the last one ended. A hole (rw=read:8k)
 * is added after every I/O but the first of a pass; a negative one that
 * runs off the start wraps to the region's end; backwards I/O over a
 * region at an offset starts at fio's rewind point (`offset` itself).
 */
static uint64_t seq_offset(struct job *j, int d)
{
	uint64_t file_offset = j->zone_base, io_size = j->end - j->start;
	uint64_t real = j->t->capacity, pos;
	int64_t add = j->o->rw_skip;

	if (j->last_pos[d] == file_offset && file_offset && add < 0)
		j->last_pos[d] = real > io_size ? io_size : real;
	pos = j->last_pos[d] - file_offset;
	if (pos && add) {
		pos += (uint64_t)add;
		if (pos >= real)	/* past the device, or below 0 (unsigned) */
			pos = add > 0 ? file_offset : (real > io_size ? io_size : real) + (uint64_t)add;
	}
	return pos;
}

/*
 * fio's last_block(): how many starts (in units of the alignment) a random
 * I/O may take so that the smallest block still fits: over the region, or
 * over one zone of zonemode=strided.
 */
static uint64_t last_block(const struct job *j, int d)
{
	uint64_t span = j->o->zonemode == JOB_ZONEMODE_STRIDED ? j->zone_range : j->end - j->start;
	uint64_t ba = j->align[d];

	if (j->min_bs[d] > ba)
		span = span > j->min_bs[d] - ba ? span - (j->min_bs[d] - ba) : 0;
	return span / ba;
}

/*
 * random_distribution=zoned / zoned_abs, as fio: a zone drawn by its access
 * share (1..100), then a uniform block inside it. zoned's zone is
 * [start%, end%) of last_block() (fio's integer arithmetic); zoned_abs's
 * is its bytes. A direction without a list is uniform. No random map.
 */
static bool zoned_block(struct job *j, int d, uint64_t *block)
{
	const struct job_options *o = j->o;
	uint64_t lastb = last_block(j, d), before = 0, v, first, span;
	unsigned i, acc = 0;

	if (!lastb)
		return false;
	if (d >= DDIR_COUNT || !o->nzones[d]) {
		*block = rng_below(&j->r_off, lastb);	/* trims: zoned has no trim list (fio 3.33) */
		return true;
	}
	v = rng_below(&j->r_zone, 100);
	for (i = 0; i + 1 < o->nzones[d]; i++) {
		acc += o->zones[d][i].access_pct;
		if (v < acc)
			break;
		before += o->zones[d][i].size;
	}
	if (o->dist == JOB_DIST_ZONED) {
		first = before * lastb / 100;
		span = lastb * o->zones[d][i].size / 100;
	} else {
		first = before / j->align[d];
		span = (before + o->zones[d][i].size) / j->align[d] - first;
	}
	*block = first + (span ? rng_below(&j->r_off, span) : 0);
	return true;
}

/* A random block of the region (in units of the direction's alignment). */
static bool random_block(struct job *j, int d, uint64_t *block)
{
	const struct job_options *o = j->o;
	uint64_t region = j->end - j->start, ba = j->align[d], lastb, nblocks = region / ba;

	switch (o->dist) {
	case JOB_DIST_ZIPF:
		*block = rank_to_block(j, rng_zipf_next(&j->zipf, &j->r_off), nblocks);
		return true;
	case JOB_DIST_PARETO:
		*block = rank_to_block(j, rng_pareto_next(&j->pareto, &j->r_off), nblocks);
		return true;
	case JOB_DIST_ZONED:
	case JOB_DIST_ZONED_ABS:
		return zoned_block(j, d, block);
	case JOB_DIST_NORMAL: {
		double x = (double)nblocks / 2.0 + rng_normal(&j->r_off) * (double)nblocks *
			o->dist_param / 100.0;
		int64_t k = (int64_t)floor(x);

		if (k < 0)
			k = 0;
		if ((uint64_t)k >= nblocks)
			k = (int64_t)nblocks - 1;
		*block = rank_to_block(j, (uint64_t)k, nblocks);
		return true;
	}
	default:
		break;
	}
	/* fio's last_block(): the last start at which the smallest block still fits. */
	(void)region;
	lastb = last_block(j, d);
	if (!lastb)
		return false;
	if (j->norandommap) {
		*block = rng_below(&j->r_off, lastb);
		return true;
	}
	if (j->use_map) {
		/*
		 * fio's axmap, as fio indexes it: a uniform block b in this
		 * direction's alignment units, looked up as bit b of the map
		 * (whose bits are the job's smallest block, fio's rw_min_bs;
		 * bits past the map read as free), else the next free bit; none:
		 * the pass is over. With directions of different blocks this
		 * mixes units as fio does (randread bs=64k,4k ends a pass after
		 * about 10 of its 16 blocks, as in fio).
		 */
		uint64_t b = rng_below(&j->r_off, lastb);

		if (b < j->map.nblocks && !randmap_is_free(&j->map, b))
			b = randmap_next_free(&j->map, b);
		if (b == RANDMAP_FULL)
			return false;
		*block = b;
		return true;
	}
	if (j->perm_i == j->perm.n)
		return false;		/* every block done once: the pass is over */
	*block = perm_at(&j->perm, j->perm_i++);
	return true;
}

/*
 * zonemode=strided, as fio's setup_strided_zone_mode() before each I/O:
 * after zonesize bytes the zone moves on by zonerange + zoneskip (back to
 * the start past the drive's end); sequential I/O that reaches the zone's
 * end starts over in it; the random map is cleared every zonerange bytes.
 */
static void zone_step(struct job *j, int d)
{
	const struct job_options *o = j->o;

	if (j->zone_bytes >= o->zonesize) {
		j->zone_bytes = 0;
		j->zone_base += j->zone_range + o->zoneskip;
		if (j->zone_base >= j->t->capacity)
			j->zone_base = j->start;
		j->last_pos[d] = j->zone_base;
	}
	if (j->last_pos[d] >= j->zone_base + j->zone_range)
		j->last_pos[d] = j->zone_base;
	if (j->zone_bytes % j->zone_range == 0 && j->use_map)
		randmap_reset(&j->map);
}

/*
 * percentage_random, as fio's should_do_random(): with less than 100, each
 * I/O that would take a random offset draws whether it does.
 */
static bool random_this_time(struct job *j, int d)
{
	unsigned pct = d < DDIR_COUNT ? j->o->perc_rand[d] : 100;	/* trims: the default */

	return pct >= 100 || rng_below(&j->r_seqrand[d], 100) < pct;
}

/* The next I/O of this pass, or false when the pass is over (fio's fill_io_u failing). */
static bool next_io(struct job *j, int d, uint64_t *offp, uint64_t *lenp)
{
	const struct job_options *o = j->o;
	uint64_t off, len, block;

	if (j->plain_lastb[d]) {
		/* The general path below as it runs for such a job, its checks decided once. */
		block = rng_below(&j->r_off, j->plain_lastb[d]);
		off = j->zone_base + block * j->align[d];
		if (off + j->min_bs[d] > j->end)
			off = (j->end - j->min_bs[d]) / j->align[d] * j->align[d];
		len = j->fixed_bs[bs_dir(j, d, true)];
		if (off + len > j->t->capacity)
			return false;
		goto done;
	}
	if (o->zonemode == JOB_ZONEMODE_STRIDED)
		zone_step(j, d);
	if (!is_random(o)) {
		uint64_t rel = seq_offset(j, d);

		if (rel >= j->end - j->start)
			return false;
		off = j->zone_base + rel;
		if (off >= j->t->capacity || !(len = draw_len(j, d, off, false)))
			return false;
		goto done;
	}
	if (o->rw_nr && j->rand_left) {
		/*
		 * rw=randread:N: the next I/Os follow on from the last random
		 * offset (rw_sequencer=sequential) or repeat it (identical).
		 */
		j->rand_left--;
		off = j->rand_pos;
		if (off + j->min_bs[d] > j->end)
			off = j->start;
		len = draw_len(j, d, off, false);
		j->rand_pos = o->rw_sequencer == JOB_RW_SEQ_IDENTICAL ? off : off + len;
		goto done;
	}
	if (!random_this_time(j, d) && j->last_pos[d] < j->t->capacity) {
		/*
		 * fio's sequential share of a random job: on from where this
		 * direction's last I/O ended, without marking the random map;
		 * the pass is over once that is the region's end (only at the
		 * drive's end does fio take a random offset instead).
		 */
		uint64_t rel = j->last_pos[d] - j->zone_base;

		if (rel >= j->end - j->start)
			return false;
		off = j->zone_base + rel;
		if (!(len = draw_len(j, d, off, false)))
			return false;
		goto hit;
	}
	if (!random_block(j, d, &block))
		return false;
	off = j->zone_base + block * j->align[d];
	if (o->zonemode == JOB_ZONEMODE_STRIDED) {
		if (off + j->min_bs[d] > j->t->capacity)
			return false;
	} else if (j->use_map) {
		/* fio's get_next_offset(): a block at or past the region's end ends the pass. */
		if (block * j->align[d] >= j->end - j->start)
			return false;
	} else if (off + j->min_bs[d] > j->end)
		off = (j->end - j->min_bs[d]) / j->align[d] * j->align[d];
	if (!(len = draw_len(j, d, off, true)))
		return false;
	if (j->use_map) {
		/*
		 * fio's mark_random_map(): in units of this direction's smallest
		 * block, cut short before blocks already done. A first block
		 * already done (only with blockalign below the block size) would
		 * trip fio's assertion; here it ends the pass.
		 */
		uint64_t unit = j->min_bs[d], bit = (off - j->zone_base) / unit, n;

		if (!randmap_is_free(&j->map, bit))
			return false;
		n = randmap_set_nr(&j->map, bit, (len + unit - 1) / unit);
		if (!n) {
			j->map_oom = true;
			return false;
		}
		if (n * unit < len)
			len = n * unit;
	}
hit:
	if (o->rw_nr) {
		j->rand_left = o->rw_nr - 1;
		j->rand_pos = o->rw_sequencer == JOB_RW_SEQ_IDENTICAL ? off : off + len;
	}
done:
	j->last_pos[d] = off + len;	/* fio's f->last_pos, after every I/O */
	j->zone_bytes += len;
	*offp = off;
	*lenp = len;
	return true;
}

/* fio's keep_running() at the end of a pass: another pass, or the job is done. */
static bool pass_again(const struct job *j)
{
	const struct job_options *o = j->o;

	if (o->time_based || j->passes < o->loops)
		return true;
	if (!o->io_size || j->issued_bytes >= o->io_size)
		return false;
	return o->io_size - j->issued_bytes >= j->max_bs;
}

static void seed_streams(struct job *j, bool offsets);
static void start_sync(struct job *j);

/*
 * The next pass. A time_based job's wraps in place (fio's
 * get_next_offset() resets the file's position and random map and goes
 * on). A loop's pass follows fio's clear_io_state() between do_io()
 * calls: the file is closed and opened again (the iolog shows it), a
 * strided zone goes back to the start, and the streams are reseeded.
 */
static void new_pass(struct job *j)
{
	bool reseed = !j->o->time_based;
	int d;

	j->passes++;
	j->pass_bytes = 0;
	j->pass_trimmed = false;
	j->zone_bytes = 0;	/* fio's reset_io_counters() */
	if (reseed) {
		if (j->iolog) {
			long long t = (long long)((sim_now(j->sim) - j->t_begin) / 1000);

			fprintf(j->iolog, "%lld %s close\n%lld %s open\n", t, j->iolog_name, t,
				j->iolog_name);
		}
		j->zone_base = j->start;	/* fio's f->file_offset = get_start_offset() */
		seed_streams(j, j->o->dist != JOB_DIST_ZIPF && j->o->dist != JOB_DIST_PARETO &&
			     j->o->dist != JOB_DIST_NORMAL);
	}
	for (d = 0; d < JOB_BS_DIRS; d++)
		j->last_pos[d] = j->zone_base;
	j->rand_left = 0;
	if (j->use_map)
		randmap_reset(&j->map);
	if (j->perm_i || reseed) {
		/* A new order for a wrap; a reseeded loop's pass draws the first pass's again. */
		perm_init(&j->perm, j->perm.n, &j->r_off);
		j->perm_i = 0;
	}
}

/*
 * fio's thread_main() between two passes of a loop: do_io() ends by
 * waiting for every I/O in flight (io_u_queued_complete()) and with
 * end_fsync, a flush; then clear_io_state() and the next do_io(). False
 * while the job waits (a completion, or the flush's, asks again).
 */
static bool pass_turn(struct job *j)
{
	if (j->inflight || j->syncing)
		return false;
	if (j->o->end_fsync && j->writes_issued && !j->pass_synced) {
		j->pass_synced = true;
		start_sync(j);
		return false;
	}
	j->pass_over = false;
	j->pass_synced = false;
	new_pass(j);
	return true;
}

/*
 * A loop's pass is over (time_based jobs wrap in place, verifying ones
 * read back first): IO when the next pass may start at once, with `*d`
 * drawn again from the reseeded streams; WAIT while its I/O completes;
 * END when the pass did nothing (fio's do_io(): no bytes, the job is done).
 */
static enum job_source_status end_pass(struct job *j, int64_t now, int *d, int64_t *wake_at)
{
	if (!j->pass_bytes && !j->pass_trimmed)
		return JOB_SOURCE_END;
	j->pass_over = true;
	if (!pass_turn(j)) {
		*wake_at = now;
		return JOB_SOURCE_WAIT;
	}
	*d = next_ddir(j);
	return JOB_SOURCE_IO;
}

/* The per-I/O priority fio would set (cmdprio), else the job's; 0 for none. */
static uint16_t next_cmdprio(struct job *j, int d, uint64_t len)
{
	const struct job_options *o = j->o;

	if (d >= DDIR_COUNT)
		return 0;		/* a trim is an ioctl: no per-I/O priority */
	if (o->ncmdprio_bssplit[d]) {
		unsigned r = (unsigned)rng_below(&j->r_prio, 100), sum = 0, i;

		for (i = 0; i < o->ncmdprio_bssplit[d]; i++) {
			const struct job_cmdprio_entry *en = &o->cmdprio_bssplit[d][i];

			if (en->bs != len)
				continue;
			sum += en->pct;
			if (r < sum && en->pct)
				return ioprio_value(en->cls >= 0 ? (unsigned)en->cls : o->cmdprio_class[d],
						    en->hint >= 0 ? (unsigned)en->hint : o->cmdprio_hint[d],
						    en->level >= 0 ? (unsigned)en->level : o->cmdprio[d]);
		}
		return 0;
	}
	if (o->cmdprio_percentage[d] &&
	    rng_below(&j->r_prio, 100) < o->cmdprio_percentage[d])
		return ioprio_value(o->cmdprio_class[d], o->cmdprio_hint[d], o->cmdprio[d]);
	return 0;
}

/*
 * rate_process=poisson, as fio's usec_for_io(): the mean gap is one I/O of
 * the smallest block at the rate (rate_iops, or rate / the smallest block),
 * in whole microseconds, times an exponential draw; the schedule runs from
 * the job's start and is never reset, so a late I/O is followed at once.
 */
static int64_t poisson_gap(struct job *j, int d)
{
	uint64_t iops = j->o->rate_iops[d] ? j->o->rate_iops[d] : j->o->rate[d] / j->min_bs[d];
	double u = 1.0 - rng_uniform(&j->r_rate);	/* (0, 1]: no log(0) */

	if (!iops)
		iops = 1;
	return (int64_t)((double)(int64_t)(1000000 / iops) * -log(u)) * 1000;
}

/*
 * fio 3.33's handle_thinktime(), called after every I/O: think once
 * thinktime_blocks I/Os (1 when unset) were issued or completed
 * (thinktime_blocks_type) since the count the last think took or, with
 * thinktime_iotime, once iotime + thinktime have passed since the last
 * think began (since the job's start for the first: fio's first stall
 * comes after iotime + thinktime of I/O, each later one after iotime);
 * with thinktime_iotime alone the block count is not checked. fio takes
 * the count before it drains the queue, so with an async engine and the
 * default (complete) a think may follow the next I/O at once.
 */
static bool think_due(struct job *j, int64_t now)
{
	const struct job_options *o = j->o;

	j->think_b = o->thinktime_blocks_type == JOB_THINK_ISSUE ? j->think_issued : j->think_done;
	if (o->thinktime_iotime && now - j->think_start >= o->thinktime_iotime + o->thinktime)
		return true;
	if (o->thinktime_iotime && !o->thinktime_blocks)
		return false;
	return j->think_b >= j->last_think_b + (o->thinktime_blocks ? o->thinktime_blocks : 1);
}

/*
 * fio spins for thinktime_spin (capped at thinktime) and sleeps for the
 * rest of thinktime: in simulated time both are the same wait, so the
 * think lasts thinktime whatever the spin. With rate_ignore_thinktime the
 * rate's schedule skips the think (fio counts the bytes it would have
 * done meanwhile), so no burst follows it.
 */
static void think(struct job *j, int64_t now)
{
	const struct job_options *o = j->o;
	int d = j->think_dir;

	j->think_until = now + o->thinktime;
	j->think_start = now;
	j->last_think_b = j->think_b;
	if (o->rate_ignore_thinktime && d < DDIR_COUNT && (o->rate[d] || o->rate_iops[d]) &&
	    j->next_issue[d] < j->think_until)
		j->next_issue[d] = j->think_until;
}

/*
 * fio's rate_ddir(): a job ahead of its rate sleeps until its next I/O is
 * due, but in io_submit_mode=inline it first waits for its I/Os in flight
 * (io_u_quiesce()) and then sleeps the whole wait it had computed — so an
 * async job at a rate issues in bursts and late; offload mode skips the
 * drain.
 */
static enum job_source_status rate_wait(struct job *j, int64_t now, int64_t until,
					int64_t *wake_at)
{
	if (!j->offload && j->inflight) {
		j->rate_drain = true;	/* the engine waits for the drain, then rate_left */
		j->rate_left = until - now;
	}
	*wake_at = until;
	return JOB_SOURCE_WAIT;
}

/*
 * fio's generator as a source (workload/source.h): stop at size or
 * number_ios, wait out the rate (think times are the engine's: they
 * drain the queue first), then draw direction, block size, offset and
 * cmdprio, each from its own random stream.
 */
static enum job_source_status fio_next(void *state, int64_t now, struct job_io_desc *io,
				       int64_t *wake_at)
{
	struct job *j = state;
	int d;

	if (j->pass_over && !pass_turn(j)) {
		*wake_at = now;
		return JOB_SOURCE_WAIT;
	}
	if ((j->size_limit && j->issued_bytes >= j->size_limit) ||
	    (j->ios_limit && j->issued_ios >= j->ios_limit) || j->map_oom)
		return JOB_SOURCE_END;
	d = next_ddir(j);
	if (j->next_plain) {
		/* The path below as it runs without rates, trimwrite's writes or read-backs. */
		if (j->pass_bytes >= j->pass_stop || !next_io(j, d, &io->offset, &io->len)) {
			enum job_source_status s;

			if (j->map_oom || !pass_again(j))
				return JOB_SOURCE_END;
			if (!j->o->time_based && (s = end_pass(j, now, &d, wake_at)) != JOB_SOURCE_IO)
				return s;
			if (j->o->time_based)
				new_pass(j);
			if (!next_io(j, d, &io->offset, &io->len))
				return JOB_SOURCE_END;
		}
		io->ddir = d;
		io->ioprio = j->cmdprio_any ? next_cmdprio(j, d, io->len) : 0;
		io->due = 0;
		return JOB_SOURCE_IO;
	}
	if (d == DDIR_TRIM)
		goto no_rate;		/* rate and rate_iops are read and write ones here */
	if (j->o->rate_process == JOB_RATE_POISSON && (j->o->rate_iops[d] || j->o->rate[d])) {
		if (now < j->next_issue[d])
			return rate_wait(j, now, j->next_issue[d], wake_at);
		j->next_issue[d] += poisson_gap(j, d);
	} else if (j->o->rate_iops[d]) {
		if (now < j->next_issue[d])
			return rate_wait(j, now, j->next_issue[d], wake_at);
		j->next_issue[d] = (j->next_issue[d] > now - 1000000000LL ? j->next_issue[d] :
				    now) + 1000000000LL / (int64_t)j->o->rate_iops[d];
	}
	if (j->o->rate[d] && j->o->rate_process == JOB_RATE_LINEAR && now < j->next_issue[d])
		return rate_wait(j, now, j->next_issue[d], wake_at);
no_rate:
	io->ddir = d;
	if (d == DDIR_WRITE && j->trim_pending) {
		/* trimwrite: the range just trimmed, not marked in the random map (fio's). */
		j->trim_pending = false;
		io->offset = j->tw_off;
		io->len = j->tw_len;
		goto have_io;
	}
	if (j->resume_pass) {
		/* The read-back between two passes is over: the next pass. */
		j->resume_pass = false;
		new_pass(j);
		if (!next_io(j, d, &io->offset, &io->len))
			return JOB_SOURCE_END;
	} else while (j->pass_bytes >= j->pass_stop || !next_io(j, d, &io->offset, &io->len)) {
		/* fio's do_io() ends a pass after its bytes (pass_stop), or where the pass ends. */
		enum job_source_status s;

		if (j->map_oom || !pass_again(j))
			return JOB_SOURCE_END;
		if (j->verify_on) {
			/* do_verify() reads the pass's writes back first; then the next pass. */
			j->vstate = VERIFY_DRAIN;
			j->verify_final = false;
			*wake_at = now;
			return JOB_SOURCE_WAIT;
		}
		if (!j->o->time_based && (s = end_pass(j, now, &d, wake_at)) != JOB_SOURCE_IO)
			return s;
		io->ddir = d;
		if (j->o->time_based)
			new_pass(j);
		/* A pass that ends before its first I/O: nothing fits; the job is done. */
		if (!next_io(j, d, &io->offset, &io->len))
			return JOB_SOURCE_END;
		break;
	}
	if (d == DDIR_TRIM && is_trimwrite(j->o)) {
		j->trim_pending = true;
		j->tw_off = io->offset;
		j->tw_len = io->len;
	}
have_io:
	io->ioprio = j->cmdprio_any ? next_cmdprio(j, d, io->len) : 0;
	if (d < DDIR_COUNT && j->o->rate[d] && j->o->rate_process == JOB_RATE_LINEAR) {
		/* fio's rate: the next I/O of this direction when this one's bytes are paid for. */
		int64_t base = j->next_issue[d] > now - 1000000000LL ? j->next_issue[d] : now;

		j->next_issue[d] = base + (int64_t)(io->len * 1000000000ULL / j->o->rate[d]);
	}
	io->due = 0;
	return JOB_SOURCE_IO;
}

static const struct job_source_ops fio_source = { "fio", fio_next };

/* ---- accounting ---- */

/* fio's io_u_map buckets 1, 2, 4, 8, 16, 32, >=64: the depth's bit length, less one, at most 6. */
static unsigned depth_bucket(unsigned depth)
{
	unsigned b;

	if (depth < 2)
		return 0;
	b = 31u - (unsigned)__builtin_clz(depth);
	return b < 6 ? b : 6;
}

static unsigned batch_bucket(unsigned n)
{
	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	if (n <= 8)
		return 2;
	if (n <= 16)
		return 3;
	if (n <= 32)
		return 4;
	return n <= 64 ? 5 : 6;
}

/*
 * A read_loop job's io_u_map and io_u_submit counts, into the report (as
 * account_issue_as() would); those of its ramp are dropped.
 */
static void loop_depths_fold(struct job *j)
{
	unsigned depth;

	for (depth = 0; depth < 65; depth++) {
		uint64_t n = j->loop_depth_count[depth];

		if (!n)
			continue;
		j->loop_depth_count[depth] = 0;
		if (j->in_ramp)
			continue;
		/* In offload mode each worker has one I/O in flight: fio counts depth 1. */
		j->rep->io_u_map[depth_bucket(j->offload ? 1 : depth)] += n;
		j->rep->io_u_submit[batch_bucket(1)] += n;
	}
}

/* fio's io_u_mark_latency: lower-bound buckets in ns, us and ms. */
/* The bucket of v < 1000 among edges 2, 4, 10, 20, 50, 100, 250, 500, 750: how many it reaches. */
static const uint8_t lat_edge[1000] = {
	[0 ... 1] = 0, [2 ... 3] = 1, [4 ... 9] = 2, [10 ... 19] = 3, [20 ... 49] = 4,
	[50 ... 99] = 5, [100 ... 249] = 6, [250 ... 499] = 7, [500 ... 749] = 8, [750 ... 999] = 9,
};

/* mark_latency()'s counter, as an index into lat_all (lat_n, then lat_u, then lat_m). */
#define LAT_U	10u
#define LAT_M	20u
_Static_assert(offsetof(struct report_job, lat_u) ==
	       offsetof(struct report_job, lat_all) + LAT_U * sizeof(uint64_t) &&
	       offsetof(struct report_job, lat_m) ==
	       offsetof(struct report_job, lat_all) + LAT_M * sizeof(uint64_t),
	       "LAT_U and LAT_M index lat_u and lat_m within lat_all");
static inline __attribute__((always_inline)) unsigned lat_slot(uint64_t ns)
{
	/* A hard drive's latencies are milliseconds: that range first, in one unsigned test. */
	if (ns - 1000000 < 999000000)
		return LAT_M + lat_edge[ns / 1000000];
	if (ns < 1000)
		return lat_edge[ns];
	if (ns < 1000000)
		return LAT_U + lat_edge[ns / 1000];
	/* A second or more: fio's last two ms buckets, >= 1000 and >= 2000. */
	return ns >= 2000000000 ? LAT_M + 11 : LAT_M + 10;
}

static inline __attribute__((always_inline)) void mark_latency(struct report_job *r,
								 uint64_t ns)
{
	r->lat_all[lat_slot(ns)]++;
}

/*
 * Per clat histogram bucket, its samples' lat_slot() when the whole bucket
 * has one (LAT_SLOT_SPLIT: an edge of fio's lat buckets cuts it), so that a
 * sample whose bucket is known needs no division (mark_latency_in()).
 */
#define LAT_SLOT_SPLIT	0xffu
static uint8_t lat_slot_of_bucket[HIST_NR];

static void fill_lat_slots(void)
{
	unsigned idx;

	for (idx = 0; idx < HIST_NR; idx++) {
		uint64_t lo, hi;

		hist_bucket_bounds(idx, &lo, &hi);
		/* lat_slot() never falls as ns grows: equal at both ends, equal between. */
		lat_slot_of_bucket[idx] = lat_slot(lo) == lat_slot(hi) ? (uint8_t)lat_slot(lo) :
			(uint8_t)LAT_SLOT_SPLIT;
	}
}

/* Once per process: compare's threads set up their jobs at the same time. */
static void lat_slots_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, fill_lat_slots);
}

/* mark_latency() of a sample whose clat histogram bucket is `idx`. */
static inline __attribute__((always_inline)) void mark_latency_in(struct report_job *r,
								    uint64_t ns, unsigned idx)
{
	unsigned slot = lat_slot_of_bucket[idx];

	if (__builtin_expect(slot == LAT_SLOT_SPLIT, 0))
		slot = lat_slot(ns);
	r->lat_all[slot]++;
}

/*
 * fio 3.33's struct io_sample, as its compressed logs hold it (the host's
 * byte order and layout, which fio writes and reads): time u64 (ms, any
 * epoch included), value u64, direction u32 (| 0x80000000 when an offset
 * follows, | 0x40000000 with log_prio), the whole ioprio u16, 2 bytes of
 * padding, block size u64[, offset u64]. 32 or 40 bytes.
 */
#define FIO_SAMPLE_OFFSET	0x80000000u
#define FIO_SAMPLE_PRIO		0x40000000u

static size_t fio_sample(unsigned char *b, uint64_t ms, uint64_t value, int ddir, uint64_t bs,
			 uint64_t offset, uint16_t ioprio, bool log_offset, bool log_prio)
{
	uint32_t dir = (uint32_t)ddir | (log_offset ? FIO_SAMPLE_OFFSET : 0) |
		(log_prio ? FIO_SAMPLE_PRIO : 0);

	memset(b, 0, 40);
	memcpy(b, &ms, 8);
	memcpy(b + 8, &value, 8);
	memcpy(b + 16, &dir, 4);
	memcpy(b + 20, &ioprio, 2);
	memcpy(b + 24, &bs, 8);
	if (!log_offset)
		return 32;
	memcpy(b + 32, &offset, 8);
	return 40;
}

/*
 * One row of a time-series log, as fio's flush_samples() prints it: time
 * (ms since the job began, or since log_unix_epoch's epoch), value,
 * direction, block size[, offset], and the priority — the whole ioprio in
 * hex with log_prio, else 1 for a real-time I/O and 0 for any other.
 * Window rows have no block size, offset or priority (0). A compressed
 * store gets the sample fio would hold instead.
 */
static void log_row(const struct job *j, int kind, int64_t now, uint64_t value, int ddir,
		    uint64_t bs, uint64_t offset, uint16_t ioprio)
{
	FILE *f = j->log_f[kind];
	struct log_store *st = j->log_z[kind];
	long long ms = (long long)((now - j->t_begin) / 1000000 + j->log_epoch_ms);

	if (st) {
		unsigned char b[40];
		size_t n = fio_sample(b, (uint64_t)ms, value, ddir, bs, offset, ioprio,
				      j->o->log_offset, j->o->log_prio);

		if (st->per_stream && st->in_stream == st->per_stream) {
			zstore_end(&st->z);
			st->in_stream = 0;
		}
		if (zstore_write(&st->z, b, n))
			j->run->log_oom = true;
		st->in_stream++;
		return;
	}
	if (j->o->log_offset)
		fprintf(f, "%lld, %llu, %d, %llu, %llu, ", ms, (unsigned long long)value, ddir,
			(unsigned long long)bs, (unsigned long long)offset);
	else
		fprintf(f, "%lld, %llu, %d, %llu, ", ms, (unsigned long long)value, ddir,
			(unsigned long long)bs);
	if (j->o->log_prio)
		fprintf(f, "0x%04x\n", ioprio);
	else
		fprintf(f, "%u\n", ioprio_class(ioprio) == IOPRIO_CLASS_RT);
}

/* fio's per-I/O bandwidth (add_bw_sample()): bytes * 10^6 / clat in ns, 0 for no time. */
static uint64_t io_bw(uint64_t len, uint64_t clat)
{
	return clat ? len * 1000000 / clat : 0;
}

/*
 * One completed I/O in the logs written per I/O: a row each, or with
 * log_avg_msec into this window's sums. The bw and iops logs are of this
 * kind only when fio writes them per I/O (their samplers' per_io); else
 * their rows are the samples (sampler_tick).
 */
static void log_io(struct job *j, int64_t now, const struct job_io *io, uint64_t clat,
		   uint64_t lat, uint64_t slat)
{
	const struct job_options *o = j->o;
	uint64_t v[LOG_KINDS] = { clat, slat, lat, io_bw(io->len, clat), 1 };
	/*
	 * fio logs only what it measures: no clat, slat or lat rows when that
	 * latency is disabled; per-I/O bw rows only without
	 * disable_bw_measurement, per-I/O iops rows only when not all three of
	 * clat, slat and bw are off (its gtod_reduce()).
	 */
	bool reduced = o->disable_clat && o->disable_slat && o->disable_bw;
	bool measured[LOG_KINDS] = {
		!o->disable_clat, !o->disable_slat, !o->disable_lat,
		j->bw_s.per_io && !o->disable_bw, j->iops_s.per_io && !reduced,
	};
	int k;

	for (k = 0; k < LOG_KINDS; k++) {
		if (!j->log_f[k] || !measured[k] ||
		    (k == LOG_SLAT && o->engine_kind == JOB_ENGINE_SYNC))
			continue;
		if (j->lw_ms[k]) {
			j->lw_sum[k][io->ddir] += v[k];
			j->lw_n[k][io->ddir]++;
			if (v[k] > j->lw_max[k][io->ddir])
				j->lw_max[k][io->ddir] = v[k];
		} else {
			log_row(j, k, now, v[k], io->ddir, io->len, io->offset, io->prio_eff);
		}
	}
}

/*
 * log_avg_msec: at the end of a log's window, a row per direction that
 * had I/Os in it, "time, value, direction, 0, 0": the window's mean
 * (rounded, as fio adds 0.5 to it) or with log_max_value its largest
 * value. `final`: every log's open window, at the job's end (fio's
 * finalize_logs()); else those due by now.
 */
static void log_window(struct job *j, int64_t now, bool final)
{
	int k, d;

	for (k = 0; k < LOG_KINDS; k++) {
		if (!j->log_f[k] || !j->lw_ms[k] || (!final && j->lw_due[k] > now))
			continue;
		for (d = 0; d < JOB_BS_DIRS; d++) {
			uint64_t n = j->lw_n[k][d];

			if (!n)
				continue;
			log_row(j, k, now, j->o->log_max_value ? j->lw_max[k][d] :
				(2 * j->lw_sum[k][d] + n) / (2 * n), d, 0, 0, 0);
			j->lw_sum[k][d] = j->lw_n[k][d] = j->lw_max[k][d] = 0;
		}
		j->lw_due[k] += (int64_t)j->lw_ms[k] * SIM_MSEC;
	}
}

/* When the next log window ends, or INT64_MAX for none. */
static int64_t log_next_due(const struct job *j)
{
	int64_t due = INT64_MAX;
	int k;

	for (k = 0; k < LOG_KINDS; k++)
		if (j->log_f[k] && j->lw_ms[k] && j->lw_due[k] < due)
			due = j->lw_due[k];
	return due;
}

static void log_tick(struct sim *sim, void *arg)
{
	struct job *j = arg;
	int64_t now = sim_now(sim);

	if (j->finished || j->issuing_done || now >= j->t_end)
		return;
	log_window(j, now, false);
	sim_at(sim, log_next_due(j), log_tick, j);
}

/* ---- bw and iops samples (struct rate_sampler) ---- */

static void sampler_tick(struct sim *sim, void *arg);

/* A window starts now (the job's start, the end of ramp_time, a restart of its statistics). */
static void sampler_restart(struct rate_sampler *s, int64_t now)
{
	struct sim *sim = s->job->t->sim;

	memset(s->acc, 0, sizeof(s->acc));
	s->start = now;
	if (s->tick)
		sim_cancel(sim, s->tick);
	s->tick = s->per_io || s->carried ? 0 : sim_at(sim, now + s->period, sampler_tick, s);
}

/*
 * The end of a window: a sample per direction with I/O in it, which a
 * bw or iops log not written per I/O also gets as a row (fio logs each
 * sample: "time, value, direction, 0, 0").
 */
static void sampler_window(struct rate_sampler *s, int64_t now)
{
	struct job *j = s->job;
	uint64_t spent = (uint64_t)(now - s->start) / 1000000;
	int kind = s->iops ? LOG_IOPS : LOG_BW, d;

	for (d = 0; d < JOB_BS_DIRS; d++) {
		struct report_dir *rd = &j->rep->dir[d];
		uint64_t rate;

		if (!s->acc[d])
			continue;
		rate = s->iops ? s->acc[d] * 1000 / spent : s->acc[d] * 1000 / spent / 1024;
		hist_summary_add(s->iops ? &rd->iops : &rd->bw, rate);
		if (j->log_f[kind])
			log_row(j, kind, now, rate, d, 0, 0, 0);
		s->acc[d] = 0;
	}
	s->start = now;
}

static void sampler_tick(struct sim *sim, void *arg)
{
	struct rate_sampler *s = arg;
	struct job *j = s->job;
	int64_t now = sim_now(sim);

	s->tick = 0;
	if (j->finished || j->issuing_done)
		return;
	sampler_window(s, now);
	if (s->rider)
		sampler_window(s->rider, now);
	s->tick = sim_at(sim, now + s->period, sampler_tick, s);
}

/* A completed I/O: into the window, or a sample of its own. */
static void sampler_io(struct rate_sampler *s, const struct job_io *io, uint64_t clat)
{
	const struct job_options *o = s->job->o;
	struct report_dir *rd = &s->job->rep->dir[io->ddir];

	if (!s->per_io)
		s->acc[io->ddir] += s->iops ? 1 : io->len;
	else if (s->iops && !(o->disable_clat && o->disable_slat && o->disable_bw))
		hist_summary_add(&rd->iops, 1);
	else if (!s->iops && !o->disable_bw)
		hist_summary_add(&rd->bw, io_bw(io->len, clat));
}

/*
 * fio's windows (init.c, setup_log()): a bw (iops) log takes log_avg_msec
 * as the window unless bwavgtime (iopsavgtime) was given, and then
 * averages over the smaller of the two; per I/O when that is 0, or when
 * the log is compressed (per_unit_log(): its rows are then that window's
 * means of the per-I/O values, or a row per I/O).
 */
static void sampler_setup(struct job *j, struct rate_sampler *s, bool iops)
{
	const struct job_options *o = j->o;
	bool logged = j->log_f[iops ? LOG_IOPS : LOG_BW] != NULL;
	unsigned window = iops ? o->iops_avg_time : o->bw_avg_time, log_ms = o->log_avg_msec;

	s->job = j;
	s->iops = iops;
	if (logged) {
		if (iops ? o->iops_avg_time_set : o->bw_avg_time_set)
			log_ms = log_ms < window ? log_ms : window;
		else
			window = log_ms;
		s->per_io = !log_ms || o->log_compression || o->log_store_compressed;
		j->lw_ms[iops ? LOG_IOPS : LOG_BW] = s->per_io ? log_ms : 0;
	}
	s->period = (int64_t)window * SIM_MSEC;
}

/* ---- errors that end a job: max_latency, rate_min (fio's) ---- */

static void terminate_jobs(struct job *by);

/*
 * fio's break_on_this_error(): an error of a kind continue_on_error does
 * not cover (EILSEQ verify, else read or write: a flush counts as a write)
 * ends the job uncounted; one it covers is counted (update_error_count())
 * and carries the job on only when it is one of the kind's ignore_error
 * list, by default EIO and EILSEQ (td_non_fatal_error()). ETIME from a
 * Command Duration Limit, say, ends the job unless ignore_error lists 62.
 * Returns true when it is fatal.
 */
static bool count_error(struct job *j, bool write, int err)
{
	static const int fio_non_fatal[] = { EIO, EILSEQ };
	const struct job_options *o = j->o;
	unsigned kind = err == EILSEQ ? 2 : write ? 1 : 0, n = o->nignore_error[kind], i;
	const int *list = n ? o->ignore_error[kind] : fio_non_fatal;

	if (!n)
		n = sizeof(fio_non_fatal) / sizeof(fio_non_fatal[0]);
	if (!(o->continue_on_error & (1u << kind)))
		return true;
	j->rep->total_err++;
	if (!j->rep->first_error)
		j->rep->first_error = err;
	for (i = 0; i < n; i++)
		if (list[i] == err)
			return false;
	return true;
}

/* The job stops issuing with this error, as fio's td_verror() + the loop's break. */
static void job_error(struct job *j, int error, const char *site)
{
	if (!j->rep->error) {
		j->rep->error = error;
		j->rep->error_site = site;
	}
	j->issuing_done = true;
}

/*
 * Where fio's td_verror() takes a failed I/O's error: the sg engine's
 * SG_IO (a SCSI error: fio_sgio_doio(); the ioctl's own: xfer), a trim's
 * BLKDISCARD, which no engine reports itself: td_io_queue(); else (NULL)
 * io_u_log_error()'s io_u error, a sync engine's too.
 */
static const char *io_error_site(const struct job *j, const struct job_io *io)
{
	if (io->err_site)
		return io->err_site;
	/*
	 * The sg node's async mode learns of a failed command in
	 * fio_sgio_getevents(), which leaves the error to fio's reap
	 * (io_u error); its sync mode and SG_IO report it at once.
	 */
	if (j->o->sg && !(j->o->sg_node && j->o->engine_kind == JOB_ENGINE_ASYNC))
		return "engines/sg.c, func=fio_sgio_doio";
	return io->ddir == DDIR_TRIM ? "ioengines.c, func=td_io_queue" : NULL;
}

/*
 * A failed I/O ends the job: its error and site, the "fio: pid=N, err="
 * line fio prints as the job ends, and cleanup_pending_aio()'s one more
 * reap, of none so far.
 */
static void io_error_ends_job(struct job *j, const struct job_io *io)
{
	struct report_job *r = j->rep;
	const char *site = io_error_site(j, io);

	if (r->error) {
		j->issuing_done = true;
		return;
	}
	job_error(j, io->error, site);
	snprintf(r->error_note, sizeof(r->error_note), "fio: pid=%u, err=%d/file:%s, error=%s",
		 j->number, io->error, site ? site : "io_u.c, func=io_u error", strerror(io->error));
	if (!j->in_ramp)
		r->io_u_complete[0]++;
}

/*
 * fio's lat_fatal(): the first completion over max_latency (or over
 * latency_target at depth 1) ends the job with ETIMEDOUT.
 */
static void latency_exceeded(struct job *j, const struct job_io *io, uint64_t lat, int64_t max)
{
	if (!j->rep->error)
		snprintf(j->rep->error_note, sizeof(j->rep->error_note),
			 "fio: latency of %llu nsec exceeds specified max (%llu nsec): %.128s %s %llu %llu",
			 (unsigned long long)lat, (unsigned long long)max,
			 j->o->filename[0] ? j->o->filename : "sda",
			 ddir_name(io->ddir), (unsigned long long)io->offset,
			 (unsigned long long)io->len);
	job_error(j, ETIMEDOUT, "io_u.c, func=max latency exceeded");
}

/*
 * fio's check_min_rate(), after each completion outside ramp_time: per
 * direction with I/O done, none in the first 2 s; the first check after
 * that sets the baseline, and each later one, ratecycle ms or more after
 * the previous, compares the bytes (rate_min) or I/Os (rate_iops_min)
 * completed since, per second, with the minimum.
 */
static bool rate_below_min(struct job *j, int64_t now)
{
	const struct job_options *o = j->o;
	int d;

	for (d = 0; d < DDIR_COUNT; d++) {
		uint64_t spent;

		if ((!o->rate_min[d] && !o->rate_iops_min[d]) || !j->done_bytes[d] ||
		    now - j->t_stats < 2 * SIM_SEC)
			continue;
		spent = (uint64_t)(now - j->rate_chk_t[d]) / 1000000;
		if (j->rate_chk_set[d] && (spent < o->ratecycle || !spent))
			continue;
		if (j->rate_chk_set[d] && o->rate_min[d]) {
			uint64_t got = (j->done_bytes[d] - j->rate_chk_bytes[d]) * 1000 / spent;

			if (got < o->rate_min[d]) {
				snprintf(j->rep->error_note, sizeof(j->rep->error_note),
					 "%s: rate_min=%lluB/s not met, got %lluB/s", o->name,
					 (unsigned long long)o->rate_min[d], (unsigned long long)got);
				return true;
			}
		} else if (j->rate_chk_set[d]) {
			uint64_t got = (j->done_ios[d] - j->rate_chk_ios[d]) * 1000 / spent;

			if (got < o->rate_iops_min[d]) {
				snprintf(j->rep->error_note, sizeof(j->rep->error_note),
					 "%s: rate_iops_min=%llu not met, got %llu IOPS", o->name,
					 (unsigned long long)o->rate_iops_min[d], (unsigned long long)got);
				return true;
			}
		}
		j->rate_chk_bytes[d] = j->done_bytes[d];
		j->rate_chk_ios[d] = j->done_ios[d];
		j->rate_chk_t[d] = now;
		j->rate_chk_set[d] = true;
	}
	return false;
}

/* ---- latency_target: fio's search for the deepest queue meeting it ---- */

static void lat_new_cycle(struct job *j, int64_t now)
{
	j->lat_ts = now;
	j->lat_ios = j->done_ios[DDIR_READ] + j->done_ios[DDIR_WRITE];
	j->lat_failed = 0;
}

/* fio's lat_target_init(): the search starts at depth 1, at the start and after ramp_time. */
static void lat_target_init(struct job *j, int64_t now)
{
	if (!j->o->latency_target || j->lat_end_run)
		return;
	j->qd = 1;
	j->lat_qd_high = j->depth;
	j->lat_qd_low = 1;
	lat_new_cycle(j, now);
}

/*
 * A window missed the target: bisect down between the last depth that
 * held and this one (fio's __lat_target_failed()), and let what is in
 * flight drain first (fio's io_u_quiesce()). At depth 1 there is nowhere
 * to go: the caller ends the job.
 */
static bool lat_target_down(struct job *j, int64_t now)
{
	if (j->qd == 1)
		return true;
	j->lat_qd_high = j->qd;
	if (j->qd == j->lat_qd_low)
		j->lat_qd_low--;
	j->qd = (j->qd + j->lat_qd_low) / 2;
	j->lat_quiesce = true;
	lat_new_cycle(j, now);
	return false;
}

/*
 * A window met the target: double the depth until one fails, then bisect
 * (fio's lat_target_success()). When the depth stops changing the job
 * drains, its statistics restart, and one more window runs at that depth;
 * after it the job is done. With latency_run it goes on adjusting, its
 * statistics never restarted (fio 3.33 runs such a job to its runtime).
 */
static void lat_target_up(struct job *j, int64_t now)
{
	unsigned prev = j->qd, max = j->depth;

	j->lat_qd_low = j->qd;
	if (j->lat_qd_high != max)
		j->qd = (j->qd + j->lat_qd_high) / 2;
	else
		j->qd *= 2;
	if (j->qd > max)
		j->qd = max;
	if (j->qd == prev && !j->o->latency_run) {
		if (j->lat_end_run) {
			j->issuing_done = true;
		} else {
			j->lat_quiesce = true;
			j->lat_end_run = true;
			loop_depths_fold(j);	/* then cleared with the rest */
			report_job_reset(j->rep);
			j->t_stats = now;
			sampler_restart(&j->bw_s, now);
			sampler_restart(&j->iops_s, now);
		}
	}
	lat_new_cycle(j, now);
}

/* fio's lat_target_check(), after each completion outside ramp_time. */
static void lat_target_check(struct job *j, int64_t now)
{
	uint64_t ios;
	double success;

	if (now - j->lat_ts < j->o->latency_window)
		return;
	ios = j->done_ios[DDIR_READ] + j->done_ios[DDIR_WRITE] - j->lat_ios;
	success = ios ? (double)(ios - j->lat_failed) / (double)ios * 100.0 : 0.0;
	if (success >= j->o->latency_percentile)
		lat_target_up(j, now);
	else
		lat_target_down(j, now);
}

/*
 * write_hist_log, as fio 3.33's add_clat_sample(): each completion counts
 * into its direction's histogram; the first one starts the direction's
 * clock, and a completion log_hist_msec or more after the last row writes
 * a row — "time ms, direction, block size, " then the counts of fio's
 * 1856 buckets (HIST_FIO_NR; ncqsim's buckets beyond fio's last go into
 * it, as fio clamps) since the direction's previous row, 2^coarseness
 * buckets summed per column. The next row is due log_hist_msec after the
 * window's end, not after this row (fio takes the drift off). A window
 * still open when the job ends writes nothing, as in fio.
 */
static void hist_log_io(struct job *j, int64_t now, const struct job_io *io, uint64_t clat)
{
	uint64_t *win = j->hist_win[io->ddir];
	int64_t ms = (now - j->t_begin) / 1000000, window;
	unsigned idx = hist_bucket_index(clat), stride = 1u << j->o->log_hist_coarseness, i, b;

	win[idx < HIST_FIO_NR ? idx : HIST_FIO_NR - 1]++;
	if (j->hist_last[io->ddir] < 0)
		j->hist_last[io->ddir] = ms;
	window = ms - j->hist_last[io->ddir];
	if (window < (int64_t)j->o->log_hist_msec)
		return;
	fprintf(j->hist_log, "%lld, %d, %llu", (long long)(ms + j->log_epoch_ms), io->ddir,
		(unsigned long long)io->len);
	for (i = 0; i < HIST_FIO_NR; i += stride) {
		uint64_t sum = 0;

		for (b = i; b < i + stride; b++)
			sum += win[b];
		fprintf(j->hist_log, ", %llu", (unsigned long long)sum);
	}
	fputc('\n', j->hist_log);
	memset(win, 0, HIST_FIO_NR * sizeof(*win));
	j->hist_last[io->ddir] = ms - (window - (int64_t)j->o->log_hist_msec);
}

/* ---- serialize_overlap ---- */

static bool io_overlaps(const struct job *k, const struct job_io *io)
{
	unsigned i;

	for (i = 0; i < k->depth; i++) {
		const struct job_io *f = &k->ios[i];

		if (f->in_flight && io->offset < f->offset + f->len && f->offset < io->offset + io->len)
			return true;
	}
	return false;
}

/*
 * fio's in_flight_overlap(): an I/O overlapping one in flight waits (fio's
 * FIO_Q_BUSY, retried after a completion). In offload mode fio's
 * check_overlap() looks at the in-flight I/O of every offload job with
 * serialize_overlap, and only the worker holding it waits.
 */
static bool overlaps_in_flight(const struct job *j, const struct job_io *io)
{
	const struct workload_runner *run = j->run;
	unsigned i;

	if (!j->offload)
		return io_overlaps(j, io);
	for (i = 0; i < run->njobs; i++) {
		const struct job *k = &run->jobs[i];

		if (k->offload && k->serialize && k->ios && io_overlaps(k, io))
			return true;
	}
	return false;
}

/* Waiting I/Os queue up in order: the job's own (inline), or every offload job's. */
static void park(struct job_io **head, struct job_io **tail, struct job_io *io)
{
	io->next = NULL;
	if (*head)
		(*tail)->next = io;
	else
		*head = io;
	*tail = io;
}

static void submit_bios(struct job *j, struct job_io *io);

/*
 * Offload: each waiting I/O is a worker retrying fio's check_overlap()
 * after others complete; the one that has waited longest goes first.
 */
static void unpark_offload(struct workload_runner *run)
{
	struct job_io **link = &run->parked_head, *io;

	run->parked_tail = NULL;
	while ((io = *link)) {
		struct job *k = io->job;

		if (k->blocked_io || overlaps_in_flight(k, io)) {
			run->parked_tail = io;
			link = &io->next;
			continue;
		}
		*link = io->next;
		io->t_dispatch = sim_now(run->t->sim);
		io->in_flight = true;
		submit_bios(k, io);
	}
}

/*
 * The slat and lat summaries a lat_is_clat direction stands for, written
 * out: n samples of slat 0 (the first set min to 0; mean and S stay 0.0,
 * as adding 0.0 - 0.0 leaves them) and lat's sums equal to clat's, which
 * had the same values in the same order from the same cleared state.
 */
static __attribute__((noinline)) void slat_lat_settle(struct job *j, int d)
{
	struct report_dir *rd = &j->rep->dir[d];

	SIM_ASSERT(!rd->slat.sum.n && !rd->lat.sum.n, "job %s: slat and lat were fed while they "
		   "stood for clat's samples", j->o->name);
	rd->slat.sum.n = rd->clat.sum.n;
	if (rd->slat.sum.n)
		rd->slat.sum.min = 0;
	rd->lat.sum = rd->clat.sum;
	j->lat_is_clat[d] = false;
}

/*
 * An I/O fio has reaped: its latencies, counts and logs (a reap of one
 * counts in the "complete" distribution as one call, as fio's
 * io_u_mark_complete(); batched reaps count theirs in reap()).
 */
static void io_reaped(struct job *j, struct job_io *io, bool single)
{
	struct report_job *r = j->rep;
	struct report_dir *rd = &r->dir[io->ddir];
	int64_t now = sim_now(j->sim);
	uint64_t clat = (uint64_t)(now - io->t_issue), lat = (uint64_t)(now - io->t_start);
	/* A trim is a system call (BLKDISCARD) whatever the engine: no slat. */
	bool sync = j->o->engine_kind == JOB_ENGINE_SYNC || io->ddir == DDIR_TRIM;

	/*
	 * rd as an opaque value: otherwise gcc rebuilds it (a multiplication)
	 * for every field of the five summaries below instead of keeping it.
	 */
	__asm__("" : "+r"(rd));
	io->in_flight = false;
	j->inflight--;
	j->t_finish = now;
	j->ios_reaped++;
	j->think_done += !io->error;	/* fio's io_blocks, ramp included (thinktime_blocks_type) */
	if (io->ddir == DDIR_TRIM || (j->o->sg && !io->nbios))
		j->trimming = false;
	/* fio's io_completed() sets it; a system call that failed never gets there. */
	if (!(io->error && sync))
		j->last_ddir = io->ddir;
	if (io->piece) {
		/* fio's log_io_piece() entry: written now, or unlogged if the write failed. */
		if (io->error)
			verifylog_unlog(&j->vlog, io->piece, io->piece_seq);
		else
			verifylog_written(io->piece, io->piece_seq);
		io->piece = NULL;
	}
	if (io->error) {
		/*
		 * As fio's io_completed(): a failed I/O adds no sample, but fio
		 * counted it as it queued it (total_io_u) and its completion
		 * where it counts a successful one's; it is counted (total_err,
		 * first_error) and the job carries on when continue_on_error
		 * and ignore_error let it (count_error()), else the error is
		 * the job's and it stops issuing.
		 */
		if (!j->in_ramp) {
			rd->total_ios++;
			if (single)
				r->io_u_complete[batch_bucket(1)]++;
		}
		if (count_error(j, io->ddir != DDIR_READ, io->error))
			io_error_ends_job(j, io);
		else
			r->carried_site = io_error_site(j, io);	/* fio's verror: the last one's */
	} else if (j->unsampled) {
		/*
		 * In ramp_time, nothing. With stats=0, fio's
		 * account_io_completion() returns at once: no sample, no log
		 * row, no max_latency or latency_target check; the job still
		 * counts what it did, for rate_min.
		 */
		if (!j->in_ramp) {
			j->done_bytes[io->ddir] += io->len;
			j->done_ios[io->ddir]++;
			if (j->rate_min_checked && rate_below_min(j, now)) {
				job_error(j, EIO, "backend.c, func=check_min_rate");
				if (j->run->exitall || j->o->exitall_on_error)
					terminate_jobs(j);
			}
		}
	} else {
		/*
		 * fio reports slat and lat as min/max/mean/stddev, with percentiles
		 * only for lat_percentiles: only then do their buckets count (a
		 * bucket write is a cache miss more per I/O).
		 */
		const struct job_options *o = j->o;

		if (j->lat_is_clat[io->ddir])
			slat_lat_settle(j, io->ddir);
		/* disable_slat, disable_clat, disable_lat: that latency is not sampled (fio's). */
		if (!sync && !o->disable_slat) {
			if (r->slat_percentiles)
				hist_add_span(&rd->slat, io->t_issue - io->t_start);
			else
				hist_summary_add_span(&rd->slat.sum, io->t_issue - io->t_start);
		}
		if (!o->disable_clat)
			hist_add_span(&rd->clat, (int64_t)clat);
		if (o->disable_lat)
			;
		else if (r->lat_percentiles)
			hist_add_span(&rd->lat, (int64_t)(sync ? clat : lat));
		else
			hist_summary_add_span(&rd->lat.sum, (int64_t)(sync ? clat : lat));
		/* fio's per-priority samples come with the clat (or, for lat_percentiles, lat) ones. */
		if (io->prio_index >= 0 && !(r->lat_percentiles ? o->disable_lat : o->disable_clat))
			hist_add(&rd->prios[io->prio_index].h, r->lat_percentiles ? lat : clat);
		hist_summary_pair_add_spans(&rd->split, io->t_dispatch - io->t_issue,
					    now - io->t_dispatch);
		rd->io_bytes += io->len;
		rd->total_ios++;
		if (!j->per_io_samples) {	/* the usual: windows only */
			j->bw_s.acc[io->ddir] += io->len;
			j->iops_s.acc[io->ddir]++;
		} else {
			sampler_io(&j->bw_s, io, clat);
			sampler_io(&j->iops_s, io, clat);
		}
		if (!o->disable_clat) {
			mark_latency(r, clat);	/* fio's lat buckets count clat samples */
			if (j->hist_log)
				hist_log_io(j, now, io, clat);
		}
		if (single)
			r->io_u_complete[batch_bucket(1)]++;
		if (j->writes_logs)	/* most runs write no log */
			log_io(j, now, io, clat, sync ? clat : lat,
			       sync ? 0 : (uint64_t)(io->t_issue - io->t_start));
		j->done_bytes[io->ddir] += io->len;
		j->done_ios[io->ddir]++;
		/* fio compares its lat (from the submission) with max_latency and latency_target. */
		if (io->ddir < DDIR_COUNT && j->o->max_latency[io->ddir] && (sync ? clat : lat) >
		    (uint64_t)j->o->max_latency[io->ddir])
			latency_exceeded(j, io, sync ? clat : lat, j->o->max_latency[io->ddir]);
		else if (j->rate_min_checked && rate_below_min(j, now)) {
			job_error(j, EIO, "backend.c, func=check_min_rate");
			/* fio's do_io() ends the others at once, before the job itself drains. */
			if (j->run->exitall || j->o->exitall_on_error)
				terminate_jobs(j);
		}
		if (j->o->latency_target && !j->rep->error) {
			if ((sync ? clat : lat) > (uint64_t)j->o->latency_target) {
				if (j->o->latency_percentile < 100.0)
					j->lat_failed++;
				else if (lat_target_down(j, now))
					latency_exceeded(j, io, sync ? clat : lat, j->o->latency_target);
			}
			lat_target_check(j, now);
		}
	}
	io->next = j->free_ios;
	j->free_ios = io;
}

/* io_reaped() as it runs for a reap of one, sampled, without an error, of a job with reap_plain. */
/*
 * io_reaped_plain() with the direction and length as the caller knows them;
 * `read_loop`: a read_loop job's, whose in_flight, think and last_ddir
 * nothing reads (no serialize_overlap, think time or verify; its reads
 * leave last_ddir at the DDIR_READ it starts with). `now`: the
 * simulation's time; `keep`: the caller reuses io at once, so it does
 * not go back to the free list.
 */
static inline __attribute__((always_inline)) void io_reaped_plain_as(struct job *j,
								       struct job_io *io, int d,
								       uint64_t len, int64_t dispatched,
								       bool read_loop, int64_t now,
								       bool keep)
{
	struct report_job *r = j->rep;
	struct report_dir *rd = &r->dir[d];
	uint64_t clat = (uint64_t)(now - io->t_issue), lat = (uint64_t)(now - io->t_start);
	int64_t slat = io->t_issue - io->t_start;
	double next, clat_val;
	unsigned clat_idx;

	__asm__("" : "+r"(rd));	/* as in io_reaped() */
	if (!read_loop) {
		io->in_flight = false;
		j->think_done++;
		j->last_ddir = d;
	}
	j->inflight--;
	j->t_finish = now;
	j->ios_reaped++;
	/*
	 * A reap_plain job samples slat, clat, lat, host_queue and drive
	 * together, here and in io_reaped(), and report_job_reset() clears them
	 * together: their counts are one, converted once (the split's).
	 */
	next = hist_summary_pair_next(&rd->split);
	/* Each summary's own sequence of updates is what its bits depend on, not their order. */
	if (__builtin_expect(slat || !j->lat_is_clat[d], 0)) {
		if (j->lat_is_clat[d])
			slat_lat_settle(j, d);	/* before clat takes this sample */
		hist_summary_add_next(&rd->slat.sum, (uint64_t)slat, (double)slat, next);
		hist_summary_add_next(&rd->lat.sum, lat, (double)(int64_t)lat, next);
	}
	clat_val = (double)(int64_t)clat;
	clat_idx = hist_count_as(&rd->clat, clat, clat_val);
	hist_summary_add_next(&rd->clat.sum, clat, clat_val, next);
	hist_summary_pair_add_next(&rd->split, (uint64_t)(dispatched - io->t_issue),
				   (double)(dispatched - io->t_issue), (uint64_t)(now - dispatched),
				   (double)(now - dispatched), next);
	rd->io_bytes += len;
	rd->total_ios++;
	j->bw_s.acc[d] += len;
	j->iops_s.acc[d]++;
	mark_latency_in(r, clat, clat_idx);
	r->io_u_complete[batch_bucket(1)]++;
	j->done_bytes[d] += len;
	j->done_ios[d]++;
	if (!keep) {
		io->next = j->free_ios;
		j->free_ios = io;
	}
}

static inline __attribute__((always_inline)) void io_reaped_plain(struct job *j,
								    struct job_io *io)
{
	io_reaped_plain_as(j, io, io->ddir, io->len, io->t_dispatch, false, sim_now(j->sim),
			   false);
}

/*
 * fio's wait_for_completions() with iodepth_batch_complete_min/max and
 * iodepth_low: once the queue is full the job waits until `reap_need`
 * I/Os have completed, reaps up to complete_max of them at that moment
 * (their clat ends there, as fio stamps a reaped batch with one time),
 * and goes on waiting while more than iodepth_low are still held; then it
 * refills the queue.
 */
static void reap(struct job *j)
{
	while (j->unreaped >= j->reap_need) {
		unsigned n = 0;

		while (j->done_head && n < j->complete_max) {
			struct job_io *io = j->done_head;

			j->done_head = io->next;
			j->unreaped--;
			io_reaped(j, io, false);
			n++;
		}
		if (!j->in_ramp)
			j->rep->io_u_complete[batch_bucket(n)]++;
		if (j->inflight <= j->depth_low || j->finished) {
			j->full_wait = false;
			break;
		}
		j->reap_need = j->complete_min < j->inflight ? j->complete_min : j->inflight;
		if (!j->reap_need)
			j->reap_need = 1;
	}
}

static void schedule_wake(struct job *j, int64_t when);

static void io_done(struct job *j, struct job_io *io)
{
	int64_t now = sim_now(j->sim);
	/* Refused as it was issued: the submitter tries again a system call later. */
	bool refused = io->error && io->t_issue == now;

	if (j->full_wait) {
		io->next = NULL;
		if (j->done_head)
			j->done_tail->next = io;
		else
			j->done_head = io;
		j->done_tail = io;
		j->unreaped++;
		reap(j);
		if (j->full_wait)
			return;
	} else if (j->reap_plain && !io->error && !j->unsampled && io->ddir != DDIR_TRIM) {
		io_reaped_plain(j, io);
	} else {
		io_reaped(j, io, true);
	}
	if (refused && !j->issuing_done) {
		schedule_wake(j, now + JOB_REFUSED_RETRY_NS);
		return;
	}
	job_fill(j);
}

/* An I/O its system call refused before the block layer saw it (issue()). */
static void io_refused(struct sim *sim, void *arg)
{
	struct job_io *io = arg;

	(void)sim;
	io_done(io->job, io);
}

static void bio_done(void *owner, struct blk_bio *bio)
{
	struct job_io *io = owner;

	if (bio->error && !io->error)
		io->error = -bio->error;
	if (bio->t_dispatched > io->t_dispatch)
		io->t_dispatch = bio->t_dispatched;
	if (--io->left == 0)
		io_done(io->job, io);
}

static void submit_bios(struct job *j, struct job_io *io);

static void bio_accepted(void *owner, struct blk_bio *bio)
{
	struct job_io *io = owner;
	struct job *j = io->job;

	(void)bio;
	/* The submitter was asleep in io_submit(): it wakes with this I/O in. */
	j->blocked_io = NULL;
	submit_bios(j, io);
	if (!j->blocked_io)
		job_fill(j);
}

static void submit_bios(struct job *j, struct job_io *io)
{
	while (io->next_bio < io->nbios) {
		struct blk_bio *b = &io->bios[io->next_bio++];

		if (!blk_submit(j->t->q, b)) {
			j->blocked_io = io;
			return;
		}
	}
	io->t_issue = sim_now(j->sim);
}

/*
 * What a write carries to the block layer: FUA under O_SYNC/O_DSYNC
 * (sync=1, direct I/O: blkdev's dio_bio_write_op()), and for every N-th
 * write with write_barrier=N a flush before it and FUA on it (a barrier,
 * as the block layer has expressed it since 2.6.37). A request split in
 * several keeps the pre-flush on its first part only.
 */
static uint8_t write_flags(const struct job *j, bool first)
{
	uint8_t f = j->o->sync_mode ? BLK_FUA : 0;

	if (j->o->barrier_blocks && (j->writes_issued + 1) % j->o->barrier_blocks == 0)
		f |= BLK_FUA | (first ? BLK_PREFLUSH : 0);
	return f;
}

/*
 * iodepth_batch_submit: fio holds the I/Os it queues and submits them in
 * one call when it has this many, or when it must wait (a full queue,
 * thinktime, a rate's pause, the end). In simulated time, where issuing
 * costs nothing, they reach the block layer at the same instant either
 * way; what changes is fio's accounting per call: the "submit"
 * distribution, and the depth each I/O is counted at (the depth after the
 * call, as io_u_mark_depth()).
 */
static void commit(struct job *j)
{
	if (!j->held)
		return;
	if (!j->in_ramp) {
		j->rep->io_u_map[depth_bucket(j->inflight)] += j->held;
		if (j->o->sg)	/* fio_sgio_queue() counts each write() of a header as a submit of one. */
			j->rep->io_u_submit[batch_bucket(1)] += j->held;
		else
			j->rep->io_u_submit[batch_bucket(j->held)]++;
	}
	j->held = 0;
}

static inline void account_issue(struct job *j, const struct job_io *io);
static inline void account_issue_as(struct job *j, const struct job_io *io, int d, bool read_back,
				    uint64_t len, bool read_loop, bool lean);

/* Where the kernel's bios take bi_write_hint from (docs/FIO.md, write_hint). */
enum hint_rule {
	HINT_NONE,	/* before 4.13, and 5.18..6.8: none */
	HINT_INODE,	/* 6.9+: the inode's, for direct I/O */
	HINT_FILE,	/* 4.13..5.17: file_write_hint(), the file's else the inode's */
};

static uint8_t hint_rule_of(int kernel)
{
	if (host_kernel_has(kernel, HOST_KC_BIO_WRITE_HINT))
		return HINT_INODE;
	if (host_kernel_has(kernel, HOST_KC_NO_FILE_RW_HINT))
		return HINT_NONE;
	if (host_kernel_has(kernel, HOST_KC_RW_HINT))
		return HINT_FILE;
	return HINT_NONE;
}

/* bi_write_hint: the rule is the kernel's, the hints may change as jobs start. */
static inline uint8_t bio_write_hint(const struct job *j)
{
	switch (j->hint_rule) {
	case HINT_INODE:
		return j->run->inode_hint;
	case HINT_FILE:
		return j->file_hint ? j->file_hint : j->run->inode_hint;
	}
	return 0;
}

static void issue_general(struct job *j, const struct job_io_desc *want);
static unsigned sg_bio(struct job *j, struct job_io *io);

/* issue_general() as it runs for a job with issue_plain and such a read. */
static inline void issue_read(struct job *j, const struct job_io_desc *want)
{
	struct job_io *io = j->free_ios;
	struct blk_bio *b = &io->bios[0];
	uint64_t len = want->len, off = want->offset;
	int64_t now = sim_now(j->sim);

	j->free_ios = io->next;
	io->read_ready = false;
	io->ddir = DDIR_READ;
	io->offset = off;
	io->len = len;
	io->prio_report = j->job_prio;
	io->prio_eff = j->prio_eff_task;
	io->prio_index = -1;
	io->error = 0;
	io->err_site = NULL;
	io->read_back = j->issuing_verify;
	io->t_start = want->due && want->due < now ? want->due : now;
	io->t_dispatch = now;
	io->piece = NULL;
	blk_bio_prep(b, off / j->t->logical_size, (uint32_t)(len / j->t->logical_size), false,
		     io->prio_eff, bio_accepted, bio_done, io);
	b->flags = j->io_flags;
	b->write_hint = bio_write_hint(j);
	io->nbios = 1;
	io->next_bio = 1;	/* submit_bios() for its one bio */
	io->left = 1;
	j->inflight++;
	account_issue(j, io);
	io->in_flight = true;
	if (!blk_submit(j->t->q, b))
		j->blocked_io = io;
	else
		io->t_issue = now;
}

static void issue(struct job *j, const struct job_io_desc *want)
{
	if (j->issue_plain && want->ddir == DDIR_READ && !want->ioprio && want->len &&
	    want->len <= j->t->max_request)
		issue_read(j, want);
	else
		issue_general(j, want);
}

static void read_done(void *owner, struct blk_bio *bio);

/* What every read of a read_loop job has in common, filled once per I/O unit. */
static __attribute__((noinline)) void read_prepare(struct job *j, struct job_io *io)
{
	struct blk_bio *b = &io->bios[0];

	io->ddir = DDIR_READ;
	io->len = j->min_bs[DDIR_READ];
	io->prio_report = j->job_prio;
	io->prio_eff = j->prio_eff_task;
	io->prio_index = -1;
	io->err_site = NULL;
	io->read_back = false;
	io->piece = NULL;
	io->nbios = 1;
	io->next_bio = 1;	/* submit_bios() for its one bio */
	/* Without reap_plain, the general reap (then the read_loop's fill through job_fill()). */
	blk_bio_prep(b, 0, (uint32_t)(io->len / j->t->logical_size), false, io->prio_eff,
		     bio_accepted, j->reap_plain ? read_done : bio_done, io);
	b->flags = j->io_flags;
	io->read_ready = true;
}

/*
 * fio_next() and issue_read() as they run for a read_loop job, in one:
 * false, with nothing drawn, when a limit is reached (the source's own
 * call then ends the job). blk_submit() sets every bio field it gives
 * back (times, error, link), so only the offset and the write hint
 * (which may change as jobs start) are written per read. `lean`: the
 * job's read_lean, known to the caller. `reaped`: NULL, or the unit of the
 * read read_done() has just reaped, which io_reaped_plain_as() kept off
 * the free list: the unit the list would give (it is a stack), reused as
 * it is. It was read_prepare()'s (only its bios call read_done()), and
 * nothing wrote its error (0) or left (1) since its last issue: read_done()
 * takes no bio with an error and leaves bio_done()'s count alone.
 */
static inline __attribute__((always_inline)) bool read_loop_next(struct job *j,
								   int64_t now, bool lean,
								   struct job_io *reaped)
{
	const int d = DDIR_READ;
	struct job_io *io = reaped;
	struct blk_bio *b;
	uint64_t off;

	/* fio_next()'s limits (no random map or verify log here to run out of memory). */
	if (!lean && j->read_limited && ((j->size_limit && j->issued_bytes >= j->size_limit) ||
				(j->ios_limit && j->issued_ios >= j->ios_limit)))
		return false;
	/*
	 * next_io()'s plain path; within the region, so within the drive.
	 * Without its clamp to the region's end: the last start last_block()
	 * gives still fits the block, from zone_base == start (report_setup()
	 * checks it once; only strided zones, never here, move zone_base).
	 */
	off = j->zone_base + rng_below(&j->r_off, j->plain_lastb[d]) * j->align[d];
	/*
	 * Not next_io()'s last_pos and zone_bytes: only the sequential and
	 * strided paths read them, which a direction with plain_lastb never
	 * takes (and next_io() sets them again before it would).
	 */
	if (!reaped) {
		io = j->free_ios;
		j->free_ios = io->next;
		if (!io->read_ready)
			read_prepare(j, io);
		io->error = 0;
		io->left = 1;
	}
	b = &io->bios[0];
	io->offset = off;
	io->t_start = io->t_dispatch = now;
	b->lba = off >> j->lba_shift;
	if (!lean && j->hint_rule != HINT_NONE)
		b->write_hint = bio_write_hint(j);
	j->inflight++;
	account_issue_as(j, io, d, false, j->min_bs[d], true, lean);
	/* No in_flight: only serialize_overlap reads it, which issue_plain rules out. */
	if (!blk_submit(j->t->q, b))
		j->blocked_io = io;
	else
		io->t_issue = now;
	return true;
}

static __attribute__((noinline)) void issue_general(struct job *j, const struct job_io_desc *want)
{
	struct job_io *io = j->free_ios;
	uint64_t len = want->len, off = want->offset, chunk, done = 0;
	uint16_t per_io = want->ioprio;
	unsigned k = 0;
	int d = want->ddir;
	int64_t now = sim_now(j->sim);
	uint8_t hint = bio_write_hint(j);

	j->free_ios = io->next;
	io->read_ready = false;
	io->ddir = d;
	io->offset = off;
	io->len = len;
	io->prio_report = per_io ? per_io : j->job_prio;
	io->prio_eff = !per_io ? j->prio_eff_task :
		host_kernel_io_prio(j->t->kernel, per_io, j->task_prio, (int)j->o->nice,
				    (enum sched_policy)j->o->sched_policy);
	io->prio_index = -1;
	io->error = 0;
	io->err_site = NULL;
	io->read_back = j->issuing_verify;
	if (j->rep->multi_prio) {
		/* An index, not a pointer: the entries may move as new ones appear. */
		struct report_prio *rp = report_prio_get(&j->rep->dir[d], io->prio_report);

		if (rp)
			io->prio_index = (int)(rp - j->rep->dir[d].prios);
	}
	io->t_start = want->due && want->due < now ? want->due : now;
	io->t_dispatch = now;
	io->piece = NULL;
	if (j->verify_on && d == DDIR_WRITE) {
		/* fio logs a write before it issues it, so the read-back keeps fio's order. */
		/* fio's io_u_should_trim(): trim_percentage of them queued for trimming. */
		bool trim = j->o->trim_percentage &&
			rng_below(&j->r_trim, 100) < j->o->trim_percentage;

		io->piece = verifylog_add(&j->vlog, off, len, trim);
		if (!io->piece)
			j->map_oom = true;	/* the run ends with "out of memory" */
		else
			io->piece_seq = io->piece->node.tie;
	}
	if (j->o->sg)
		k = sg_bio(j, io);
	/*
	 * Larger than queue/max_sectors_kb: the kernel splits it into requests
	 * (a trim by the queue's max_discard_sectors: blkdev_issue_discard()).
	 */
	while (!j->o->sg && done < len && (d != DDIR_TRIM || j->t->max_discard)) {
		struct blk_bio *b = &io->bios[k++];
		uint64_t most = d == DDIR_TRIM ? j->t->max_discard : j->t->max_request;

		chunk = len - done < most ? len - done : most;
		blk_bio_prep(b, (off + done) / j->t->logical_size,
			     (uint32_t)(chunk / j->t->logical_size), d != DDIR_READ, io->prio_eff,
			     bio_accepted, bio_done, io);
		b->flags = (d == DDIR_WRITE ? write_flags(j, done == 0) : 0) |
			(d == DDIR_TRIM ? BLK_DISCARD : j->io_flags);
		b->write_hint = hint;
		done += chunk;
	}
	if (d == DDIR_WRITE) {
		j->writes_issued++;
		j->last_was_sync = false;
	}
	io->nbios = k;
	io->next_bio = 0;
	io->left = k;
	j->inflight++;
	if (d == DDIR_TRIM)
		j->trimming = true;	/* BLKDISCARD: the submitter waits for it */
	if (j->io_refused || (j->dry && d != DDIR_READ) || (!k && !j->dry)) {
		/*
		 * The system call fails: no bio reaches the block layer (a
		 * trim on a queue without discard: blk_ioctl_discard()'s
		 * EOPNOTSUPP); or verify_only's dry run, which issues nothing
		 * and counts the write done at once (an event: no reentry).
		 */
		account_issue(j, io);
		io->error = j->dry && d != DDIR_READ ? 0 : io->error ? io->error :
			!k ? EOPNOTSUPP : j->io_refused;
		/* fio's sg engine completes a failed call inline: nothing goes out until it is seen. */
		if (j->o->sg && !k)
			j->trimming = true;
		io->t_issue = now;
		sim_at(j->sim, now, io_refused, io);
		return;
	}
	if (j->serialize && overlaps_in_flight(j, io)) {
		/*
		 * fio's FIO_Q_BUSY: inline, the job retries this I/O after a
		 * completion and counts it only then; offload counted it when
		 * it handed it to the worker, which waits.
		 */
		if (j->offload) {
			account_issue(j, io);
			park(&j->run->parked_head, &j->run->parked_tail, io);
		} else {
			park(&j->parked_head, &j->parked_tail, io);
		}
		return;
	}
	account_issue(j, io);
	io->in_flight = true;
	submit_bios(j, io);
}

/*
 * fio's sg engine: the one SCSI command fio_sgio_prep() builds for the
 * I/O, as a passthrough bio (never split, no priority or write hint of the
 * task's) through the block device's SG_IO or written to the sg node,
 * whose requests go in at the head; 0 bios, with the error, when the
 * system call fails without one. A 10-byte CDB below LBA 2^32 - 1, its block
 * count 16 bits (cut as fio's sgio_set_be16() cuts it), else 16 bytes.
 * Trims are UNMAP, which libata does not translate (ILLEGAL REQUEST: EIO
 * at once); SG_IO refuses a data buffer over max_hw_sectors (EIO from the
 * ioctl: xfer) — a write's is the I/O's, but one block for WRITE SAME and
 * VERIFY with BYTCHK 11b, none for NDOB and BYTCHK 00b.
 */
static unsigned sg_bio(struct job *j, struct job_io *io)
{
	uint64_t lsz = j->t->logical_size, lba = io->offset / lsz, blocks = io->len / lsz;
	uint64_t data = io->len;
	bool write = io->ddir == DDIR_WRITE, fua = write ? j->o->writefua : j->o->readfua;
	/* The CDB's block count is 16 bits in a 10-byte CDB (below LBA 2^32 - 1), else 32. */
	bool count16 = lba < 0xffffffffULL;
	uint16_t kind = j->o->sg_node ? BLK_SCSI_AT_HEAD : 0;
	struct blk_bio *b = &io->bios[0];

	io->err_site = NULL;
	if (io->ddir == DDIR_TRIM) {
		io->error = EIO;
		io->err_site = "engines/sg.c, func=fio_sgio_doio";
		return 0;
	}
	switch (write ? j->o->sg_write_mode : JOB_SG_WRITE) {
	case JOB_SG_WRITE:
		break;
	case JOB_SG_WRITE_AND_VERIFY:
		kind |= BLK_SCSI_REFUSED;
		break;
	case JOB_SG_WRITE_SAME:
		kind |= BLK_SCSI_REFUSED;
		data = lsz;
		break;
	case JOB_SG_WRITE_SAME_NDOB:
		kind |= BLK_SCSI_REFUSED;
		data = 0;
		count16 = false;		/* always WRITE SAME(16) */
		break;
	case JOB_SG_WRITE_STREAM:
		kind |= BLK_SCSI_REFUSED;	/* its FUA bit (writefua) never reaches a drive */
		count16 = true;			/* WRITE STREAM(16) counts in 16 bits */
		break;
	case JOB_SG_VERIFY_BYTCHK_00:
		kind |= BLK_SCSI_VERIFY;
		data = 0;
		break;
	case JOB_SG_VERIFY_BYTCHK_01:
		kind |= BLK_SCSI_VERIFY;
		break;
	case JOB_SG_VERIFY_BYTCHK_11:
		kind |= BLK_SCSI_VERIFY;
		data = lsz;
		break;
	}
	/*
	 * The sg node takes 16 commands not yet read back (sg_add_request():
	 * SG_MAX_QUEUE), then write() fails with EDOM; it maps an over-large
	 * buffer in pieces, the second of which max_hw_sectors refuses
	 * (blk_rq_map_user_iov(), blk_rq_append_bio(): EINVAL).
	 */
	if (j->o->sg_node && j->inflight >= SG_MAX_QUEUE) {
		io->error = EDOM;
		io->err_site = "engines/sg.c, func=xfer";
		return 0;
	}
	if (data > SG_MAX_HW_BYTES) {
		io->error = j->o->sg_node ? EINVAL : EIO;
		io->err_site = "engines/sg.c, func=xfer";
		return 0;
	}
	if (count16)
		blocks &= 0xffff;
	blk_bio_prep(b, lba, (uint32_t)blocks, write, 0, bio_accepted, bio_done, io);
	/* fio sets FUA on READ, WRITE and WRITE STREAM only (the rest reach no drive). */
	b->flags = BLK_PASSTHROUGH | kind |
		(fua && !(kind & (BLK_SCSI_VERIFY | BLK_SCSI_REFUSED)) ? BLK_FUA : 0);
	b->write_hint = 0;
	return 1;
}

/* An I/O submitted (or handed to an offload worker): fio's counts, depths and logs of it. */
static inline __attribute__((always_inline)) void account_issue(struct job *j,
								    const struct job_io *io)
{
	account_issue_as(j, io, io->ddir, io->read_back, io->len, false, false);
}

/*
 * account_issue() with the I/O's direction, read_back and length as the
 * caller knows them; `read_loop`: a read_loop job's, which has no verify
 * state or iolog to look at.
 */
static inline __attribute__((always_inline)) void account_issue_as(struct job *j,
								       const struct job_io *io, int d,
								       bool read_back, uint64_t len,
								       bool read_loop, bool lean)
{
	int64_t now = sim_now(j->sim);
	uint64_t off = io->offset;

	/*
	 * fio's do_io() bytes_issued, read-backs of a backlog too; never a
	 * trim, which every engine does in the system call (FIO_Q_COMPLETED).
	 */
	if (read_loop || (j->vstate == VERIFY_NONE && d != DDIR_TRIM))
		j->pass_bytes += len;
	else if (d == DDIR_TRIM)
		j->pass_trimmed = true;
	/*
	 * The job's limits count its own I/O, no read-back; a trimwrite's its
	 * writes (fio's io_bytes_exceeded(): td_write).
	 */
	if (!read_back && !(d == DDIR_TRIM && is_trimwrite(j->o))) {
		j->issued_bytes += len;
		j->issued_ios++;
	}
	if (!read_loop)
		j->think_issued++;	/* a read_loop job thinks not */
	if (lean) {
		j->loop_depth_count[j->inflight]++;	/* read_lean: at most 64 in flight */
	} else if (read_loop && j->submit_batch <= 1) {
		j->loop_depth_count[j->inflight < 64 ? j->inflight : 64]++;	/* ramp too */
	} else if (!j->in_ramp && j->submit_batch <= 1) {
		/* In offload mode each worker has one I/O in flight: fio counts depth 1. */
		j->rep->io_u_map[depth_bucket(j->offload ? 1 : j->inflight)]++;
		j->rep->io_u_submit[batch_bucket(1)]++;
	} else if (!j->in_ramp && ++j->held == j->submit_batch) {
		commit(j);
	}
	if (!read_loop && j->iolog && !(j->dry && d != DDIR_READ))	/* a dry run never issues a write */
		fprintf(j->iolog, "%lld %s %s %llu %llu\n", (long long)((now - j->t_begin) / 1000),
			j->iolog_name, ddir_name(d), (unsigned long long)off,
			(unsigned long long)len);
	if (j->debug)
		sim_debug_print(j->sim, SIM_DBG_JOB, "job %s.%u: %s offset %llu len %llu prio %u/%u%s",
				j->o->name, j->clone, ddir_name(d), (unsigned long long)off,
				(unsigned long long)len, ioprio_class(io->prio_eff),
				ioprio_level(io->prio_eff),
				io->prio_report != j->job_prio ? " (cmdprio)" : "");
}

/*
 * An inline job's parked I/O is submitted once it no longer overlaps one
 * in flight; true while it still waits (the job issues nothing else: fio
 * retries that I/O first).
 */
static bool unpark(struct job *j)
{
	while (j->parked_head && !j->blocked_io && !overlaps_in_flight(j, j->parked_head)) {
		struct job_io *io = j->parked_head;

		j->parked_head = io->next;
		io->t_dispatch = sim_now(j->sim);
		account_issue(j, io);
		io->in_flight = true;
		submit_bios(j, io);
	}
	return j->parked_head != NULL;
}

/*
 * The job ends with an inline I/O still parked: fio drops a requeued I/O
 * (never counted), and a write it logged for verify with it.
 */
static void drop_parked(struct job *j)
{
	while (j->parked_head) {
		struct job_io *io = j->parked_head;

		j->parked_head = io->next;
		j->inflight--;
		if (io->ddir == DDIR_TRIM)
			j->trimming = false;
		if (io->piece) {
			verifylog_unlog(&j->vlog, io->piece, io->piece_seq);
			io->piece = NULL;
		}
		io->next = j->free_ios;
		j->free_ios = io;
	}
}

static void job_finish(struct job *j);
static void start_segment(struct workload_runner *run);

static void wake_up(struct sim *sim, void *arg)
{
	struct job *j = arg;

	(void)sim;
	j->wake = 0;
	job_fill(j);
}

static void schedule_wake(struct job *j, int64_t when)
{
	if (j->wake && sim_is_pending(j->sim, j->wake))
		return;
	j->wake = sim_at(j->sim, when, wake_up, j);
}

static void sync_done(void *owner, struct blk_bio *bio);

/*
 * fio's fsync/fdatasync: the engine calls fsync(2) and the job waits for
 * it; on a block device it is a cache flush (blkdev_fsync() ->
 * blkdev_issue_flush()), an empty bio with REQ_PREFLUSH. I/Os already in
 * flight go on meanwhile.
 */
static void start_sync(struct job *j)
{
	struct blk_bio *b = &j->sync_bio;

	j->syncing = true;
	j->last_was_sync = true;
	j->sync_start = sim_now(j->sim);
	blk_bio_prep(b, 0, 0, true, j->job_prio, NULL, sync_done, j);
	/* sg: SYNCHRONIZE CACHE through SG_IO, which libata always sends as FLUSH CACHE EXT. */
	b->flags = j->o->sg ? BLK_PASSTHROUGH : BLK_PREFLUSH;
	sim_debug(j->sim, SIM_DBG_JOB, "job %s.%u: fsync after %llu writes", j->o->name,
		  j->clone, (unsigned long long)j->writes_issued);
	blk_submit(j->t->q, b);
}

/* fio's should_fsync() and the block counts: due after every N writes. */
static bool sync_due(const struct job *j)
{
	uint64_t w = j->writes_issued;

	return !j->last_was_sync && w &&
		((j->o->fsync_blocks && w % j->o->fsync_blocks == 0) ||
		 (j->o->fdatasync_blocks && w % j->o->fdatasync_blocks == 0));
}

/* Nothing in flight and nothing more to issue: end_fsync's flush, then the end. */
static void finish_when_idle(struct job *j)
{
	if (j->parked_head)
		drop_parked(j);
	if (j->inflight || j->syncing)
		return;
	if (j->o->end_fsync && !j->end_synced && j->writes_issued) {
		j->end_synced = true;
		start_sync(j);
		return;
	}
	job_finish(j);
}

static void sync_done(void *owner, struct blk_bio *bio)
{
	struct job *j = owner;

	if (bio->error && count_error(j, true, -bio->error))
		job_error(j, -bio->error, NULL);
	j->syncing = false;
	j->t_finish = sim_now(j->sim);
	if (!j->in_ramp && !j->sync_uncounted)
		hist_summary_add(&j->rep->sync_lat, (uint64_t)(j->t_finish - j->sync_start));
	j->sync_uncounted = false;
	if (j->issuing_done)
		finish_when_idle(j);
	else
		job_fill(j);
}

static void stop_issuing(struct job *j)
{
	j->issuing_done = true;
	finish_when_idle(j);
}

static void job_fill_queue(struct job *j);

/* After a fill: the batch submitted, and with batched reaping perhaps a wait. */
static inline __attribute__((always_inline)) void job_fill_tail(struct job *j)
{
	if (j->held)
		commit(j);
	/* Full: with batched reaping the job now waits for completions. */
	if (j->reap_batches && !j->finished && j->inflight == j->qd && !j->full_wait) {
		j->full_wait = true;
		j->reap_need = j->complete_min < j->inflight ? j->complete_min : j->inflight;
		if (!j->reap_need)
			j->reap_need = 1;
	}
}

static void job_fill(struct job *j)
{
	job_fill_queue(j);
	job_fill_tail(j);
}

/* ---- flow control ---- */

/* A job of the flow passed a check or ended: those held by it check again. */
static void flow_wake(struct workload_runner *run, int index)
{
	unsigned i;

	for (i = 0; i < run->njobs; i++) {
		struct job *k = &run->jobs[i];

		if (k->flow_index == index && k->flow_waiting) {
			k->flow_waiting = false;
			schedule_wake(k, sim_now(run->t->sim));
		}
	}
}

/*
 * Held, with nothing to let it go: no other job of its flow is running
 * (or about to, in this segment) to move the flow's count or to end, and
 * no runtime ends it — its partners wait in a later segment, for it.
 */
static bool flow_stuck(const struct job *j)
{
	const struct workload_runner *run = j->run;
	unsigned i;

	if (j->t_end != INT64_MAX)
		return false;
	for (i = 0; i < run->njobs; i++) {
		const struct job *k = &run->jobs[i];

		if (k == j || k->finished || k->flow_index != j->flow_index)
			continue;
		if (k->started ? !k->flow_waiting || k->t_end != INT64_MAX :
		    k->def->segment < run->segment)
			return false;
	}
	return true;
}

static void interrupt(struct workload_runner *run);

/*
 * fio's flow_threshold_exceeded(), before each I/O: a job whose share of
 * its flow's passes exceeds its share of the flow's weight is held (fio
 * spins on it; with flow_sleep it drains its queue and sleeps that long);
 * otherwise the flow's count and its own go up and the I/O goes ahead.
 * The weights are those of every job with the flow_id that has not ended,
 * started or not, as fio counts them from its start. True while held.
 */
static bool flow_held(struct job *j, int64_t now)
{
	struct job_flow *f = &j->run->flows[j->flow_index];

	if (j->flow_drain || now < j->flow_until) {
		if (j->flow_drain) {
			if (j->inflight)
				return true;	/* a completion calls job_fill() again */
			j->flow_drain = false;
			j->flow_until = now + j->o->flow_sleep * 1000LL;
		}
		if (now < j->flow_until) {
			schedule_wake(j, j->flow_until);
			return true;
		}
	}
	if ((double)j->flow_count / (double)f->counter > (double)j->o->flow / (double)f->weight) {
		if (flow_stuck(j)) {
			/* fio 3.33 spins here for ever: refuse the job file instead. */
			j->run->flow_stuck = j;
			interrupt(j->run);
			return true;
		}
		if (j->o->flow_sleep)
			j->flow_drain = true;
		else
			j->flow_waiting = true;
		return j->flow_waiting || flow_held(j, now);
	}
	f->counter++;
	j->flow_count++;
	j->flow_passed = true;
	flow_wake(j->run, j->flow_index);
	return false;
}

/* fio's flow_exit_job(): an ending job takes its passes and weight out of its flow. */
static void flow_exit(struct job *j)
{
	struct job_flow *f;

	if (j->flow_index < 0)
		return;
	f = &j->run->flows[j->flow_index];
	f->counter -= j->flow_count;
	f->weight -= j->o->flow;
	j->flow_count = 0;
	flow_wake(j->run, j->flow_index);
	j->flow_index = -1;
}

/*
 * After an I/O, fio checks whether to think (think_due()); a think first
 * drains the queue (io_u_quiesce(): what completes meanwhile is reaped at
 * once), then lasts thinktime. True while the job must wait: for its
 * in-flight I/O (a completion calls job_fill() again) or the think's end.
 */
static bool think_wait(struct job *j, int64_t now)
{
	if (j->think_check) {
		j->think_check = false;
		j->think_pending = think_due(j, now);
	}
	if (j->think_pending) {
		if (j->full_wait) {
			/* Completions held for a batched reap are reaped now (fio's quiesce). */
			j->full_wait = false;
			while (j->done_head) {
				struct job_io *io = j->done_head;

				j->done_head = io->next;
				j->unreaped--;
				io_reaped(j, io, true);
			}
		}
		if (j->inflight || j->syncing)
			return true;
		j->think_pending = false;
		think(j, now);
	}
	if (now < j->think_until) {
		schedule_wake(j, j->think_until);
		return true;
	}
	return false;
}

/* ---- verify: fio's read-back of what the job wrote ---- */

/* A read-back of a logged write: a read of the same bytes, the job's priority or cmdprio's. */
static void issue_verify_read(struct job *j, uint64_t off, uint64_t len)
{
	struct job_io_desc io = { DDIR_READ, off, len, 0, 0 };

	io.ioprio = next_cmdprio(j, DDIR_READ, len);
	j->issuing_verify = true;
	issue(j, &io);
	j->issuing_verify = false;
}

/*
 * fio's ts->runtime[]: a write phase counts for each direction it did I/O
 * in, a read-back for reads.
 */
static void phase_end(struct job *j, int64_t now, bool read_back)
{
	int d;

	for (d = 0; d < JOB_BS_DIRS; d++)
		if (read_back ? d == DDIR_READ : j->done_ios[d] > j->phase_ios[d])
			j->dir_runtime[d] += now - j->phase_start;
	for (d = 0; d < JOB_BS_DIRS; d++)
		j->phase_ios[d] = j->done_ios[d];
	j->phase_start = now;
}

/*
 * The verify phase, one step: 1 an I/O was issued (or the phase ended and
 * the generator goes on), 0 wait for a completion, -1 the job is done.
 */
static int verify_step(struct job *j, int64_t now)
{
	uint64_t off, len;
	bool trimmed;

	switch (j->vstate) {
	case VERIFY_DRAIN:
		if (j->inflight)
			return 0;
		phase_end(j, now, false);
		/* do_verify()'s fsync: the cache flush reaches the drive; fio reports none. */
		j->vstate = VERIFY_SYNC;
		j->sync_uncounted = true;
		start_sync(j);
		return 0;
	case VERIFY_SYNC:
		j->vstate = VERIFY_READING;
		/* fall through */
	case VERIFY_READING:
		if (verifylog_pop(&j->vlog, &off, &len, &trimmed)) {
			issue_verify_read(j, off, len);
			return 1;
		}
		j->vstate = VERIFY_TAIL;
		/* fall through */
	case VERIFY_TAIL:
		if (j->inflight)
			return 0;
		phase_end(j, now, true);
		j->vstate = VERIFY_NONE;
		if (j->verify_final)
			return -1;
		j->resume_pass = true;
		return 1;
	default:
		return 1;
	}
}

/*
 * verify_backlog, as fio's check_get_verify() before each I/O: once the
 * log holds a multiple of verify_backlog pieces and the last I/O was not a
 * read, a batch of verify_backlog_batch (else verify_backlog) read-backs
 * of the log's head, each only once its write has completed (else the
 * generator goes on, the batch waiting). True when it issued one.
 */
static bool backlog_read(struct job *j, int64_t now)
{
	const struct job_options *o = j->o;
	uint64_t off, len;
	bool trimmed;

	(void)now;
	if (!j->verify_on || !o->verify_backlog || !j->vlog.count)
		return false;
	if (!j->verify_batch) {
		if (j->vlog.count % o->verify_backlog || j->last_ddir == DDIR_READ)
			return false;
		j->verify_batch = o->verify_backlog_batch ? o->verify_backlog_batch :
			o->verify_backlog;
	}
	if (!verifylog_pop(&j->vlog, &off, &len, &trimmed))
		return false;
	j->verify_batch--;
	issue_verify_read(j, off, len);
	return true;
}

/*
 * trim_backlog, as fio's check_get_trim() before each I/O (before
 * check_get_verify()): with writes queued for trimming, the rest of a
 * batch, or once the log holds a multiple of trim_backlog pieces and the
 * last I/O to complete was not a read, a batch of trim_backlog_batch (else
 * trim_backlog) more after this one: the queue's head is trimmed (fio does
 * not wait for its write). Without trim_verify_zero it leaves the log. True
 * when it issued one.
 */
static bool backlog_trim(struct job *j)
{
	const struct job_options *o = j->o;
	struct job_io_desc io = { DDIR_TRIM, 0, 0, 0, 0 };

	if (!j->verify_on || !o->trim_backlog || !j->vlog.trim_count)
		return false;
	if (j->trim_batch)
		j->trim_batch--;
	else if (j->vlog.count % o->trim_backlog || j->last_ddir == DDIR_READ)
		return false;
	else
		j->trim_batch = o->trim_backlog_batch ? o->trim_backlog_batch : o->trim_backlog;
	if (!verifylog_trim_pop(&j->vlog, o->trim_verify_zero, &io.offset, &io.len))
		return false;
	issue(j, &io);
	return true;
}

/* An I/O issued: the flow's next check, and fio's handle_thinktime() after each I/O. */
static inline void paced_after_io(struct job *j, int ddir)
{
	if (j->paced) {
		j->flow_passed = false;
		j->think_check = j->o->thinktime != 0;
		j->think_dir = ddir;
	}
}

/*
 * job_fill_queue()'s loop as it runs for a read_loop job: no think time,
 * latency target, parked I/O, verify, sync or trim to wait for. False
 * when a limit is reached: the general path (the source) ends the job
 * (never with `lean`, the job's read_lean: it has no limit).
 */
/* Whether fill_reads() goes on: room in the queue, a submission not blocked, issuing not done. */
static inline bool reads_wanted(const struct job *j)
{
	return j->inflight < j->qd && !j->blocked_io && !j->issuing_done;
}

static inline __attribute__((always_inline)) bool fill_reads(struct job *j, int64_t now,
							       bool lean)
{
	/* Never syncing: reads only, no fsync or verify (fill_plain), so no end_fsync either. */
	while (reads_wanted(j)) {
		if (now >= j->t_end) {
			j->issuing_done = true;
			break;
		}
		if (!read_loop_next(j, now, lean, NULL))
			return false;
	}
	if (j->issuing_done)
		finish_when_idle(j);
	return true;
}

static __attribute__((noinline)) void fill_general(struct job *j, int64_t now);

static void job_fill_queue(struct job *j)
{
	int64_t now = sim_now(j->sim);

	if (j->finished)
		return;
	if (j->read_loop && fill_reads(j, now, false))
		return;
	fill_general(j, now);
}

static __attribute__((noinline)) void fill_general(struct job *j, int64_t now)
{
	if (j->lat_quiesce) {
		if (j->inflight)
			return;
		j->lat_quiesce = false;	/* drained: the new depth starts now */
		lat_new_cycle(j, now);
	}
	if (j->serialize) {
		/* An inline job issues nothing past an I/O still parked. */
		if (j->parked_head && unpark(j) && !j->issuing_done)
			return;
		if (j->run->parked_head)
			unpark_offload(j->run);
	}
	while (!j->blocked_io && !j->syncing && !j->trimming && !j->issuing_done &&
	       j->inflight < j->qd) {
		struct job_io_desc io;
		int64_t wake_at;

		if (now >= j->t_end) {
			j->issuing_done = true;
			break;
		}
		if (j->fill_plain)
			goto from_source;
		/* Think times, flow control, a rate's drain: one test when a job has none. */
		if (j->paced && (j->think_check || j->think_pending || now < j->think_until) &&
		    think_wait(j, now))
			return;
		/* fio's do_verify(): the read-back, with no flow control or think time of its own. */
		if (j->vstate != VERIFY_NONE) {
			int v = verify_step(j, now);

			if (v > 0)
				continue;
			if (v == 0)
				return;
			j->issuing_done = true;
			break;
		}
		if (j->paced && j->flow_index >= 0 && !j->flow_passed && flow_held(j, now))
			return;
		if (sync_due(j)) {
			j->flow_passed = false;
			start_sync(j);
			return;
		}
		if (j->paced && (j->rate_drain || now < j->rate_until)) {
			if (j->rate_drain) {
				if (j->inflight)
					return;	/* a completion calls job_fill() again */
				j->rate_drain = false;
				j->rate_until = now + j->rate_left;
			}
			if (now < j->rate_until) {
				schedule_wake(j, j->rate_until);
				return;
			}
		}
		/* trim_backlog, verify_backlog: an I/O of the log's, in do_io() as any other. */
		if (backlog_trim(j)) {
			paced_after_io(j, DDIR_TRIM);
			continue;
		}
		if (backlog_read(j, now)) {
			paced_after_io(j, DDIR_READ);
			continue;
		}
from_source:
		switch (j->source->next(j->source_state, now, &io, &wake_at)) {
		case JOB_SOURCE_IO:
			issue(j, &io);
			paced_after_io(j, io.ddir);
			continue;
		case JOB_SOURCE_WAIT:
			/* A rate's or a pass's drain: each completion asks again. */
			if (!j->rate_drain && !j->pass_over)
				schedule_wake(j, wake_at);
			return;
		case JOB_SOURCE_END:
			/* A pass that did nothing (fio: no bytes done) ends the job unverified. */
			if (j->verify_on && (j->pass_bytes || j->pass_trimmed || j->vlog.count)) {
				/* The last pass's writes are read back before the job ends. */
				j->vstate = VERIFY_DRAIN;
				j->verify_final = true;
				continue;
			}
			j->issuing_done = true;
			/* After a think the job ends now, not at its last completion (fio's runtime). */
			if (j->t_finish < now)
				j->t_finish = now;
			break;
		}
	}
	if (j->issuing_done)
		finish_when_idle(j);
}

/*
 * bio_done(), io_done() and job_fill() as they run for a read_loop job's
 * read that succeeded, reaped at once (no batch waiting) and sampled.
 */
static void read_done(void *owner, struct blk_bio *bio)
{
	struct job_io *io = owner;
	struct job *j = io->job;
	int64_t now;

	if (bio->error || j->reap_aside) {
		bio_done(owner, bio);
		return;
	}
	/* One time for the reap and the fill: nothing runs between them. */
	now = sim_now(j->sim);
	/*
	 * bio_done()'s t_dispatch for its one bio, kept in a register: io's
	 * is not read again before the next issue sets it, nor its left.
	 * Not finished: this read was in flight until now, and job_finish()
	 * needs none, so the fill follows.
	 */
	if (j->read_lean) {
		io_reaped_plain_as(j, io, DDIR_READ, j->min_bs[DDIR_READ],
				   bio->t_dispatched > io->t_dispatch ? bio->t_dispatched :
				   io->t_dispatch, true, now, true);
		/*
		 * fill_reads()'s first read in the unit just reaped (read_lean
		 * has no limit: read_loop_next() issues it), else the unit goes
		 * back to the free list before anything, finish_when_idle()
		 * too, can look; then the rest of fill_reads().
		 */
		if (reads_wanted(j) && now < j->t_end) {
			read_loop_next(j, now, true, io);
		} else {
			io->next = j->free_ios;
			j->free_ios = io;
		}
		/* Nothing held, no batched reaping: job_fill_tail() has nothing to do. */
		fill_reads(j, now, true);
		return;
	}
	io_reaped_plain_as(j, io, DDIR_READ, j->min_bs[DDIR_READ],
			   bio->t_dispatched > io->t_dispatch ? bio->t_dispatched : io->t_dispatch,
			   true, now, false);
	if (!fill_reads(j, now, false))
		fill_general(j, now);
	job_fill_tail(j);
}

/* ---- time: start, ramp, samples, end ---- */

/* ---- steady state: fio's steadystate_check(), every second ---- */

static void end_job(struct job *k, int64_t now);

/* Attained: the job ends, or with group_reporting every job of its group (fio's). */
static void ss_attained(struct job *j, int64_t now)
{
	struct workload_runner *run = j->run;
	unsigned i;

	if (!j->o->group_reporting) {
		end_job(j, now);
		return;
	}
	for (i = 0; i < run->njobs; i++) {
		struct job *k = &run->jobs[i];

		if (k->def->groupid != j->def->groupid)
			continue;
		if (k->rep->ss)
			k->rep->ss->attained = true;
		if (!k->finished && !k->terminated)
			end_job(k, now);
	}
}

/*
 * fio's steadystate_check(): each second, every running job past
 * ramp_time (and past ss_ramp + 1 s) takes the I/Os and bytes it completed
 * since its last sample, per second; with group_reporting the jobs of a
 * group add theirs up and the group's last job judges the sum; without,
 * each job its own.
 */
static void ss_tick(struct sim *sim, void *arg)
{
	struct workload_runner *run = arg;
	int64_t now = sim_now(sim);
	uint64_t group_bw = 0, group_iops = 0;
	unsigned i, over = 0;
	int prev_group = -1;
	bool watching = false;

	run->ss_tick = 0;
	for (i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];
		struct steady *ss = j->rep->ss;
		uint64_t ios, bytes, ms;

		if (!ss)
			continue;
		watching |= !j->finished;
		if (!ss->dur || !j->started || j->in_ramp || j->finished || ss->attained)
			continue;
		if (!j->o->group_reporting || j->def->groupid != prev_group) {
			group_bw = group_iops = 0;
			over = 0;
		}
		prev_group = j->def->groupid;
		if (!j->ss_ramp_over && now - j->ss_epoch >= j->o->ss_ramp + SIM_SEC)
			j->ss_ramp_over = true;
		ios = j->done_ios[DDIR_READ] + j->done_ios[DDIR_WRITE];
		bytes = j->done_bytes[DDIR_READ] + j->done_bytes[DDIR_WRITE];
		ms = (uint64_t)(now - j->ss_prev_time) / 1000000;
		j->ss_prev_time = now;
		if (j->ss_ramp_over && ms) {
			group_bw += 1000 * (bytes - j->ss_prev_bytes) / ms;
			group_iops += 1000 * (ios - j->ss_prev_ios) / ms;
			over++;
		}
		j->ss_prev_ios = ios;
		j->ss_prev_bytes = bytes;
		if ((j->o->group_reporting && !j->ss_holder) || !over)
			continue;
		if (steady_add(ss, group_iops, group_bw))
			ss_attained(j, now);
	}
	if (watching)
		run->ss_tick = sim_after(sim, SIM_SEC, ss_tick, run);
}

static void ramp_end(struct sim *sim, void *arg)
{
	struct job *j = arg;

	loop_depths_fold(j);	/* drops the ramp's reads */
	j->in_ramp = false;
	j->unsampled = !j->o->stats;
	j->t_stats = sim_now(sim);
	/*
	 * fio's reset_all_stats(): the steady-state samples count from here,
	 * and its helper thread's second starts again (helper_reset()).
	 */
	j->ss_epoch = j->ss_prev_time = j->t_stats;
	if (j->run->ss_tick) {
		sim_cancel(sim, j->run->ss_tick);
		j->run->ss_tick = sim_after(sim, SIM_SEC, ss_tick, j->run);
	}
	/*
	 * fio's reset_all_stats() zeroes the counts thinktime_blocks compares,
	 * not the count the last think took: the job issues that many I/Os
	 * without a think after ramp_time (fio 3.33: ramp_time=1 thinktime=10ms
	 * on a fast device, 297 I/Os in the next 2 s where 198 would follow).
	 */
	j->think_issued = j->think_done = 0;
	lat_target_init(j, j->t_stats);
	report_job_reset(j->rep);
	sampler_restart(&j->bw_s, j->t_stats);
	sampler_restart(&j->iops_s, j->t_stats);
}

static void time_up(struct sim *sim, void *arg)
{
	struct job *j = arg;

	if (!j->finished && !j->issuing_done) {
		/*
		 * fio's runtime runs to here even when the job was waiting (for
		 * its rate, a think time) with nothing in flight: it leaves its
		 * loop at the runtime, not at its last completion.
		 */
		if (j->t_finish < sim_now(sim))
			j->t_finish = sim_now(sim);
		j->timed_out = true;
		stop_issuing(j);
	}
}

/*
 * fio's waitee_running(): a job with wait_for=NAME starts only once every
 * job of that name (each numjobs clone) has finished; jobs sharing its own
 * name do not count.
 */
static bool waitee_running(const struct job *j)
{
	const struct workload_runner *run = j->run;
	unsigned i;

	if (!j->o->wait_for[0])
		return false;
	for (i = 0; i < run->njobs; i++) {
		const struct job *k = &run->jobs[i];

		if (!strcmp(k->o->name, j->o->name) || strcmp(k->o->name, j->o->wait_for))
			continue;
		if (!k->finished)
			return true;
	}
	return false;
}

/*
 * log_unix_epoch, log_alternate_epoch: fio adds the job's start on a clock
 * (log_alternate_epoch_clock_id's, in ms; log_unix_epoch is the same
 * thing in fio 3.33) to every log time. The simulation's clocks, by
 * Linux's clock ids: the wall clock (REALTIME, REALTIME_COARSE,
 * REALTIME_ALARM, TAI — whose offset is 0, as on a machine NTP has not
 * set) is the run's start plus simulated time; the monotonic and boot
 * clocks (MONOTONIC, MONOTONIC_RAW, MONOTONIC_COARSE, BOOTTIME,
 * BOOTTIME_ALARM) the simulated machine's uptime, simulated time itself;
 * the CPU-time clocks (PROCESS_CPUTIME_ID, THREAD_CPUTIME_ID) stay at 0: a
 * simulation spends no CPU time.
 */
static int64_t log_epoch(const struct job *j, int64_t now)
{
	const struct job_options *o = j->o;

	if (!o->log_unix_epoch && !o->log_alternate_epoch)
		return 0;
	switch (o->log_alternate_epoch_clock_id) {
	case 0: case 5: case 8: case 11:
		return j->run->ro->wall_ms + now / 1000000;
	case 2: case 3:
		return 0;
	default:
		return now / 1000000;
	}
}

/* The job's I/O is direct: direct=1 (buffered=0), or atomic=1, which implies it (fio). */
static bool job_direct(const struct job_options *o)
{
	return o->direct || o->atomic;
}

/*
 * What fails as the job opens its file or submits its first I/O, before
 * any reaches the block layer (the job then ends with that error, as in
 * fio): fio's write_hint is fcntl(F_SET_FILE_RW_HINT) on the file with
 * direct I/O, F_SET_RW_HINT on the inode without (the drive's inode, which
 * every job shares), each EINVAL where the kernel lacks it; libaio's
 * nowait is an iocb field 4.10 still reserves, so io_submit fails with
 * EINVAL. True when the job ends here.
 */
static bool open_file_flags(struct job *j)
{
	const struct job_options *o = j->o;
	int k = j->t->kernel;

	if (o->write_hint) {
		if (!host_kernel_has(k, HOST_KC_RW_HINT) ||
		    (job_direct(o) && host_kernel_has(k, HOST_KC_NO_FILE_RW_HINT))) {
			job_error(j, EINVAL, "ioengines.c, func=fcntl write hint");
			snprintf(j->rep->error_note, sizeof(j->rep->error_note),
				 "fio: pid=%u, err=%d/file:%s, error=%s", j->number, EINVAL,
				 j->rep->error_site, strerror(EINVAL));
			return true;
		}
		if (job_direct(o))
			j->file_hint = (uint8_t)o->write_hint;
		else
			j->run->inode_hint = (uint8_t)o->write_hint;
	}
	if (o->nowait && !strcmp(o->ioengine, "libaio") && !host_kernel_has(k, HOST_KC_NOWAIT)) {
		job_error(j, EINVAL, "ioengines.c, func=io commit");
		return true;
	}
	return false;
}

static void job_start(struct sim *sim, void *arg)
{
	struct job *j = arg;
	int64_t now = sim_now(sim), runtime = j->o->runtime;
	int d, k;

	if (j->finished)
		return;		/* ended before it started (exitall) */
	if (!j->run->interrupted && waitee_running(j)) {
		/* Started again by job_finish() when the last of its waitees ends. */
		j->waiting = true;
		return;
	}
	if (j->run->interrupted) {
		/* Its startdelay ran past the interruption: it ends without an I/O. */
		j->started = true;
		j->t_begin = j->t_stats = j->t_finish = now;
		stop_issuing(j);
		return;
	}

	j->started = true;
	j->t_begin = now;
	j->log_epoch_ms = log_epoch(j, now);
	j->think_start = now;
	j->ss_epoch = j->ss_prev_time = now;
	j->ss_ramp_over = !j->o->ss_ramp;
	j->phase_start = now + j->o->ramp_time;
	lat_target_init(j, now);
	/* fio's rate schedule counts from the job's start (its epoch), not from 0. */
	for (d = 0; d < DDIR_COUNT; d++)
		j->next_issue[d] = now;
	j->t_stats = now + j->o->ramp_time;
	j->in_ramp = j->o->ramp_time > 0;
	j->unsampled = j->in_ramp || !j->o->stats;
	j->t_end = INT64_MAX;
	if (runtime)
		j->t_end = now + j->o->ramp_time + runtime;
	if (j->iolog)
		fprintf(j->iolog, "0 %s add\n0 %s open\n", j->iolog_name, j->iolog_name);
	if (j->in_ramp) {
		sim_at(sim, j->t_stats, ramp_end, j);
	} else {
		sampler_restart(&j->bw_s, now);
		sampler_restart(&j->iops_s, now);
	}
	if (j->t_end != INT64_MAX)
		sim_at(sim, j->t_end, time_up, j);
	for (k = 0; k < LOG_KINDS; k++)
		j->lw_due[k] = now + (int64_t)j->lw_ms[k] * SIM_MSEC;
	if (log_next_due(j) != INT64_MAX)
		sim_at(sim, log_next_due(j), log_tick, j);
	sim_debug(sim, SIM_DBG_JOB, "job %s.%u starts: depth %u, region %llu..%llu", j->o->name,
		  j->clone, j->depth, (unsigned long long)j->start, (unsigned long long)j->end);
	if (open_file_flags(j)) {
		stop_issuing(j);
		return;
	}
	job_fill(j);
}

/*
 * fio's fio_terminate_threads(), as exitall and exitall_on_error call it
 * when a job ends (exit_what is the ending job's): group ends the jobs of
 * its reporting group, stonewall every job running now (not those in
 * ramp_time, waiting for their startdelay or wait_for, or in later
 * segments: fio's runstate >= TD_RUNNING), all every job, started or not.
 * A job that is running stops issuing and drains, as at its runtime; one
 * that has not started never does, and ends with no I/O.
 *
 * fio 3.33 counts such a never-started job off its list of jobs to start
 * again on every pass of its start loop, so that later stonewall segments
 * may never start either; ncqsim starts them.
 */
/*
 * fio's fio_mark_td_terminate(): a running job stops issuing and drains,
 * its runtime ending now even if it was waiting; one not started never
 * does, and ends with no I/O.
 */
static void end_job(struct job *k, int64_t now)
{
	k->terminated = true;
	if (k->started) {
		if (!k->issuing_done) {
			if (k->t_finish < now)
				k->t_finish = now;
			stop_issuing(k);
		}
	} else if (k->def->segment < k->run->segment) {
		/* Its segment began: counted as running, it ends now without an I/O. */
		k->waiting = false;
		k->never_ran = true;
		k->started = true;
		k->t_begin = k->t_stats = k->t_finish = now;
		k->issuing_done = true;
		job_finish(k);
	} else {
		k->finished = true;	/* a later segment: never counted, never started */
	}
}

static void terminate_jobs(struct job *by)
{
	struct workload_runner *run = by->run;
	int mode = by->o->exit_what;
	int64_t now = sim_now(run->t->sim);
	unsigned i;

	for (i = 0; i < run->njobs; i++) {
		struct job *k = &run->jobs[i];
		bool hit = mode == JOB_EXIT_ALL ||
			(mode == JOB_EXIT_GROUP && k->def->groupid == by->def->groupid) ||
			(mode == JOB_EXIT_STONEWALL && k->started && !k->in_ramp);

		if (hit && !k->terminated && !k->finished)
			end_job(k, now);
	}
	if (mode == JOB_EXIT_ALL)
		run->segment = run->nsegments;	/* no later segment starts */
}

/* Jobs held by wait_for whose waitees have all finished start now (fio polls for it). */
static void wake_waiters(struct workload_runner *run)
{
	unsigned i;

	for (i = 0; i < run->njobs; i++) {
		struct job *k = &run->jobs[i];

		if (k->waiting && !waitee_running(k)) {
			k->waiting = false;
			sim_after(run->t->sim, 0, job_start, k);
		}
	}
}

static void job_finish(struct job *j)
{
	struct workload_runner *run = j->run;
	int64_t span = j->t_finish > j->t_stats ? j->t_finish - j->t_stats : 0;
	int d;

	if (j->finished)
		return;
	SIM_ASSERT(!j->inflight, "job %s ends with %u I/Os in flight", j->o->name, j->inflight);
	j->finished = true;
	loop_depths_fold(j);
	/* io_reaped_plain_as() converts one count for the five summaries: check they kept one. */
	for (d = DDIR_READ; j->reap_plain && d <= DDIR_WRITE; d++) {
		const struct report_dir *rd = &j->rep->dir[d];
		uint64_t n = hist_summary_pair_n(&rd->split);

		if (j->lat_is_clat[d])
			slat_lat_settle(j, d);	/* the report reads them from here on */

		SIM_ASSERT(rd->slat.sum.n == n && rd->clat.sum.n == n && rd->lat.sum.n == n,
			   "job %s, %s: the plain reap's summaries hold "
			   "different counts", j->o->name, d ? "write" : "read");
	}
	SIM_ASSERT(!j->read_lean || (!j->held && j->qd <= 64), "job %s: read_lean, yet a read "
		   "was held or the depth grew past 64", j->o->name);
	if (j->verify_on)
		phase_end(j, j->t_finish, false);
	/*
	 * fio's update_runtime(): a direction's runtime is the whole µs it ran
	 * (utime_since_now()) rounded up to the ms — 7.95 ms is 8 ms, where
	 * job_runtime (mtime_since_now()) keeps 7. A verifying job's phases
	 * count apart (a phase of fio's never takes no time: at least 1), and
	 * verify_only's writes not at all.
	 */
	for (d = 0; d < JOB_BS_DIRS; d++) {
		struct report_dir *rd = &j->rep->dir[d];
		int64_t ns = j->verify_on ? j->dir_runtime[d] : span;

		if (!rd->io_bytes)
			continue;
		if (j->verify_on && j->dry && d == DDIR_WRITE) {
			rd->runtime_ms = 0;
			continue;
		}
		rd->runtime_ms = (uint64_t)((ns / 1000 + 999) / 1000);
		if (j->verify_on && !rd->runtime_ms)
			rd->runtime_ms = 1;
	}
	j->rep->run_time_ms = span / 1000000;
	if (j->o->latency_target)
		j->rep->latency_depth = j->qd;	/* where the search settled */
	j->rep->elapsed_s = (double)j->t_finish / 1e9;
	if (j->iolog)
		fprintf(j->iolog, "%lld %s close\n", (long long)((j->t_finish - j->t_begin) / 1000),
			j->iolog_name);
	/* The last windows of the logs averaged per I/O, at the job's end (fio's finalize_logs()). */
	log_window(j, j->timed_out && j->t_end > j->t_finish ? j->t_end : j->t_finish, true);
	sim_debug(j->sim, SIM_DBG_JOB, "job %s.%u done: %llu I/Os", j->o->name, j->clone,
		  (unsigned long long)j->issued_ios);
	flow_exit(j);
	/* fio's thread_main() end: a job that ran ends the others (one never started does not). */
	if (!j->never_ran && (run->exitall || (j->o->exitall_on_error && j->rep->error)))
		terminate_jobs(j);
	wake_waiters(run);
	if (--run->running == 0)
		start_segment(run);
}

/* Every job stops issuing now; what is in flight completes; no later segment starts. */
static void interrupt(struct workload_runner *run)
{
	unsigned i;

	run->interrupted = true;
	for (i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];

		if (j->def->segment >= run->segment)
			j->finished = true;	/* a later segment: it never starts */
		else if (j->started && !j->finished && !j->issuing_done)
			stop_issuing(j);
	}
	run->segment = run->nsegments;
}

static void start_segment(struct workload_runner *run)
{
	unsigned i;

	while (run->segment < run->nsegments) {
		unsigned seg = run->segment++;

		for (i = 0; i < run->njobs; i++) {
			struct job *j = &run->jobs[i];

			if (j->def->segment != seg)
				continue;
			run->running++;
			/*
			 * fio's startdelay counts from its start (genesis), not from
			 * the segment's: a job whose delay has passed by the time its
			 * stonewall lets it go starts at once.
			 */
			sim_at(run->t->sim, run->t0 + j->o->startdelay > sim_now(run->t->sim) ?
			       run->t0 + j->o->startdelay : sim_now(run->t->sim), job_start, j);
		}
		if (run->running)
			return;
	}
}

/* ---- setting up ---- */

/* An output that would overwrite an input of the run (job file, system, drive, trace): refused. */
static int refuse_input(const struct job *j, const char *path, const char *option, struct err *e)
{
	const struct workload_run_opts *ro = j->run->ro;
	const char *input = NULL;
	size_t i;

	for (i = 0; i < j->run->w->ninputs && !input; i++)
		if (outfile_same_target(path, j->run->w->inputs[i]))
			input = j->run->w->inputs[i];
	for (i = 0; i < ro->nprotect && !input; i++)
		if (outfile_same_target(path, ro->protect[i]))
			input = ro->protect[i];
	if (input)
		return err_set(e, "%s:%d: job '%s': option '%s': %s is an input of this run (%s); "
			       "refusing to overwrite it", j->def->file, j->def->line, j->o->name,
			       option, path, input);
	return 0;
}

/*
 * A log file, refused when it would overwrite an input. With `store` the
 * log is fio's compressed store: *store is its writer, shared like the
 * file when jobs write one log (per_job_logs=0).
 */
static FILE *open_out(struct job *j, const char *path, const char *option,
		      struct log_store **store, struct err *e)
{
	struct outfile *o = &j->logs[j->nlogs];
	char what[JOB_NAME_MAX + 64];

	if (refuse_input(j, path, option, e))
		return NULL;
	if (!j->o->per_job_logs) {
		/* per_job_logs=0: jobs naming the same log write rows into one file (fio's). */
		struct job *k;
		unsigned l;

		for (k = j->run->jobs; k < j; k++)
			for (l = 0; l < k->nlogs; l++)
				if (k->logs[l].path && !strcmp(k->logs[l].path, path)) {
					j->writes_logs = true;
					if (store)
						*store = &k->stores[l];
					return k->logs[l].f;
				}
	}
	snprintf(what, sizeof(what), "job '%s': %s", j->o->name, option);
	if (outfile_open(o, path, what, e))
		return NULL;
	if (store) {
		struct log_store *st = &j->stores[j->nlogs];
		/* log_compression's chunk: whole samples per zlib stream, as fio compresses them. */
		uint64_t size = j->o->log_offset ? 40 : 32;

		zstore_init(&st->z, o->f);
		st->per_stream = j->o->log_compression ? j->o->log_compression / size : 0;
		if (j->o->log_compression && !st->per_stream)
			st->per_stream = 1;
		st->in_stream = 0;
		*store = st;
	}
	j->nlogs++;
	j->writes_logs = true;
	return o->f;
}

/*
 * PREFIX_KIND[.N][.TAG].log, or .log.fz for fio's compressed store; the
 * time-series logs (kind < LOG_KINDS) may be compressed, the histogram
 * log (LOG_KINDS) is not.
 */
static FILE *open_log(struct job *j, const char *prefix, const char *name, int kind,
		      const char *option, struct err *e)
{
	char path[JOB_PATH_MAX + 192];
	const char *tag = j->run->ro->log_tag;
	bool store = kind < LOG_KINDS && j->o->log_store_compressed;
	char number[16] = "";
	FILE *f;

	if (j->o->per_job_logs)
		snprintf(number, sizeof(number), ".%u", j->number);
	snprintf(path, sizeof(path), "%s_%s%s%s%s.log%s", prefix, name, number, tag ? "." : "",
		 tag ? tag : "", store ? ".fz" : "");
	f = open_out(j, path, option, store ? &j->log_z[kind] : NULL, e);
	if (kind < LOG_KINDS)
		j->log_f[kind] = f;
	return f;
}

/*
 * filesize: where the region ends, as fio's setup_files(): a fixed size,
 * or for a range one drawn from the job's seed and aligned down to the
 * smallest block (fio's get_rand_file_size()); a drive whose size is
 * already within the range is used whole. 0: no filesize.
 */
static uint64_t file_end(const struct job *j, uint64_t seed)
{
	const struct job_options *o = j->o;
	uint64_t cap = j->t->capacity, lo, hi, min_bs = UINT64_MAX, size;
	char name[256];
	struct rng r;
	int d;

	if (!o->filesize_lo)
		return 0;
	if (cap >= o->filesize_lo && cap <= o->filesize_hi)
		return cap;
	if (o->filesize_lo == o->filesize_hi)
		return o->filesize_lo;
	for (d = 0; d < DDIR_COUNT; d++) {
		job_bs_extent(o, d, &lo, &hi);
		if (lo < min_bs)
			min_bs = lo;
	}
	snprintf(name, sizeof(name), "job/%s/%u/%u/filesize", o->name, j->def->occurrence, j->clone);
	rng_seed(&r, seed, name);
	size = o->filesize_lo + rng_below(&r, o->filesize_hi - o->filesize_lo);
	return size - size % min_bs;
}

/* zonemode=strided's zones, checked as fio's fixup_options() does. */
static int check_zones(struct job *j, struct err *e)
{
	const struct job_options *o = j->o;
	const struct job_def *d = j->def;
	uint64_t ls = j->t->logical_size;

	if (o->zonemode == JOB_ZONEMODE_NONE) {
		if (o->zonesize)
			return err_set(e, "%s:%d: job '%s': option 'zonesize': zonemode=none (the "
				       "default) and zonesize do not go together (fio refuses them "
				       "too); add zonemode=strided", d->file, d->line, o->name);
		return 0;
	}
	if (!o->zonesize)
		return err_set(e, "%s:%d: job '%s': option 'zonemode': strided needs zonesize",
			       d->file, d->line, o->name);
	j->zone_range = o->zonerange ? o->zonerange : o->zonesize;
	if (j->zone_range % ls || o->zoneskip % ls)
		return err_set(e, "%s:%d: job '%s': option 'zonerange': zonerange and zoneskip "
			       "must be multiples of the drive's %llu-byte sectors", d->file, d->line,
			       o->name, (unsigned long long)ls);
	return 0;
}

/*
 * offset=N%: fio's get_start_offset() rounds the share of the drive up to
 * offset_align, else to the smallest blockalign given, else to the
 * smallest block size.
 */
static uint64_t percent_offset(const struct job *j)
{
	const struct job_options *o = j->o;
	uint64_t off = j->t->capacity * o->offset / 100, align = UINT64_MAX, lo, hi;
	int d;

	for (d = 0; d < DDIR_COUNT; d++) {
		job_bs_extent(o, d, &lo, &hi);
		if (o->blockalign[DDIR_READ] || o->blockalign[DDIR_WRITE])
			lo = o->blockalign[d] ? o->blockalign[d] : lo;
		if (lo < align)
			align = lo;
	}
	if (o->offset_align)
		align = o->offset_align;
	if (off % align)
		off += align - off % align;
	return off;
}

static int region(struct job *j, uint64_t seed, struct err *e)
{
	const struct job_options *o = j->o;
	const struct job_def *d = j->def;
	uint64_t cap = j->t->capacity, ls = j->t->logical_size, off, size;
	int dir;

	off = o->offset_pct ? percent_offset(j) : o->offset;
	off += o->offset_increment * j->clone;	/* fio: subjob_number x offset_increment */
	if (off >= cap)
		return err_set(e, "%s:%d: job '%s': option 'offset': %llu is beyond the drive's %llu "
			       "bytes", d->file, d->line, o->name, (unsigned long long)off,
			       (unsigned long long)cap);
	if (off % ls)
		return err_set(e, "%s:%d: job '%s': option 'offset': %llu is not a multiple of the "
			       "drive's %llu-byte sectors", d->file, d->line, o->name,
			       (unsigned long long)off, (unsigned long long)ls);
	j->zone_base = off;
	if (check_zones(j, e))
		return -1;
	if (o->filesize_lo) {
		/*
		 * filesize sets the region, [offset, filesize); size then only
		 * says how much I/O (capped at the region), as in fio; size=N%
		 * is a share of the region.
		 */
		uint64_t fend = file_end(j, seed);

		if (fend > cap)
			return err_set(e, "%s:%d: job '%s': option 'filesize': %llu runs past the "
				       "drive's %llu bytes", d->file, d->line, o->name,
				       (unsigned long long)fend, (unsigned long long)cap);
		if (off >= fend)
			return err_set(e, "%s:%d: job '%s': option 'offset': %llu is not below "
				       "filesize %llu, where the region ends", d->file, d->line,
				       o->name, (unsigned long long)off, (unsigned long long)fend);
		size = fend - off;
		if (o->size_pct)
			size = size * o->size / 100 / ls * ls;
		j->amount = o->size && !o->size_pct && o->size < size ? o->size : size;
	} else {
		size = o->size ? (o->size_pct ? cap * o->size / 100 / ls * ls : o->size) : cap - off;
		j->amount = size;
	}
	if (off + size > cap)
		return err_set(e, "%s:%d: job '%s': option 'size': offset %llu + size %llu runs past "
			       "the drive's %llu bytes", d->file, d->line, o->name,
			       (unsigned long long)off, (unsigned long long)size,
			       (unsigned long long)cap);
	j->start = off;
	j->end = off + size;
	for (dir = 0; dir < JOB_BS_DIRS; dir++) {
		uint64_t lo, hi;

		job_bs_extent(o, dir, &lo, &hi);
		if (lo % ls || hi % ls)
			return err_set(e, "%s:%d: job '%s': option 'bs': block sizes must be multiples "
				       "of the drive's %llu-byte logical sector", d->file, d->line,
				       o->name, (unsigned long long)ls);
		if (hi > size)
			return err_set(e, "%s:%d: job '%s': option 'bs': a %llu-byte block does not "
				       "fit in the %llu-byte region", d->file, d->line, o->name,
				       (unsigned long long)hi, (unsigned long long)size);
		j->align[dir] = o->blockalign[dir] ? o->blockalign[dir] : lo;
		if (j->align[dir] % ls)
			return err_set(e, "%s:%d: job '%s': option 'blockalign': %llu is not a multiple "
				       "of the drive's %llu-byte sectors", d->file, d->line, o->name,
				       (unsigned long long)j->align[dir], (unsigned long long)ls);
		if ((hi + j->t->max_request - 1) / j->t->max_request > j->bios_per_io)
			j->bios_per_io = (unsigned)((hi + j->t->max_request - 1) / j->t->max_request);
		if (j->bios_per_io > 4096)
			return err_set(e, "%s:%d: job '%s': option 'bs': %llu bytes would be %u requests "
				       "of queue/max_sectors_kb; at most 4096", d->file, d->line, o->name,
				       (unsigned long long)hi, j->bios_per_io);
	}
	return 0;
}

/*
 * fio's fixup_options() for the batch options: iodepth_batch_submit 0 or
 * beyond iodepth means iodepth, iodepth_low 0 or beyond it means iodepth,
 * complete_max below complete_min means complete_min. A sync engine has
 * one I/O per call and nothing to batch. complete_min 0 waits for one, as
 * fio's wait_for_completions() does on a full queue.
 */
static void batch_setup(struct job *j)
{
	const struct job_options *o = j->o;

	j->submit_batch = 1;
	j->complete_min = j->complete_max = 1;
	j->depth_low = j->depth;
	/* A sync engine, or offload's workers (each with iodepth 1): one I/O a call. */
	if (o->engine_kind == JOB_ENGINE_SYNC || j->offload)
		return;
	j->submit_batch = !o->iodepth_batch || o->iodepth_batch > j->depth ? j->depth :
		o->iodepth_batch;
	j->complete_min = o->iodepth_batch_complete_min ? o->iodepth_batch_complete_min : 1;
	if (j->complete_min > j->depth)
		j->complete_min = j->depth;
	j->complete_max = o->iodepth_batch_complete_max > j->complete_min ?
		o->iodepth_batch_complete_max : j->complete_min;
	if (j->complete_max > j->depth)
		j->complete_max = j->depth;
	j->depth_low = !o->iodepth_low || o->iodepth_low > j->depth ? j->depth : o->iodepth_low;
	/*
	 * fio_sgio_getevents() reads sg headers until it has `max`, each read
	 * waiting for one: the sg node's reap waits for complete_max.
	 */
	if (o->sg_node)
		j->complete_min = j->complete_max;
	/* The defaults reap each completion at once: the plain path. */
	j->reap_batches = j->complete_min > 1 || j->complete_max > 1 || j->depth_low < j->depth;
}

/*
 * The job's random streams, from its seed; again before each pass of a
 * looped job, as fio's clear_io_state() reseeds (randrepeat, which
 * ncqsim always keeps), so each pass repeats the first's directions,
 * sizes, offsets and priorities. `offsets` false keeps the offset
 * stream going: fio's zipf, pareto and normal draws have a state of
 * their own that it does not reseed, so their passes differ.
 */
static void seed_streams(struct job *j, bool offsets)
{
	const struct job_options *o = j->o;
	char name[256];
	unsigned d;

#define SEED(stream, what) do { \
		snprintf(name, sizeof(name), "job/%s/%u/%u/%s", o->name, j->def->occurrence, \
			 j->clone, what); \
		rng_seed(stream, j->seed, name); \
	} while (0)
	SEED(&j->r_zone, "zone");
	if (offsets)
		SEED(&j->r_off, "offset");
	SEED(&j->r_bs, "bs");
	SEED(&j->r_ddir, "rwmix");
	SEED(&j->r_prio, "prio");
	SEED(&j->r_rate, "rate");
	SEED(&j->r_trim, "trim");
#undef SEED
	for (d = 0; d < DDIR_COUNT; d++) {
		snprintf(name, sizeof(name), "job/%s/%u/%u/seqrand/%u", o->name, j->def->occurrence,
			 j->clone, d);
		rng_seed(&j->r_seqrand[d], j->seed, name);
	}
}

static int job_setup(struct job *j, uint64_t seed, struct err *e)
{
	const struct job_options *o = j->o;
	uint64_t s = o->randseed_set ? o->randseed : seed, nblocks;
	unsigned i, d;

	if (region(j, s, e))
		return -1;
	j->seed = s;
	seed_streams(j, true);
	if (o->dist == JOB_DIST_ZONED_ABS)
		for (d = 0; d < DDIR_COUNT; d++) {
			uint64_t total = 0;

			for (i = 0; i < o->nzones[d]; i++)
				total += o->zones[d][i].size;
			if (total > j->end - j->start)
				return err_set(e, "%s:%d: job '%s': option 'random_distribution': the "
					       "zoned_abs zones add up to %llu bytes, more than the "
					       "%llu-byte region", j->def->file, j->def->line, o->name,
					       (unsigned long long)total,
					       (unsigned long long)(j->end - j->start));
		}
	/* The permutation's blocks: of the largest alignment among the job's directions. */
	nblocks = UINT64_MAX;
	for (d = 0; d < JOB_BS_DIRS; d++)
		if (does_dir(o, (int)d) && (j->end - j->start) / j->align[d] < nblocks)
			nblocks = (j->end - j->start) / j->align[d];
	perm_init(&j->perm, nblocks ? nblocks : 1, &j->r_off);
	if (o->dist == JOB_DIST_ZIPF && rng_zipf_init(&j->zipf, nblocks, o->dist_param))
		return err_set(e, "%s:%d: job '%s': option 'random_distribution': zipf:%g does not "
			       "work out over %llu blocks", j->def->file, j->def->line, o->name,
			       o->dist_param, (unsigned long long)nblocks);
	if (o->dist == JOB_DIST_PARETO && rng_pareto_init(&j->pareto, nblocks, o->dist_param))
		return err_set(e, "%s:%d: job '%s': option 'random_distribution': pareto:%g does not "
			       "work out over %llu blocks", j->def->file, j->def->line, o->name,
			       o->dist_param, (unsigned long long)nblocks);
	/* fio's fixup_options(): "Any use of blockalign= turns off randommap". */
	j->norandommap = o->norandommap;
	for (d = 0; d < JOB_BS_DIRS; d++) {
		uint64_t lo, hi;

		job_bs_extent(o, (int)d, &lo, &hi);
		if (o->blockalign[d] && o->blockalign[d] != lo)
			j->norandommap = true;
	}
	for (d = 0; d < JOB_BS_DIRS; d++) {
		uint64_t hi, rlo, rhi;

		j->last_pos[d] = j->start;
		job_bs_extent(o, (int)d, &j->min_bs[d], &hi);
		if (hi > j->max_bs)
			j->max_bs = hi;
		/*
		 * Random lengths that vary, or that are not the block the offset
		 * is aligned to (bs_is_seq_rand), can overlap blocks already
		 * done: fio's map trims them.
		 */
		job_bs_extent(o, bs_dir(j, (int)d, true), &rlo, &rhi);
		if ((rhi != j->min_bs[d] || rlo != rhi) && is_random(o) && !j->norandommap &&
		    o->dist == JOB_DIST_RANDOM)
			j->use_map = true;
	}
	/*
	 * fio's map has a bit per smallest block of the job (rw_min_bs); a
	 * direction whose blocks or alignment are another size indexes it in
	 * its own units (random_block()), which the permutation cannot do.
	 */
	j->map_unit = j->min_bs[DDIR_READ] < j->min_bs[DDIR_WRITE] ? j->min_bs[DDIR_READ] :
		j->min_bs[DDIR_WRITE];
	if (j->min_bs[DDIR_TRIM] < j->map_unit)
		j->map_unit = j->min_bs[DDIR_TRIM];	/* fio's rw_min_bs: over the three */
	for (d = 0; d < JOB_BS_DIRS; d++)
		if ((j->align[d] != j->map_unit || j->min_bs[d] != j->map_unit) && is_random(o) &&
		    !j->norandommap && o->dist == JOB_DIST_RANDOM && does_dir(o, (int)d))
			j->use_map = true;
	/* Strided zones keep fio's random map over one zone, cleared as the zone moves. */
	if (o->zonemode == JOB_ZONEMODE_STRIDED && is_random(o) && !j->norandommap &&
	    o->dist == JOB_DIST_RANDOM)
		j->use_map = true;
	randmap_init(&j->map, (o->zonemode == JOB_ZONEMODE_STRIDED ? j->zone_range :
			       j->end - j->start) / j->map_unit);
	j->passes = 1;
	/*
	 * io_submit_mode=offload: fio hands each I/O to one of iodepth worker
	 * threads, so even a sync engine keeps iodepth in flight.
	 */
	j->offload = o->io_submit_mode == JOB_SUBMIT_OFFLOAD;
	j->depth = o->engine_kind == JOB_ENGINE_SYNC && !j->offload ? 1 : o->iodepth;
	/*
	 * fio's fixup_options() keeps serialize_overlap only where I/Os can
	 * overlap with effect: writes at an iodepth above 1, a replay, offload.
	 */
	j->paced = o->thinktime || o->flow || (j->depth > 1 && !j->offload &&
					       (o->rate[0] || o->rate[1] || o->rate_iops[0] ||
						o->rate_iops[1]));
	j->serialize = o->serialize_overlap &&
		(j->offload || o->read_iolog[0] ||
		 (o->rw != JOB_RW_READ && o->rw != JOB_RW_RANDREAD && o->iodepth != 1));
	j->qd = j->depth;
	batch_setup(j);
	j->source = &fio_source;
	j->source_state = j;
	if (j->run->sources) {
		struct job_source src = { NULL, NULL, 0, false };

		/* merge_blktrace_file is an output: never over an input of the run. */
		if (o->merge_blktrace_file[0] &&
		    refuse_input(j, o->merge_blktrace_file, "merge_blktrace_file", e))
			return -1;
		if (j->run->sources->open(j->run->sources->ctx, &j->run->source_run, o,
					  j->number - 1, j->clone, j->t, &src, e))
			return err_prefix(e, "%s:%d: ", j->def->file, j->def->line);
		if (src.ops) {
			uint64_t per = (src.max_len + j->t->max_request - 1) / j->t->max_request;

			j->source = src.ops;
			j->source_state = src.state;
			j->source_prios = src.own_prios;
			if (per > 4096)
				return err_set(e, "job '%s': a %llu-byte I/O would be %llu requests of "
					       "queue/max_sectors_kb; at most 4096", o->name,
					       (unsigned long long)src.max_len,
					       (unsigned long long)per);
			if (per > j->bios_per_io)
				j->bios_per_io = (unsigned)per;
		}
	}
	/*
	 * fio's io_issue_bytes_exceeded(): io_size (else size) and number_ios,
	 * each times loops; number_ios stops a job early, never extends it.
	 * A time_based job runs until its runtime whatever they say.
	 */
	j->fill = o->fill_device && !o->size && !o->filesize_lo;
	/*
	 * verify: fio logs a write job's writes to read them back (a read job
	 * checks what it reads, which here is no I/O of its own). The log is
	 * in issue order where fio's random map is in use, else by offset.
	 */
	j->verify_on = o->verify && o->do_verify && o->rw != JOB_RW_READ &&
		o->rw != JOB_RW_RANDREAD;
	j->dry = j->verify_on && o->verify_only;
	/*
	 * do_io()'s total_bytes: size; a random overwrite without the random
	 * map up to io_size; a backlog's read-backs count too, so size more.
	 */
	j->pass_limit = j->amount;
	if (is_random(o) && j->norandommap && o->io_size > j->pass_limit)
		j->pass_limit = o->io_size;
	if (o->verify_backlog)
		j->pass_limit += j->amount;
	/*
	 * do_io() counts bytes_issued only for an I/O the engine queues (an
	 * async engine's FIO_Q_QUEUED; not a sync engine's FIO_Q_COMPLETED,
	 * nor offload's work queue), and time_based runs do not stop on it
	 * unless they verify: elsewhere a pass ends only where its offsets
	 * do (fio 3.33: randread norandommap size=32k loops=2 makes two
	 * passes of 8 I/Os with libaio, one of 16 with psync).
	 */
	j->pass_stop = j->verify_on || (o->engine_kind == JOB_ENGINE_ASYNC && !j->offload &&
					!o->time_based) ? j->pass_limit : UINT64_MAX;
	verifylog_init(&j->vlog, !(is_random(o) && !j->norandommap && o->dist == JOB_DIST_RANDOM));
	j->last_ddir = DDIR_READ;	/* fio's zeroed thread_data */
	/*
	 * RWF_NOWAIT and io_uring's IOPOLL reach the block layer (pvsync2's
	 * RWF_HIPRI does not: sync direct I/O ignores it); fio 3.33's uncached
	 * on buffered I/O, and RWF_NOWAIT before 4.13, fail in the system call.
	 */
	j->io_flags = (o->nowait ? BLK_NOWAIT : 0) |
		(o->hipri && !strcmp(o->ioengine, "io_uring") ? BLK_POLLED : 0);
	if (o->uncached && !job_direct(o))
		j->io_refused = EOPNOTSUPP;
	else if (o->nowait && !host_kernel_has(j->t->kernel, HOST_KC_NOWAIT))
		j->io_refused = EOPNOTSUPP;
	j->size_limit = o->time_based || (j->fill && !o->io_size) ? 0 :
		(o->io_size ? o->io_size : j->amount) * o->loops;
	j->ios_limit = o->time_based ? 0 : o->number_ios * o->loops;
	/* fio: prioclass/prio/priohint set the task's priority (class BE if none given). */
	if (o->prioclass_set || o->prio_set || o->priohint_set) {
		j->task_prio = ioprio_value(o->prioclass_set ? o->prioclass : IOPRIO_CLASS_BE,
					    o->priohint, o->prio);
		j->job_prio = j->task_prio;
	}
	j->prio_eff_task = host_kernel_io_prio(j->t->kernel, 0, j->task_prio, (int)o->nice,
					       (enum sched_policy)o->sched_policy);
	j->hint_rule = hint_rule_of(j->t->kernel);
	j->issue_plain = !j->verify_on && !o->sg && !j->serialize && !j->io_refused && !j->dry;
	j->next_plain = !j->verify_on && !is_trimwrite(o);
	j->fill_plain = !j->paced && !j->verify_on && !o->fsync_blocks && !o->fdatasync_blocks;
	for (d = 0; d < DDIR_COUNT; d++)
		if (o->rate[d] || o->rate_iops[d])
			j->next_plain = false;
	for (d = 0; d < DDIR_COUNT; d++)
		j->cmdprio_any |= o->ncmdprio_bssplit[d] || o->cmdprio_percentage[d];
	for (d = 0; d < JOB_BS_DIRS; d++) {
		uint64_t lo, hi;

		job_bs_extent(o, (int)d, &lo, &hi);
		j->fixed_bs[d] = lo == hi ? lo : 0;
	}
	for (d = 0; d < JOB_BS_DIRS; d++)
		if (is_random(o) && o->zonemode != JOB_ZONEMODE_STRIDED && !o->rw_nr &&
		    (d == DDIR_TRIM || o->perc_rand[d] >= 100) && o->dist == JOB_DIST_RANDOM &&
		    j->norandommap && !j->use_map && j->fixed_bs[bs_dir(j, (int)d, true)])
			j->plain_lastb[d] = last_block(j, (int)d);
	for (d = 0; d < DDIR_COUNT; d++)
		j->rate_min_checked |= o->rate_min[d] || o->rate_iops_min[d];
	j->ios = calloc(j->depth, sizeof(*j->ios));
	j->bio_pool = calloc((size_t)j->depth * j->bios_per_io, sizeof(*j->bio_pool));
	if (!j->ios || !j->bio_pool)
		return err_set(e, "job '%s': out of memory for %u I/Os", o->name, j->depth);
	for (i = 0; i < j->depth; i++) {
		j->ios[i].job = j;
		j->ios[i].bios = &j->bio_pool[(size_t)i * j->bios_per_io];
		j->ios[i].next = j->free_ios;
		j->free_ios = &j->ios[i];
	}
	if (o->write_lat_log[0]) {
		/* Latency logs are written as I/Os complete: no memory held per I/O. */
		const char *p = o->write_lat_log, *opt = "write_lat_log";

		/* fio writes the slat log of a sync engine too, empty: it has no slat. */
		if (!open_log(j, p, "clat", LOG_CLAT, opt, e) ||
		    !open_log(j, p, "slat", LOG_SLAT, opt, e) ||
		    !open_log(j, p, "lat", LOG_LAT, opt, e))
			return -1;
	}
	if (o->write_bw_log[0] && !open_log(j, o->write_bw_log, "bw", LOG_BW, "write_bw_log", e))
		return -1;
	if (o->write_iops_log[0] &&
	    !open_log(j, o->write_iops_log, "iops", LOG_IOPS, "write_iops_log", e))
		return -1;
	if (o->write_hist_log[0]) {
		if (!(j->hist_log = open_log(j, o->write_hist_log, "clat_hist", LOG_KINDS,
					     "write_hist_log", e)))
			return -1;
		for (d = 0; d < JOB_BS_DIRS; d++) {
			j->hist_last[d] = -1;
			if (!o->log_hist_msec)
				continue;	/* fio writes no row: its file stays empty */
			j->hist_win[d] = calloc(HIST_FIO_NR, sizeof(*j->hist_win[d]));
			if (!j->hist_win[d])
				return err_set(e, "job '%s': write_hist_log: out of memory", o->name);
		}
		if (!o->log_hist_msec)
			j->hist_log = NULL;	/* the empty file is still put in place */
	}
	for (d = LOG_CLAT; d <= LOG_LAT; d++)
		j->lw_ms[d] = o->log_avg_msec;
	sampler_setup(j, &j->bw_s, false);
	sampler_setup(j, &j->iops_s, true);
	j->per_io_samples = j->bw_s.per_io || j->iops_s.per_io;
	if (!j->per_io_samples && j->bw_s.period == j->iops_s.period) {
		j->bw_s.rider = &j->iops_s;
		j->iops_s.carried = true;
	}
	if (o->write_iolog[0]) {
		const char *tag = j->run->ro->log_tag;
		char path[JOB_PATH_MAX + 128];

		snprintf(path, sizeof(path), "%s%s%s", o->write_iolog, tag ? "." : "", tag ? tag : "");
		j->iolog = open_out(j, path, "write_iolog", NULL, e);
		if (!j->iolog)
			return -1;
		fprintf(j->iolog, "fio version 3 iolog\n");
		j->iolog_name = o->filename[0] ? o->filename : o->name;
	}
	return 0;
}

static void report_setup(struct job *j)
{
	const struct job_options *o = j->o;
	struct report_job *r = j->rep;
	static const char *rw_names[] = { "read", "write", "rw", "randread", "randwrite", "randrw",
		"trim", "randtrim", "trimwrite", "randtrimwrite" };
	unsigned d;

	report_job_init_zeroed(r);	/* out->jobs is calloc'd in workload_run() */
	snprintf(r->name, sizeof(r->name), "%s", o->name);
	snprintf(r->description, sizeof(r->description), "%s", o->description);
	r->groupid = j->def->groupid;
	r->number = j->number;
	r->clone = j->clone;
	r->async = o->engine_kind == JOB_ENGINE_ASYNC;
	r->continue_on_error = o->continue_on_error != 0;
	r->clat_percentiles = o->clat_percentiles;
	r->lat_percentiles = o->lat_percentiles;
	r->slat_percentiles = o->slat_percentiles;
	r->unified = o->unified_rw_reporting;	/* enum job_unified = enum report_unified */
	memcpy(r->percentiles, o->percentile_list, sizeof(r->percentiles));
	r->npercentiles = o->npercentiles;
	r->percentile_precision = o->percentile_precision;
	r->sig_figs = o->significant_figures;
	r->kb_base = o->kb_base;
	r->unit_bits = o->unit_base == 1;
	r->iodepth = o->iodepth;
	/* fio reports latency_target in ns, latency_window in us. */
	r->latency_target_ns = (uint64_t)o->latency_target;
	r->latency_window_us = (uint64_t)o->latency_window / 1000;
	r->latency_percentile = o->latency_percentile;
	r->group_reporting = o->group_reporting;
	r->no_stats = !o->stats;
	r->block_error_pct = o->block_error_percentiles;
	r->ioprio = j->job_prio;
	r->multi_prio = o->cmdprio_percentage[0] || o->cmdprio_percentage[1] ||
		o->ncmdprio_bssplit[0] || o->ncmdprio_bssplit[1] || j->source_prios;
	if (r->multi_prio)
		j->issue_plain = false;	/* each I/O finds its report row */
	j->reap_plain = o->engine_kind != JOB_ENGINE_SYNC && !o->disable_slat && !o->disable_clat &&
		!o->disable_lat && !r->slat_percentiles && !r->lat_percentiles && !r->multi_prio &&
		!j->per_io_samples && !j->hist_log && !j->writes_logs && !o->max_latency[DDIR_READ] &&
		!o->max_latency[DDIR_WRITE] && !j->rate_min_checked && !o->latency_target &&
		!j->verify_on;
	/* Nothing sampled yet: slat and lat as cleared stand for clat's no samples. */
	j->lat_is_clat[DDIR_READ] = j->lat_is_clat[DDIR_WRITE] = j->reap_plain;
	j->read_loop = j->source == &fio_source && o->rw == JOB_RW_RANDREAD && j->fill_plain &&
		j->next_plain && j->issue_plain && !j->cmdprio_any && !o->bs_is_seq_rand &&
		j->plain_lastb[DDIR_READ] && j->fixed_bs[DDIR_READ] == j->min_bs[DDIR_READ] &&
		j->min_bs[DDIR_READ] <= j->t->max_request && j->end <= j->t->capacity && !j->iolog &&
		!o->latency_target && !(j->t->logical_size & (j->t->logical_size - 1)) &&
		(o->loops == 1 || o->time_based);	/* a loop's passes end in fio_next() */
	j->lba_shift = j->read_loop ? (uint8_t)__builtin_ctz(j->t->logical_size) : 0;
	if (j->reap_plain)
		lat_slots_init();	/* io_reaped_plain_as()'s mark_latency_in() */
	/* read_loop_next() leaves out next_io()'s clamp to the region's end: it cannot apply. */
	SIM_ASSERT(!j->read_loop || (j->zone_base == j->start && j->start +
		   (j->plain_lastb[DDIR_READ] - 1) * j->align[DDIR_READ] + j->min_bs[DDIR_READ] <=
		   j->end), "job %s: a read_loop start past the region's end", j->o->name);
	j->read_limited = j->size_limit || j->ios_limit;
	j->read_lean = j->read_loop && !j->read_limited && j->hint_rule == HINT_NONE &&
		j->submit_batch <= 1 && !j->reap_batches && j->qd <= 64;
	snprintf(r->rw, sizeof(r->rw), "%s", rw_names[o->rw]);
	snprintf(r->ioengine, sizeof(r->ioengine), "%s", o->ioengine);
	/* The header's (R), (W), (T): fio's trim takes the last value given. */
	for (d = 0; d < JOB_BS_DIRS; d++)
		job_bs_extent(o, (int)d, &r->bs_min[d], &r->bs_max[d]);
	memcpy(r->opts, j->def->opts, sizeof(r->opts));
	r->nopts = j->def->nopts;
	/* fio orders per-priority entries: the job's own first, then cmdprio's. */
	if (r->multi_prio)
		for (d = 0; d < DDIR_COUNT; d++) {
			report_prio_get(&r->dir[d], j->job_prio);
			if (o->cmdprio_percentage[d])
				report_prio_get(&r->dir[d], ioprio_value(o->cmdprio_class[d],
									 o->cmdprio_hint[d],
									 o->cmdprio[d]));
		}
}

/* Put the logs in place after a good run (the first error in e: -1), or throw them away. */
static int close_logs(struct job *j, bool keep, struct err *e)
{
	int rc = 0;
	unsigned i;

	for (i = 0; i < j->nlogs; i++) {
		/* A compressed store's open stream ends with the log (a no-op for the others). */
		zstore_close(&j->stores[i].z);
		if (keep && !rc) {
			rc = outfile_commit(&j->logs[i], e);
			if (rc)
				err_prefix(e, "job '%s': ", j->o->name);
		} else {
			outfile_abort(&j->logs[i]);
		}
	}
	j->nlogs = 0;
	j->writes_logs = false;
	memset(j->log_f, 0, sizeof(j->log_f));
	memset(j->log_z, 0, sizeof(j->log_z));
	j->iolog = NULL;
	j->hist_log = NULL;
	return rc;
}

/*
 * What the jobs' I/O units will take (each job holds its iodepth of them,
 * with room for the requests its largest block splits into), checked
 * before anything is allocated: a six-line file can ask for 64 M units.
 */
static int check_memory(const struct workload *w, const struct job_target *t, struct err *e)
{
	uint64_t bytes = 0, units = 0;
	const struct job_def *worst = NULL;
	uint64_t worst_bytes = 0;
	unsigned i;
	int d;

	for (i = 0; i < w->ndefs; i++) {
		const struct job_options *o = &w->defs[i].o;
		uint64_t depth = o->engine_kind == JOB_ENGINE_SYNC &&
			o->io_submit_mode != JOB_SUBMIT_OFFLOAD ? 1 : o->iodepth, bios = 1, each;

		for (d = 0; d < DDIR_COUNT; d++) {
			uint64_t lo, hi;

			job_bs_extent(o, d, &lo, &hi);
			if ((hi + t->max_request - 1) / t->max_request > bios)
				bios = (hi + t->max_request - 1) / t->max_request;
		}
		each = o->numjobs * depth * (sizeof(struct job_io) + bios * sizeof(struct blk_bio));
		/* A steady-state window: an IOPS and a bandwidth sample per second of it. */
		each += o->numjobs * (uint64_t)(o->ss_dur / SIM_SEC) * 2 * sizeof(uint64_t);
		units += o->numjobs * depth;
		bytes += each;
		if (each > worst_bytes) {
			worst_bytes = each;
			worst = &w->defs[i];
		}
	}
	if (bytes > WORKLOAD_MAX_IO_MEMORY)
		return err_set(e, "%s:%d: job '%s': the jobs' %llu I/O units (iodepth x numjobs over "
			       "every job) and steady-state windows would take %llu MiB, this job's "
			       "%llu MiB of it; ncqsim allows %llu MiB", worst->file, worst->line, worst->o.name,
			       (unsigned long long)units, (unsigned long long)(bytes >> 20),
			       (unsigned long long)(worst_bytes >> 20),
			       (unsigned long long)(WORKLOAD_MAX_IO_MEMORY >> 20));
	return 0;
}

/* A steady-state window for a job with steadystate_duration, in whole seconds as fio's. */
static int ss_setup(struct job *j, struct err *e)
{
	struct steady *ss = malloc(sizeof(*ss));
	unsigned dur = (unsigned)(j->o->ss_dur / SIM_SEC);

	/* Under a second: no sample, and no window (fio keeps whole seconds). */
	if (!ss || steady_init(ss, j->o->ss_flags, j->o->ss_limit, dur ? dur : 1)) {
		free(ss);
		return err_set(e, "job '%s': out of memory for its steady-state window", j->o->name);
	}
	if (!dur)
		ss->dur = 0;
	j->rep->ss = ss;
	j->rep->ss_dur = dur;
	return 0;
}

/*
 * fio's steadystate_setup(): a job judges its own window, but with
 * group_reporting only the last job of each group does (its sum). True
 * when any job has a window to sample.
 */
static bool ss_holders(struct workload_runner *run)
{
	struct job *prev = NULL;
	bool any = false;
	unsigned i;

	for (i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];

		if (!j->rep->ss || !j->rep->ss->dur)
			continue;
		any = true;
		if (!j->o->group_reporting) {
			j->ss_holder = true;
			continue;
		}
		if (prev && prev->def->groupid != j->def->groupid)
			prev->ss_holder = true;
		prev = j;
	}
	if (prev && prev->o->group_reporting)
		prev->ss_holder = true;
	return any;
}

/* fio's flow_init_job() for every job with a flow weight, at its start: one flow per flow_id. */
static int flows_setup(struct workload_runner *run, struct err *e)
{
	unsigned i, k;

	for (i = 0; i < run->njobs; i++) {
		struct job *j = &run->jobs[i];

		j->flow_index = -1;
		if (!j->o->flow)
			continue;
		for (k = 0; k < run->nflows && run->flows[k].id != j->o->flow_id; k++)
			;
		if (k == run->nflows) {
			struct job_flow *nf = realloc(run->flows, (k + 1) * sizeof(*nf));

			if (!nf)
				return err_set(e, "out of memory for flow control");
			run->flows = nf;
			run->flows[k].id = j->o->flow_id;
			run->flows[k].counter = 1;
			run->flows[k].weight = 0;
			run->nflows++;
		}
		run->flows[k].weight += j->o->flow;
		j->flow_index = (int)k;
	}
	return 0;
}

/* I/Os reaped by every job so far (each job counts its own: no shared line per I/O). */
static uint64_t ios_done(const struct workload_runner *run)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < run->njobs; i++)
		n += run->jobs[i].ios_reaped;
	return n;
}

int workload_run(const struct workload *w, const struct job_target *t,
		 const struct workload_run_opts *ro, struct report *out, struct err *e)
{
	struct workload_runner run;
	struct job_options *opts;
	unsigned i, c, d, n = 0;
	int rc = 0;
	int64_t next_progress;

	memset(&run, 0, sizeof(run));
	if (check_memory(w, t, e))
		return WORKLOAD_REFUSED;
	memset(out->global_opts, 0, sizeof(out->global_opts));
	memcpy(out->global_opts, w->global_opts, sizeof(w->global_opts));
	out->nglobal = w->nglobal;
	out->jobs = calloc(w->njobs, sizeof(*out->jobs));
	run.jobs = calloc(w->njobs, sizeof(*run.jobs));
	/* Each clone gets its own copy of the options (--runtime may cap them). */
	opts = calloc(w->njobs, sizeof(*opts));
	if (!out->jobs || !run.jobs || !opts) {
		free(out->jobs);
		free(run.jobs);
		free(opts);
		out->jobs = NULL;
		return err_set(e, "out of memory for %u jobs", w->njobs);
	}
	run.t = t;
	run.e = e;
	run.w = w;
	run.ro = ro;
	run.sources = ro->sources;
	for (i = 0; i < w->ndefs; i++) {
		for (c = 0; c < w->defs[i].o.numjobs; c++, n++) {
			struct job *j = &run.jobs[n];

			opts[n] = w->defs[i].o;
			/* --runtime caps each job; without time_based it still stops at its size. */
			if (ro->runtime_cap && (!opts[n].runtime || opts[n].runtime > ro->runtime_cap))
				opts[n].runtime = ro->runtime_cap;
			j->def = &w->defs[i];
			j->o = &opts[n];
			j->t = t;
			j->sim = t->sim;
			j->debug = sim_debugging(t->sim, SIM_DBG_JOB);
			j->run = &run;
			j->rep = &out->jobs[n];
			j->number = n + 1;
			j->clone = c;
			j->bios_per_io = 1;
			if (job_setup(j, ro->seed, e)) {
				rc = WORKLOAD_REFUSED;
				goto done;
			}
			report_setup(j);
			if (opts[n].ss_dur && ss_setup(j, e)) {
				rc = -1;
				goto done;
			}
			if (w->defs[i].segment + 1 > run.nsegments)
				run.nsegments = w->defs[i].segment + 1;
		}
	}
	run.njobs = n;
	out->njobs = n;
	for (i = 0; i < w->ndefs; i++)
		run.exitall |= w->defs[i].o.exitall;
	if (flows_setup(&run, e)) {
		rc = -1;
		goto done;
	}
	if (ss_holders(&run))
		run.ss_tick = sim_after(t->sim, SIM_SEC, ss_tick, &run);
	run.t0 = sim_now(t->sim);
	start_segment(&run);
	next_progress = sim_now(t->sim) + SIM_SEC;
	for (;;) {
		/* A simulated second at a time: an interruption is seen within one. */
		sim_run(t->sim, next_progress);
		if (ro->stop && *ro->stop && !run.interrupted)
			interrupt(&run);
		if (ro->progress)
			ro->progress(ro->progress_ctx, (double)sim_now(t->sim) / 1e9,
				     ios_done(&run));
		if (sim_next_time(t->sim) == SIM_FOREVER)
			break;
		next_progress += SIM_SEC;
	}
	if (run.log_oom)
		rc = err_set(e, "out of memory for a compressed log's block");
	for (i = 0; i < n && !rc; i++)
		if (run.jobs[i].map_oom)
			rc = err_set(e, "job '%s': out of memory for its random map",
				     run.jobs[i].o->name);
	if (!rc && run.flow_stuck) {
		const struct job *j = run.flow_stuck;

		err_set(e, "%s:%d: job '%s': option 'flow': flow control holds the job for ever: "
			"the other jobs of flow_id %u cannot run before it ends (fio 3.33 hangs here)",
			j->def->file, j->def->line, j->o->name, j->o->flow_id);
		rc = WORKLOAD_REFUSED;
	}
	for (i = 0; i < n && !rc; i++)
		if (!run.jobs[i].finished) {
			rc = err_set(e, "job '%s' did not finish: the simulation ran out of events "
				     "(%u I/Os still in flight)", run.jobs[i].o->name,
				     run.jobs[i].inflight);
			break;
		}
	out->interrupted = run.interrupted;
done:
	if (run.sources) {
		struct err se;

		if (run.sources->close(run.sources->ctx, run.source_run, &se) && !rc) {
			*e = se;
			rc = WORKLOAD_REFUSED;
		}
	}
	for (i = 0; i < w->njobs; i++) {
		/* A run that failed keeps its first message; its logs are not put in place. */
		if (close_logs(&run.jobs[i], !rc, e))
			rc = -1;
		free(run.jobs[i].ios);
		free(run.jobs[i].bio_pool);
		for (d = 0; d < JOB_BS_DIRS; d++)
			free(run.jobs[i].hist_win[d]);
		randmap_free(&run.jobs[i].map);
		verifylog_free(&run.jobs[i].vlog);
	}
	free(run.jobs);
	free(run.flows);
	free(opts);
	if (rc) {
		report_jobs_free(out->jobs, n);
		out->jobs = NULL;
		out->njobs = 0;
	}
	return rc;
}
