#include "workload/job_options.h"

#include "host/ioprio.h"
#include "sim/rng.h"
#include "stats/steady.h"
#include "util/parse.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define F(field) offsetof(struct job_options, field)
#define SEC 1000000000LL
#define USEC 1000LL

static const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

/* ---- helpers ---- */

/* Split "a,b,c" into at most 3 per-direction parts; returns the count. */
static int split_dirs(const char *value, char parts[3][512])
{
	struct parse_fields f;
	const char *p;
	size_t len;
	int n = 0;

	parse_fields_init(&f, value, ',');
	while (parse_fields_next(&f, &p, &len)) {
		if (n == 3 || len >= 512)
			return -1;
		memcpy(parts[n], p, len);
		parts[n][len] = '\0';
		n++;
	}
	return n;
}

static int parse_bs(const struct job_options *o, const char *s, uint64_t *v)
{
	return parse_size(s, o->kb_base, v, NULL) || *v == 0 || *v > (1ULL << 32) ? -1 : 0;
}

/*
 * fio's per-direction values: "V" for reads, writes and trims alike, or
 * "R,W[,T]", an empty part leaving that direction as it is; with two parts
 * the trim takes the second, as fio repeats the last value given. Calls fn
 * for each direction to set, with a copy of its text it may cut up; the
 * trim comes as dir = DDIR_TRIM (DDIR_COUNT), which options of sizes and
 * alignment store and the others only check. `what` says what the whole
 * value should look like.
 */
typedef int (*dir_fn)(struct job_options *o, int dir, char *text, void *ctx, struct err *e);

static int for_each_dir(struct job_options *o, const char *value, const char *what, dir_fn fn,
			void *ctx, struct err *e)
{
	char parts[3][512];
	int n = split_dirs(value, parts), i, d;

	if (n < 0)
		return err_set(e, "expected %s, got '%s'", what, value);
	for (i = 0; i < n; i++) {
		if (!parts[i][0])
			continue;
		for (d = n == 1 ? 0 : i; d <= (n == 1 || (n == 2 && i == 1) ? DDIR_TRIM : i); d++) {
			char text[512];

			memcpy(text, parts[i], sizeof(text));
			if (fn(o, d, text, ctx, e))	/* d = DDIR_TRIM: the trim part */
				return -1;
		}
	}
	return 0;
}

/* ---- custom parsers (each fills e with what was expected) ---- */

static int rw_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	static const struct { const char *name; int rw; } modes[] = {
		{ "read", JOB_RW_READ }, { "write", JOB_RW_WRITE }, { "rw", JOB_RW_RW },
		{ "readwrite", JOB_RW_RW }, { "randread", JOB_RW_RANDREAD },
		{ "randwrite", JOB_RW_RANDWRITE }, { "randrw", JOB_RW_RANDRW },
		{ "trim", JOB_RW_TRIM }, { "randtrim", JOB_RW_RANDTRIM },
		{ "trimwrite", JOB_RW_TRIMWRITE }, { "randtrimwrite", JOB_RW_RANDTRIMWRITE },
	};
	struct job_options *o = base;
	char name[64];
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value), i;

	(void)d;
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, value, len);
	name[len] = '\0';
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(name, modes[i].name))
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return err_set(e, "expected one of read, write, rw, readwrite, randread, randwrite, "
			       "randrw, trim, randtrim, trimwrite, randtrimwrite (with an optional :N), "
			       "got '%s'", value);
	o->rw = modes[i].rw;
	o->rw_nr = 0;
	o->rw_skip = 0;
	if (colon) {
		/* Sequential: skip N bytes after each I/O (negative: go backwards).
		 * Random: a new random offset every N I/Os. */
		if (o->rw == JOB_RW_RANDREAD || o->rw == JOB_RW_RANDWRITE || o->rw == JOB_RW_RANDRW ||
		    o->rw == JOB_RW_RANDTRIM || o->rw == JOB_RW_RANDTRIMWRITE) {
			if (parse_u64(colon + 1, &o->rw_nr) || !o->rw_nr)
				return err_set(e, "expected a count of I/Os after ':' in '%s'", value);
		} else {
			const char *num = colon + 1;
			bool neg = *num == '-';
			uint64_t skip;

			if (parse_size(neg ? num + 1 : num, o->kb_base, &skip, NULL) || skip > INT64_MAX)
				return err_set(e, "expected a size (or -size) after ':' in '%s'", value);
			o->rw_skip = neg ? -(int64_t)skip : (int64_t)skip;
		}
	}
	return 0;
}

static void rw_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	static const char *names[] = { "read", "write", "rw", "randread", "randwrite", "randrw",
		"trim", "randtrim", "trimwrite", "randtrimwrite" };
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%s", names[o->rw]);
}

static int bs_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	uint64_t v;

	(void)ctx;
	if (parse_bs(o, text, &v))
		return err_set(e, "expected a size such as 4k, got '%s'", text);
	o->bs[dir] = v;
	return 0;
}

static int bs_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "a size or read,write[,trim] sizes such as 4k,64k", bs_dir,
			    NULL, e);
}
static void bs_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%llu,%llu", (unsigned long long)o->bs[0], (unsigned long long)o->bs[1]);
}

static int bsrange_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	char *dash = strchr(text, '-');
	uint64_t lo, hi;

	(void)ctx;
	if (!dash)
		dash = strchr(text, ':');
	if (!dash)
		return err_set(e, "expected a range such as 1k-4k, got '%s'", text);
	*dash = '\0';
	if (parse_bs(o, text, &lo) || parse_bs(o, dash + 1, &hi))
		return err_set(e, "expected a range of sizes such as 1k-4k, got '%s-%s'", text,
			       dash + 1);
	o->bs_min[dir] = lo < hi ? lo : hi;
	o->bs_max[dir] = lo < hi ? hi : lo;
	return 0;
}

static int bsrange_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	if (for_each_dir(o, value, "a range such as 1k-4k (read,write[,trim])", bsrange_dir, NULL, e))
		return -1;
	o->bsrange = true;
	return 0;
}
static void bsrange_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%llu-%llu", (unsigned long long)o->bs_min[0],
		 (unsigned long long)o->bs_max[0]);
}

/* "4k/10:64k/50:32k" — empty percentages share what is left equally. */
static int bssplit_dir(struct job_options *o, const char *s, struct job_bssplit *out,
		       unsigned *nout, struct err *e)
{
	char buf[512], *tok, *save = NULL;
	unsigned n = 0, sum = 0, empty = 0, i;

	if (strlen(s) >= sizeof(buf))
		return err_set(e, "list too long");
	memcpy(buf, s, strlen(s) + 1);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t pct = 0;

		if (n == JOB_MAX_SPLIT)
			return err_set(e, "more than %d entries", JOB_MAX_SPLIT);
		if (slash)
			*slash = '\0';
		if (parse_bs(o, tok, &out[n].bs))
			return err_set(e, "expected bs/percentage entries such as 4k/30:64k/70, got "
				       "'%s' as a size", tok);
		if (slash && slash[1]) {
			if (parse_u64(slash + 1, &pct) || pct > 100)
				return err_set(e, "expected a percentage 0..100, got '%s'", slash + 1);
			out[n].pct = (unsigned)pct;
		} else {
			out[n].pct = UINT32_MAX;	/* share the rest */
			empty++;
		}
		sum += (unsigned)pct;
		n++;
	}
	if (!n)
		return err_set(e, "expected bs/percentage entries such as 4k/30:64k/70");
	if (sum > 100)
		return err_set(e, "the percentages add up to %u, more than 100", sum);
	if (!empty && sum != 100)
		return err_set(e, "the percentages add up to %u, not 100", sum);
	for (i = 0; i < n; i++)
		if (out[i].pct == UINT32_MAX)
			out[i].pct = (100 - sum) / empty;
	/* Integer division may leave a point or two: give it to the last share. */
	for (sum = 0, i = 0; i < n; i++)
		sum += out[i].pct;
	out[n - 1].pct += 100 - sum;
	*nout = n;
	return 0;
}

static int bssplit_one_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	(void)ctx;
	return bssplit_dir(o, text, o->bssplit[dir], &o->nbssplit[dir], e);
}

static int bssplit_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "bs/percentage lists per direction", bssplit_one_dir, NULL,
			    e);
}
static void split_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	(void)d;
	(void)base;
	snprintf(buf, len, "(list)");
}

/* size and offset: a size, or a percentage of the device. */
static int size_or_pct(struct job_options *o, const char *value, uint64_t *v, bool *pct,
		       struct err *e)
{
	if (parse_size(value, o->kb_base, v, pct))
		return err_set(e, "expected a size such as 256m or a percentage such as 50%%, got '%s'",
			       value);
	return 0;
}

static int size_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	if (size_or_pct(o, value, &o->size, &o->size_pct, e))
		return -1;
	if (o->size == 0)
		return err_set(e, "expected a size above 0, got '%s'", value);
	return 0;
}

static int offset_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	return size_or_pct(o, value, &o->offset, &o->offset_pct, e);
}

static void size_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;
	bool is_size = !strcmp(d->name, "size");

	snprintf(buf, len, "%llu%s", (unsigned long long)(is_size ? o->size : o->offset),
		 (is_size ? o->size_pct : o->offset_pct) ? "%" : "");
}

struct uint_dirs {
	uint64_t max, *out;
	const char *what;
};

static int uint_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	struct uint_dirs *u = ctx;
	uint64_t v;

	(void)o;
	if (parse_u64(text, &v) || v > u->max)
		return err_set(e, "expected %s, got '%s'", u->what, text);
	if (dir < DDIR_COUNT)
		u->out[dir] = v;
	return 0;
}

/* Per-direction unsigned values with a range (rate_iops, cmdprio_*). */
static int dir_uint(struct job_options *o, const char *value, uint64_t max,
		    uint64_t out[DDIR_COUNT], const char *what, struct err *e)
{
	struct uint_dirs u = { max, out, what };
	char whole[128];

	snprintf(whole, sizeof(whole), "%s (read,write[,trim])", what);
	return for_each_dir(o, value, whole, uint_dir, &u, e);
}
static int io_size_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	if (parse_size(value, o->kb_base, &o->io_size, NULL) || !o->io_size)
		return err_set(e, "expected a size such as 10g, got '%s'", value);
	return 0;
}

static void io_size_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%llu", (unsigned long long)o->io_size);
}

static int blockalign_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	uint64_t v;

	(void)ctx;
	if (parse_bs(o, text, &v))
		return err_set(e, "expected a size such as 4k, got '%s'", text);
	o->blockalign[dir] = v;
	return 0;
}

static int blockalign_parse(const struct opt_def *d, void *base, const char *value,
			    struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "a size or read,write sizes", blockalign_dir, NULL, e);
}
static int random_generator_parse(const struct opt_def *d, void *base, const char *value,
				  struct err *e)
{
	(void)d;
	(void)base;
	/* Which PRNG fio uses changes no distribution: ncqsim has its own streams. */
	if (strcmp(value, "tausworthe") && strcmp(value, "lfsr") && strcmp(value, "tausworthe64"))
		return err_set(e, "expected tausworthe, lfsr or tausworthe64, got '%s'", value);
	return 0;
}

/* replay_skip=read,write,sync,trim: directions read_iolog leaves out. */
static int replay_skip_parse(const struct opt_def *d, void *base, const char *value,
			     struct err *e)
{
	struct job_options *o = base;
	struct parse_fields f;
	const char *p;
	size_t len;

	(void)d;
	o->replay_skip = 0;
	parse_fields_init(&f, value, ',');
	while (parse_fields_next(&f, &p, &len)) {
		if (len == 4 && !strncmp(p, "read", 4))
			o->replay_skip |= 1u << DDIR_READ;
		else if (len == 5 && !strncmp(p, "write", 5))
			o->replay_skip |= 1u << DDIR_WRITE;
		else if (!((len == 4 && !strncmp(p, "sync", 4)) || (len == 4 && !strncmp(p, "trim", 4))))
			return err_set(e, "expected a list of read, write, sync, trim, got '%s'", value);
		/* syncs and trims are never replayed (nothing to simulate): skipping them is moot */
	}
	return 0;
}

static void replay_skip_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%s%s%s", o->replay_skip & (1u << DDIR_READ) ? "read" : "",
		 o->replay_skip == 3 ? "," : "", o->replay_skip & (1u << DDIR_WRITE) ? "write" : "");
}

/* replay_redirect: fio sends every file's I/O to one device; ncqsim has one drive anyway. */
static int replay_redirect_parse(const struct opt_def *d, void *base, const char *value,
				 struct err *e)
{
	(void)d;
	(void)base;
	if (!value || !*value)
		return err_set(e, "expected a device or file name");
	return 0;
}

