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
#include "sim/rng.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct job;

/* The time-series logs a job may write; bw and iops sum bytes and I/Os. */
enum log_kind { LOG_CLAT, LOG_SLAT, LOG_LAT, LOG_BW, LOG_IOPS, LOG_KINDS };

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

struct job {
	const struct job_def *def;
	const struct job_options *o;
	struct report_job *rep;
	const struct job_target *t;
	struct workload_runner *run;
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
	/* Trims: fio's BLKDISCARD ioctl, which the submitter waits for. */
	bool trimming;				/* a trim is under way: nothing else is issued */
	bool trim_pending;			/* trimwrite: the write of the range just trimmed is next */
	uint64_t tw_off, tw_len;		/* that range */
	/* Engine and file flags: what every bio carries, what the kernel refuses. */
	uint8_t io_flags;			/* BLK_NOWAIT, BLK_POLLED */
	int io_refused;				/* errno of every I/O's system call, 0 none */
	uint8_t file_hint;			/* F_SET_FILE_RW_HINT (5.15, direct I/O) */
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
	uint64_t issued_bytes, issued_ios, size_limit, ios_limit;
	bool map_oom;				/* the random map ran out of memory */
	bool started, issuing_done, finished, in_ramp;
	bool timed_out;				/* its runtime ended its issuing */
	/* fsync, fdatasync, end_fsync: a flush the job waits for. */
	uint64_t writes_issued;
	bool syncing, last_was_sync, end_synced;
	struct blk_bio sync_bio;
	int64_t sync_start;
	int64_t next_issue[JOB_BS_DIRS], think_until;
	unsigned since_think;			/* I/Os issued since the last think time */
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
	bool full_wait;				/* the queue filled: waiting in getevents */
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
	int64_t sample_t;
	uint64_t sample_bytes[JOB_BS_DIRS], sample_ios[JOB_BS_DIRS];
	uint64_t win_bytes[JOB_BS_DIRS], win_ios[JOB_BS_DIRS];
	FILE *clat_log, *slat_log, *lat_log, *iolog;	/* the files of logs[] below */
	FILE *bw_log, *iops_log;
	/* log_avg_msec: this window's sums, per log (enum log_kind) and direction. */
	uint64_t lw_sum[LOG_KINDS][JOB_BS_DIRS], lw_n[LOG_KINDS][JOB_BS_DIRS];
	uint64_t lw_max[LOG_KINDS][JOB_BS_DIRS];	/* log_max_value */
	/* write_hist_log: clat counts in fio's buckets since the direction's last row. */
	FILE *hist_log;
	uint64_t *hist_win[JOB_BS_DIRS];
	int64_t hist_last[JOB_BS_DIRS];		/* ms of the last row, -1 before the first I/O */
	/* Written under temporary names, put in place when the run ends well. */
	struct outfile logs[7];
	unsigned nlogs;
	bool writes_logs;		/* to its own log files or ones it shares (per_job_logs=0) */
	const char *iolog_name;
};

struct workload_runner {
	const struct workload *w;
	const struct workload_run_opts *ro;
	struct job *jobs;
	unsigned njobs;
	const struct job_target *t;
	unsigned segment, nsegments;
	unsigned running;
	bool interrupted;		/* by ro->stop */
	uint64_t ios_done;
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

