#include "stats/report.h"

#include "util/ioprio.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const ddir_names[] = { "read", "write", "trim" };

/* unified_rw_reporting=both: the third entry, after read and write (fio's DDIR_RWDIR_CNT). */
#define MIXED_DIR REPORT_DIRS

/* ---- the job record ---- */

void report_job_init(struct report_job *j)
{
	memset(j, 0, sizeof(*j));
	report_job_init_zeroed(j);
}

void report_job_init_zeroed(struct report_job *j)
{
	unsigned d;

	for (d = 0; d < REPORT_DIRS; d++) {
		hist_init_zeroed(&j->dir[d].slat);
		hist_init_zeroed(&j->dir[d].clat);
		hist_init_zeroed(&j->dir[d].lat);
		hist_summary_init(&j->dir[d].bw);
		hist_summary_init(&j->dir[d].iops);
		hist_summary_pair_init(&j->dir[d].split);
	}
	hist_summary_init(&j->sync_lat);
	j->members = 1;
}

void report_job_free(struct report_job *j)
{
	unsigned d;

	if (j->ss) {
		steady_free(j->ss);
		free(j->ss);
		j->ss = NULL;
	}
	for (d = 0; d < REPORT_DIRS; d++) {
		free(j->dir[d].prios);
		j->dir[d].prios = NULL;
		j->dir[d].nprios = 0;
	}
}

void report_job_reset(struct report_job *j)
{
	unsigned d, p;

	for (d = 0; d < REPORT_DIRS; d++) {
		struct report_dir *rd = &j->dir[d];

		rd->io_bytes = rd->total_ios = rd->short_ios = rd->drop_ios = 0;
		rd->runtime_ms = 0;
		hist_reset(&rd->slat);
		hist_reset(&rd->clat);
		hist_reset(&rd->lat);
		for (p = 0; p < rd->nprios; p++)
			hist_reset(&rd->prios[p].h);
		hist_summary_init(&rd->bw);
		hist_summary_init(&rd->iops);
		hist_summary_pair_init(&rd->split);
	}
	hist_summary_init(&j->sync_lat);
	memset(j->io_u_map, 0, sizeof(j->io_u_map));
	memset(j->io_u_submit, 0, sizeof(j->io_u_submit));
	memset(j->io_u_complete, 0, sizeof(j->io_u_complete));
	memset(j->lat_n, 0, sizeof(j->lat_n));
	memset(j->lat_u, 0, sizeof(j->lat_u));
	memset(j->lat_m, 0, sizeof(j->lat_m));
}

struct report_prio *report_prio_get(struct report_dir *d, uint16_t ioprio)
{
	unsigned i;
	struct report_prio *p;

	for (i = 0; i < d->nprios; i++)
		if (d->prios[i].ioprio == ioprio)
			return &d->prios[i];
	if (d->nprios == REPORT_MAX_PRIOS)
		return NULL;
	p = realloc(d->prios, (d->nprios + 1) * sizeof(*p));
	if (!p)
		return NULL;
	d->prios = p;
	p = &d->prios[d->nprios++];
	p->ioprio = ioprio;
	hist_init(&p->h);
	return p;
}

/* ---- fio's number formatting ---- */

void report_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, int pow2,
		    const char *unit)
{
	static const char *si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char **prefix = pow2 ? iec : si;
	unsigned thousand = pow2 ? 1024 : 1000, modulo = UINT32_MAX;
	int post = 0, carry = 0;
	char tmp[32];

	for (; base > 1; post++)
		base /= (int)thousand;
	while (post < 7) {
		snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
		if ((int)strlen(tmp) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= 7)
		post = 0;
	if (modulo == UINT32_MAX) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post], unit);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)num);
	if (maxlen - (int)strlen(tmp) <= 1) {
		if (carry)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post], unit);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", maxlen - (int)strlen(tmp) - 1,
		 (double)modulo / (double)thousand);
	if (tmp[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, tmp + 2, prefix[post], unit);
}

/*
 * A rate in the text's BW and group lines: bytes per second, or with
 * unit_base=1 bits (fio's num2str() with N2S_BITPERSEC multiplies by 8).
 */
static void rate2str(char *buf, size_t len, uint64_t bytes_per_s, unsigned sig_figs, int pow2,
		     bool bits)
{
	report_num2str(buf, len, bits ? bytes_per_s * 8 : bytes_per_s, (int)sig_figs, 1, pow2,
		       bits ? "bit/s" : "B/s");
}

static bool calc_lat(const struct hist_summary *s, uint64_t *min, uint64_t *max, double *mean,
		     double *dev)
{
	if (!s->n)
		return false;
	*min = s->min;
	*max = s->max;
	*mean = s->mean;
	*dev = hist_summary_stddev(s);
	return true;
}

static void display_lat(FILE *out, const char *name, const struct hist_summary *s)
{
	uint64_t min, max;
	double mean, dev;
	const char *base = "(nsec)";
	char minp[32], maxp[32];

	if (!calc_lat(s, &min, &max, &mean, &dev))
		return;
	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1000000.0;
		dev /= 1000000.0;
		base = "(msec)";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1000.0;
		dev /= 1000.0;
		base = "(usec)";
	}
	report_num2str(minp, sizeof(minp), min, 6, 1, 0, "");
	report_num2str(maxp, sizeof(maxp), max, 6, 1, 0, "");
	fprintf(out, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base, minp, maxp,
		mean, dev);
}

static void show_percentiles(FILE *out, const struct hist *h, const struct report_job *j,
			     const char *name)
{
	double sorted[HIST_MAX_PERCENTILES];
	uint64_t vals[HIST_MAX_PERCENTILES], minv = UINT64_MAX, maxv = 0, divisor;
	unsigned len = hist_percentiles(h, j->percentiles, j->npercentiles, sorted, vals), i;
	int scale_down, time_width, per_line, precision = (int)j->percentile_precision;
	char fmt[48];

	if (!len)
		return;
	for (i = 0; i < len; i++) {
		if (vals[i] < minv)
			minv = vals[i];
		if (vals[i] > maxv)
			maxv = vals[i];
	}
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale_down = 2;
		divisor = 1000000;
		fprintf(out, "    %s percentiles (msec):\n     |", name);
	} else if (minv > 2000 && maxv > 99999) {
		scale_down = 1;
		divisor = 1000;
		fprintf(out, "    %s percentiles (usec):\n     |", name);
	} else {
		scale_down = 0;
		divisor = 1;
		fprintf(out, "    %s percentiles (nsec):\n     |", name);
	}
	time_width = maxv / divisor ? (int)(log10((double)(maxv / divisor)) + 1) : 1;
	if (time_width < 5)
		time_width = 5;
	snprintf(fmt, sizeof(fmt), " %%%d.%dfth=[%%%dllu]%%c", precision + 3, precision, time_width);
	per_line = (80 - 7) / (precision + 10 + time_width);
	for (i = 0; i < len; i++) {
		uint64_t v = vals[i];
		int k;

		if (i && i % (unsigned)per_line == 0)
			fprintf(out, "     |");
		for (k = 0; k < scale_down; k++)
			v = (v + 999) / 1000;
		fprintf(out, fmt, sorted[i], (unsigned long long)v, i == len - 1 ? '\n' : ',');
		if (i == len - 1)
			break;
		if (i % (unsigned)per_line == (unsigned)per_line - 1)
			fprintf(out, "\n");
	}
}

/* ---- groups ---- */