static int rwmixwrite_parse(const struct opt_def *d, void *base, const char *value,
			    struct err *e)
{
	struct job_options *o = base;
	uint64_t v;

	(void)d;
	if (parse_u64(value, &v) || v > 100)
		return err_set(e, "expected an integer 0..100, got '%s'", value);
	o->rwmixread = 100 - (unsigned)v;
	return 0;
}

static void rwmixwrite_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%u", 100 - o->rwmixread);
}

static int rate_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	uint64_t v;

	(void)ctx;
	if (parse_size(text, o->kb_base, &v, NULL))
		return err_set(e, "expected a rate in bytes per second such as 10m, got '%s'", text);
	if (dir < DDIR_COUNT)
		o->rate[dir] = v;
	return 0;
}

static int rate_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "a rate in bytes per second (read,write[,trim])", rate_dir,
			    NULL, e);
}

static int rate_iops_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	return dir_uint(o, value, 100000000, o->rate_iops, "an IOPS rate", e);
}

static int cmdprio_field(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	uint64_t v[DDIR_COUNT];
	unsigned *dst, i;
	uint64_t max;
	const char *what;

	if (!strcmp(d->name, "cmdprio_percentage")) {
		dst = o->cmdprio_percentage;
		max = 100;
		what = "a percentage 0..100";
	} else if (!strcmp(d->name, "cmdprio_class")) {
		dst = o->cmdprio_class;
		max = 3;
		what = "a priority class 1..3";
	} else if (!strcmp(d->name, "cmdprio_hint")) {
		dst = o->cmdprio_hint;
		max = 7;
		what = "a priority hint 0..7 (a CDL descriptor index, 0 for none)";
	} else {
		dst = o->cmdprio;
		max = 7;
		what = "a priority level 0..7";
	}
	for (i = 0; i < DDIR_COUNT; i++)
		v[i] = dst[i];
	if (dir_uint(o, value, max, v, what, e))
		return -1;
	if (dst == o->cmdprio_class && (!v[0] || !v[1]))
		return err_set(e, "expected %s, got '%s'", what, value);
	for (i = 0; i < DDIR_COUNT; i++)
		dst[i] = (unsigned)v[i];
	return 0;
}

static void cmdprio_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;
	const unsigned *v = !strcmp(d->name, "cmdprio_percentage") ? o->cmdprio_percentage :
		!strcmp(d->name, "cmdprio_class") ? o->cmdprio_class :
		!strcmp(d->name, "cmdprio_hint") ? o->cmdprio_hint : o->cmdprio;

	snprintf(buf, len, "%u,%u", v[0], v[1]);
}

/* "bs/pct[/class/level[/hint]]:..." per direction. */
static int cmdprio_bssplit_dir(struct job_options *o, int dir, char *text, void *ctx,
			       struct err *e)
{
	struct job_cmdprio_entry trim[JOB_MAX_SPLIT];
	struct job_cmdprio_entry *out = dir < DDIR_COUNT ? o->cmdprio_bssplit[dir] : trim;
	char *tok, *save = NULL;
	unsigned cnt = 0;

	(void)ctx;
	for (tok = strtok_r(text, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		struct job_cmdprio_entry *en = &out[cnt];
		char *f[5], *s2 = NULL, *t;
		int nf = 0;
		uint64_t v;

		if (cnt == JOB_MAX_SPLIT)
			return err_set(e, "more than %d entries", JOB_MAX_SPLIT);
		for (t = strtok_r(tok, "/", &s2); t && nf < 5; t = strtok_r(NULL, "/", &s2))
			f[nf++] = t;
		if (t || nf < 2 || nf == 3)
			return err_set(e, "expected entries bs/percentage or "
				       "bs/percentage/class/level[/hint], got '%s'", tok);
		if (parse_bs(o, f[0], &en->bs))
			return err_set(e, "expected a size, got '%s'", f[0]);
		if (parse_u64(f[1], &v) || v > 100)
			return err_set(e, "expected a percentage 0..100, got '%s'", f[1]);
		en->pct = (unsigned)v;
		/* bs/pct takes cmdprio_class, cmdprio and cmdprio_hint; bs/pct/class/level hint 0. */
		en->cls = en->level = en->hint = -1;
		if (nf >= 4) {
			en->hint = 0;
			if (parse_u64(f[2], &v) || v > 3)
				return err_set(e, "expected a priority class 0..3, got '%s'", f[2]);
			en->cls = (int)v;
			if (parse_u64(f[3], &v) || v > 7)
				return err_set(e, "expected a priority level 0..7, got '%s'", f[3]);
			en->level = (int)v;
		}
		if (nf == 5) {
			if (parse_u64(f[4], &v) || v > 7)
				return err_set(e, "expected a priority hint (CDL index) 0..7, got '%s'",
					       f[4]);
			en->hint = (int)v;
		}
		cnt++;
	}
	if (dir < DDIR_COUNT)
		o->ncmdprio_bssplit[dir] = cnt;
	return 0;
}

static int cmdprio_bssplit_parse(const struct opt_def *d, void *base, const char *value,
				 struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "bs/percentage[/class/level] lists per direction",
			    cmdprio_bssplit_dir, NULL, e);
}

/* ---- where I/O goes: filesize, strided zones, rw_sequencer, zoned distributions ---- */

/*
 * One direction of random_distribution=zoned / zoned_abs, as fio's
 * zone_split_ddir(): "ACCESS/SIZE:..." where ACCESS percentages add up to
 * exactly 100 and SIZE is a share of the region in percent (zoned: the
 * shares add up to at most 100, a missing or 0 one takes an equal part of
 * what is left) or a size in bytes (zoned_abs).
 */
struct zoned_ctx {
	bool absolute;
};

static int zoned_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	const struct zoned_ctx *z = ctx;
	struct job_zone scratch[JOB_MAX_ZONES], *out = dir < DDIR_COUNT ? o->zones[dir] : scratch;
	char *tok, *save = NULL;
	unsigned n = 0, access = 0, shares = 0, missing = 0, i;

	for (tok = strtok_r(text, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t v;

		if (n == JOB_MAX_ZONES)
			return err_set(e, "more than %d zones", JOB_MAX_ZONES);
		if (slash)
			*slash = '\0';
		if (parse_u64(tok, &v) || v > 100)
			return err_set(e, "expected ACCESS/%s entries with ACCESS a percentage 0..100, "
				       "got '%s'", z->absolute ? "BYTES" : "SIZE%", tok);
		out[n].access_pct = (unsigned)v;
		access += (unsigned)v;
		if (z->absolute) {
			/* fio: no size is a zone of 0 bytes (every I/O drawn there at its start). */
			out[n].size = 0;
			if (slash && parse_size(slash + 1, o->kb_base, &out[n].size, NULL))
				return err_set(e, "expected ACCESS/BYTES entries such as 60/20g, got "
					       "'%s/%s'", tok, slash + 1);
		} else if (!slash || !slash[1] || (!parse_u64(slash + 1, &v) && v == 0)) {
			out[n].size = UINT64_MAX;	/* a share of what the others leave */
			missing++;
		} else {
			if (parse_u64(slash + 1, &v) || v > 100)
				return err_set(e, "expected a size share 0..100 (percent), got '%s'",
					       slash + 1);
			out[n].size = v;
			shares += (unsigned)v;
		}
		n++;
	}
	if (!n)
		return err_set(e, "expected ACCESS/SIZE entries such as 60/10:30/20:10/70");
	if (access != 100)
		return err_set(e, "the access percentages add up to %u, not 100", access);
	if (shares > 100)
		return err_set(e, "the size percentages add up to %u, more than 100", shares);
	/* fio's arithmetic: a lone entry without a size gets 0 (its I/O all at the start). */
	for (i = 0; i < n; i++)
		if (out[i].size == UINT64_MAX)
			out[i].size = (n == 1 ? 0 : 100 - shares) / missing;
	if (dir < DDIR_COUNT)
		o->nzones[dir] = n;
	return 0;
}

static int zoned_parse(struct job_options *o, const char *value, struct err *e)
{
	struct zoned_ctx z = { value[5] == '_' };
	const char *list = strchr(value, ':') + 1;

	o->nzones[DDIR_READ] = o->nzones[DDIR_WRITE] = 0;
	/* fio 3.33's option parser fails such a value (a job file would not run there). */
	if (strchr(list, ','))
		return err_set(e, "'%s': fio 3.33 fails to parse per-direction zone lists "
			       "(read,write); give one list for every direction", value);
	if (for_each_dir(o, list, z.absolute ? "ACCESS/BYTES lists per direction" :
			 "ACCESS/SIZE% lists per direction", zoned_dir, &z, e))
		return -1;
	o->dist = z.absolute ? JOB_DIST_ZONED_ABS : JOB_DIST_ZONED;
	o->dist_param = 0;
	return 0;
}

/* filesize=SIZE or LOW-HIGH: the region ends there (a range: drawn from the job's seed). */
static int filesize_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	char buf[128], *sep;

	(void)d;
	snprintf(buf, sizeof(buf), "%s", value);
	sep = strchr(buf, '-');
	if (!sep)
		sep = strchr(buf, ':');
	if (sep)
		*sep = '\0';
	if (strlen(value) >= sizeof(buf) || parse_size(buf, o->kb_base, &o->filesize_lo, NULL) ||
	    (sep && parse_size(sep + 1, o->kb_base, &o->filesize_hi, NULL)) || !o->filesize_lo)
		return err_set(e, "expected a size such as 1g or a range such as 1g-2g, got '%s'",
			       value);
	if (!sep)
		o->filesize_hi = o->filesize_lo;
	if (o->filesize_hi < o->filesize_lo)
		return err_set(e, "the range '%s' runs backwards; expected LOW-HIGH", value);
	return 0;
}

static void filesize_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	if (o->filesize_lo == o->filesize_hi)
		snprintf(buf, len, "%llu", (unsigned long long)o->filesize_lo);
	else
		snprintf(buf, len, "%llu-%llu", (unsigned long long)o->filesize_lo,
			 (unsigned long long)o->filesize_hi);
}

static int zonemode_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	if (!strcmp(value, "none"))
		o->zonemode = JOB_ZONEMODE_NONE;
	else if (!strcmp(value, "strided"))
		o->zonemode = JOB_ZONEMODE_STRIDED;
	else if (!strcmp(value, "zbd"))
		return err_set(e, "'zbd' is for zoned block devices (SMR host-managed, ZNS): the "
			       "simulated drive is a conventional one with no zones to report, open "
			       "or reset; use none or strided");
	else
		return err_set(e, "expected none or strided (zbd needs a zoned drive), got '%s'",
			       value);
	return 0;
}

static void zonemode_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%s", o->zonemode == JOB_ZONEMODE_STRIDED ? "strided" : "none");
}

/* percentage_random: per direction, 0..100 (fio's perc_rand). */
static int perc_rand_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	uint64_t v[DDIR_COUNT] = { o->perc_rand[DDIR_READ], o->perc_rand[DDIR_WRITE] };
	int i;

	(void)d;
	if (dir_uint(o, value, 100, v, "a percentage 0..100", e))
		return -1;
	for (i = 0; i < DDIR_COUNT; i++)
		o->perc_rand[i] = (unsigned)v[i];
	return 0;
}

static void perc_rand_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%u,%u", o->perc_rand[DDIR_READ], o->perc_rand[DDIR_WRITE]);
}

/* buffered: fio's inverse of direct, one setting (the later line wins). */
static int buffered_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	bool v;

	(void)d;
	if (parse_bool(value ? value : "1", &v))
		return err_set(e, "expected 0 or 1, got '%s'", value);
	o->direct = !v;
	return 0;
}

static void buffered_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%d", !o->direct);
}