	job_bs_extent(o, d, &lo, &hi);
	/*
	 * A fixed size is not fitted to the region: on a block device fio
	 * checks it against the device's end only (fill_io_u()'s
	 * real_file_size), so the last sequential I/O of a region that is
	 * not a multiple of bs runs past the region's end.
	 */
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

static void new_pass(struct job *j)
{
	int d;

	j->passes++;
	j->pass_bytes = 0;
	j->pass_trimmed = false;
	j->zone_bytes = 0;	/* fio's reset_io_counters(); a strided zone stays where it is */
	for (d = 0; d < JOB_BS_DIRS; d++)
		j->last_pos[d] = j->zone_base;
	j->rand_left = 0;
	if (j->use_map)
		randmap_reset(&j->map);
	if (j->perm_i) {
		/* A new order for the new pass. */
		perm_init(&j->perm, j->perm.n, &j->r_off);
		j->perm_i = 0;
	}
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
 * fio 3.33's handle_thinktime(): think after every thinktime_blocks I/Os
 * (1 when unset) or, with thinktime_iotime, once iotime + thinktime have
 * passed since the last think began (since the job's start for the first:
 * fio's first stall comes after iotime + thinktime of I/O, each later one
 * after iotime); with thinktime_iotime alone the block count is not
 * checked.
 */
static bool think_due(struct job *j, int64_t now)
{
	const struct job_options *o = j->o;

	j->since_think++;
	if (o->thinktime_iotime && now - j->think_start >= o->thinktime_iotime + o->thinktime)
		return true;
	if (o->thinktime_iotime && !o->thinktime_blocks)
		return false;
	return j->since_think >= (o->thinktime_blocks ? o->thinktime_blocks : 1);
}

/*
 * fio spins for thinktime_spin (capped at thinktime) and sleeps for the
 * rest of thinktime: in simulated time both are the same wait, so the
 * think lasts thinktime whatever the spin. With rate_ignore_thinktime the
 * rate's schedule skips the think (fio counts the bytes it would have
 * done meanwhile), so no burst follows it.
 */
static void think(struct job *j, int d, int64_t now)
{
	const struct job_options *o = j->o;

	j->think_until = now + o->thinktime;
	j->think_start = now;
	j->since_think = 0;
	if (o->rate_ignore_thinktime && (o->rate[d] || o->rate_iops[d]) &&
	    j->next_issue[d] < j->think_until)
		j->next_issue[d] = j->think_until;
}

/*
 * fio's generator as a source (workload/source.h): stop at size or
 * number_ios, wait out thinktime and rate_iops, then draw direction, block
 * size, offset and cmdprio, each from its own random stream.
 */
static enum job_source_status fio_next(void *state, int64_t now, struct job_io_desc *io,
				       int64_t *wake_at)
{
	struct job *j = state;
	int d;

	if ((j->size_limit && j->issued_bytes >= j->size_limit) ||
	    (j->ios_limit && j->issued_ios >= j->ios_limit) || j->map_oom)
		return JOB_SOURCE_END;
	if (now < j->think_until) {
		*wake_at = j->think_until;
		return JOB_SOURCE_WAIT;
	}
	d = next_ddir(j);
	if (d == DDIR_TRIM)
		goto no_rate;		/* rate and rate_iops are read and write ones here */
	if (j->o->rate_process == JOB_RATE_POISSON && (j->o->rate_iops[d] || j->o->rate[d])) {
		if (now < j->next_issue[d]) {
			*wake_at = j->next_issue[d];
			return JOB_SOURCE_WAIT;
		}
		j->next_issue[d] += poisson_gap(j, d);
	} else if (j->o->rate_iops[d]) {
		if (now < j->next_issue[d]) {
			*wake_at = j->next_issue[d];
			return JOB_SOURCE_WAIT;
		}
		j->next_issue[d] = (j->next_issue[d] > now - 1000000000LL ? j->next_issue[d] :
				    now) + 1000000000LL / (int64_t)j->o->rate_iops[d];
	}
	if (j->o->rate[d] && j->o->rate_process == JOB_RATE_LINEAR && now < j->next_issue[d]) {
		*wake_at = j->next_issue[d];
		return JOB_SOURCE_WAIT;
	}
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
	} else while ((j->verify_on && j->pass_bytes >= j->pass_limit) ||
		      !next_io(j, d, &io->offset, &io->len)) {
		/* With verify fio's do_io() ends a pass after its bytes, whatever the pass. */
		if (j->map_oom || !pass_again(j))
			return JOB_SOURCE_END;
		if (j->verify_on) {
			/* do_verify() reads the pass's writes back first; then the next pass. */
			j->vstate = VERIFY_DRAIN;
			j->verify_final = false;
			*wake_at = now;
			return JOB_SOURCE_WAIT;
		}
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
	io->ioprio = next_cmdprio(j, d, io->len);
	if (d < DDIR_COUNT && j->o->rate[d] && j->o->rate_process == JOB_RATE_LINEAR) {
		/* fio's rate: the next I/O of this direction when this one's bytes are paid for. */
		int64_t base = j->next_issue[d] > now - 1000000000LL ? j->next_issue[d] : now;

		j->next_issue[d] = base + (int64_t)(io->len * 1000000000ULL / j->o->rate[d]);
	}
	io->due = 0;
	/* The I/O is issued at once: thinktime runs from now, after every thinktime_blocks. */
	if (j->o->thinktime && think_due(j, now))
		think(j, d, now);
	return JOB_SOURCE_IO;
}

static const struct job_source_ops fio_source = { "fio", fio_next };

/* ---- accounting ---- */

static unsigned depth_bucket(unsigned depth)
{
	if (depth >= 64)
		return 6;
	if (depth >= 32)
		return 5;
	if (depth >= 16)
		return 4;
	if (depth >= 8)
		return 3;
	if (depth >= 4)
		return 2;
	return depth >= 2 ? 1 : 0;
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

/* fio's io_u_mark_latency: lower-bound buckets in ns, us and ms. */
static void mark_latency(struct report_job *r, uint64_t ns)
{
	static const unsigned edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	uint64_t v;
	unsigned i;

	if (ns < 1000) {
		for (i = 0; ns >= edges[i]; i++)
			;
		r->lat_n[i]++;
		return;
	}
	if (ns < 1000000) {
		v = ns / 1000;
		for (i = 0; v >= edges[i]; i++)
			;
		r->lat_u[i]++;
		return;
	}
	v = ns / 1000000;
	if (v >= 2000)
		r->lat_m[11]++;
	else if (v >= 1000)
		r->lat_m[10]++;
	else {
		for (i = 0; v >= edges[i]; i++)
			;
		r->lat_m[i]++;
	}
}

static void log_line(FILE *f, const struct job *j, int64_t now, uint64_t value,
		     const struct job_io *io)
{
	unsigned prio = j->o->log_prio ? io->prio_eff :
		ioprio_class(io->prio_eff) == IOPRIO_CLASS_RT;
	/* fio's flush_samples(): log_prio writes the whole ioprio in hex (class, hint, level). */
	const char *last = j->o->log_prio ? "0x%04x\n" : "%u\n";

	if (j->o->log_offset)
		fprintf(f, "%lld, %llu, %d, %llu, %llu, ", (long long)((now - j->t_begin) / 1000000),
			(unsigned long long)value, io->ddir, (unsigned long long)io->len,
			(unsigned long long)io->offset);
	else
		fprintf(f, "%lld, %llu, %d, %llu, ", (long long)((now - j->t_begin) / 1000000),
			(unsigned long long)value, io->ddir, (unsigned long long)io->len);
	fprintf(f, last, prio);
}

/*
 * One completed I/O in the logs: a row each (fio's logs without
 * log_avg_msec: the bw row is this I/O's KiB/s over its latency, the iops
 * row 1), or into this window's sums.
 */
static void log_io(struct job *j, int64_t now, const struct job_io *io, uint64_t clat,
		   uint64_t lat, uint64_t slat)
{
	const struct job_options *o = j->o;
	uint64_t v[LOG_KINDS] = { clat, slat, lat, io->len, 1 };
	FILE *f[LOG_KINDS] = { j->clat_log, j->slat_log, j->lat_log, j->bw_log, j->iops_log };
	/*
	 * fio logs only what it measures: no clat, slat or lat rows when that
	 * latency is disabled; per-I/O bw rows only without
	 * disable_bw_measurement, per-I/O iops rows only when not all three of
	 * clat, slat and bw are off (its gtod_reduce()). Windows of bw and iops
	 * are counted whatever these say, as fio 3.33 does.
	 */
	bool reduced = o->disable_clat && o->disable_slat && o->disable_bw;
	bool measured[LOG_KINDS] = {
		!o->disable_clat, !o->disable_slat, !o->disable_lat,
		o->log_avg_msec || !o->disable_bw, o->log_avg_msec || !reduced,
	};
	int k;

	for (k = 0; k < LOG_KINDS; k++) {
		if (!f[k] || !measured[k] || (k == LOG_SLAT && o->engine_kind == JOB_ENGINE_SYNC))
			continue;
		if (o->log_avg_msec) {
			j->lw_sum[k][io->ddir] += v[k];
			j->lw_n[k][io->ddir]++;
			if (v[k] > j->lw_max[k][io->ddir])
				j->lw_max[k][io->ddir] = v[k];
		} else {
			log_line(f[k], j, now, k == LOG_BW ? io->len * 1000000000ULL / 1024 /
				 (lat ? lat : 1) : v[k], io);
		}
	}
}

/*
 * log_avg_msec: one row per direction at the end of each window, as fio
 * writes them: "time, value, direction, 0, 0" (an offset column of 0 with
 * log_offset). Latency rows give the window's mean and only where it had
 * I/Os; bw (KiB/s) and iops rows are written for every direction the job
 * does, at windows that end while it runs.
 */
static void log_window(struct job *j, int64_t now, bool final)
{
	int k, d;
	FILE *f[LOG_KINDS] = { j->clat_log, j->slat_log, j->lat_log, j->bw_log, j->iops_log };
	uint64_t ms = j->o->log_avg_msec;

	for (k = 0; k < LOG_KINDS; k++) {
		for (d = 0; d < JOB_BS_DIRS; d++) {
			uint64_t value;

			if (!f[k])
				continue;
			if (k == LOG_BW || k == LOG_IOPS) {
				if (final || !does_dir(j->o, d))
					continue;
				value = k == LOG_BW ? j->lw_sum[k][d] * 1000 / ms / 1024 :
					j->lw_n[k][d] * 1000 / ms;
			} else {
				if (!j->lw_n[k][d])
					continue;
				value = j->o->log_max_value ? j->lw_max[k][d] :
					j->lw_sum[k][d] / j->lw_n[k][d];
			}
			fprintf(f[k], j->o->log_offset ? "%lld, %llu, %d, 0, 0, 0\n" :
				"%lld, %llu, %d, 0, 0\n", (long long)((now - j->t_begin) / 1000000),
				(unsigned long long)value, d);
			j->lw_sum[k][d] = j->lw_n[k][d] = j->lw_max[k][d] = 0;
		}
	}
}

static void log_tick(struct sim *sim, void *arg)
{
	struct job *j = arg;
	int64_t now = sim_now(sim);

	if (j->finished || j->issuing_done || now >= j->t_end)
		return;
	log_window(j, now, false);
	sim_after(sim, (int64_t)j->o->log_avg_msec * SIM_MSEC, log_tick, j);
}

/* ---- errors that end a job: max_latency, rate_min (fio's) ---- */

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
			report_job_reset(j->rep);
			j->t_stats = j->sample_t = now;
			memset(j->win_bytes, 0, sizeof(j->win_bytes));
			memset(j->win_ios, 0, sizeof(j->win_ios));
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
	fprintf(j->hist_log, "%lld, %d, %llu", (long long)ms, io->ddir,
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

/*
 * An I/O fio has reaped: its latencies, counts and logs (a reap of one
 * counts in the "complete" distribution as one call, as fio's
 * io_u_mark_complete(); batched reaps count theirs in reap()).
 */
static void io_reaped(struct job *j, struct job_io *io, bool single)
{
	struct report_job *r = j->rep;
	struct report_dir *rd = &r->dir[io->ddir];
	int64_t now = sim_now(j->t->sim);
	uint64_t clat = (uint64_t)(now - io->t_issue), lat = (uint64_t)(now - io->t_start);
	/* A trim is a system call (BLKDISCARD) whatever the engine: no slat. */
	bool sync = j->o->engine_kind == JOB_ENGINE_SYNC || io->ddir == DDIR_TRIM;

	j->inflight--;
	j->t_finish = now;
	j->run->ios_done++;
	if (io->ddir == DDIR_TRIM)
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
		 * As fio's io_completed(): a failed I/O adds no sample. With
		 * continue_on_error covering its direction it is counted
		 * (total_err, first_error) and the job carries on; otherwise the
		 * error is the job's and it stops issuing.
		 */
		int kind = io->ddir == DDIR_READ ? JOB_ERR_READ : JOB_ERR_WRITE;

		/*
		 * fio counts an I/O when it queues it (total_io_u): a failed one
		 * too, and its completion where it counts a successful one's.
		 */
		if (!j->in_ramp) {
			rd->total_ios++;
			if (single) {
				r->io_u_complete[batch_bucket(1)]++;
				r->total_complete++;
			}
		}
		if (j->o->continue_on_error & kind) {
			r->total_err++;
			if (!r->first_error)
				r->first_error = io->error;
		} else {
			if (!r->error) {
				r->error = io->error;
				/* fio's cleanup_pending_aio(): one more reap, of none so far. */
				if (!j->in_ramp) {
					r->io_u_complete[0]++;
					r->total_complete++;
				}
				/*
				 * Where fio's td_verror() takes it: the sg engine's
				 * SG_IO (a SCSI error: fio_sgio_doio(); the ioctl's
				 * own: xfer), another system call that failed (a sync
				 * engine's I/O, a trim's BLKDISCARD): td_io_queue();
				 * else the completion's io_u error. fio says so as the
				 * job ends.
				 */
				if (io->err_site)
					r->error_site = io->err_site;
				else if (j->o->sg)
					r->error_site = "engines/sg.c, func=fio_sgio_doio";
				else if (sync)
					r->error_site = "ioengines.c, func=td_io_queue";
				snprintf(r->error_note, sizeof(r->error_note),
					 "fio: pid=%u, err=%d/file:%s, error=%s", j->number, io->error,
					 r->error_site ? r->error_site : "io_u.c, func=io_u error",
					 strerror(io->error));
			}
			j->issuing_done = true;
		}
	} else if (!j->in_ramp) {
		/*
		 * fio reports slat and lat as min/max/mean/stddev, with percentiles
		 * only for lat_percentiles: only then do their buckets count (a
		 * bucket write is a cache miss more per I/O).
		 */
		const struct job_options *o = j->o;

		/* disable_slat, disable_clat, disable_lat: that latency is not sampled (fio's). */
		if (!sync && !o->disable_slat) {
			if (r->slat_percentiles)
				hist_add(&rd->slat, (uint64_t)(io->t_issue - io->t_start));
			else
				hist_summary_add(&rd->slat.sum, (uint64_t)(io->t_issue - io->t_start));
		}
		if (!o->disable_clat)
			hist_add(&rd->clat, clat);
		if (o->disable_lat)
			;
		else if (r->lat_percentiles)
			hist_add(&rd->lat, sync ? clat : lat);
		else
			hist_summary_add(&rd->lat.sum, sync ? clat : lat);
		/* fio's per-priority samples come with the clat (or, for lat_percentiles, lat) ones. */
		if (io->prio_index >= 0 && !(r->lat_percentiles ? o->disable_lat : o->disable_clat))
			hist_add(&rd->prios[io->prio_index].h, r->lat_percentiles ? lat : clat);
		hist_summary_add(&rd->host_queue, (uint64_t)(io->t_dispatch - io->t_issue));
		hist_summary_add(&rd->drive, (uint64_t)(now - io->t_dispatch));
		rd->io_bytes += io->len;
		rd->total_ios++;
		j->win_bytes[io->ddir] += io->len;
		j->win_ios[io->ddir]++;
		if (!o->disable_clat) {
			mark_latency(r, clat);	/* fio's lat buckets count clat samples */
			if (j->hist_log)
				hist_log_io(j, now, io, clat);
		}
		if (single) {
			r->io_u_complete[batch_bucket(1)]++;
			r->total_complete++;
		}
		if (j->writes_logs)	/* most runs write no log */
			log_io(j, now, io, clat, sync ? clat : lat,
			       sync ? 0 : (uint64_t)(io->t_issue - io->t_start));
		j->done_bytes[io->ddir] += io->len;
		j->done_ios[io->ddir]++;
		/* fio compares its lat (from the submission) with max_latency and latency_target. */
		if (io->ddir < DDIR_COUNT && j->o->max_latency[io->ddir] && (sync ? clat : lat) >
		    (uint64_t)j->o->max_latency[io->ddir])
			latency_exceeded(j, io, sync ? clat : lat, j->o->max_latency[io->ddir]);
		else if (rate_below_min(j, now))
			job_error(j, EIO, "backend.c, func=check_min_rate");
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
		if (!j->in_ramp) {
			j->rep->io_u_complete[batch_bucket(n)]++;
			j->rep->total_complete++;
		}
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
	int64_t now = sim_now(j->t->sim);
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
	io->t_issue = sim_now(j->t->sim);
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
		j->rep->io_u_submit[batch_bucket(j->held)]++;
		j->rep->total_submit++;
	}
	j->held = 0;
}

/* bi_write_hint, where the kernel's bios carry one (docs/FIO.md, write_hint). */
static uint8_t bio_write_hint(const struct job *j)
{
	int k = j->t->kernel;

	if (host_kernel_has(k, HOST_KC_BIO_WRITE_HINT))
		return j->run->inode_hint;		/* 6.9+: the inode's, for direct I/O */
	if (host_kernel_has(k, HOST_KC_NO_FILE_RW_HINT))
		return 0;				/* 5.18..6.8: none */
	if (host_kernel_has(k, HOST_KC_RW_HINT))
		return j->file_hint ? j->file_hint : j->run->inode_hint;	/* file_write_hint() */
	return 0;
}

static void issue(struct job *j, const struct job_io_desc *want)
{
	struct job_io *io = j->free_ios;
	uint64_t len = want->len, off = want->offset, chunk, done = 0;
	uint16_t per_io = want->ioprio;
	unsigned k = 0;
	int d = want->ddir;
	int64_t now = sim_now(j->t->sim);
	uint8_t hint = bio_write_hint(j);

	j->free_ios = io->next;
	io->ddir = d;
	io->offset = off;
	io->len = len;
	io->prio_report = per_io ? per_io : j->job_prio;
	io->prio_eff = host_kernel_io_prio(j->t->kernel, per_io, j->task_prio, (int)j->o->nice,
					   (enum sched_policy)j->o->sched_policy);
	io->prio_index = -1;
	io->error = 0;
	io->err_site = NULL;
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
	if (j->o->sg) {
		/*
		 * fio's sg engine: one SCSI READ/WRITE through SG_IO, never
		 * split, no priority or write hint of the task's; its trims
		 * are UNMAP, which libata does not translate (ILLEGAL REQUEST:
		 * EIO), and SG_IO refuses a transfer over max_hw_sectors.
		 */
		io->err_site = NULL;
		if (d == DDIR_TRIM) {
			io->error = EIO;
			io->err_site = "engines/sg.c, func=fio_sgio_doio";
		} else if (len > SG_MAX_HW_BYTES) {
			io->error = EIO;
			io->err_site = "engines/sg.c, func=xfer";
		} else {
			struct blk_bio *b = &io->bios[k++];

			blk_bio_prep(b, off / j->t->logical_size, (uint32_t)(len / j->t->logical_size),
				     d == DDIR_WRITE, 0, bio_accepted, bio_done, io);
			b->flags = BLK_PASSTHROUGH |
				((d == DDIR_READ ? j->o->readfua : j->o->writefua) ? BLK_FUA : 0);
			b->write_hint = 0;
			done = len;
		}
	}
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
	/*
	 * fio's do_io() bytes_issued, read-backs of a backlog too; never a
	 * trim, which every engine does in the system call (FIO_Q_COMPLETED).
	 */
	if (j->vstate == VERIFY_NONE && d != DDIR_TRIM)
		j->pass_bytes += len;
	else if (d == DDIR_TRIM)
		j->pass_trimmed = true;
	/* A trimwrite's limits count its writes (fio's io_bytes_exceeded(): td_write). */
	if (!j->issuing_verify && !(d == DDIR_TRIM && is_trimwrite(j->o))) {
		/* A write job's limits count its writes (fio's io_bytes_exceeded()). */
		j->issued_bytes += len;
		j->issued_ios++;
	}
	if (!j->in_ramp && j->submit_batch <= 1) {
		j->rep->io_u_map[depth_bucket(j->inflight)]++;
		j->rep->io_u_submit[batch_bucket(1)]++;
		j->rep->total_submit++;
	} else if (!j->in_ramp && ++j->held == j->submit_batch) {
		commit(j);
	}
	if (j->iolog && !(j->dry && d != DDIR_READ))	/* a dry-run write is never issued */
		fprintf(j->iolog, "%lld %s %s %llu %llu\n", (long long)((now - j->t_begin) / 1000),
			j->iolog_name, ddir_name(d), (unsigned long long)off,
			(unsigned long long)len);
	sim_debug(j->t->sim, SIM_DBG_JOB, "job %s.%u: %s offset %llu len %llu prio %u/%u%s",
		  j->o->name, j->clone, ddir_name(d), (unsigned long long)off,
		  (unsigned long long)len, ioprio_class(io->prio_eff), ioprio_level(io->prio_eff),
		  per_io ? " (cmdprio)" : "");
	if (d == DDIR_TRIM)
		j->trimming = true;	/* BLKDISCARD: the submitter waits for it */
	if (j->io_refused || (j->dry && d != DDIR_READ) || (!k && !j->dry)) {
		/*
		 * The system call fails: no bio reaches the block layer (a
		 * trim on a queue without discard: blk_ioctl_discard()'s
		 * EOPNOTSUPP); or verify_only's dry run, which issues nothing
		 * and counts the write done at once (an event: no reentry).
		 */
		io->error = j->dry && d != DDIR_READ ? 0 : io->error ? io->error :
			!k ? EOPNOTSUPP : j->io_refused;
		io->t_issue = now;
		sim_at(j->t->sim, now, io_refused, io);
		return;
	}
	submit_bios(j, io);
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
	if (j->wake && sim_is_pending(j->t->sim, j->wake))
		return;
	j->wake = sim_at(j->t->sim, when, wake_up, j);
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
	j->sync_start = sim_now(j->t->sim);
	blk_bio_prep(b, 0, 0, true, j->job_prio, NULL, sync_done, j);
	/* sg: SYNCHRONIZE CACHE through SG_IO, which libata always sends as FLUSH CACHE EXT. */
	b->flags = j->o->sg ? BLK_PASSTHROUGH : BLK_PREFLUSH;
	sim_debug(j->t->sim, SIM_DBG_JOB, "job %s.%u: fsync after %llu writes", j->o->name,
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

	if (bio->error)
		j->rep->error = EIO;
	j->syncing = false;
	j->t_finish = sim_now(j->t->sim);
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

static void job_fill(struct job *j)
{
	job_fill_queue(j);
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

static void job_fill_queue(struct job *j)
{
	int64_t now = sim_now(j->t->sim);

	if (j->finished)
		return;
	if (j->lat_quiesce) {
		if (j->inflight)
			return;
		j->lat_quiesce = false;	/* drained: the new depth starts now */
		lat_new_cycle(j, now);
	}
	while (!j->blocked_io && !j->syncing && !j->trimming && !j->issuing_done &&
	       j->inflight < j->qd) {
		struct job_io_desc io;
		int64_t wake_at;

		if (now >= j->t_end) {
			j->issuing_done = true;
			break;
		}
		if (j->vstate != VERIFY_NONE) {
			int v = verify_step(j, now);

			if (v > 0)
				continue;
			if (v == 0)
				return;
			j->issuing_done = true;
			break;
		}
		if (sync_due(j)) {
			start_sync(j);
			return;
		}
		if (backlog_trim(j) || backlog_read(j, now))
			continue;
		switch (j->source->next(j->source_state, now, &io, &wake_at)) {
		case JOB_SOURCE_IO:
			issue(j, &io);
			continue;
		case JOB_SOURCE_WAIT:
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
			break;
		}
	}
	if (j->issuing_done)
		finish_when_idle(j);
}

/* ---- time: start, ramp, samples, end ---- */

static void sample_tick(struct sim *sim, void *arg)
{
	struct job *j = arg;
	int64_t now = sim_now(sim), spent = (now - j->sample_t) / 1000000;
	int d;

	if (j->finished || j->issuing_done)
		return;
	for (d = 0; d < JOB_BS_DIRS; d++) {
		struct report_dir *rd = &j->rep->dir[d];

		if (!spent || !does_dir(j->o, d))
			continue;
		/* fio's bw sample: KiB/s over the window; iops: I/Os per second. */
		hist_summary_add(&rd->bw, j->win_bytes[d] * 1000 / (uint64_t)spent / 1024);
		hist_summary_add(&rd->iops, j->win_ios[d] * 1000 / (uint64_t)spent);
		j->win_bytes[d] = j->win_ios[d] = 0;
	}
	j->sample_t = now;
	sim_after(sim, 500 * SIM_MSEC, sample_tick, j);
}

static void ramp_end(struct sim *sim, void *arg)
{
	struct job *j = arg;

	j->in_ramp = false;
	j->t_stats = sim_now(sim);
	lat_target_init(j, j->t_stats);
	report_job_reset(j->rep);
	j->sample_t = j->t_stats;
	memset(j->win_bytes, 0, sizeof(j->win_bytes));
	memset(j->win_ios, 0, sizeof(j->win_ios));
	sim_after(sim, 500 * SIM_MSEC, sample_tick, j);
}

static void time_up(struct sim *sim, void *arg)
{
	struct job *j = arg;

	(void)sim;
	if (!j->finished && !j->issuing_done) {
		j->timed_out = true;
		stop_issuing(j);
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
	const struct job_options *o = j->o;
	int64_t now = sim_now(sim), runtime = j->o->runtime;
	int d;

	if (j->run->interrupted) {
		/* Its startdelay ran past the interruption: it ends without an I/O. */
		j->started = true;
		j->t_begin = j->t_stats = j->t_finish = now;
		stop_issuing(j);
		return;
	}

	j->started = true;
	j->t_begin = now;
	j->think_start = now;
	j->phase_start = now + j->o->ramp_time;
	lat_target_init(j, now);
	for (d = 0; d < DDIR_COUNT; d++)
		if (o->rate_process == JOB_RATE_POISSON)
			j->next_issue[d] = now;	/* fio's schedule counts from the job's start */
	j->t_stats = now + j->o->ramp_time;
	j->in_ramp = j->o->ramp_time > 0;
	j->t_end = INT64_MAX;
	if (runtime)
		j->t_end = now + j->o->ramp_time + runtime;
	j->sample_t = now;
	if (j->iolog)
		fprintf(j->iolog, "0 %s add\n0 %s open\n", j->iolog_name, j->iolog_name);
	if (j->in_ramp)
		sim_at(sim, j->t_stats, ramp_end, j);
	else
		sim_after(sim, 500 * SIM_MSEC, sample_tick, j);
	if (j->t_end != INT64_MAX)
		sim_at(sim, j->t_end, time_up, j);
	if (j->o->log_avg_msec && (j->clat_log || j->bw_log || j->iops_log))
		sim_after(sim, (int64_t)j->o->log_avg_msec * SIM_MSEC, log_tick, j);
	sim_debug(sim, SIM_DBG_JOB, "job %s.%u starts: depth %u, region %llu..%llu", j->o->name,
		  j->clone, j->depth, (unsigned long long)j->start, (unsigned long long)j->end);
	if (open_file_flags(j)) {
		stop_issuing(j);
		return;
	}
	job_fill(j);
}

static void job_finish(struct job *j)
{
	struct workload_runner *run = j->run;
	int64_t span = j->t_finish > j->t_stats ? j->t_finish - j->t_stats : 0;
	int d;

	if (j->finished)
		return;
	j->finished = true;
	if (j->verify_on)
		phase_end(j, j->t_finish, false);
	/*
	 * A verifying job's phases: fio's update_runtime(), which rounds up to
	 * the ms (a phase of fio's never takes no time: at least 1) and leaves
	 * verify_only's writes out.
	 */
	for (d = 0; d < JOB_BS_DIRS; d++) {
		struct report_dir *rd = &j->rep->dir[d];

		if (!rd->io_bytes)
			continue;
		if (!j->verify_on)
			rd->runtime_ms = (uint64_t)(span / 1000000);
		else if (j->dry && d == DDIR_WRITE)
			rd->runtime_ms = 0;
		else
			rd->runtime_ms = (uint64_t)((j->dir_runtime[d] + 999999) / 1000000) ?
				(uint64_t)((j->dir_runtime[d] + 999999) / 1000000) : 1;
	}
	j->rep->run_time_ms = span / 1000000;
	if (j->o->latency_target)
		j->rep->latency_depth = j->qd;	/* where the search settled */
	j->rep->elapsed_s = (double)j->t_finish / 1e9;
	if (j->iolog)
		fprintf(j->iolog, "%lld %s close\n", (long long)((j->t_finish - j->t_begin) / 1000),
			j->iolog_name);
	if (j->o->log_avg_msec)	/* the latencies of the last window, at the job's end (fio's) */
		log_window(j, j->timed_out && j->t_end > j->t_finish ? j->t_end : j->t_finish, true);
	sim_debug(j->t->sim, SIM_DBG_JOB, "job %s.%u done: %llu I/Os", j->o->name, j->clone,
		  (unsigned long long)j->issued_ios);
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
			sim_after(run->t->sim, j->o->startdelay, job_start, j);
		}
		if (run->running)
			return;
	}
}

/* ---- setting up ---- */

/* A log file, refused when it would overwrite an input. */
static FILE *open_out(struct job *j, const char *path, const char *option, struct err *e)
{
	const struct workload_run_opts *ro = j->run->ro;
	const char *input = NULL;
	struct outfile *o = &j->logs[j->nlogs];
	char what[JOB_NAME_MAX + 64];
	size_t i;

	for (i = 0; i < j->run->w->ninputs && !input; i++)
		if (outfile_same_target(path, j->run->w->inputs[i]))
			input = j->run->w->inputs[i];
	for (i = 0; i < ro->nprotect && !input; i++)
		if (outfile_same_target(path, ro->protect[i]))
			input = ro->protect[i];
	if (input) {
		err_set(e, "%s:%d: job '%s': option '%s': %s is an input of this run (%s); "
			"refusing to overwrite it", j->def->file, j->def->line, j->o->name, option,
			path, input);
		return NULL;
	}
	if (!j->o->per_job_logs) {
		/* per_job_logs=0: jobs naming the same log write rows into one file (fio's). */
		const struct job *k;
		unsigned l;

		for (k = j->run->jobs; k < j; k++)
			for (l = 0; l < k->nlogs; l++)
				if (k->logs[l].path && !strcmp(k->logs[l].path, path)) {
					j->writes_logs = true;
					return k->logs[l].f;
				}
	}
	snprintf(what, sizeof(what), "job '%s': %s", j->o->name, option);
	if (outfile_open(o, path, what, e))
		return NULL;
	j->nlogs++;
	j->writes_logs = true;
	return o->f;
}

static FILE *open_log(struct job *j, const char *prefix, const char *kind, const char *option,
		      struct err *e)
{
	char path[JOB_PATH_MAX + 192];
	const char *tag = j->run->ro->log_tag;

	char number[16] = "";

	if (j->o->per_job_logs)
		snprintf(number, sizeof(number), ".%u", j->number);
	snprintf(path, sizeof(path), "%s_%s%s%s%s.log", prefix, kind, number, tag ? "." : "",
		 tag ? tag : "");
	return open_out(j, path, option, e);
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
	if (o->engine_kind == JOB_ENGINE_SYNC)
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
	/* The defaults reap each completion at once: the plain path. */
	j->reap_batches = j->complete_min > 1 || j->complete_max > 1 || j->depth_low < j->depth;
}

static int job_setup(struct job *j, uint64_t seed, struct err *e)
{
	const struct job_options *o = j->o;
	char name[256];
	uint64_t s = o->randseed_set ? o->randseed : seed, nblocks;
	unsigned i, d;

	if (region(j, s, e))
		return -1;
	snprintf(name, sizeof(name), "job/%s/%u/%u/zone", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_zone, s, name);
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
	snprintf(name, sizeof(name), "job/%s/%u/%u/offset", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_off, s, name);
	snprintf(name, sizeof(name), "job/%s/%u/%u/bs", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_bs, s, name);
	snprintf(name, sizeof(name), "job/%s/%u/%u/rwmix", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_ddir, s, name);
	snprintf(name, sizeof(name), "job/%s/%u/%u/prio", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_prio, s, name);
	snprintf(name, sizeof(name), "job/%s/%u/%u/rate", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_rate, s, name);
	snprintf(name, sizeof(name), "job/%s/%u/%u/trim", o->name, j->def->occurrence, j->clone);
	rng_seed(&j->r_trim, s, name);
	for (d = 0; d < DDIR_COUNT; d++) {
		snprintf(name, sizeof(name), "job/%s/%u/%u/seqrand/%u", o->name, j->def->occurrence,
			 j->clone, d);
		rng_seed(&j->r_seqrand[d], s, name);
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
	j->depth = o->engine_kind == JOB_ENGINE_SYNC ? 1 : o->iodepth;
	j->qd = j->depth;
	batch_setup(j);
	j->source = &fio_source;
	j->source_state = j;
	if (j->run->sources) {
		struct job_source src = { NULL, NULL, 0, false };

		if (j->run->sources->open(j->run->sources->ctx, &j->run->source_run, o,
					  j->number - 1, j->t, &src, e))
			return -1;
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

		if (!(j->clat_log = open_log(j, p, "clat", opt, e)) ||
		    !(j->lat_log = open_log(j, p, "lat", opt, e)))
			return -1;
		if (o->engine_kind == JOB_ENGINE_ASYNC && !(j->slat_log = open_log(j, p, "slat", opt, e)))
			return -1;
	}
	if (o->write_bw_log[0] &&
	    !(j->bw_log = open_log(j, o->write_bw_log, "bw", "write_bw_log", e)))
		return -1;
	if (o->write_iops_log[0] &&
	    !(j->iops_log = open_log(j, o->write_iops_log, "iops", "write_iops_log", e)))
		return -1;
	if (o->write_hist_log[0]) {
		if (!(j->hist_log = open_log(j, o->write_hist_log, "clat_hist", "write_hist_log", e)))
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
	if (o->write_iolog[0]) {
		const char *tag = j->run->ro->log_tag;
		char path[JOB_PATH_MAX + 128];

		snprintf(path, sizeof(path), "%s%s%s", o->write_iolog, tag ? "." : "", tag ? tag : "");
		j->iolog = open_out(j, path, "write_iolog", e);
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

	report_job_init(r);
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
	r->iodepth = o->iodepth;
	/* fio reports latency_target in ns, latency_window in us. */
	r->latency_target_ns = (uint64_t)o->latency_target;
	r->latency_window_us = (uint64_t)o->latency_window / 1000;
	r->latency_percentile = o->latency_percentile;
	r->group_reporting = o->group_reporting;
	r->ioprio = j->job_prio;
	r->multi_prio = o->cmdprio_percentage[0] || o->cmdprio_percentage[1] ||
		o->ncmdprio_bssplit[0] || o->ncmdprio_bssplit[1] || j->source_prios;
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
	j->clat_log = j->slat_log = j->lat_log = j->iolog = j->bw_log = j->iops_log = NULL;
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
		uint64_t depth = o->engine_kind == JOB_ENGINE_SYNC ? 1 : o->iodepth, bios = 1, each;

		for (d = 0; d < DDIR_COUNT; d++) {
			uint64_t lo, hi;

			job_bs_extent(o, d, &lo, &hi);
			if ((hi + t->max_request - 1) / t->max_request > bios)
				bios = (hi + t->max_request - 1) / t->max_request;
		}
		each = o->numjobs * depth * (sizeof(struct job_io) + bios * sizeof(struct blk_bio));
		units += o->numjobs * depth;
		bytes += each;
		if (each > worst_bytes) {
			worst_bytes = each;
			worst = &w->defs[i];
		}
	}
	if (bytes > WORKLOAD_MAX_IO_MEMORY)
		return err_set(e, "%s:%d: job '%s': the jobs' %llu I/O units (iodepth x numjobs over "
			       "every job) would take %llu MiB, this job's %llu MiB of it; ncqsim "
			       "allows %llu MiB", worst->file, worst->line, worst->o.name,
			       (unsigned long long)units, (unsigned long long)(bytes >> 20),
			       (unsigned long long)(worst_bytes >> 20),
			       (unsigned long long)(WORKLOAD_MAX_IO_MEMORY >> 20));
	return 0;
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
			if (w->defs[i].segment + 1 > run.nsegments)
				run.nsegments = w->defs[i].segment + 1;
		}
	}
	run.njobs = n;
	out->njobs = n;
	start_segment(&run);
	next_progress = sim_now(t->sim) + SIM_SEC;
	for (;;) {
		/* A simulated second at a time: an interruption is seen within one. */
		sim_run(t->sim, next_progress);
		if (ro->stop && *ro->stop && !run.interrupted)
			interrupt(&run);
		if (ro->progress)
			ro->progress(ro->progress_ctx, (double)sim_now(t->sim) / 1e9, run.ios_done);
		if (sim_next_time(t->sim) == SIM_FOREVER)
			break;
		next_progress += SIM_SEC;
	}
	for (i = 0; i < n && !rc; i++)
		if (run.jobs[i].map_oom)
			rc = err_set(e, "job '%s': out of memory for its random map",
				     run.jobs[i].o->name);
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
	free(opts);
	if (rc) {
		report_jobs_free(out->jobs, n);
		out->jobs = NULL;
		out->njobs = 0;
	}
	return rc;
}