struct group_stats {
	int groupid;
	int unified;			/* the group's last job's unified_rw_reporting */
	/* Read, write, and with unified_rw_reporting=both the two together (MIXED_DIR). */
	uint64_t iobytes[REPORT_DIRS + 1], agg[REPORT_DIRS + 1];
	uint64_t min_bw[REPORT_DIRS + 1], max_bw[REPORT_DIRS + 1];
	uint64_t min_run[REPORT_DIRS + 1], max_run[REPORT_DIRS + 1];
	unsigned kb_base, sig_figs;
	bool unit_bits;			/* the group's last entry's unit_base=1, as fio */
};

static void group_stats(const struct report_job *jobs, unsigned n, int groupid,
			struct group_stats *g)
{
	unsigned i, d;

	memset(g, 0, sizeof(*g));
	g->groupid = groupid;
	for (d = 0; d < REPORT_DIRS + 1; d++)
		g->min_bw[d] = g->min_run[d] = UINT64_MAX;
	for (i = 0; i < n; i++) {
		const struct report_job *j = &jobs[i];

		if (j->groupid != groupid)
			continue;
		g->unified = j->unified;	/* fio labels the group lines after its last job */
		g->kb_base = j->kb_base;
		g->sig_figs = j->sig_figs;
		g->unit_bits = j->unit_bits;
		for (d = 0; d < REPORT_DIRS; d++) {
			uint64_t bw;

			if (!j->dir[d].runtime_ms)
				continue;
			if (j->dir[d].runtime_ms < g->min_run[d] || !g->min_run[d])
				g->min_run[d] = j->dir[d].runtime_ms;
			if (j->dir[d].runtime_ms > g->max_run[d])
				g->max_run[d] = j->dir[d].runtime_ms;
			bw = j->dir[d].io_bytes * 1000 / j->dir[d].runtime_ms;
			if (bw < g->min_bw[d])
				g->min_bw[d] = bw;
			if (bw > g->max_bw[d])
				g->max_bw[d] = bw;
			g->iobytes[d] += j->dir[d].io_bytes;
		}
	}
	for (d = 0; d < REPORT_DIRS; d++) {
		if (!g->max_run[d] || g->unified != REPORT_UNIFIED_BOTH)
			continue;
		/* fio's MIXED line: the bytes of both, the extremes of either. */
		g->iobytes[MIXED_DIR] += g->iobytes[d];
		if (g->min_run[d] < g->min_run[MIXED_DIR])
			g->min_run[MIXED_DIR] = g->min_run[d];
		if (g->max_run[d] > g->max_run[MIXED_DIR])
			g->max_run[MIXED_DIR] = g->max_run[d];
		if (g->min_bw[d] < g->min_bw[MIXED_DIR])
			g->min_bw[MIXED_DIR] = g->min_bw[d];
		if (g->max_bw[d] > g->max_bw[MIXED_DIR])
			g->max_bw[MIXED_DIR] = g->max_bw[d];
	}
	for (d = 0; d < REPORT_DIRS + 1; d++)
		if (g->max_run[d])
			g->agg[d] = g->iobytes[d] * 1000 / g->max_run[d];
}

/*
 * "clat prio C/L" as fio 3.33 prints it; with a hint, fio 3.36's
 * "clat prio C/L/H", so that classes differing only in the CDL descriptor
 * stay apart.
 */
static void prio_label(char *buf, size_t len, const char *clat_type, uint16_t v)
{
	if (ioprio_hint(v))
		snprintf(buf, len, "%s prio %u/%u/%u", clat_type, ioprio_class(v), ioprio_level(v),
			 ioprio_hint(v));
	else
		snprintf(buf, len, "%s prio %u/%u", clat_type, ioprio_class(v), ioprio_level(v));
}

const struct report_job *report_first_failed_job(const struct report *r)
{
	unsigned i;

	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].error)
			return &r->jobs[i];
	return NULL;
}

unsigned report_prios_with_samples(const struct report_dir *d)
{
	unsigned i, n = 0;

	for (i = 0; i < d->nprios; i++)
		n += d->prios[i].h.sum.n > 0;
	return n;
}

/* ---- normal text ---- */

static struct report_dir *mixed_dir(const struct report_job *j);
static void free_mixed_dir(struct report_dir *d);

static int is_pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

static double agg_percent(const struct group_stats *g, unsigned d, double mean)
{
	double p = 100.0;

	if (g && g->agg[d] > 1024) {
		p = mean * 100.0 / ((double)g->agg[d] / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

/*
 * One direction's block. `rd` is j->dir[d], or with unified_rw_reporting
 * the merged "mixed" entry (d = 0: fio shows it as its read slot, with the
 * read's share of the group's bandwidth), `dname` its name.
 */
static void show_ddir_status(FILE *out, const struct report_job *j, const struct report_dir *rd,
			     unsigned d, const char *dname, const struct group_stats *g)
{
	/*
	 * fio's show_ddir_status() takes the power-of-2 choice (and the bw
	 * line's KiB or kB) from the group's kb_base — its last member's —
	 * and unit_base and significant figures from the job's own.
	 */
	int i2p = is_pow2(g->kb_base);
	uint64_t runt = rd->runtime_ms, bw, iops, min, max;
	char io_p[32], bw_p[32], bw_alt[32], iops_p[32];
	const char *clat_type = j->lat_percentiles ? "lat" : "clat";
	double mean, dev;
	unsigned p;

	if (!runt)
		return;
	bw = 1000 * rd->io_bytes / runt;
	report_num2str(io_p, sizeof(io_p), rd->io_bytes, (int)j->sig_figs, 1, i2p, "B");
	rate2str(bw_p, sizeof(bw_p), bw, j->sig_figs, i2p, j->unit_bits);
	rate2str(bw_alt, sizeof(bw_alt), bw, j->sig_figs, !i2p, j->unit_bits);
	iops = 1000 * rd->total_ios / runt;
	report_num2str(iops_p, sizeof(iops_p), iops, (int)j->sig_figs, 1, 0, "");
	/* fio 3.33 ends the write line with its zoned-device counter (zbd_write_status()). */
	if (j->unified == REPORT_UNIFIED_BOTH && !strcmp(dname, "mixed"))
		/* fio 3.33 prints the added entry's rates and bytes as 0 (its JSON has them). */
		fprintf(out, "  mixed: IOPS=0, BW=0 (0)(0B/%llumsec)\n", (unsigned long long)runt);
	else
		fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", dname, iops_p, bw_p,
			bw_alt, io_p, (unsigned long long)runt, d == 1 ? "; 0 zone resets" : "");
	display_lat(out, "slat", &rd->slat.sum);
	display_lat(out, "clat", &rd->clat.sum);
	display_lat(out, " lat", &rd->lat.sum);
	if (report_prios_with_samples(rd) >= 2) {
		for (p = 0; p < rd->nprios; p++) {
			char name[64];
			uint16_t v = rd->prios[p].ioprio;

			if (!rd->prios[p].h.sum.n)
				continue;
			prio_label(name, sizeof(name), clat_type, v);
			display_lat(out, name, &rd->prios[p].h.sum);
		}
	}
	if (j->slat_percentiles && rd->slat.sum.n)
		show_percentiles(out, &rd->slat, j, "slat");
	if (j->clat_percentiles && rd->clat.sum.n)
		show_percentiles(out, &rd->clat, j, "clat");
	if (j->lat_percentiles && rd->lat.sum.n)
		show_percentiles(out, &rd->lat, j, "lat");
	if ((j->clat_percentiles || j->lat_percentiles) && report_prios_with_samples(rd) >= 2) {
		uint64_t samples = j->lat_percentiles ? rd->lat.sum.n : rd->clat.sum.n;

		for (p = 0; p < rd->nprios; p++) {
			char name[96];
			uint16_t v = rd->prios[p].ioprio;

			if (!rd->prios[p].h.sum.n)
				continue;
			prio_label(name, sizeof(name), clat_type, v);
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " (%.2f%% of IOs)",
				 100.0 * (double)rd->prios[p].h.sum.n / (double)samples);
			show_percentiles(out, &rd->prios[p].h, j, name);
		}
	}
	if (calc_lat(&rd->bw, &min, &max, &mean, &dev)) {
		double fkb = (double)g->kb_base, dmin = (double)min, dmax = (double)max;
		const char *bw_str = i2p ? "KiB" : "kB";
		double per = agg_percent(g, d, mean);

		if (mean > fkb * fkb) {
			dmin /= fkb;
			dmax /= fkb;
			mean /= fkb;
			dev /= fkb;
			bw_str = "MiB";
		}
		fprintf(out, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n", bw_str, (unsigned long long)dmin,
			(unsigned long long)dmax, per, mean, dev, (unsigned long long)rd->bw.n);
	}
	if (calc_lat(&rd->iops, &min, &max, &mean, &dev))
		fprintf(out, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			"samples=%llu\n", (unsigned long long)min, (unsigned long long)max, mean, dev,
			(unsigned long long)rd->iops.n);
}

/*
 * fio's total_submit and total_complete: every submit or completion counted
 * lands in one bucket, so the total is the buckets' sum, found here rather
 * than counted a second time per I/O.
 */
static uint64_t dist_total(const uint64_t *map, unsigned n)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		total += map[i];
	return total;
}