/* sg_write_mode: fio 3.33's values, its deprecated names too (fio --enghelp=sg,sg_write_mode). */
static const struct opt_choice sg_write_modes[] = {
	{ "write", JOB_SG_WRITE, "SCSI WRITE(10)/(16): READ/WRITE FPDMA QUEUED" },
	{ "write_and_verify", JOB_SG_WRITE_AND_VERIFY,
	  "WRITE AND VERIFY: libata has no translation (ILLEGAL REQUEST: EIO)" },
	{ "verify", JOB_SG_WRITE_AND_VERIFY, "write_and_verify's old name" },
	{ "write_same", JOB_SG_WRITE_SAME,
	  "WRITE SAME without UNMAP: libata refuses it (ILLEGAL REQUEST: EIO)" },
	{ "same", JOB_SG_WRITE_SAME, "write_same's old name" },
	{ "write_same_ndob", JOB_SG_WRITE_SAME_NDOB,
	  "WRITE SAME(16) with NDOB: libata refuses it (ILLEGAL REQUEST: EIO)" },
	{ "verify_bytchk_00", JOB_SG_VERIFY_BYTCHK_00,
	  "VERIFY: READ VERIFY SECTORS (EXT), the media read, no data moved" },
	{ "verify_bytchk_01", JOB_SG_VERIFY_BYTCHK_01,
	  "VERIFY with BYTCHK 01b: as verify_bytchk_00 (libata ignores BYTCHK)" },
	{ "verify_bytchk_11", JOB_SG_VERIFY_BYTCHK_11,
	  "VERIFY with BYTCHK 11b: as verify_bytchk_00 (libata ignores BYTCHK)" },
	{ "write_stream", JOB_SG_WRITE_STREAM,
	  "WRITE STREAM(16): libata has no translation (ILLEGAL REQUEST: EIO)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice write_hints[] = {
	{ "none", JOB_HINT_NONE, "RWH_WRITE_LIFE_NONE" },
	{ "short", JOB_HINT_SHORT, "RWH_WRITE_LIFE_SHORT" },
	{ "medium", JOB_HINT_MEDIUM, "RWH_WRITE_LIFE_MEDIUM" },
	{ "long", JOB_HINT_LONG, "RWH_WRITE_LIFE_LONG" },
	{ "extreme", JOB_HINT_EXTREME, "RWH_WRITE_LIFE_EXTREME" },
	{ NULL, 0, NULL },
};

/* fio 3.33's verify methods: each reads back the same; the data is not modelled. */
static const struct opt_choice verify_methods[] = {
	{ "0", 0, "no verification" },
	{ "md5", 1, "md5 checksums" },
	{ "crc64", 2, "crc64 checksums" },
	{ "crc32", 3, "crc32 checksums" },
	{ "crc32c-intel", 4, "crc32c checksums" },
	{ "crc32c", 5, "crc32c checksums" },
	{ "crc16", 6, "crc16 checksums" },
	{ "crc7", 7, "crc7 checksums" },
	{ "sha1", 8, "sha1 checksums" },
	{ "sha256", 9, "sha256 checksums" },
	{ "sha512", 10, "sha512 checksums" },
	{ "sha3-224", 11, "sha3-224 checksums" },
	{ "sha3-256", 12, "sha3-256 checksums" },
	{ "sha3-384", 13, "sha3-384 checksums" },
	{ "sha3-512", 14, "sha3-512 checksums" },
	{ "xxhash", 15, "xxhash checksums" },
	{ "meta", 16, "offset and time headers (fio: obsolete, now implied)" },
	{ "pattern", JOB_VERIFY_PATTERN, "verify_pattern, strictly" },
	{ "null", 18, "pretend to verify" },
	{ NULL, 0, NULL },
};

/* verify_pattern: the data fio writes and compares; kept only to say it was given. */
static int verify_pattern_parse(const struct opt_def *d, void *base, const char *value,
				struct err *e)
{
	struct job_options *o = base;

	(void)d;
	if (!value || !*value)
		return err_set(e, "expected a pattern such as 0xdeadbeef or \"abc\"");
	o->verify_pattern_set = true;
	return 0;
}

static void verify_pattern_format(const struct opt_def *d, const void *base, char *buf,
				  size_t len)
{
	(void)d;
	(void)base;
	snprintf(buf, len, "(pattern)");
}

static const struct opt_choice rw_sequencers[] = {
	{ "sequential", JOB_RW_SEQ_SEQUENTIAL, "rw=randread:N: the N-1 I/Os after a random one follow on" },
	{ "identical", JOB_RW_SEQ_IDENTICAL, "rw=randread:N: each random offset is used N times" },
	{ NULL, 0, NULL },
};

static int dist_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	double p = 0;

	(void)d;
	if (len == 6 && !strncmp(value, "random", 6) && !colon) {
		o->dist = JOB_DIST_RANDOM;
		return 0;
	}
	if (!strncmp(value, "zoned:", 6) || !strncmp(value, "zoned_abs:", 10))
		return zoned_parse(o, value, e);
	if (colon && parse_double(colon + 1, &p))
		return err_set(e, "expected a number after ':' in '%s'", value);
	if (len == 4 && !strncmp(value, "zipf", 4)) {
		if (!colon || !(p > 0 && p <= RNG_ZIPF_THETA_MAX) || p == 1.0)
			return err_set(e, "zipf needs a theta above 0 and not 1, at most %g (beyond, "
				       "every I/O goes to the first block and the arithmetic overflows), "
				       "e.g. zipf:1.2; got '%s'", RNG_ZIPF_THETA_MAX, value);
		o->dist = JOB_DIST_ZIPF;
	} else if (len == 6 && !strncmp(value, "pareto", 6)) {
		if (!colon || !(p >= RNG_PARETO_H_MIN && p < 1))
			return err_set(e, "pareto needs h in (0, 1), at least %g (below, 1 - h rounds "
				       "to 1), e.g. pareto:0.9; got '%s'", RNG_PARETO_H_MIN, value);
		o->dist = JOB_DIST_PARETO;
	} else if (len == 6 && !strncmp(value, "normal", 6)) {
		if (!colon || !(p > 0 && p <= 100))
			return err_set(e, "normal needs a deviation in percent (0, 100], e.g. "
				       "normal:10; got '%s'", value);
		o->dist = JOB_DIST_NORMAL;
	} else {
		return err_set(e, "expected random, zipf:theta, pareto:h, normal:sigma, "
			       "zoned:ACCESS/SIZE%%:... or zoned_abs:ACCESS/BYTES:..., got '%s'", value);
	}
	o->dist_param = p;
	return 0;
}

static void dist_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	static const char *names[] = { "random", "zipf", "pareto", "normal" };
	const struct job_options *o = base;

	(void)d;
	if (o->dist == JOB_DIST_RANDOM)
		snprintf(buf, len, "random");
	else if (o->dist == JOB_DIST_ZONED || o->dist == JOB_DIST_ZONED_ABS)
		snprintf(buf, len, "%s", o->dist == JOB_DIST_ZONED ? "zoned" : "zoned_abs");
	else
		snprintf(buf, len, "%s:%g", names[o->dist], o->dist_param);
}

static int percentiles_parse(const struct opt_def *d, void *base, const char *value,
			     struct err *e)
{
	struct job_options *o = base;
	char buf[512], *tok, *save = NULL;
	unsigned n = 0, precision = 0;

	(void)d;
	snprintf(buf, sizeof(buf), "%s", value);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		const char *dot = strchr(tok, '.');
		double p;

		if (dot && strlen(dot + 1) > precision)
			precision = (unsigned)strlen(dot + 1);
		if (n == HIST_MAX_PERCENTILES)
			return err_set(e, "at most %d percentiles", HIST_MAX_PERCENTILES);
		if (parse_double(tok, &p) || p <= 0 || p > 100)
			return err_set(e, "expected percentiles in (0, 100] separated by ':', got '%s'",
				       tok);
		o->percentile_list[n++] = p;
	}
	if (!n)
		return err_set(e, "expected percentiles separated by ':' such as 99:99.9:99.99");
	o->npercentiles = n;
	o->percentile_precision = precision > 6 ? 6 : precision;
	return 0;
}

static void percentiles_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;
	size_t n = 0;
	unsigned i;

	(void)d;
	buf[0] = '\0';
	for (i = 0; i < o->npercentiles && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%g", i ? ":" : "", o->percentile_list[i]);
}

static int ioengine_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	static const char *sync_engines[] = { "sync", "psync", "vsync", "pvsync", "pvsync2" };
	static const char *async_engines[] = { "libaio", "io_uring", "posixaio", "solarisaio",
		"windowsaio" };
	struct job_options *o = base;
	size_t i;

	(void)d;
	if (strlen(value) >= sizeof(o->ioengine))
		return err_set(e, "unknown engine '%s'", value);
	for (i = 0; i < sizeof(sync_engines) / sizeof(sync_engines[0]); i++)
		if (!strcmp(value, sync_engines[i])) {
			o->engine_kind = JOB_ENGINE_SYNC;
			goto ok;
		}
	for (i = 0; i < sizeof(async_engines) / sizeof(async_engines[0]); i++)
		if (!strcmp(value, async_engines[i])) {
			o->engine_kind = JOB_ENGINE_ASYNC;
			goto ok;
		}
	/* sg on a block device: each I/O an SG_IO ioctl, which waits for it. */
	if (!strcmp(value, "sg")) {
		o->engine_kind = JOB_ENGINE_SYNC;
		goto ok;
	}
	return err_set(e, "engine '%s' does not do block I/O to a drive the way ncqsim simulates "
		       "it; use a sync engine (psync, sync, pvsync), an async one (libaio, "
		       "io_uring, posixaio) or sg", value);
ok:
	o->sg = !strcmp(value, "sg");
	snprintf(o->ioengine, sizeof(o->ioengine), "%s", value);
	return 0;
}

static void ioengine_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%s", o->ioengine);
}

static int prio_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	uint64_t v;
	bool cls = !strcmp(d->name, "prioclass"), hint = !strcmp(d->name, "priohint");

	if (parse_u64(value, &v) || v > (cls ? 3 : 7))
		return err_set(e, "expected %s, got '%s'", cls ?
			       "a priority class 0..3 (1 rt, 2 be, 3 idle)" : hint ?
			       "a priority hint 0..7 (a CDL descriptor index, 0 for none)" :
			       "a priority level 0..7", value);
	if (hint) {
		o->priohint = (unsigned)v;
		o->priohint_set = true;
	} else if (cls) {
		o->prioclass = (unsigned)v;
		o->prioclass_set = true;
	} else {
		o->prio = (unsigned)v;
		o->prio_set = true;
	}
	return 0;
}

static void prio_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	snprintf(buf, len, "%u", !strcmp(d->name, "prioclass") ? o->prioclass :
		 !strcmp(d->name, "priohint") ? o->priohint : o->prio);
}

static int randseed_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;

	(void)d;
	if (parse_u64(value, &o->randseed))
		return err_set(e, "expected an integer seed, got '%s'", value);
	o->randseed_set = true;
	return 0;
}

static void randseed_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%llu", (unsigned long long)o->randseed);
}

static const struct opt_choice continue_on_errors[] = {
	{ "none", 0, "the first error ends the job (fio's default)" },
	{ "read", JOB_ERR_READ, "count read errors and carry on" },
	{ "write", JOB_ERR_WRITE, "count write errors and carry on" },
	{ "io", JOB_ERR_READ | JOB_ERR_WRITE, "count read and write errors and carry on" },
	{ "verify", JOB_ERR_VERIFY, "count verify errors and carry on (ncqsim does not verify)" },
	{ "all", JOB_ERR_READ | JOB_ERR_WRITE | JOB_ERR_VERIFY, "count every error and carry on" },
	{ "0", 0, "as none" },
	{ "1", JOB_ERR_READ | JOB_ERR_WRITE | JOB_ERR_VERIFY, "as all" },
	{ NULL, 0, NULL },
};

static const struct opt_choice kb_bases[] = {
	{ "1024", 1024, "k = 1024" },
	{ "1000", 1000, "k = 1000" },
	{ NULL, 0, NULL },
};

static const struct opt_choice sync_modes[] = {
	{ "0", 0, "no O_SYNC" },
	{ "none", 0, "no O_SYNC" },
	{ "1", 1, "O_SYNC: with direct=1 every write is a FUA write" },
	{ "sync", 1, "O_SYNC" },
	{ "dsync", 2, "O_DSYNC: the same as O_SYNC for a block device" },
	{ NULL, 0, NULL },
};

static const struct opt_choice sched_policies[] = {
	{ "normal", SCHED_POLICY_NORMAL, "SCHED_OTHER" },
	{ "fifo", SCHED_POLICY_FIFO, "SCHED_FIFO: default I/O class RT" },
	{ "rr", SCHED_POLICY_RR, "SCHED_RR: default I/O class RT" },
	{ "batch", SCHED_POLICY_BATCH, "SCHED_BATCH" },
	{ "idle", SCHED_POLICY_IDLE, "SCHED_IDLE: default I/O class IDLE" },
	{ NULL, 0, NULL },
};

/* ---- pacing and submission: rate_min, max_latency, latency_percentile (i13b) ---- */

static int rate_min_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	uint64_t v;

	(void)ctx;
	if (parse_size(text, o->kb_base, &v, NULL))
		return err_set(e, "expected a rate in bytes per second such as 1m, got '%s'", text);
	if (dir < DDIR_COUNT)
		o->rate_min[dir] = v;
	return 0;
}

static int rate_min_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "a rate in bytes per second (read,write[,trim])",
			    rate_min_dir, NULL, e);
}

static int rate_iops_min_parse(const struct opt_def *d, void *base, const char *value,
			       struct err *e)
{
	struct job_options *o = base;

	(void)d;
	return dir_uint(o, value, 100000000, o->rate_iops_min, "an IOPS rate", e);
}

/* max_latency: a time per direction, microseconds when bare (fio's). */
static int max_latency_dir(struct job_options *o, int dir, char *text, void *ctx, struct err *e)
{
	int64_t v;

	(void)ctx;
	if (parse_time(text, USEC, &v) || v < 0 || v > 1000000LL * SEC)
		return err_set(e, "expected a latency such as 500ms (bare: microseconds), got '%s'",
			       text);
	if (dir < DDIR_COUNT)
		o->max_latency[dir] = v;
	return 0;
}

static int max_latency_parse(const struct opt_def *d, void *base, const char *value,
			     struct err *e)
{
	(void)d;
	return for_each_dir(base, value, "a latency or read,write[,trim] latencies such as 50ms",
			    max_latency_dir, NULL, e);
}

static void max_latency_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%lld,%lld", (long long)o->max_latency[0], (long long)o->max_latency[1]);
}

/* latency_percentile: fio takes a ':' list and uses its first value. */
static int latency_percentile_parse(const struct opt_def *d, void *base, const char *value,
				    struct err *e)
{
	struct job_options *o = base;
	char first[64];
	size_t len = strcspn(value, ":");
	double p;

	(void)d;
	if (len >= sizeof(first))
		len = sizeof(first) - 1;
	memcpy(first, value, len);
	first[len] = '\0';
	if (parse_double(first, &p) || p <= 0 || p > 100)
		return err_set(e, "expected a percentage in (0, 100], got '%s'", value);
	o->latency_percentile = p;
	return 0;
}

static void latency_percentile_format(const struct opt_def *d, const void *base, char *buf,
				      size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%g", o->latency_percentile);
}

static const struct opt_choice rate_processes[] = {
	{ "linear", JOB_RATE_LINEAR, "evenly spaced I/Os" },
	{ "poisson", JOB_RATE_POISSON, "exponential gaps: a Poisson process of the same mean rate" },
	{ NULL, 0, NULL },
};

static const struct opt_choice unified_modes[] = {
	{ "none", JOB_UNIFIED_NONE, "reads and writes reported apart" },
	{ "mixed", JOB_UNIFIED_MIXED, "one \"mixed\" direction: reads and writes together" },
	{ "both", JOB_UNIFIED_BOTH, "reads, writes, and then \"mixed\"" },
	{ "0", JOB_UNIFIED_NONE, "as none" },
	{ "1", JOB_UNIFIED_MIXED, "as mixed" },
	{ NULL, 0, NULL },
};

/*
 * gtod_reduce=1 sets the disable_* options and clears the percentile
 * options, as fio's callback does at the line it is read on (a later line
 * may turn one back on); gtod_reduce=0 changes nothing.
 */
static int gtod_reduce_parse(const struct opt_def *d, void *base, const char *value,
			     struct err *e)
{
	struct job_options *o = base;
	bool on;

	(void)d;
	if (parse_bool(value ? value : "1", &on))
		return err_set(e, "expected 0 or 1, got '%s'", value);
	if (on) {
		o->disable_lat = o->disable_clat = o->disable_slat = o->disable_bw = true;
		o->clat_percentiles = o->lat_percentiles = o->slat_percentiles = false;
	}
	return 0;
}

static void gtod_reduce_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%d", o->disable_lat && o->disable_clat && o->disable_slat &&
		 o->disable_bw);
}

/* ---- job control (i13a) ---- */

/*
 * exitall: fio 3.33's option takes no value and turns on whatever value it
 * is given (exitall=0 too); ncqsim takes a bool, the same way.
 */
static int exitall_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	bool on;

	(void)d;
	if (value && parse_bool(value, &on))
		return err_set(e, "expected 0 or 1 (fio turns exitall on either way), got '%s'", value);
	o->exitall = true;
	return 0;
}

static void exitall_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%d", o->exitall);
}

static const struct opt_choice exit_whats[] = {
	{ "group", JOB_EXIT_GROUP, "the jobs of the ending job's reporting group (fio's default)" },
	{ "stonewall", JOB_EXIT_STONEWALL, "every job running now; the next stonewall segment starts" },
	{ "all", JOB_EXIT_ALL, "every job, and none of those not started yet will" },
	{ NULL, 0, NULL },
};

/* The errno names fio 3.33's ignore_error knows (its str2error()): 1..34 in Linux order. */
static const char *const errno_names[] = {
	"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF",
	"ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST", "EXDEV",
	"ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY", "EFBIG",
	"ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE",
};

/*
 * ignore_error=READ,WRITE,VERIFY: per kind a ':' list of errnos, by fio
 * 3.33's names (EPERM..ERANGE) or numbers (a minus sign is dropped, as
 * fio's); a list replaces fio's EIO, EILSEQ for that kind and turns on
 * continue_on_error for it, as fio's str_ignore_error_cb(). An empty list
 * leaves its kind alone.
 */
static int ignore_error_parse(const struct opt_def *d, void *base, const char *value,
			      struct err *e)
{
	static const char *const kinds[] = { "read", "write", "verify" };
	struct job_options *o = base;
	struct parse_fields lists, items;
	const char *p, *q;
	size_t len, qlen;
	unsigned kind = 0;

	(void)d;
	parse_fields_init(&lists, value, ',');
	while (parse_fields_next(&lists, &p, &len)) {
		unsigned n = 0;
		char list[512];

		if (kind == JOB_ERR_KINDS)
			return err_set(e, "expected at most three lists, read,write,verify, got '%s'",
				       value);
		if (len >= sizeof(list))
			return err_set(e, "the %s list is too long", kinds[kind]);
		memcpy(list, p, len);
		list[len] = '\0';
		if (!len) {
			kind++;
			continue;
		}
		parse_fields_init(&items, list, ':');
		while (parse_fields_next(&items, &q, &qlen)) {
			char item[64];
			uint64_t v = 0;
			size_t i;

			if (!qlen || qlen >= sizeof(item))
				return err_set(e, "expected errors separated by ':' such as EIO:EAGAIN:62 "
					       "in the %s list, got '%s'", kinds[kind], list);
			memcpy(item, q, qlen);
			item[qlen] = '\0';
			if (n == JOB_MAX_IGNORE)
				return err_set(e, "more than %d errors in the %s list", JOB_MAX_IGNORE,
					       kinds[kind]);
			if (item[0] == 'E') {
				for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
					if (!strcmp(item, errno_names[i]))
						v = i + 1;
				if (!v)
					return err_set(e, "unknown error '%s': fio 3.33 knows EPERM..ERANGE by "
						       "name, give others as numbers (ETIME is 62)", item);
			} else if (parse_u64(item[0] == '-' ? item + 1 : item, &v) || !v || v > 4095) {
				return err_set(e, "expected an error name such as EIO or a number 1..4095, "
					       "got '%s'", item);
			}
			o->ignore_error[kind][n++] = (int)v;
		}
		o->nignore_error[kind] = n;
		o->continue_on_error |= 1 << kind;
		kind++;
	}
	return 0;
}

static void ignore_error_format(const struct opt_def *d, const void *base, char *buf,
				size_t len)
{
	const struct job_options *o = base;
	size_t at = 0;
	unsigned k, i;

	(void)d;
	buf[0] = '\0';
	for (k = 0; k < JOB_ERR_KINDS && at < len; k++) {
		if (k)
			at += (size_t)snprintf(buf + at, len - at, ",");
		for (i = 0; i < o->nignore_error[k] && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, i ? ":%d" : "%d",
					       o->ignore_error[k][i]);
	}
}

static const struct opt_choice think_types[] = {
	{ "complete", JOB_THINK_COMPLETE, "thinktime_blocks counts completed I/Os (fio's default)" },
	{ "issue", JOB_THINK_ISSUE, "thinktime_blocks counts issued I/Os" },
	{ NULL, 0, NULL },
};

static const struct opt_choice submit_modes[] = {
	{ "inline", JOB_SUBMIT_INLINE, "the job submits and reaps its I/O itself (fio's default)" },
	{ "offload", JOB_SUBMIT_OFFLOAD, "iodepth worker threads submit one I/O each" },
	{ NULL, 0, NULL },
};

/*
 * steadystate=CRITERION:LIMIT, as fio's str_steadystate_cb(): iops or bw
 * (the largest deviation from the window's mean), iops_slope or bw_slope
 * (the least-squares slope); the limit a percentage of the mean with '%',
 * else IOPS or bytes/s (bw takes a size: 10m).
 */
static int steadystate_parse(const struct opt_def *d, void *base, const char *value,
			     struct err *e)
{
	static const struct { const char *name; unsigned flags; } criteria[] = {
		{ "iops", STEADY_IOPS }, { "iops_slope", STEADY_IOPS | STEADY_SLOPE },
		{ "bw", 0 }, { "bw_slope", STEADY_SLOPE },
	};
	struct job_options *o = base;
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value), i;
	char limit[64];
	unsigned flags;
	double v;

	(void)d;
	for (i = 0; i < sizeof(criteria) / sizeof(criteria[0]); i++)
		if (strlen(criteria[i].name) == len && !strncmp(value, criteria[i].name, len))
			break;
	if (i == sizeof(criteria) / sizeof(criteria[0]))
		return err_set(e, "expected iops, iops_slope, bw or bw_slope and a limit, such as "
			       "iops_slope:0.1%%, got '%s'", value);
	if (!colon || !colon[1])
		return err_set(e, "'%s' needs a limit after ':' (fio: the threshold must be "
			       "specified), such as %.*s:0.1%%", value, (int)len, value);
	flags = criteria[i].flags;
	snprintf(limit, sizeof(limit), "%s", colon + 1);
	if (strlen(colon + 1) >= sizeof(limit))
		return err_set(e, "the limit '%s' is too long", colon + 1);
	if (limit[strlen(limit) - 1] == '%') {
		limit[strlen(limit) - 1] = '\0';
		if (parse_double(limit, &v) || v < 0)
			return err_set(e, "expected a percentage of 0 or more before '%%', got '%s'",
				       colon + 1);
		flags |= STEADY_PCT;
	} else if (flags & STEADY_IOPS) {
		if (parse_double(limit, &v) || v < 0)
			return err_set(e, "expected an IOPS limit of 0 or more (or N%%), got '%s'",
				       colon + 1);
	} else {
		uint64_t bytes;

		if (parse_size(limit, o->kb_base, &bytes, NULL))
			return err_set(e, "expected a bandwidth limit in bytes/s such as 10m (or N%%), "
				       "got '%s'", colon + 1);
		v = (double)bytes;
	}
	o->ss_flags = flags;
	o->ss_limit = v;
	return 0;
}

static void steadystate_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%s%s:%g%s", o->ss_flags & STEADY_IOPS ? "iops" : "bw",
		 o->ss_flags & STEADY_SLOPE ? "_slope" : "", o->ss_limit,
		 o->ss_flags & STEADY_PCT ? "%" : "");
}

/* ---- reporting and logging: bwavgtime, iopsavgtime, ... (i13b) ---- */

/*
 * bwavgtime, iopsavgtime: the window of the bw and iops samples, in ms.
 * Whether it was given matters: fio takes a bw (iops) log's log_avg_msec
 * as the window when it was not. fio accepts 0 and then samples whenever
 * its helper thread wakes, which a simulation has no equivalent of.
 */
static int avg_time_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	bool iops = !strcmp(d->name, "iopsavgtime");
	uint64_t v;

	if (parse_u64(value, &v) || v < 1 || v > 86400000)
		return err_set(e, "expected a window of 1..86400000 milliseconds, got '%s'%s", value,
			       !parse_u64(value, &v) && !v ? " (fio's 0 samples at its helper "
			       "thread's wake-ups, which a simulation does not have)" : "");
	if (iops) {
		o->iops_avg_time = (unsigned)v;
		o->iops_avg_time_set = true;
	} else {
		o->bw_avg_time = (unsigned)v;
		o->bw_avg_time_set = true;
	}
	return 0;
}