static void dist(const uint64_t *map, uint64_t total, double *pct, unsigned n, double floor)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		pct[i] = total ? 100.0 * (double)map[i] / (double)total : 0.0;
		if (total && pct[i] < floor && map[i])
			pct[i] = floor;
	}
}

static void show_lat(FILE *out, const double *v, unsigned n, const char *const *ranges,
		     const char *msg)
{
	bool new_line = true, shown = false;
	unsigned i, line = 0;

	for (i = 0; i < n; i++) {
		if (v[i] <= 0.0)
			continue;
		shown = true;
		if (new_line) {
			if (line)
				fprintf(out, "\n");
			fprintf(out, "  lat (%s)   : ", msg);
			new_line = false;
			line = 0;
		}
		if (line)
			fprintf(out, ", ");
		fprintf(out, "%s%3.2f%%", ranges[i], v[i]);
		line++;
		if (line == 5)
			new_line = true;
	}
	if (shown)
		fprintf(out, "\n");
}

/*
 * The error fio shows for a job (err= in its header, the JSON's and the
 * terse line's error): the one that ended it, else, under
 * continue_on_error, the first it carried on past (fio's
 * __show_run_stats()) — the exit status counts only the former.
 */
static int shown_error(const struct report_job *j)
{
	return j->error ? j->error : j->continue_on_error ? j->first_error : 0;
}

static const char *shown_site(const struct report_job *j)
{
	if (j->error)
		return j->error_site ? j->error_site : "io_u.c, func=io_u error";
	/* fio names where its engine raised the last error it carried on past. */
	if (j->carried_site)
		return j->carried_site;
	return j->async ? "io_u.c, func=io_u error" : "engines/sync.c, func=xfer";
}

static uint64_t total_ios(const struct report_job *j)
{
	return j->dir[0].total_ios + j->dir[1].total_ios + j->dir[2].total_ios;
}

static int any_io(const struct report_job *j)
{
	return j->dir[0].io_bytes || j->dir[1].io_bytes || j->dir[2].io_bytes || total_ios(j);
}

/*
 * fio's show_ss_normal(): the window's mean bandwidth (in KiB, both ways
 * of writing the unit from the same number, as fio does) and IOPS, and the
 * criterion as last judged.
 */
static void show_ss_normal(FILE *out, const struct report_job *j)
{
	const struct steady *ss = j->ss;
	int i2p = is_pow2(j->kb_base);
	char bw[32], bwalt[32], iops[32];
	uint64_t bw_mean = steady_bw_mean(ss) / j->kb_base;

	report_num2str(bw, sizeof(bw), bw_mean, (int)j->sig_figs, (int)j->kb_base, i2p, "B/s");
	report_num2str(bwalt, sizeof(bwalt), bw_mean, (int)j->sig_figs, (int)j->kb_base, !i2p, "B/s");
	report_num2str(iops, sizeof(iops), steady_iops_mean(ss), (int)j->sig_figs, 1, 0, "");
	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", bw, bwalt, iops, ss->flags & STEADY_IOPS ? "iops" : "bw",
		ss->flags & STEADY_SLOPE ? " slope" : " mean dev", ss->criterion,
		ss->flags & STEADY_PCT ? "%" : "");
}

/* fio's JSON "steadystate" object; fio prints its floats as floats (float casts kept). */
static void json_ss(struct json_writer *w, const struct report_job *j)
{
	const struct steady *ss = j->ss;
	char buf[64];
	unsigned i;

	snprintf(buf, sizeof(buf), "%s%s:%f%s", ss->flags & STEADY_IOPS ? "iops" : "bw",
		 ss->flags & STEADY_SLOPE ? "_slope" : "", (float)ss->limit,
		 ss->flags & STEADY_PCT ? "%" : "");
	json_object_begin(w, "steadystate");
	json_string(w, "ss", buf);
	json_int(w, "duration", j->ss_dur);
	json_int(w, "attained", ss->attained);
	snprintf(buf, sizeof(buf), "%f%s", (float)ss->criterion, ss->flags & STEADY_PCT ? "%" : "");
	json_string(w, "criterion", buf);
	json_double(w, "max_deviation", ss->deviation);
	json_double(w, "slope", ss->slope);
	json_object_begin(w, "data");
	json_uint(w, "bw_mean", steady_bw_mean(ss));
	json_uint(w, "iops_mean", steady_iops_mean(ss));
	json_array_begin(w, "iops");
	for (i = 0; i < ss->dur; i++)
		json_uint(w, NULL, ss->iops[steady_slot(ss, i)]);
	json_array_end(w);
	json_array_begin(w, "bw");
	for (i = 0; i < ss->dur; i++)
		json_uint(w, NULL, ss->bw[steady_slot(ss, i)]);
	json_array_end(w);
	json_object_end(w);
	json_object_end(w);
}