static void avg_time_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	snprintf(buf, len, "%u", !strcmp(d->name, "iopsavgtime") ? o->iops_avg_time :
		 o->bw_avg_time);
}

/* log_alternate_epoch_clock_id: a clock of Linux's clock_gettime() (10 is no clock). */
static int clock_id_parse(const struct opt_def *d, void *base, const char *value, struct err *e)
{
	struct job_options *o = base;
	uint64_t v;

	(void)d;
	if (parse_u64(value, &v) || v > 11 || v == 10)
		return err_set(e, "expected a clock id of clock_gettime(): 0 (CLOCK_REALTIME) .. 9 or "
			       "11 (CLOCK_TAI), got '%s'", value);
	o->log_alternate_epoch_clock_id = (unsigned)v;
	return 0;
}

static void clock_id_format(const struct opt_def *d, const void *base, char *buf, size_t len)
{
	const struct job_options *o = base;

	(void)d;
	snprintf(buf, len, "%u", o->log_alternate_epoch_clock_id);
}

/*
 * merge_blktrace_scalars, merge_blktrace_iters: a value per read_iolog
 * file, ':' between them, as fio's float lists; fio uses each as a whole
 * number (its int cast): a percentage of the file's times, and how many
 * times the file runs.
 */
static int merge_list_parse(const struct opt_def *d, void *base, const char *value,
			    struct err *e)
{
	struct job_options *o = base;
	bool iters = !strcmp(d->name, "merge_blktrace_iters");
	unsigned *out = iters ? o->merge_iters : o->merge_scalars, n = 0;
	struct parse_fields f;
	const char *p;
	size_t len;

	parse_fields_init(&f, value, ':');
	while (parse_fields_next(&f, &p, &len)) {
		char num[64];
		double v;

		if (len >= sizeof(num))
			len = sizeof(num) - 1;
		memcpy(num, p, len);
		num[len] = '\0';
		if (n == JOB_MAX_MERGE)
			return err_set(e, "at most %d values, one per read_iolog file", JOB_MAX_MERGE);
		if (parse_double(num, &v) || !(v >= 1) || v > 1e6)
			return err_set(e, "expected %s per read_iolog file separated by ':', each 1..1000000, "
				       "got '%s'", iters ? "a number of iterations" : "a percentage of its times",
				       num);
		out[n++] = (unsigned)v;
	}
	if (!n)
		return err_set(e, "expected values separated by ':' such as 100:50");
	if (iters)
		o->nmerge_iters = n;
	else
		o->nmerge_scalars = n;
	return 0;
}

static const struct opt_choice unit_bases[] = {
	{ "0", 0, "auto-detect: bytes" },
	{ "8", 8, "bytes per second" },
	{ "1", 1, "bits per second" },
	{ NULL, 0, NULL },
};

#define CUSTOM(n, p, f, h) { .name = n, .type = OPT_CUSTOM, .parse = p, .format = f, .help = h }