static void show_job_normal(FILE *out, const struct report_job *j, const struct group_stats *g,
			    const char *time_buf)
{
	static const char *const ranges[] = { "2=", "4=", "10=", "20=", "50=", "100=", "250=",
		"500=", "750=", "1000=", "2000=", ">=2000=" };
	double v[12];
	uint64_t total = total_ios(j);
	unsigned d;

	if (!any_io(j))
		return;
	if (shown_error(j))
		fprintf(out, "%s: (groupid=%d, jobs=%u): err=%2d (file:%s, error=%s): pid=%u: %s",
			j->name, j->groupid, j->members, shown_error(j), shown_site(j),
			strerror(shown_error(j)), j->number, time_buf);
	else
		fprintf(out, "%s: (groupid=%d, jobs=%u): err=%2d: pid=%u: %s", j->name, j->groupid,
			j->members, 0, j->number, time_buf);
	if (j->description[0])
		fprintf(out, "  Description  : [%s]\n", j->description);
	for (d = 0; d < REPORT_DIRS; d++)
		if (j->dir[d].io_bytes)
			show_ddir_status(out, j, &j->dir[d], d,
					 j->unified == REPORT_UNIFIED_MIXED ? "mixed" : ddir_names[d], g);
	if (j->unified == REPORT_UNIFIED_BOTH) {
		struct report_dir *mixed = mixed_dir(j);

		if (mixed && mixed->runtime_ms)
			show_ddir_status(out, j, mixed, 0, "mixed", g);
		free_mixed_dir(mixed);
	}
	dist(j->lat_n, total, v, 10, 0.01);
	show_lat(out, v, 10, ranges, "nsec");
	dist(j->lat_u, total, v, 10, 0.01);
	show_lat(out, v, 10, ranges, "usec");
	dist(j->lat_m, total, v, 12, 0.01);
	show_lat(out, v, 12, ranges, "msec");
	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		0.0, 0.0, 0ULL, 0ULL, 0ULL);
	dist(j->io_u_map, total, v, 7, 0.1);
	fprintf(out, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, "
		"32=%3.1f%%, >=64=%3.1f%%\n", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	dist(j->io_u_submit, dist_total(j->io_u_submit, 7), v, 7, 0.1);
	fprintf(out, "     submit    : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, "
		"64=%3.1f%%, >=64=%3.1f%%\n", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	dist(j->io_u_complete, dist_total(j->io_u_complete, 7), v, 7, 0.1);
	fprintf(out, "     complete  : 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, "
		"64=%3.1f%%, >=64=%3.1f%%\n", v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
	fprintf(out, "     issued rwts: total=%llu,%llu,%llu,0 short=%llu,%llu,%llu,0 "
		"dropped=%llu,%llu,%llu,0\n",
		(unsigned long long)j->dir[0].total_ios, (unsigned long long)j->dir[1].total_ios,
		(unsigned long long)j->dir[2].total_ios,
		(unsigned long long)j->dir[0].short_ios, (unsigned long long)j->dir[1].short_ios,
		(unsigned long long)j->dir[2].short_ios,
		(unsigned long long)j->dir[0].drop_ios, (unsigned long long)j->dir[1].drop_ios,
		(unsigned long long)j->dir[2].drop_ios);
	/* fio's order: errors (continue_on_error), latency, block lifetimes. */
	if (j->continue_on_error)
		fprintf(out, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)j->total_err, j->first_error,
			strerror(j->first_error));
	fprintf(out, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		(unsigned long long)j->latency_target_ns, (unsigned long long)j->latency_window_us,
		j->latency_percentile ? j->latency_percentile : 100.0,
		j->latency_depth ? j->latency_depth : j->iodepth);
	/*
	 * block_error_percentiles: fio counts trims per block and prints the
	 * percentiles of those counts and the blocks in each state. A job
	 * with it issues no trims of its own (job_load refuses rw=trim and the
	 * like with it: fio 3.33 aborts then), and a verify's trim_percentage
	 * trims count in no block (fio 3.33 prints zeros), so no block leaves
	 * its first state and fio has no percentile to print: its section is
	 * these two lines (fio 3.33 leaves the state counts unset, printing 0
	 * or stray numbers; ncqsim prints 0).
	 */
	if (j->block_error_pct)
		fprintf(out, "  block lifetime percentiles :\n   |        states               : "
			"unwritten=0, trimmed=0, written=0, trim failure=0, write failure=0\n");
	if (j->ss && j->ss_dur)
		show_ss_normal(out, j);
}

static void show_group_normal(FILE *out, const struct group_stats *g)
{
	static const char *const names[] = { "   READ", "  WRITE", "   TRIM", "  MIXED" };
	int i2p = is_pow2(g->kb_base);
	unsigned d;

	fprintf(out, "\nRun status group %d (all jobs):\n", g->groupid);
	for (d = 0; d < REPORT_DIRS + 1; d++) {
		char io[32], ioalt[32], agg[32], aggalt[32], min[32], minalt[32], max[32], maxalt[32];

		if (!g->max_run[d])
			continue;
		report_num2str(io, sizeof(io), g->iobytes[d], (int)g->sig_figs, 1, i2p, "B");
		report_num2str(ioalt, sizeof(ioalt), g->iobytes[d], (int)g->sig_figs, 1, !i2p, "B");
		rate2str(agg, sizeof(agg), g->agg[d], g->sig_figs, i2p, g->unit_bits);
		rate2str(aggalt, sizeof(aggalt), g->agg[d], g->sig_figs, !i2p, g->unit_bits);
		rate2str(min, sizeof(min), g->min_bw[d], g->sig_figs, i2p, g->unit_bits);
		rate2str(minalt, sizeof(minalt), g->min_bw[d], g->sig_figs, !i2p, g->unit_bits);
		rate2str(max, sizeof(max), g->max_bw[d], g->sig_figs, i2p, g->unit_bits);
		rate2str(maxalt, sizeof(maxalt), g->max_bw[d], g->sig_figs, !i2p, g->unit_bits);
		fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			names[g->unified == REPORT_UNIFIED_MIXED ? MIXED_DIR : d],
			agg, aggalt, min, max, minalt, maxalt, io, ioalt,
			(unsigned long long)g->min_run[d], (unsigned long long)g->max_run[d]);
	}
}

static int max_groupid(const struct report_job *jobs, unsigned n)
{
	int m = -1;
	unsigned i;

	for (i = 0; i < n; i++)
		if (jobs[i].groupid > m)
			m = jobs[i].groupid;
	return m;
}

static void write_normal(FILE *out, const struct report *r, const struct report_job *jobs,
			 unsigned n, const char *time_buf)
{
	/* Every group's status line, even one whose jobs all have stats=0 (fio's). */
	int gid, gmax = max_groupid(r->jobs, r->njobs);
	unsigned i;

	fprintf(out, "\n");
	for (i = 0; i < n; i++) {
		struct group_stats g;

		group_stats(jobs, n, jobs[i].groupid, &g);
		show_job_normal(out, &jobs[i], &g, time_buf);
	}
	for (gid = 0; gid <= gmax; gid++) {
		struct group_stats g;

		group_stats(jobs, n, gid, &g);
		show_group_normal(out, &g);
	}
	if (r->disk.present) {
		const struct report_disk *dk = &r->disk;

		fprintf(out, "\nDisk stats (read/write):\n");
		fprintf(out, "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
			"util=%3.2f%%\n", dk->name, (unsigned long long)dk->ios[0],
			(unsigned long long)dk->ios[1], (unsigned long long)dk->merges[0],
			(unsigned long long)dk->merges[1], (unsigned long long)dk->ticks_ms[0],
			(unsigned long long)dk->ticks_ms[1], (unsigned long long)dk->in_queue_ms,
			dk->util);
	}
}

void report_write_header(FILE *out, const struct report *r)
{
	unsigned i, procs = 0;

	for (i = 0; i < r->njobs; i++) {
		const struct report_job *j = &r->jobs[i];
		char b[6][32];
		unsigned k;
		int i2p = is_pow2(j->kb_base);

		procs++;
		if (j->clone) {
			if (j->clone == 1)
				fprintf(out, "...\n");
			continue;
		}
		for (k = 0; k < 3; k++) {
			report_num2str(b[2 * k], sizeof(b[0]), j->bs_min[k], (int)j->sig_figs, 1, i2p, "B");
			report_num2str(b[2 * k + 1], sizeof(b[0]), j->bs_max[k], (int)j->sig_figs, 1, i2p,
				       "B");
		}
		fprintf(out, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
			"iodepth=%u\n", j->name, j->groupid, j->rw, b[0], b[1], b[2], b[3], b[4], b[5],
			j->ioengine, j->iodepth);
	}
	fprintf(out, "%s\n", r->version);
	fprintf(out, "Starting %u process%s\n", procs, procs == 1 ? "" : "es");
}

/* ---- terse (fio's version 3) ---- */

/* "min;max;mean;dev" of a latency in microseconds, or zeros. */
static void terse_lat(FILE *out, const struct hist_summary *s)
{
	uint64_t min = 0, max = 0;
	double mean = 0, dev = 0;

	calc_lat(s, &min, &max, &mean, &dev);
	fprintf(out, ";%llu;%llu;%f;%f", (unsigned long long)(min / 1000),
		(unsigned long long)(max / 1000), mean / 1000, dev / 1000);
}

/*
 * One direction as fio's show_ddir_status_terse(): KiB, KiB/s, IOPS,
 * runtime; slat and clat in µs; 20 percentiles (of lat with
 * lat_percentiles, else of clat, "0%=0" where the list ends); lat; the
 * bandwidth samples with their share of the group's `agg` bytes/s.
 */
static void terse_dir(FILE *out, const struct report_job *j, const struct report_dir *rd,
		      uint64_t agg)
{
	double sorted[HIST_MAX_PERCENTILES];
	uint64_t vals[HIST_MAX_PERCENTILES], bw = 0, iops = 0, min, max;
	const struct hist *ph = j->lat_percentiles ? &rd->lat : j->clat_percentiles ? &rd->clat : NULL;
	unsigned len = 0, i;
	double mean, dev;

	if (rd->runtime_ms) {
		bw = 1000 * rd->io_bytes / rd->runtime_ms / 1024;
		iops = 1000 * rd->total_ios / rd->runtime_ms;
	}
	fprintf(out, ";%llu;%llu;%llu;%llu", (unsigned long long)(rd->io_bytes >> 10),
		(unsigned long long)bw, (unsigned long long)iops, (unsigned long long)rd->runtime_ms);
	terse_lat(out, &rd->slat.sum);
	terse_lat(out, &rd->clat.sum);
	if (ph && ph->sum.n)
		len = hist_percentiles(ph, j->percentiles, j->npercentiles, sorted, vals);
	for (i = 0; i < HIST_MAX_PERCENTILES; i++) {
		if (i < len)
			fprintf(out, ";%f%%=%llu", sorted[i], (unsigned long long)(vals[i] / 1000));
		else
			fprintf(out, ";0%%=0");
	}
	terse_lat(out, &rd->lat.sum);
	if (calc_lat(&rd->bw, &min, &max, &mean, &dev)) {
		double per = 100.0;

		/* fio divides the group's bytes/s by 1024 in integers first. */
		if (agg) {
			per = mean * 100 / (double)(agg / 1024);
			if (per > 100.0)
				per = 100.0;
		}
		fprintf(out, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)min,
			(unsigned long long)max, per, mean, dev);
	} else {
		fprintf(out, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
	}
}

/* One job's line, as fio's show_thread_status_terse_all() with version 3. */
static void terse_job(FILE *out, const struct report *r, const struct report_job *j,
		      const struct group_stats *g)
{
	double v[12];
	uint64_t total = total_ios(j), ntotal = 0;
	unsigned i;

	if (!any_io(j))
		return;
	fprintf(out, "3;%s;%s;%d;%d", r->version, j->name, j->groupid, shown_error(j));
	terse_dir(out, j, &j->dir[0], g->agg[0]);
	if (j->unified != REPORT_UNIFIED_MIXED)
		terse_dir(out, j, &j->dir[1], g->agg[1]);
	if (j->unified == REPORT_UNIFIED_BOTH) {
		struct report_dir *mixed = mixed_dir(j);

		/* fio shows the added entry in its read slot: the read's group bandwidth. */
		if (mixed)
			terse_dir(out, j, mixed, g->agg[0]);
		free_mixed_dir(mixed);
	}
	fprintf(out, ";%f%%;%f%%;%llu;%llu;%llu", 0.0, 0.0, 0ULL, 0ULL, 0ULL);
	dist(j->io_u_map, total, v, 7, 0.1);
	for (i = 0; i < 7; i++)
		fprintf(out, ";%3.1f%%", v[i]);
	/* The terse layout predates the nsec buckets: fio adds them to the first µs one. */
	dist(j->lat_u, total, v, 10, 0.01);
	for (i = 0; i < 10; i++)
		ntotal += j->lat_n[i];
	if (total)
		v[0] += 100.0 * (double)ntotal / (double)total;
	for (i = 0; i < 10; i++)
		fprintf(out, ";%3.2f%%", v[i]);
	dist(j->lat_m, total, v, 12, 0.01);
	for (i = 0; i < 12; i++)
		fprintf(out, ";%3.2f%%", v[i]);
	if (r->disk.present) {
		const struct report_disk *dk = &r->disk;

		fprintf(out, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", dk->name,
			(unsigned long long)dk->ios[0], (unsigned long long)dk->ios[1],
			(unsigned long long)dk->merges[0], (unsigned long long)dk->merges[1],
			(unsigned long long)dk->ticks_ms[0], (unsigned long long)dk->ticks_ms[1],
			(unsigned long long)dk->in_queue_ms, dk->util);
	}
	if (j->continue_on_error)
		fprintf(out, ";%llu;%d", (unsigned long long)j->total_err, j->first_error);
	if (j->description[0])
		fprintf(out, ";%s", j->description);
	fprintf(out, "\n");
}

static void write_terse(FILE *out, const struct report *r, const struct report_job *jobs,
			unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct group_stats g;

		group_stats(jobs, n, jobs[i].groupid, &g);
		terse_job(out, r, &jobs[i], &g);
	}
}

/* ---- JSON ---- */

static void json_lat(struct json_writer *w, const char *key, const struct hist *h,
		     const struct report_job *j, bool percentiles, bool plus)
{
	uint64_t min = 0, max = 0;
	double mean = 0, dev = 0;
	unsigned i;

	calc_lat(&h->sum, &min, &max, &mean, &dev);
	json_object_begin(w, key);
	json_uint(w, "min", min);
	json_uint(w, "max", max);
	json_double(w, "mean", mean);
	json_double(w, "stddev", dev);
	json_uint(w, "N", h->sum.n);
	if (percentiles && h->sum.n) {
		double sorted[HIST_MAX_PERCENTILES];
		uint64_t vals[HIST_MAX_PERCENTILES];
		unsigned len = hist_percentiles(h, j->percentiles, j->npercentiles, sorted, vals);

		json_object_begin(w, "percentile");
		for (i = 0; i < len; i++) {
			char k[32];

			json_format_f(k, sizeof(k), sorted[i]);
			json_uint(w, k, vals[i]);
		}
		json_object_end(w);
		if (plus) {
			json_object_begin(w, "bins");
			unsigned top = hist_top(h);

			for (i = 0; i < top; i++) {
				char k[32];

				if (!h->count[i])
					continue;
				snprintf(k, sizeof(k), "%llu", (unsigned long long)hist_bucket_value(i));
				json_uint(w, k, h->count[i]);
			}
			json_object_end(w);
		}
	}
	json_object_end(w);
}

static void json_summary(struct json_writer *w, const char *key, const struct hist_summary *s)
{
	uint64_t min = 0, max = 0;
	double mean = 0, dev = 0;

	calc_lat(s, &min, &max, &mean, &dev);
	json_object_begin(w, key);
	json_uint(w, "min", min);
	json_uint(w, "max", max);
	json_double(w, "mean", mean);
	json_double(w, "stddev", dev);
	json_uint(w, "N", s->n);
	json_object_end(w);
}