static const struct opt_def options[] = {
	{ .name = "name", .type = OPT_STRING, .offset = F(name), .size = JOB_NAME_MAX,
	  .help = "the job's name (default: its section name)" },
	{ .name = "description", .type = OPT_STRING, .offset = F(description), .size = 256,
	  .help = "free text, shown in reports" },
	CUSTOM("rw", rw_parse, rw_format,
	       "read, write, rw/readwrite, randread, randwrite, randrw, trim, randtrim, trimwrite, "
	       "randtrimwrite, with an optional :N"),
	{ .name = "readwrite", .type = OPT_CUSTOM, .parse = rw_parse, .format = rw_format,
	  .help = "alias of rw", .flags = OPT_F_HIDDEN },
	{ .name = "rwmixread", .type = OPT_UINT, .offset = F(rwmixread), .min = 0, .max = 100,
	  .help = "percentage of a mixed workload that reads" },
	CUSTOM("rwmixwrite", rwmixwrite_parse, rwmixwrite_format,
	       "percentage of a mixed workload that writes"),
	CUSTOM("bs", bs_parse, bs_format, "block size, per direction (read,write)"),
	{ .name = "blocksize", .type = OPT_CUSTOM, .parse = bs_parse, .format = bs_format,
	  .help = "alias of bs", .flags = OPT_F_HIDDEN },
	CUSTOM("bsrange", bsrange_parse, bsrange_format, "block size range, e.g. 1k-4k"),
	{ .name = "blocksize_range", .type = OPT_CUSTOM, .parse = bsrange_parse,
	  .format = bsrange_format, .help = "alias of bsrange", .flags = OPT_F_HIDDEN },
	CUSTOM("bssplit", bssplit_parse, split_format, "weighted block sizes, e.g. 4k/30:64k/70"),
	CUSTOM("size", size_parse, size_format, "bytes to transfer, or a percentage of the drive"),
	CUSTOM("offset", offset_parse, size_format, "start of the region, or a percentage of the drive"),
	CUSTOM("io_size", io_size_parse, io_size_format,
	       "bytes to transfer (default: size); may exceed size, looping over the region"),
	{ .name = "io_limit", .type = OPT_CUSTOM, .parse = io_size_parse, .format = io_size_format,
	  .help = "alias of io_size", .flags = OPT_F_HIDDEN },
	{ .name = "loops", .type = OPT_UINT, .offset = F(loops), .min = 1, .max = 1000000,
	  .help = "repeat the job's I/O this many times" },
	CUSTOM("blockalign", blockalign_parse, split_format,
	       "alignment of random offsets (default: the block size)"),
	{ .name = "ba", .type = OPT_CUSTOM, .parse = blockalign_parse, .format = split_format,
	  .help = "alias of blockalign", .flags = OPT_F_HIDDEN },
	CUSTOM("random_generator", random_generator_parse, split_format,
	       "accepted: tausworthe, lfsr, tausworthe64 (ncqsim's streams are its own)"),
	{ .name = "iodepth", .type = OPT_UINT, .offset = F(iodepth), .min = 1, .max = 65536,
	  .help = "I/Os kept in flight (async engines)" },
	{ .name = "numjobs", .type = OPT_UINT, .offset = F(numjobs), .min = 1, .max = 1024,
	  .help = "clones of this job" },
	CUSTOM("ioengine", ioengine_parse, ioengine_format,
	       "sync engines (psync, sync, pvsync...) run one I/O at a time; async ones "
	       "(libaio, io_uring, posixaio) keep iodepth in flight"),
	{ .name = "direct", .type = OPT_BOOL, .offset = F(direct),
	  .help = "accepted; ncqsim always simulates I/O that reaches the drive" },
	CUSTOM("buffered", buffered_parse, buffered_format,
	       "the inverse of direct (fio's): buffered=0 is direct=1"),
	{ .name = "filename", .type = OPT_STRING, .offset = F(filename), .size = JOB_PATH_MAX,
	  .help = "accepted and echoed; the simulated drive is the target" },
	{ .name = "runtime", .type = OPT_TIME, .offset = F(runtime), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = SEC, .alias = "timeout",
	  .help = "stop after this long (seconds); alias timeout" },
	{ .name = "time_based", .type = OPT_FLAG, .offset = F(time_based),
	  .help = "run for runtime, looping over the region" },
	{ .name = "ramp_time", .type = OPT_TIME, .offset = F(ramp_time), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = SEC, .help = "run this long before counting" },
	{ .name = "startdelay", .type = OPT_TIME, .offset = F(startdelay), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = SEC, .help = "start this long after the group" },
	CUSTOM("rate_iops", rate_iops_parse, split_format, "cap the I/O rate (read,write)"),
	CUSTOM("rate", rate_parse, split_format, "cap the bandwidth in bytes/s (read,write)"),
	{ .name = "thinktime", .type = OPT_TIME, .offset = F(thinktime), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = USEC,
	  .help = "pause after each I/O before the next (microseconds)" },
	{ .name = "thinktime_blocks", .type = OPT_UINT, .offset = F(thinktime_blocks), .min = 1,
	  .max = 1000000000, .help = "think after every this many I/Os (default 1)" },
	{ .name = "offset_increment", .type = OPT_SIZE, .offset = F(offset_increment), .min = 0,
	  .max = INT64_MAX, .help = "clone N of numjobs starts N times this after offset" },
	{ .name = "number_ios", .type = OPT_SIZE, .offset = F(number_ios), .min = 0,
	  .max = INT64_MAX, .help = "stop after this many I/Os" },
	{ .name = "fsync", .type = OPT_UINT, .offset = F(fsync_blocks), .min = 0, .max = 1 << 30,
	  .help = "after every N writes, fsync: a cache flush (FLUSH CACHE EXT) the job waits for" },
	{ .name = "fdatasync", .type = OPT_UINT, .offset = F(fdatasync_blocks), .min = 0,
	  .max = 1 << 30, .help = "the same with fdatasync (on a block device the same flush)" },
	{ .name = "end_fsync", .type = OPT_FLAG, .offset = F(end_fsync),
	  .help = "a flush when the job's writes are done" },
	{ .name = "write_barrier", .type = OPT_UINT, .offset = F(barrier_blocks), .min = 0,
	  .max = 1 << 30, .help = "every N-th write is a barrier: a flush before it and FUA on it" },
	{ .name = "sync", .type = OPT_ENUM, .offset = F(sync_mode), .choices = sync_modes,
	  .help = "O_SYNC/O_DSYNC: with direct=1 every write carries FUA" },
	CUSTOM("prio", prio_parse, prio_format, "I/O priority level 0..7"),
	CUSTOM("prioclass", prio_parse, prio_format, "I/O priority class: 1 rt, 2 be, 3 idle"),
	CUSTOM("priohint", prio_parse, prio_format,
	       "I/O priority hint 0..7: the CDL descriptor index (fio 3.36, Linux 6.5)"),
	{ .name = "nice", .type = OPT_INT, .offset = F(nice), .min = -20, .max = 19,
	  .help = "CPU nice value; sets the default I/O level" },
	{ .name = "sched_policy", .type = OPT_ENUM, .offset = F(sched_policy),
	  .choices = sched_policies,
	  .help = "ncqsim only: the job's CPU policy; fifo/rr make its default I/O class RT" },
	CUSTOM("cmdprio_percentage", cmdprio_field, cmdprio_format,
	       "share of I/Os (percent) sent with cmdprio_class/cmdprio"),
	CUSTOM("cmdprio_class", cmdprio_field, cmdprio_format, "class of those I/Os (default 1, RT)"),
	CUSTOM("cmdprio_hint", cmdprio_field, cmdprio_format,
	       "priority hint of those I/Os: a CDL descriptor index 0..7 (fio 3.36)"),
	CUSTOM("cmdprio", cmdprio_field, cmdprio_format, "level of those I/Os (default 0)"),
	CUSTOM("cmdprio_bssplit", cmdprio_bssplit_parse, split_format,
	       "per block size: bs/pct[/class/level[/hint]]:..."),
	CUSTOM("random_distribution", dist_parse, dist_format,
	       "random, zipf:theta, pareto:h, normal:sigma (percent)"),
	{ .name = "norandommap", .type = OPT_FLAG, .offset = F(norandommap),
	  .help = "random offsets may repeat within a pass" },
	{ .name = "softrandommap", .type = OPT_FLAG, .offset = F(softrandommap),
	  .help = "accepted: fio's fallback when its random map cannot be allocated; "
		  "ncqsim's grows with the work done and is always there" },
	{ .name = "randrepeat", .type = OPT_BOOL, .offset = F(randrepeat),
	  .help = "accepted; ncqsim always repeats from --seed" },
	CUSTOM("randseed", randseed_parse, randseed_format, "the job's random seed (else --seed)"),
	CUSTOM("percentile_list", percentiles_parse, percentiles_format,
	       "percentiles to report, e.g. 99:99.9:99.99"),
	{ .name = "stonewall", .type = OPT_FLAG, .offset = F(stonewall),
	  .help = "wait for earlier jobs; starts a new group" },
	{ .name = "wait_for_previous", .type = OPT_FLAG, .offset = F(stonewall),
	  .help = "alias of stonewall", .flags = OPT_F_HIDDEN },
	{ .name = "new_group", .type = OPT_FLAG, .offset = F(new_group),
	  .help = "start a new reporting group" },
	{ .name = "group_reporting", .type = OPT_FLAG, .offset = F(group_reporting),
	  .help = "report a group as one" },
	{ .name = "write_lat_log", .type = OPT_STRING, .offset = F(write_lat_log),
	  .size = JOB_PATH_MAX, .help = "write PREFIX_{slat,clat,lat}.N.log" },
	{ .name = "write_bw_log", .type = OPT_STRING, .offset = F(write_bw_log),
	  .size = JOB_PATH_MAX, .help = "write PREFIX_bw.N.log: KiB/s per I/O or per log_avg_msec window" },
	{ .name = "write_iops_log", .type = OPT_STRING, .offset = F(write_iops_log),
	  .size = JOB_PATH_MAX, .help = "write PREFIX_iops.N.log: I/Os per second, per I/O or per window" },
	{ .name = "log_avg_msec", .type = OPT_UINT, .offset = F(log_avg_msec), .min = 0,
	  .max = 86400000, .help = "logs give one row per window of this many ms (0: per I/O)" },
	{ .name = "write_iolog", .type = OPT_STRING, .offset = F(write_iolog),
	  .size = JOB_PATH_MAX, .help = "write the issued I/Os as a fio version 3 iolog" },
	{ .name = "read_iolog", .type = OPT_STRING, .offset = F(read_iolog), .size = JOB_PATH_MAX,
	  .help = "replay a fio iolog (version 2 or 3) or a blktrace binary file instead of "
		  "generating I/O" },
	{ .name = "replay_no_stall", .type = OPT_FLAG, .offset = F(replay_no_stall),
	  .help = "read_iolog: issue as fast as iodepth allows, ignoring the log's times" },
	{ .name = "replay_time_scale", .type = OPT_UINT, .offset = F(replay_time_scale), .min = 1,
	  .max = 1000000, .unit = "percent", .help = "read_iolog: replay at this percentage of "
	  "the log's speed (200: gaps halved)" },
	CUSTOM("replay_skip", replay_skip_parse, replay_skip_format,
	       "read_iolog: leave out these actions: read, write, sync, trim"),
	{ .name = "replay_align", .type = OPT_SIZE, .offset = F(replay_align), .min = 0,
	  .max = 1LL << 40, .help = "read_iolog: round offsets down to this alignment" },
	{ .name = "replay_scale", .type = OPT_SIZE, .offset = F(replay_scale), .min = 0,
	  .max = 1LL << 40, .help = "read_iolog: divide offsets by this" },
	CUSTOM("replay_redirect", replay_redirect_parse, split_format,
	       "accepted and ignored: every I/O goes to the one simulated drive"),
	{ .name = "log_offset", .type = OPT_BOOL, .offset = F(log_offset),
	  .help = "latency logs also give each I/O's offset" },
	{ .name = "log_prio", .type = OPT_BOOL, .offset = F(log_prio),
	  .help = "latency logs give the full ioprio instead of a high-priority flag" },
	{ .name = "continue_on_error", .type = OPT_ENUM, .offset = F(continue_on_error),
	  .choices = continue_on_errors,
	  .help = "errors that do not end the job: none, read, write, io, verify, all (counted in total_err)" },
	{ .name = "clat_percentiles", .type = OPT_BOOL, .offset = F(clat_percentiles),
	  .help = "report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL, .offset = F(lat_percentiles),
	  .help = "report total latency percentiles" },
	{ .name = "kb_base", .type = OPT_ENUM, .offset = F(kb_base), .choices = kb_bases,
	  .help = "what k, m, g mean in sizes: 1024 (default) or 1000" },
	{ .name = "significant_figures", .type = OPT_UINT, .offset = F(significant_figures),
	  .min = 1, .max = 10, .help = "digits in the normal output" },
	/* Pacing and submission (i13b). */
	CUSTOM("rate_min", rate_min_parse, split_format,
	       "the job ends with an error when its bandwidth over ratecycle falls below this "
	       "(bytes/s, read,write)"),
	{ .name = "ratemin", .type = OPT_CUSTOM, .parse = rate_min_parse, .format = split_format,
	  .help = "alias of rate_min", .flags = OPT_F_HIDDEN },
	CUSTOM("rate_iops_min", rate_iops_min_parse, split_format,
	       "the job ends with an error when its IOPS over ratecycle fall below this (read,write)"),
	{ .name = "rate_cycle", .type = OPT_UINT, .offset = F(ratecycle), .min = 0,
	  .max = 86400000, .unit = "ms",
	  .help = "the window (ms) over which rate_min and rate_iops_min are measured" },
	{ .name = "ratecycle", .type = OPT_UINT, .offset = F(ratecycle), .min = 0,
	  .max = 86400000, .help = "alias of rate_cycle", .flags = OPT_F_HIDDEN },
	{ .name = "rate_process", .type = OPT_ENUM, .offset = F(rate_process),
	  .choices = rate_processes,
	  .help = "how rate and rate_iops space I/Os: linear, or poisson (exponential gaps)" },
	{ .name = "rate_ignore_thinktime", .type = OPT_BOOL, .offset = F(rate_ignore_thinktime),
	  .help = "rate and rate_iops hold between think times: no catching up after one" },
	{ .name = "thinktime_spin", .type = OPT_TIME, .offset = F(thinktime_spin), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = USEC,
	  .help = "the part of thinktime fio spends spinning (microseconds, capped at "
		  "thinktime): in a simulation the same wait" },
	{ .name = "thinktime_iotime", .type = OPT_TIME, .offset = F(thinktime_iotime), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = SEC,
	  .help = "think after this much I/O time (seconds), or thinktime_blocks, whichever first" },
	CUSTOM("max_latency", max_latency_parse, max_latency_format,
	       "the job ends with ETIMEDOUT when a completion latency exceeds this "
	       "(microseconds, read,write)"),
	{ .name = "latency_target", .type = OPT_TIME, .offset = F(latency_target), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = USEC,
	  .help = "find the highest queue depth whose latency meets this (microseconds)" },
	{ .name = "latency_window", .type = OPT_TIME, .offset = F(latency_window), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = USEC,
	  .help = "latency_target: the window each queue depth is tried for (microseconds)" },
	CUSTOM("latency_percentile", latency_percentile_parse, latency_percentile_format,
	       "latency_target: the share of I/Os (percent) that must meet it (default 100)"),
	{ .name = "latency_run", .type = OPT_BOOL, .offset = F(latency_run),
	  .help = "latency_target: keep adjusting the depth after it is found" },
	{ .name = "iodepth_batch_submit", .type = OPT_UINT, .offset = F(iodepth_batch), .min = 0,
	  .max = 65536,
	  .help = "I/Os submitted together (async engines): held until this many are ready" },
	{ .name = "iodepth_batch", .type = OPT_UINT, .offset = F(iodepth_batch), .min = 0,
	  .max = 65536, .help = "alias of iodepth_batch_submit", .flags = OPT_F_HIDDEN },
	{ .name = "iodepth_batch_complete_min", .type = OPT_UINT,
	  .offset = F(iodepth_batch_complete_min), .min = 0, .max = 65536,
	  .help = "completions waited for together once the queue is full (async engines)" },
	{ .name = "iodepth_batch_complete", .type = OPT_UINT,
	  .offset = F(iodepth_batch_complete_min), .min = 0, .max = 65536,
	  .help = "alias of iodepth_batch_complete_min", .flags = OPT_F_HIDDEN },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT,
	  .offset = F(iodepth_batch_complete_max), .min = 0, .max = 65536,
	  .help = "completions reaped at most at once (default: iodepth_batch_complete_min)" },
	{ .name = "iodepth_low", .type = OPT_UINT, .offset = F(iodepth_low), .min = 0,
	  .max = 65536, .help = "once full, the queue drains to this depth before refilling "
	  "(default: iodepth)" },
	{ .name = "ioscheduler", .type = OPT_STRING, .offset = F(ioscheduler), .size = 32,
	  .help = "the I/O scheduler the job sets on the drive's queue (queue/scheduler)" },
	{ .name = "write_hist_log", .type = OPT_STRING, .offset = F(write_hist_log),
	  .size = JOB_PATH_MAX, .help = "write PREFIX_clat_hist.N.log: fio's clat histogram rows "
	  "(time, direction, block size, bucket counts) every log_hist_msec" },
	{ .name = "log_hist_msec", .type = OPT_UINT, .offset = F(log_hist_msec), .min = 0,
	  .max = 86400000, .help = "write_hist_log: a row per direction every this many ms "
	  "(0: every I/O, as fio)" },
	{ .name = "log_hist_coarseness", .type = OPT_UINT, .offset = F(log_hist_coarseness),
	  .min = 0, .max = 6, .help = "write_hist_log: sum 2^N of fio's 1856 buckets per column" },
	{ .name = "log_max_value", .type = OPT_BOOL, .offset = F(log_max_value),
	  .help = "log_avg_msec windows give the largest value instead of the mean" },
	{ .name = "per_job_logs", .type = OPT_BOOL, .offset = F(per_job_logs),
	  .help = "0: log names without the job number (PREFIX_clat.log)" },
	{ .name = "slat_percentiles", .type = OPT_BOOL, .offset = F(slat_percentiles),
	  .help = "report submission latency percentiles too" },
	{ .name = "unified_rw_reporting", .type = OPT_ENUM, .offset = F(unified_rw_reporting),
	  .choices = unified_modes,
	  .help = "none, mixed (reads and writes as one \"mixed\" direction), both" },
	{ .name = "disable_lat", .type = OPT_BOOL, .offset = F(disable_lat),
	  .help = "no total latency (lat) samples" },
	{ .name = "disable_clat", .type = OPT_BOOL, .offset = F(disable_clat),
	  .help = "no completion latency samples (nor their percentiles and lat buckets)" },
	{ .name = "disable_slat", .type = OPT_BOOL, .offset = F(disable_slat),
	  .help = "no submission latency samples" },
	{ .name = "disable_bw_measurement", .type = OPT_BOOL, .offset = F(disable_bw),
	  .help = "no per-I/O rows in write_bw_log (fio 3.33 keeps the report's bw samples)" },
	{ .name = "disable_bw", .type = OPT_BOOL, .offset = F(disable_bw),
	  .help = "alias of disable_bw_measurement", .flags = OPT_F_HIDDEN },
	CUSTOM("gtod_reduce", gtod_reduce_parse, gtod_reduce_format,
	       "1: disable_lat, disable_clat, disable_slat, disable_bw_measurement and no "
	       "percentiles, as fio (0 changes nothing)"),
	/* where I/O goes: filesize, strided zones, rw_sequencer */
	CUSTOM("filesize", filesize_parse, filesize_format,
	       "the region ends at this size (a range LOW-HIGH: drawn per job); size then "
	       "only sets the amount of I/O"),
	CUSTOM("zonemode", zonemode_parse, zonemode_format,
	       "none or strided: zonesize bytes in each zonerange, then skip zoneskip "
	       "(zbd is refused: the drive is not zoned)"),
	{ .name = "zonesize", .type = OPT_SIZE, .offset = F(zonesize), .min = 0,
	  .max = INT64_MAX, .help = "zonemode=strided: bytes done in a zone before the next" },
	{ .name = "zonerange", .type = OPT_SIZE, .offset = F(zonerange), .min = 0,
	  .max = INT64_MAX, .help = "zonemode=strided: the size of a zone (default: zonesize)" },
	{ .name = "zoneskip", .type = OPT_SIZE, .offset = F(zoneskip), .min = 0,
	  .max = INT64_MAX, .help = "zonemode=strided: bytes skipped after each zone" },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .offset = F(rw_sequencer),
	  .choices = rw_sequencers,
	  .help = "rw=randread:N: sequential (the next I/Os follow on) or identical (the same offset N times)" },
	{ .name = "offset_align", .type = OPT_SIZE, .offset = F(offset_align), .min = 0,
	  .max = 1LL << 40, .help = "offset=N% rounds up to this (default: the smallest block)" },
	/* Job control (i13a). */
	{ .name = "allrandrepeat", .type = OPT_BOOL, .offset = F(allrandrepeat),
	  .help = "accepted: ncqsim's random streams all repeat from --seed (or randseed), "
		  "whatever randrepeat and allrandrepeat say" },
	{ .name = "wait_for", .type = OPT_STRING, .offset = F(wait_for), .size = JOB_NAME_MAX,
	  .help = "start once every job of this name (defined before this one) has finished" },
	CUSTOM("exitall", exitall_parse, exitall_format,
	       "when any job ends, end the jobs exit_what names (set in any job: every job's, as fio)"),
	{ .name = "exitall_on_error", .type = OPT_FLAG, .offset = F(exitall_on_error),
	  .help = "when this job ends with an error, end the jobs exit_what names" },
	{ .name = "exit_what", .type = OPT_ENUM, .offset = F(exit_what), .choices = exit_whats,
	  .help = "the jobs exitall ends: group (default), stonewall, all" },
	{ .name = "thinktime_blocks_type", .type = OPT_ENUM, .offset = F(thinktime_blocks_type),
	  .choices = think_types,
	  .help = "what thinktime_blocks counts: complete (default) or issue" },
	{ .name = "io_submit_mode", .type = OPT_ENUM, .offset = F(io_submit_mode),
	  .choices = submit_modes,
	  .help = "inline, or offload: iodepth I/Os in flight even with a sync engine, and a rate "
		  "that does not wait for the queue to drain" },
	{ .name = "serialize_overlap", .type = OPT_BOOL, .offset = F(serialize_overlap),
	  .help = "an I/O overlapping one in flight waits until that completes" },
	{ .name = "flow", .type = OPT_UINT, .offset = F(flow), .min = 0, .max = 1000,
	  .help = "weight in flow control: jobs of one flow_id issue in the ratio of their weights" },
	{ .name = "flow_id", .type = OPT_UINT, .offset = F(flow_id), .min = 0, .max = UINT32_MAX,
	  .help = "the flow a job's weight counts in (default 0)" },
	{ .name = "flow_sleep", .type = OPT_UINT, .offset = F(flow_sleep), .min = 0,
	  .max = 1000000000, .unit = "us",
	  .help = "microseconds a job held by flow control sleeps (after its I/O drains) before "
		  "checking again; 0: it checks whenever its flow moves" },
	{ .name = "steadystate", .type = OPT_CUSTOM, .parse = steadystate_parse,
	  .format = steadystate_format, .alias = "ss",
	  .help = "steady-state criterion and limit: iops, iops_slope, bw or bw_slope, then :N or "
		  ":N% (default iops_slope:0.01%); alias ss" },
	{ .name = "steadystate_duration", .type = OPT_TIME, .offset = F(ss_dur), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = SEC, .alias = "ss_dur",
	  .help = "end the job once its last this many seconds (whole, one sample each) are "
		  "steady; 0: no steady-state detection; alias ss_dur" },
	{ .name = "steadystate_ramp_time", .type = OPT_TIME, .offset = F(ss_ramp), .min = 0,
	  .max = 1000000LL * SEC, .time_unit = SEC, .alias = "ss_ramp",
	  .help = "start the steady-state samples this long (and a second) after the job starts; "
		  "alias ss_ramp" },
	CUSTOM("ignore_error", ignore_error_parse, ignore_error_format,
	       "READ,WRITE,VERIFY lists of errors (EIO:EAGAIN:62) to count and carry on past, "
	       "instead of EIO, EILSEQ; turns on continue_on_error for each"),
	/* reporting and logging (i13b) */
	CUSTOM("bwavgtime", avg_time_parse, avg_time_format,
	       "ms between bandwidth samples (the bw line's min/max/avg/samples; default 500, "
	       "or a bw log's log_avg_msec)"),
	CUSTOM("iopsavgtime", avg_time_parse, avg_time_format,
	       "ms between IOPS samples (the iops line; default 500, or an iops log's log_avg_msec)"),
	{ .name = "disk_util", .type = OPT_BOOL, .offset = F(disk_util),
	  .help = "the report's \"Disk stats\" of the drive (its block layer's counts; 0 in "
		  "every job: none)" },
	{ .name = "unit_base", .type = OPT_ENUM, .offset = F(unit_base), .choices = unit_bases,
	  .help = "the text's BW and group bw= figures in bytes (8, or 0: auto) or bits (1) per "
		  "second, as fio 3.33 (the bw line, JSON and terse stay in KiB)" },
	{ .name = "block_error_percentiles", .type = OPT_BOOL,
	  .offset = F(block_error_percentiles),
	  .help = "fio's histogram of trims per block: not with rw=trim and the like (fio 3.33 "
		  "aborts); otherwise no block is trimmed, so its section shows no percentile and "
		  "no block state, as fio's does then" },
	{ .name = "log_unix_epoch", .type = OPT_BOOL, .offset = F(log_unix_epoch),
	  .help = "log times count from 1970 (the run's start on the wall clock plus simulated "
		  "time), as log_alternate_epoch does in fio 3.33" },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL, .offset = F(log_alternate_epoch),
	  .help = "log times count from the epoch of log_alternate_epoch_clock_id's clock" },
	CUSTOM("log_alternate_epoch_clock_id", clock_id_parse, clock_id_format,
	       "the clock of log_unix_epoch and log_alternate_epoch: 0 realtime (default), 1 "
	       "monotonic (the simulated machine's uptime), ... (docs/FIO.md)"),
	{ .name = "log_compression", .type = OPT_SIZE, .offset = F(log_compression),
	  .min = 1024, .max = 536870912,
	  .help = "fio compresses its logs in chunks of this size: the same rows (ncqsim streams "
		  "them), but bw and iops logs per I/O, as fio's" },
	{ .name = "log_store_compressed", .type = OPT_BOOL, .offset = F(log_store_compressed),
	  .help = "keep the logs as fio's PREFIX_KIND.N.log.fz: zlib streams of fio's binary "
		  "samples (fio --inflate-log prints them)" },
	{ .name = "read_iolog_chunked", .type = OPT_BOOL, .offset = F(read_iolog_chunked),
	  .help = "fio parses read_iolog a part at a time: ncqsim always streams it, the same I/Os" },
	{ .name = "merge_blktrace_file", .type = OPT_STRING, .offset = F(merge_blktrace_file),
	  .size = JOB_PATH_MAX, .help = "merge read_iolog's blktrace files (FILE:FILE...) into this "
	  "one blktrace file, in time order, and replay it" },
	CUSTOM("merge_blktrace_scalars", merge_list_parse, split_format,
	       "merge_blktrace_file: each file's times scaled by this percentage (50: twice as fast)"),
	CUSTOM("merge_blktrace_iters", merge_list_parse, split_format,
	       "merge_blktrace_file: how many times each file runs, one after another"),
	{ .name = "stats", .type = OPT_BOOL, .offset = F(stats),
	  .help = "0: the job runs but is left out of the report and its group's sums, its logs "
		  "stay empty (fio's)" },
	/* I/O shape (i13c): percentage_random, bs_is_seq_rand, fill_device */
	CUSTOM("percentage_random", perc_rand_parse, perc_rand_format,
	       "random workloads: the share of I/Os (percent, read,write) at a random offset; "
	       "the others continue from the last I/O (default 100)"),
	{ .name = "bs_is_seq_rand", .type = OPT_BOOL, .offset = F(bs_is_seq_rand),
	  .help = "bs and its kin give sequential,random sizes instead of read,write" },
	{ .name = "fill_device", .type = OPT_BOOL, .offset = F(fill_device),
	  .help = "without size: I/O runs on to the drive's end (fio's ENOSPC on a full device)" },
	{ .name = "fill_fs", .type = OPT_BOOL, .offset = F(fill_device),
	  .help = "alias of fill_device", .flags = OPT_F_HIDDEN },
	/* Engine and file flags (i13c): hipri, nowait, uncached, atomic, write_hint */
	{ .name = "hipri", .type = OPT_FLAG, .offset = F(hipri),
	  .help = "io_uring, pvsync2, sg: polled completions; libata has no poll queues: 6.12 "
		  "fails io_uring's with EOPNOTSUPP, earlier kernels complete them by interrupt "
		  "(sg's SG_IO on a block device does not poll)" },
	{ .name = "hipri_percentage", .type = OPT_UINT, .offset = F(hipri_percentage), .min = 0,
	  .max = 100, .help = "pvsync2: the share of I/Os with RWF_HIPRI (ignored "
	  "for sync direct I/O)" },
	{ .name = "nowait", .type = OPT_BOOL, .offset = F(nowait),
	  .help = "libaio, io_uring, pvsync2: RWF_NOWAIT, an I/O that would wait for a request "
		  "fails with EAGAIN (4.10 has no RWF_NOWAIT)" },
	{ .name = "uncached", .type = OPT_BOOL, .offset = F(uncached),
	  .help = "io_uring, pvsync2: fio 3.33's RWF_UNCACHED on buffered I/O, which no kernel "
		  "takes (EOPNOTSUPP); nothing with direct=1" },
	{ .name = "atomic", .type = OPT_BOOL, .offset = F(atomic),
	  .help = "O_DIRECT with fio's O_ATOMIC, an open flag Linux ignores: direct I/O" },
	{ .name = "write_hint", .type = OPT_ENUM, .offset = F(write_hint), .choices = write_hints,
	  .help = "fcntl write-life hint: none, short, medium, long, extreme (see docs/FIO.md "
		  "for what each kernel does with it)" },
	/* The sg engine's options (i13c) */
	{ .name = "readfua", .type = OPT_BOOL, .offset = F(readfua),
	  .help = "sg: the FUA bit in every READ(10/16): read from the media, not the drive's "
		  "cache; without NCQ libata refuses it (EIO)" },
	{ .name = "writefua", .type = OPT_BOOL, .offset = F(writefua),
	  .help = "sg: the FUA bit in every WRITE(10/16): on the media before it completes" },
	{ .name = "sg_write_mode", .type = OPT_ENUM, .offset = F(sg_write_mode),
	  .choices = sg_write_modes,
	  .help = "sg: the SCSI command of every write; on a SATA disk only write and the "
		  "verify_bytchk_* (READ VERIFY) reach the drive, the rest fail with EIO" },
	{ .name = "stream_id", .type = OPT_UINT, .offset = F(stream_id), .min = 0, .max = 65535,
	  .help = "sg: WRITE STREAM(16)'s stream (sg_write_mode=write_stream; 0: fio opens one "
		  "first, which libata refuses)" },
	/* verify (i13c): the read-back I/O; the data is not modelled, so the check passes */
	{ .name = "verify", .type = OPT_ENUM, .offset = F(verify), .choices = verify_methods,
	  .help = "read back what the job wrote (the data check always passes: ncqsim has no data)" },
	{ .name = "do_verify", .type = OPT_BOOL, .offset = F(do_verify),
	  .help = "with verify: run the read-back phase after each pass of writes" },
	{ .name = "verify_only", .type = OPT_FLAG, .offset = F(verify_only),
	  .help = "no writes: read back what the job's writes would have been" },
	{ .name = "verify_backlog", .type = OPT_UINT, .offset = F(verify_backlog), .min = 0,
	  .max = 1 << 30, .help = "read back after every N blocks written (0: after the pass)" },
	{ .name = "verify_backlog_batch", .type = OPT_UINT, .offset = F(verify_backlog_batch),
	  .min = 0, .max = 1 << 30, .help = "blocks read back each time (0: verify_backlog)" },
	CUSTOM("verify_pattern", verify_pattern_parse, verify_pattern_format,
	       "accepted: the data fio writes and compares (verify=pattern needs it)"),
	{ .name = "trim_percentage", .type = OPT_UINT, .offset = F(trim_percentage), .min = 0,
	  .max = 100, .help = "share (%) of the writes logged for verify that are queued for trimming" },
	{ .name = "trim_backlog", .type = OPT_UINT, .offset = F(trim_backlog), .min = 0,
	  .max = 1 << 30, .help = "trim the queued writes after every N logged (0: never)" },
	{ .name = "trim_backlog_batch", .type = OPT_UINT, .offset = F(trim_backlog_batch),
	  .min = 0, .max = 1 << 30, .help = "queued writes trimmed each time (0: trim_backlog)" },
	{ .name = "trim_verify_zero", .type = OPT_BOOL, .offset = F(trim_verify_zero),
	  .help = "trimmed blocks are still read back (fio expects zeros; the check always passes)" },
	OPT_END,
};

const struct opt_def *job_option_table(void)
{
	return options;
}

void job_options_defaults(struct job_options *o)
{
	memset(o, 0, sizeof(*o));
	o->rw = JOB_RW_READ;
	o->rwmixread = 50;
	o->bs[0] = o->bs[1] = o->bs[DDIR_TRIM] = 4096;
	o->iodepth = 1;
	o->numjobs = 1;
	o->loops = 1;
	o->thinktime_blocks = 0;	/* unset: 1, but thinktime_iotime alone ignores it (fio) */
	snprintf(o->ioengine, sizeof(o->ioengine), "psync");
	o->engine_kind = JOB_ENGINE_SYNC;
	o->cmdprio_class[0] = o->cmdprio_class[1] = 1;
	o->randrepeat = true;
	memcpy(o->percentile_list, default_percentiles, sizeof(default_percentiles));
	o->npercentiles = sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	o->percentile_precision = 2;	/* the default list's "99.95" */
	o->clat_percentiles = true;
	o->kb_base = 1024;
	o->significant_figures = 4;
	o->replay_time_scale = 100;
	o->ratecycle = 1000;
	o->latency_percentile = 100;
	o->iodepth_batch = 1;
	o->iodepth_batch_complete_min = 1;
	o->per_job_logs = true;
	o->ss_flags = STEADY_IOPS | STEADY_SLOPE | STEADY_PCT;	/* fio's iops_slope:0.01% */
	o->ss_limit = 0.01;
	o->bw_avg_time = o->iops_avg_time = 500;
	o->stats = true;
	o->disk_util = true;
	o->perc_rand[DDIR_READ] = o->perc_rand[DDIR_WRITE] = 100;
	o->hipri_percentage = 100;
	o->do_verify = true;
	o->trim_verify_zero = true;
}