static void json_zero_dir(struct json_writer *w, const char *name)
{
	struct hist_summary z;

	hist_summary_init(&z);
	json_object_begin(w, name);
	json_uint(w, "io_bytes", 0);
	json_uint(w, "io_kbytes", 0);
	json_uint(w, "bw_bytes", 0);
	json_uint(w, "bw", 0);
	json_double(w, "iops", 0.0);
	json_uint(w, "runtime", 0);
	json_uint(w, "total_ios", 0);
	json_uint(w, "short_ios", 0);
	json_uint(w, "drop_ios", 0);
	json_summary(w, "slat_ns", &z);
	json_summary(w, "clat_ns", &z);
	json_summary(w, "lat_ns", &z);
	json_uint(w, "bw_min", 0);
	json_uint(w, "bw_max", 0);
	json_double(w, "bw_agg", 0.0);
	json_double(w, "bw_mean", 0.0);
	json_double(w, "bw_dev", 0.0);
	json_uint(w, "bw_samples", 0);
	json_uint(w, "iops_min", 0);
	json_uint(w, "iops_max", 0);
	json_double(w, "iops_mean", 0.0);
	json_double(w, "iops_stddev", 0.0);
	json_uint(w, "iops_samples", 0);
	json_object_end(w);
}

/* One direction's object; `rd` is j->dir[d] or the "mixed" entry (named by `name`). */
static void json_dir(struct json_writer *w, const struct report_job *j,
		     const struct report_dir *rd, unsigned d, const char *name,
		     const struct group_stats *g, bool plus)
{
	uint64_t bw_bytes = 0, min = 0, max = 0;
	double iops = 0, mean = 0, dev = 0, per = 0;
	unsigned p;

	if (rd->runtime_ms) {
		bw_bytes = 1000 * rd->io_bytes / rd->runtime_ms;
		iops = 1000.0 * (double)rd->total_ios / (double)rd->runtime_ms;
	}
	json_object_begin(w, name);
	json_uint(w, "io_bytes", rd->io_bytes);
	json_uint(w, "io_kbytes", rd->io_bytes >> 10);
	json_uint(w, "bw_bytes", bw_bytes);
	json_uint(w, "bw", bw_bytes / 1024);
	json_double(w, "iops", iops);
	json_uint(w, "runtime", rd->runtime_ms);
	json_uint(w, "total_ios", rd->total_ios);
	json_uint(w, "short_ios", rd->short_ios);
	json_uint(w, "drop_ios", rd->drop_ios);
	json_lat(w, "slat_ns", &rd->slat, j, j->slat_percentiles, plus);
	json_lat(w, "clat_ns", &rd->clat, j, j->clat_percentiles, plus);
	json_lat(w, "lat_ns", &rd->lat, j, j->lat_percentiles, plus);
	if (report_prios_with_samples(rd) >= 2) {
		json_array_begin(w, "prios");
		for (p = 0; p < rd->nprios; p++) {
			if (!rd->prios[p].h.sum.n)
				continue;
			json_object_begin(w, NULL);
			json_uint(w, "prioclass", ioprio_class(rd->prios[p].ioprio));
			json_uint(w, "prio", ioprio_level(rd->prios[p].ioprio));
			/* fio 3.36 adds the hint (the CDL descriptor) to every entry. */
			json_uint(w, "priohint", ioprio_hint(rd->prios[p].ioprio));
			json_lat(w, j->lat_percentiles ? "lat_ns" : "clat_ns", &rd->prios[p].h, j,
				 j->clat_percentiles || j->lat_percentiles, plus);
			json_object_end(w);
		}
		json_array_end(w);
	}
	if (calc_lat(&rd->bw, &min, &max, &mean, &dev))
		per = agg_percent(g, d, mean);
	else
		min = max = 0;
	json_uint(w, "bw_min", min);
	json_uint(w, "bw_max", max);
	json_double(w, "bw_agg", per);
	json_double(w, "bw_mean", mean);
	json_double(w, "bw_dev", dev);
	json_uint(w, "bw_samples", rd->bw.n);
	mean = dev = 0;
	if (!calc_lat(&rd->iops, &min, &max, &mean, &dev))
		min = max = 0;
	json_uint(w, "iops_min", min);
	json_uint(w, "iops_max", max);
	json_double(w, "iops_mean", mean);
	json_double(w, "iops_stddev", dev);
	json_uint(w, "iops_samples", rd->iops.n);
	json_object_end(w);
}