/*
 * fio 3.33's engine options (--enghelp) among those ncqsim has, and the
 * engines that have them (io_uring_cmd and xnvme are not simulated).
 */
static const struct {
	const char *name, *engines;
} engine_options[] = {
	{ "hipri", "io_uring pvsync2 sg" },
	{ "readfua", "sg" },
	{ "writefua", "sg" },
	{ "sg_write_mode", "sg" },
	{ "stream_id", "sg" },
	{ "hipri_percentage", "pvsync2" },
	{ "nowait", "libaio io_uring pvsync2" },
	{ "uncached", "io_uring pvsync2" },
};

const char *job_engine_option_lacking(const struct job_options *o, const char *key)
{
	size_t i, n = strlen(o->ioengine);

	for (i = 0; i < sizeof(engine_options) / sizeof(engine_options[0]); i++) {
		const char *p = engine_options[i].engines;

		if (strcmp(key, engine_options[i].name))
			continue;
		for (; (p = strstr(p, o->ioengine)); p += n)
			if ((p == engine_options[i].engines || p[-1] == ' ') && (!p[n] || p[n] == ' '))
				return NULL;
		return engine_options[i].engines;
	}
	return NULL;
}

/*
 * fio options that change nothing a simulation of the I/O path measures:
 * accepted (and echoed with the job's options), each with the reason.
 * The value is not checked: fio's own check of it has no simulated
 * consequence to protect.
 */
static const struct job_no_effect no_effect[] = {
	{ "thread", "threads or processes: the same in a simulation" },
	{ "invalidate", "drops the page cache before the job: direct I/O never uses it" },
	{ "fadvise_hint", "page-cache advice: direct I/O never uses the page cache" },
	{ "buffer_compress_chunk", "the data written: a hard disk stores any data alike" },
	{ "buffer_compress_percentage", "the data written: a hard disk stores any data alike" },
	{ "buffer_pattern", "the data written: a hard disk stores any data alike" },
	{ "dedupe_percentage", "the data written: a hard disk stores any data alike" },
	{ "dedupe_mode", "the data written: a hard disk stores any data alike" },
	{ "dedupe_global", "the data written: a hard disk stores any data alike" },
	{ "dedupe_working_set_percentage", "the data written: a hard disk stores any data alike" },
	{ "refill_buffers", "the data written: a hard disk stores any data alike" },
	{ "scramble_buffers", "the data written: a hard disk stores any data alike" },
	{ "zero_buffers", "the data written: a hard disk stores any data alike" },
	{ "cpumask", "CPU placement: the simulation has no CPU time" },
	{ "cpus_allowed", "CPU placement: the simulation has no CPU time" },
	{ "cpus_allowed_policy", "CPU placement: the simulation has no CPU time" },
	{ "numa_cpu_nodes", "CPU placement: the simulation has no CPU time" },
	{ "numa_mem_policy", "memory placement: the simulation has no CPU time" },
	{ "gtod_cpu", "fio's clock thread: the simulation's clock is exact" },
	{ "clocksource", "fio's clock: the simulation's clock is exact" },
	{ "iomem", "how fio allocates its buffers: no effect on the I/O path" },
	{ "mem", "how fio allocates its buffers: no effect on the I/O path" },
	{ "iomem_align", "buffer alignment: direct I/O buffers are aligned either way" },
	{ "mem_align", "buffer alignment: direct I/O buffers are aligned either way" },
	{ "lockmem", "memory fio locks: no effect on the I/O path" },
	{ "thp", "transparent huge pages for buffers: no effect on the I/O path" },
	{ "fixedbufs", "io_uring registered buffers: CPU cost only" },
	{ "registerfiles", "io_uring registered files: CPU cost only" },
	{ "sqthread_poll", "io_uring submission thread: CPU cost only" },
	{ "sqthread_poll_cpu", "io_uring submission thread: CPU cost only" },
	{ "nonvectored", "io_uring vectored or not: CPU cost only" },
	{ "userspace_reap", "libaio reaping in user space: CPU cost only" },
	{ "log_entries", "fio's initial log buffer size: memory only" },
	{ "log_compression_cpus", "the CPUs of fio's log compression threads: the simulation has no CPU time" },
	{ "allow_file_create", "the target is the simulated drive: nothing is created" },
	{ "allow_mounted_write", "the target is the simulated drive: nothing is mounted" },
	{ "create_on_open", "the target is the simulated drive: nothing is created" },
	{ "create_fsync", "the target is the simulated drive: nothing is created" },
	{ "create_serialize", "the target is the simulated drive: nothing is created" },
	{ "uid", "the user fio runs as: no effect on the I/O path" },
	{ "gid", "the group fio runs as: no effect on the I/O path" },
	{ "verify_interval", "where fio puts checksums in the data: ncqsim has no data" },
	{ "verify_offset", "where fio puts checksums in the data: ncqsim has no data" },
	{ "verify_fatal", "what a failed check does: ncqsim's checks always pass" },
	{ "verify_dump", "what a failed check dumps: ncqsim's checks always pass" },
	{ "verify_async", "verifying in other threads: CPU time only" },
	{ "verify_async_cpus", "verifying in other threads: CPU time only" },
	{ "verify_state_save", "the state file fio writes if a verify job is cut short: no I/O" },
	{ "error_dump", "whether fio prints every I/O error: no effect on the I/O" },
	{ NULL, NULL },
};

const struct job_no_effect *job_no_effect_table(void)
{
	return no_effect;
}

/*
 * fio 3.33 reads the value of a bool option (and of a flag, when it has
 * one) as parse.c's check_int() does: sscanf "%u", or "%x" when "0x" or
 * "0X" appears anywhere in it. Leading blanks and a sign are skipped,
 * whatever follows the digits is ignored ("1x" is 1, "0 1" is 0), the
 * number is cut to 32 bits and taken as an int; "yes", "on" and "true"
 * have no digit and are refused.
 */
static int fio_check_int(const char *s, int *v)
{
	bool hex = strstr(s, "0x") || strstr(s, "0X"), neg = false, digits = false;
	unsigned long long n = 0;
	unsigned base = hex ? 16 : 10;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		digits = true; /* glibc's %x takes a bare "0x" as 0 */
	}
	for (;; s++) {
		int d = isdigit((unsigned char)*s) ? *s - '0' :
			hex && isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10 : -1;

		if (d < 0)
			break;
		digits = true;
		/* strtoul's overflow gives ULONG_MAX, which the cut to 32 bits makes -1 */
		n = n > (UINT64_MAX - (unsigned)d) / base ? UINT64_MAX : n * base + (unsigned)d;
	}
	if (!digits)
		return -1;
	if (neg)
		n = 0 - n;
	*v = (int)(uint32_t)n;
	return 0;
}

/*
 * Which of fio's two kinds a bool-like option is: FIO_OPT_BOOL (0 or 1; a
 * negative number passes fio's check and is on; no bare form: "Option
 * direct requires an argument") or FIO_OPT_STR_SET (bare is on, a value
 * is any number, non-zero on). fio's uncached is an FIO_OPT_INT, read the
 * same way as a flag's value for what it decides (zero or not).
 */
static bool fio_str_set(const struct opt_def *d)
{
	static const char *const str_set[] = {
		"time_based", "norandommap", "stonewall", "wait_for_previous", "new_group",
		"group_reporting", "exitall", "exitall_on_error", "verify_only", "hipri",
		"uncached", NULL
	};
	const char *const *n;

	for (n = str_set; *n; n++)
		if (!strcmp(d->name, *n))
			return true;
	return false;
}

static bool fio_bool_like(const struct opt_def *d)
{
	return d->type == OPT_BOOL || d->type == OPT_FLAG || d->parse == gtod_reduce_parse ||
	       d->parse == buffered_parse || d->parse == exitall_parse;
}

/* A bool-like option's value as fio reads it, written as "0" or "1". */
static int fio_bool_value(const struct opt_def *d, const char *key, const char *value,
			  const char **out, struct err *e)
{
	int v;

	if (!value) {
		if (!fio_str_set(d))
			return err_set(e, "option '%s' needs a value, 0 or 1 (fio 3.33: \"Option %s "
				       "requires an argument\")", key, key);
		*out = "1";
		return 0;
	}
	if (fio_check_int(value, &v))
		return err_set(e, "option '%s': expected 0 or 1%s, got '%s' (fio 3.33 reads a "
			       "number: yes/no, on/off, true/false are refused)", key,
			       fio_str_set(d) ? " (any number: non-zero is on)" : "", value);
	if (!fio_str_set(d) && v > 1)
		return err_set(e, "option '%s': expected 0 or 1, got '%s' (fio 3.33: max value "
			       "out of range: %d (1 max))", key, value, v);
	*out = v ? "1" : "0";
	return 0;
}

int job_option_set(struct job_options *o, const char *key, const char *value, struct err *e)
{
	const struct opt_def *d = opt_find(options, key);
	const struct job_no_effect *n;

	if (!d) {
		for (n = no_effect; n->name; n++)
			if (!strcmp(key, n->name))
				return 0;
		if (job_fio_knows(key))
			return err_set(e, "option '%s' is a fio option ncqsim does not support (see "
				       "'ncqsim run --help-options' for those it does)", key);
		return err_set(e, "unknown option '%s' (neither ncqsim nor fio 3.33 has it)", key);
	}
	if (fio_bool_like(d) && fio_bool_value(d, key, value, &value, e))
		return -1;
	if (strcmp(d->name, key)) {
		/* Given by its alias (timeout): messages name the option as written. */
		struct opt_def as_written = *d;

		as_written.name = key;
		return opt_set(&as_written, o, value, "option", o->kb_base, e);
	}
	return opt_set(d, o, value, "option", o->kb_base, e);
}

const char *job_option_warning(const char *key, const char *value)
{
	int v;

	if (value && !fio_check_int(value, &v) &&
	    ((!strcmp(key, "direct") && !v) || (!strcmp(key, "buffered") && v && v <= 1)))
		return "buffered I/O: ncqsim simulates I/O that reaches the drive, as with direct=1 "
		       "(no page cache)";
	if (!strcmp(key, "exitall") && value && !strcmp(value, "0"))
		return "exitall=0 turns exitall on, as in fio 3.33 (its option takes no value); leave "
		       "it out to keep jobs running";
	if ((!strcmp(key, "steadystate_duration") || !strcmp(key, "ss_dur")) && value) {
		int64_t ns;

		/* fio keeps whole seconds of it: under one, no sample is ever judged. */
		if (!parse_time(value, 1000000000LL, &ns) && ns > 0 && ns < 1000000000LL)
			return "a steady-state window under a second has no sample (fio 3.33 keeps "
			       "whole seconds): steady state is not detected";
		if (!parse_time(value, 1000000000LL, &ns) && ns % 1000000000LL)
			return "the steady-state window counts whole seconds (one sample each), as "
			       "fio's: the rest is dropped";
	}
	if (!strcmp(key, "replay_redirect"))
		return "replay_redirect is ignored: ncqsim replays onto its one simulated drive";
	if (!strcmp(key, "randrepeat") && value && !strcmp(value, "0"))
		return "randrepeat=0: ncqsim repeats exactly for a given --seed; vary --seed instead";
	return NULL;
}

void job_bs_extent(const struct job_options *o, int dir, uint64_t *lo, uint64_t *hi)
{
	unsigned i;

	*lo = *hi = o->bs[dir];
	if (o->nbssplit[dir]) {
		*lo = UINT64_MAX;
		*hi = 0;
		for (i = 0; i < o->nbssplit[dir]; i++) {
			if (o->bssplit[dir][i].bs < *lo)
				*lo = o->bssplit[dir][i].bs;
			if (o->bssplit[dir][i].bs > *hi)
				*hi = o->bssplit[dir][i].bs;
		}
	} else if (o->bsrange) {
		*lo = o->bs_min[dir];
		*hi = o->bs_max[dir];
	}
}