static void json_dist(struct json_writer *w, const char *key, const uint64_t *map,
		      uint64_t total, bool submit)
{
	/* fio's names: submit and complete count from 4 after 0, the depths from 1. */
	static const char *const submit_names[7] = { "0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const depth_names[7] = { "1", "2", "4", "8", "16", "32", ">=64" };
	double v[7];
	unsigned i;

	dist(map, total, v, 7, 0.1);
	json_object_begin(w, key);
	for (i = 0; i < 7; i++)
		json_double(w, submit ? submit_names[i] : depth_names[i], v[i]);
	json_object_end(w);
}

static void json_lat_buckets(struct json_writer *w, const char *key, const uint64_t *map,
			     unsigned n, uint64_t total)
{
	static const char *const ranges[] = { "2", "4", "10", "20", "50", "100", "250", "500",
		"750", "1000", "2000", ">=2000" };
	double v[12];
	unsigned i;

	dist(map, total, v, n, 0.01);
	json_object_begin(w, key);
	for (i = 0; i < n; i++)
		json_double(w, ranges[i], v[i]);
	json_object_end(w);
}

/*
 * fio 3.33's JSON "elapsed" and "eta" come from one ETA snapshot taken as
 * the report is written (get_jobs_eta()), the same for every job: elapsed
 * is whole ms since the run's start rounded up to seconds ((ms + 999) /
 * 1000), and eta is INT_MAX while that is under 3 s (fio makes no estimate
 * before), else the longest remaining, which for jobs that are all over —
 * done or ended by an error — is 0.
 */
struct json_eta {
	long long elapsed_s, eta_s;
};

static struct json_eta run_eta(const struct report *r)
{
	struct json_eta e;
	double end_s = 0;
	long long ms;
	unsigned i;

	for (i = 0; i < r->njobs; i++)
		if (r->jobs[i].elapsed_s > end_s)
			end_s = r->jobs[i].elapsed_s;
	ms = (long long)floor(end_s * 1e3);
	e.elapsed_s = (ms + 999) / 1000;
	e.eta_s = e.elapsed_s >= 3 ? 0 : INT_MAX;
	return e;
}

static void json_job(struct json_writer *w, const struct report_job *j,
		     const struct group_stats *g, const struct json_eta *eta, bool plus)
{
	uint64_t total = total_ios(j);
	unsigned i;

	json_object_begin(w, NULL);
	json_string(w, "jobname", j->name);
	json_int(w, "groupid", j->groupid);
	json_int(w, "error", shown_error(j));
	json_int(w, "eta", eta->eta_s);
	json_int(w, "elapsed", eta->elapsed_s);
	if (j->nopts) {
		json_object_begin(w, "job options");
		for (i = 0; i < j->nopts; i++)
			json_string(w, j->opts[i].key, j->opts[i].value);
		json_object_end(w);
	}
	if (j->unified == REPORT_UNIFIED_MIXED) {
		/* fio 3.33 writes the one "mixed" object in place of read, write, trim and sync. */
		json_dir(w, j, &j->dir[0], 0, "mixed", g, plus);
	} else {
		json_dir(w, j, &j->dir[0], 0, ddir_names[0], g, plus);
		json_dir(w, j, &j->dir[1], 1, ddir_names[1], g, plus);
		if (j->dir[2].total_ios || j->dir[2].io_bytes)
			json_dir(w, j, &j->dir[2], 2, ddir_names[2], g, plus);
		else
			json_zero_dir(w, ddir_names[2]);
		json_object_begin(w, "sync");
		json_uint(w, "total_ios", j->sync_lat.n);
		json_summary(w, "lat_ns", &j->sync_lat);
		json_object_end(w);
	}
	if (j->unified == REPORT_UNIFIED_BOTH) {
		struct report_dir *mixed = mixed_dir(j);

		if (mixed)
			json_dir(w, j, mixed, 0, "mixed", g, plus);
		free_mixed_dir(mixed);
	}
	json_int(w, "job_runtime", j->run_time_ms);
	json_double(w, "usr_cpu", 0.0);
	json_double(w, "sys_cpu", 0.0);
	json_uint(w, "ctx", 0);
	json_uint(w, "majf", 0);
	json_uint(w, "minf", 0);
	/* fio writes these only when continue_on_error is set. */
	if (j->continue_on_error) {
		json_uint(w, "total_err", j->total_err);
		json_int(w, "first_error", j->first_error);
	}
	json_dist(w, "iodepth_level", j->io_u_map, total, false);
	json_dist(w, "iodepth_submit", j->io_u_submit, dist_total(j->io_u_submit, 7), true);
	json_dist(w, "iodepth_complete", j->io_u_complete, dist_total(j->io_u_complete, 7), true);
	json_lat_buckets(w, "latency_ns", j->lat_n, 10, total);
	json_lat_buckets(w, "latency_us", j->lat_u, 10, total);
	json_lat_buckets(w, "latency_ms", j->lat_m, 12, total);
	json_uint(w, "latency_depth", j->latency_depth ? j->latency_depth : j->iodepth);
	json_uint(w, "latency_target", j->latency_target_ns);
	json_double(w, "latency_percentile", j->latency_percentile ? j->latency_percentile : 100.0);
	json_uint(w, "latency_window", j->latency_window_us);
	if (j->description[0])
		json_string(w, "desc", j->description);
	if (j->ss && j->ss_dur)
		json_ss(w, j);
	/* ncqsim: where the completion latency went (clat = host queue + drive). */
	json_object_begin(w, "ncqsim");
	for (i = 0; i < REPORT_DIRS; i++) {
		struct hist_summary host_queue = hist_summary_pair_get(&j->dir[i].split,
								       REPORT_HOST_QUEUE);
		struct hist_summary drive = hist_summary_pair_get(&j->dir[i].split, REPORT_DRIVE);

		if (!host_queue.n)
			continue;
		json_object_begin(w, ddir_names[i]);
		json_summary(w, "host_queue_ns", &host_queue);
		json_summary(w, "drive_ns", &drive);
		json_object_end(w);
	}
	json_object_end(w);
	json_object_end(w);
}

static void json_report(struct json_writer *w, const char *key, const struct report *r,
			const struct report_job *jobs, unsigned n, bool plus, time_t now_s,
			long long now_ms, const char *time_buf)
{
	struct json_eta eta = run_eta(r);
	unsigned i;
	char tb[64];

	snprintf(tb, sizeof(tb), "%s", time_buf);
	if (tb[0] && tb[strlen(tb) - 1] == '\n')
		tb[strlen(tb) - 1] = '\0';
	json_object_begin(w, key);
	json_string(w, "fio version", r->version);
	/* "fio version" names ncqsim, so scripts can tell; this says whose layout it is. */
	json_string(w, "fio format", "fio-3.33");
	json_int(w, "timestamp", (long long)now_s);
	json_int(w, "timestamp_ms", now_ms);
	json_string(w, "time", tb);
	if (r->nglobal) {
		json_object_begin(w, "global options");
		for (i = 0; i < r->nglobal; i++)
			json_string(w, r->global_opts[i].key, r->global_opts[i].value);
		json_object_end(w);
	}
	json_array_begin(w, "jobs");
	for (i = 0; i < n; i++) {
		struct group_stats g;

		group_stats(jobs, n, jobs[i].groupid, &g);
		json_job(w, &jobs[i], &g, &eta, plus);
	}
	json_array_end(w);
	if (r->disk.present) {
		json_array_begin(w, "disk_util");
		json_object_begin(w, NULL);
		json_string(w, "name", r->disk.name);
		json_uint(w, "read_ios", r->disk.ios[0]);
		json_uint(w, "write_ios", r->disk.ios[1]);
		json_uint(w, "read_merges", r->disk.merges[0]);
		json_uint(w, "write_merges", r->disk.merges[1]);
		json_uint(w, "read_ticks", r->disk.ticks_ms[0]);
		json_uint(w, "write_ticks", r->disk.ticks_ms[1]);
		json_uint(w, "in_queue", r->disk.in_queue_ms);
		json_double(w, "util", r->disk.util);
		json_object_end(w);
		json_array_end(w);
	}
	if (r->ncqsim_json) {
		json_object_begin(w, "ncqsim");
		r->ncqsim_json(w, r->ncqsim_ctx);
		json_object_end(w);
	}
	json_object_end(w);
}

static void now_stamp(const struct report *r, time_t *now_s, long long *now_ms, char *buf)
{
	struct timespec ts;

	if (r->wall_ms) {
		*now_s = (time_t)(r->wall_ms / 1000);
		*now_ms = (long long)r->wall_ms;
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		*now_s = ts.tv_sec;
		*now_ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	}
	ctime_r(now_s, buf);
}

int report_json_member(struct json_writer *w, const char *key, const struct report *r,
		       bool plus)
{
	struct report_job *jobs;
	unsigned n;
	time_t now_s;
	long long now_ms;
	char time_buf[64];

	now_stamp(r, &now_s, &now_ms, time_buf);
	jobs = report_groups(r, &n);
	if (!jobs)
		return -1;
	json_report(w, key, r, jobs, n, plus, now_s, now_ms, time_buf);
	report_jobs_free(jobs, n);
	return 0;
}

/* ---- groups (fio's group_reporting) ---- */

/* Group members run side by side: their bandwidth samples add up (fio's pure_sum). */
static void sum_samples(struct hist_summary *a, const struct hist_summary *b)
{
	if (!a->n) {
		*a = *b;
		return;
	}
	a->min += b->min;
	a->max += b->max;
	a->n += b->n;
	a->mean += b->mean;
	a->S += b->S;
}

/*
 * One direction's samples added to another's: a job's into its group's
 * (merge_job), or, for unified_rw_reporting, every direction into one as
 * fio's sum_thread_stats() does for "mixed". Latencies merge, bandwidth
 * and IOPS samples are summed.
 */
static void merge_dir_sums(struct report_dir *a, const struct report_dir *b)
{
	hist_merge(&a->slat, &b->slat);
	hist_merge(&a->clat, &b->clat);
	hist_merge(&a->lat, &b->lat);
	/* bw and iops samples are summed, not averaged (fio's pure_sum). */
	if (b->bw.n) {
		sum_samples(&a->bw, &b->bw);
		sum_samples(&a->iops, &b->iops);
	}
	hist_summary_pair_merge(&a->split, &b->split);
	a->io_bytes += b->io_bytes;
	a->total_ios += b->total_ios;
	a->short_ios += b->short_ios;
	a->drop_ios += b->drop_ios;
	if (b->runtime_ms > a->runtime_ms)
		a->runtime_ms = b->runtime_ms;
}

static void merge_dir_prios(struct report_dir *a, const struct report_dir *b)
{
	unsigned p;

	for (p = 0; p < b->nprios; p++) {
		struct report_prio *rp = report_prio_get(a, b->prios[p].ioprio);

		if (rp)
			hist_merge(&rp->h, &b->prios[p].h);
	}
}

static void merge_dir(struct report_dir *a, const struct report_dir *b)
{
	merge_dir_sums(a, b);
	merge_dir_prios(a, b);
}

/* unified_rw_reporting=both: the "mixed" entry shown after read and write (NULL: no memory). */
static struct report_dir *mixed_dir(const struct report_job *j)
{
	struct report_dir *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	hist_init_zeroed(&d->slat);
	hist_init_zeroed(&d->clat);
	hist_init_zeroed(&d->lat);
	hist_summary_init(&d->bw);
	hist_summary_init(&d->iops);
	hist_summary_pair_init(&d->split);
	merge_dir(d, &j->dir[0]);
	merge_dir(d, &j->dir[1]);
	merge_dir(d, &j->dir[2]);
	return d;
}

static void free_mixed_dir(struct report_dir *d)
{
	if (d)
		free(d->prios);
	free(d);
}

/* unified_rw_reporting=mixed: writes and trims join the reads in dir[0], which is shown as "mixed". */
static void unify_dirs(struct report_job *j)
{
	unsigned d, p;

	for (d = 1; d < REPORT_DIRS; d++) {
		struct report_dir *w = &j->dir[d];

		merge_dir(&j->dir[0], w);
		w->io_bytes = w->total_ios = w->short_ios = w->drop_ios = w->runtime_ms = 0;
		hist_reset(&w->slat);
		hist_reset(&w->clat);
		hist_reset(&w->lat);
		for (p = 0; p < w->nprios; p++)
			hist_reset(&w->prios[p].h);
		hist_summary_init(&w->bw);
		hist_summary_init(&w->iops);
		hist_summary_pair_init(&w->split);
	}
}

static void merge_job(struct report_job *dst, const struct report_job *src, bool first)
{
	unsigned d, k;

	hist_summary_merge(&dst->sync_lat, &src->sync_lat);
	for (d = 0; d < REPORT_DIRS; d++) {
		struct report_dir *a = &dst->dir[d];
		const struct report_dir *b = &src->dir[d];

		merge_dir_sums(a, b);
		if (dst->disable_prio_stat)
			continue;
		if (!src->multi_prio) {
			/* A job with one priority: its clat (or lat) is that priority's. */
			struct report_prio *rp = report_prio_get(a, src->ioprio);

			if (rp)
				hist_merge(&rp->h, src->lat_percentiles ? &b->lat : &b->clat);
		} else
			merge_dir_prios(a, b);
	}
	for (k = 0; k < 7; k++) {
		dst->io_u_map[k] += src->io_u_map[k];
		dst->io_u_submit[k] += src->io_u_submit[k];
		dst->io_u_complete[k] += src->io_u_complete[k];
	}
	for (k = 0; k < 10; k++) {
		dst->lat_n[k] += src->lat_n[k];
		dst->lat_u[k] += src->lat_u[k];
	}
	for (k = 0; k < 12; k++)
		dst->lat_m[k] += src->lat_m[k];
	dst->run_time_ms += src->run_time_ms;
	if (src->elapsed_s > dst->elapsed_s)
		dst->elapsed_s = src->elapsed_s;
	if (!first)
		dst->members++;
	/* fio keeps the last member's option list and latency depth. */
	memcpy(dst->opts, src->opts, sizeof(src->opts));
	dst->nopts = src->nopts;
	dst->iodepth = src->iodepth;
	dst->latency_depth = src->latency_depth;
	dst->latency_target_ns = src->latency_target_ns;
	dst->latency_window_us = src->latency_window_us;
	dst->latency_percentile = src->latency_percentile;
	dst->block_error_pct = src->block_error_pct;	/* the last member's, as fio */
	if (!dst->error) {
		dst->error = src->error;
		dst->error_site = src->error_site;
	}
	dst->continue_on_error |= src->continue_on_error;
	dst->total_err += src->total_err;
	if (!dst->first_error) {
		dst->first_error = src->first_error;
		dst->carried_site = src->carried_site;
	}
	/* fio's group entry takes each member's steady state in turn: the last one's. */
	if (src->ss) {
		struct steady *copy = malloc(sizeof(*copy));

		if (copy && steady_copy(copy, src->ss) == 0) {
			if (dst->ss) {
				steady_free(dst->ss);
				free(dst->ss);
			}
			dst->ss = copy;
			dst->ss_dur = src->ss_dur;
		} else {
			free(copy);
		}
	}
}

struct report_job *report_groups(const struct report *r, unsigned *n_out)
{
	struct report_job *out = calloc(r->njobs ? r->njobs : 1, sizeof(*out));
	unsigned i, k, n = 0;

	if (!out)
		return NULL;
	for (i = 0; i < r->njobs; i++) {
		const struct report_job *j = &r->jobs[i];
		struct report_job *dst;
		bool prio_stats = false;

		/*
		 * stats=0: left out, as fio's __show_run_stats() leaves it out
		 * (fio 3.33 still writes an empty JSON and terse entry for such a
		 * job outside group_reporting — no name, group 4294967295 —
		 * which no reader can use: ncqsim writes none).
		 */
		if (j->no_stats)
			continue;
		/* fio: a job joins the previous entry when it reports by group and
		 * belongs to the same group; otherwise it opens an entry. */
		if (n && j->group_reporting && out[n - 1].groupid == j->groupid) {
			merge_job(&out[n - 1], j, false);
			continue;
		}
		dst = &out[n++];
		report_job_init_zeroed(dst);	/* calloc: already zero */
		memcpy(dst->name, j->name, sizeof(j->name));
		memcpy(dst->description, j->description, sizeof(j->description));
		dst->groupid = j->groupid;
		dst->number = j->number;
		dst->clat_percentiles = j->clat_percentiles;
		dst->lat_percentiles = j->lat_percentiles;
		dst->slat_percentiles = j->slat_percentiles;
		dst->unified = j->unified;
		memcpy(dst->percentiles, j->percentiles, sizeof(j->percentiles));
		dst->npercentiles = j->npercentiles;
		dst->percentile_precision = j->percentile_precision;
		dst->sig_figs = j->sig_figs;
		dst->kb_base = j->kb_base;
		dst->unit_bits = j->unit_bits;	/* a group's first member's, as fio */
		dst->async = j->async;
		dst->group_reporting = j->group_reporting;
		dst->ioprio = j->ioprio;
		dst->multi_prio = j->multi_prio;
		/* fio's init_per_prio_stats: per-priority entries are kept when a
		 * member uses per-I/O priorities or the members' priorities differ. */
		for (k = i; k < r->njobs; k++) {
			const struct report_job *m = &r->jobs[k];

			if (m->no_stats)
				continue;
			if (k > i && !(m->group_reporting && m->groupid == j->groupid))
				break;
			if (m->multi_prio || m->ioprio != j->ioprio)
				prio_stats = true;
		}
		dst->disable_prio_stat = !prio_stats;
		merge_job(dst, j, true);
	}
	for (i = 0; i < n; i++)
		if (out[i].unified == REPORT_UNIFIED_MIXED)
			unify_dirs(&out[i]);
	*n_out = n;
	return out;
}

void report_jobs_free(struct report_job *jobs, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		report_job_free(&jobs[i]);
	free(jobs);
}

int report_write(FILE *out, const struct report *r, unsigned formats)
{
	struct report_job *jobs;
	unsigned n;
	time_t now_s;
	long long now_ms;
	char time_buf[64];

	now_stamp(r, &now_s, &now_ms, time_buf);
	jobs = report_groups(r, &n);
	if (!jobs)
		return -1;
	/* fio's order, whatever the order asked: terse, JSON, normal. */
	if (formats & REPORT_TERSE)
		write_terse(out, r, jobs, n);
	if (formats & (REPORT_JSON | REPORT_JSONPLUS)) {
		struct json_writer w;

		json_writer_init(&w, out);
		json_report(&w, NULL, r, jobs, n, (formats & REPORT_JSONPLUS) != 0, now_s, now_ms,
			    time_buf);
		json_writer_finish(&w);
	}
	if (formats & REPORT_NORMAL)
		write_normal(out, r, jobs, n, time_buf);
	report_jobs_free(jobs, n);
	return 0;
}
