#include "disk/import_disksim.h"

#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"
#include "disk/parv.h"
#include "util/input.h"
#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEEK_FILE_MAX (1 << 20)

/* A zone row of the drive file written and the DiskSim zone it came from. */
struct zone_origin {
	const char *file;
	int line;
};

struct importer {
	struct parv *p;
	const char *parv_path;
	struct err *e;
	struct parv_value *disk, *model, *layout, *mech, *bus;
	/* Between the disk and the host: buses and controllers, the disk's bus first. */
	struct parv_value *path[8];
	unsigned npath;
	FILE *out;
	FILE *msgs;		/* notes of the diskmodel side, printed once the import succeeds */
	struct zone_origin zone_from[DISK_MAX_ZONES];
};

static void im_note(struct importer *im, const struct parv_value *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void im_note(struct importer *im, const struct parv_value *v, const char *fmt, ...)
{
	va_list ap;

	if (!im->msgs)
		return;
	fprintf(im->msgs, "ncqsim: note: %s:%d: ", v->file, v->line);
	va_start(ap, fmt);
	vfprintf(im->msgs, fmt, ap);
	va_end(ap);
	fputc('\n', im->msgs);
}

/* ---- values ---- */

static int where(struct importer *im, const struct parv_value *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int where(struct importer *im, const struct parv_value *v, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err_set(im->e, "%s:%d: %s", v->file, v->line, msg);
}

static struct parv_pair *need(struct importer *im, struct parv_value *blk, const char *key)
{
	struct parv_pair *pr = parv_get(blk, key);

	if (!pr)
		where(im, blk, "block '%s': expected a key '%s'", blk->name[0] ? blk->name : blk->text,
		      key);
	return pr;
}

/* A number as DiskSim reads a floating-point key: an integer or a float literal. */
static int number(struct importer *im, struct parv_value *blk, const char *key, double *out)
{
	struct parv_pair *pr = need(im, blk, key);

	if (!pr)
		return -1;
	if (pr->value->kind != PARV_WORD)
		return where(im, pr->value, "key '%s': expected a number, got a %s", key,
			     pr->value->kind == PARV_LIST ? "list" : "block");
	if (pr->value->scalar == PARV_STRING)
		return where(im, pr->value, "key '%s': expected a number, got '%s'", key,
			     pr->value->text);
	*out = pr->value->dval;
	return 0;
}

/*
 * An integer key of DiskSim's (its modules read it as an int, and a
 * float literal there is a type error), within lo..hi.
 */
static int integer(struct importer *im, struct parv_value *blk, const char *key, int64_t lo,
		   int64_t hi, int64_t *out)
{
	struct parv_pair *pr = need(im, blk, key);

	if (!pr)
		return -1;
	if (pr->value->kind != PARV_WORD || pr->value->scalar != PARV_INT)
		return where(im, pr->value, "key '%s': expected an integer %lld..%lld (DiskSim reads "
			     "this key as one), got %s%s%s", key, (long long)lo, (long long)hi,
			     pr->value->kind == PARV_WORD ? "'" : "a ",
			     pr->value->kind == PARV_WORD ? pr->value->text :
			     pr->value->kind == PARV_LIST ? "list" : "block",
			     pr->value->kind == PARV_WORD ? "'" : "");
	if (pr->value->ival < lo || pr->value->ival > hi)
		return where(im, pr->value, "key '%s': expected an integer %lld..%lld, got %lld", key,
			     (long long)lo, (long long)hi, (long long)pr->value->ival);
	*out = pr->value->ival;
	return 0;
}

static int whole(struct importer *im, struct parv_value *blk, const char *key, double lo,
		 double hi, uint64_t *out)
{
	double d;

	if (number(im, blk, key, &d))
		return -1;
	if (d != floor(d) || d < lo || d > hi)
		return where(im, parv_get(blk, key)->value, "key '%s': expected a whole number "
			     "%.0f..%.0f, got %g", key, lo, hi, d);
	*out = (uint64_t)d;
	return 0;
}

static void put_time(FILE *out, const char *key, double ms, const char *src)
{
	long long ns = llround(ms * 1e6);
	char t[64], line[128];
	unsigned long long a = (unsigned long long)llabs(ns);

	if (a % 1000000 == 0)
		snprintf(t, sizeof(t), "%s%llums", ns < 0 ? "-" : "", a / 1000000);
	else if (a % 1000 == 0)
		snprintf(t, sizeof(t), "%s%lluus", ns < 0 ? "-" : "", a / 1000);
	else
		snprintf(t, sizeof(t), "%s%lluns", ns < 0 ? "-" : "", a);
	snprintf(line, sizeof(line), "%s = %s", key, t);
	fprintf(out, "%-40s # DiskSim: %s\n", line, src);
}

static void put(FILE *out, const char *key, const char *src, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(FILE *out, const char *key, const char *src, const char *fmt, ...)
{
	char value[128], line[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s = %s", key, value);
	if (src)
		fprintf(out, "%-40s # %s\n", line, src);
	else
		fprintf(out, "%s\n", line);
}

/* ---- finding the disk ---- */

static int find_disk(struct importer *im)
{
	const char *as = NULL, *inst = NULL;
	unsigned i;

	for (i = 0; i < parv_inst_count(im->p); i++) {
		const struct parv_inst *in = parv_inst(im->p, i);
		struct parv_value *b = parv_find_block(im->p, in->as);

		if (!b || strcmp(b->text, "disksim_disk"))
			continue;
		if (as && strcmp(as, in->as))
			return err_set(im->e, "%s: instantiates two disk types, '%s' and '%s' (ncqsim "
				       "imports one drive)", im->parv_path, as, in->as);
		as = in->as;
		if (!inst)
			inst = in->name;
		im->disk = b;
	}
	if (!im->disk)
		return err_set(im->e, "%s: no disk: expected 'instantiate [ NAME ] as BLOCK' with "
			       "BLOCK a disksim_disk block", im->parv_path);
	/*
	 * What lies between the disk and the host in the topology: every bus
	 * and controller a message crosses (the driver at the top is not
	 * part of it). The first is the disk's own bus.
	 */
	{
		const struct parv_node *n = parv_topology_find(im->p, inst);

		for (n = n ? n->parent : NULL; n && im->npath < 8; n = n->parent) {
			struct parv_value *b = NULL;

			if (strcmp(n->type, "disksim_bus") && strcmp(n->type, "disksim_ctlr"))
				break;
			for (i = 0; i < parv_inst_count(im->p); i++) {
				const struct parv_inst *in = parv_inst(im->p, i);

				if (!strcmp(in->name, n->name))
					b = parv_find_block(im->p, in->as);
			}
			if (!b)
				break;
			im->path[im->npath++] = b;
		}
		if (im->npath && !strcmp(im->path[0]->text, "disksim_bus"))
			im->bus = im->path[0];
	}
	return 0;
}

static int sub_block(struct importer *im, struct parv_value *blk, const char *key,
		     const char *type, struct parv_value **out)
{
	struct parv_pair *pr = need(im, blk, key);

	if (!pr)
		return -1;
	if (pr->value->kind != PARV_BLOCK || strcmp(pr->value->text, type))
		return where(im, pr->value, "key '%s': expected a %s block", key, type);
	*out = pr->value;
	return 0;
}

/* ---- the seek table ---- */

struct seek_rows {
	unsigned n;
	uint32_t d[DISK_MAX_SEEK_POINTS];
	double ms[DISK_MAX_SEEK_POINTS];
	/* past the last row (model.h enum disk_seek_formula): ms, hpl's split in cylinders */
	int formula;
	uint32_t split;
	double f[4];
	const char *source;
};

static int add_seek(struct importer *im, struct seek_rows *s, uint32_t d, double ms,
		    const char *file, int line)
{
	if (s->n && d <= s->d[s->n - 1])
		return err_set(im->e, "%s:%d: seek distance %u is not above the previous %u", file,
			       line, d, s->d[s->n - 1]);
	if (s->n == DISK_MAX_SEEK_POINTS)
		return err_set(im->e, "%s:%d: more than %d seek distances", file, line,
			       DISK_MAX_SEEK_POINTS);
	if (!(ms >= 0 && ms < 1000))
		return err_set(im->e, "%s:%d: expected a seek time 0..1000 ms, got %g", file, line, ms);
	s->d[s->n] = d;
	s->ms[s->n] = ms;
	s->n++;
	return 0;
}

/*
 * DiskSim's seek curve file: "Seek distances measured: N" (DiskSim reads
 * rows without it too), then rows "DISTANCE, MS" or "DISTANCE, MS, STDEV".
 */
static int read_seek_file(struct importer *im, const struct parv_value *from, const char *name,
			  struct seek_rows *s)
{
	const char *slash = strrchr(from->file, '/');
	char path[4096], *text, *line, *save = NULL;
	unsigned expect = 0, got = 0;
	int line_no = 0, rc = -1;
	bool header = false;
	size_t len;

	if (name[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - from->file), from->file, name);
	if (input_read(path, "seek curve", SEEK_FILE_MAX, true, &text, &len, im->e))
		return err_prefix(im->e, "%s:%d: seek curve '%s': ", from->file, from->line, name);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *end;
		unsigned long d;
		double ms;

		line_no++;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		if (!got && !header && !strncmp(p, "Seek distances measured:", 24)) {
			if (sscanf(p, "Seek distances measured: %u", &expect) != 1 || !expect) {
				err_set(im->e, "%s:%d: expected 'Seek distances measured: N' with N of "
					"1 or more", path, line_no);
				goto out;
			}
			header = true;
			continue;
		}
		errno = 0;
		d = strtoul(p, &end, 10);
		if (end == p || *end != ',' || errno || d < 1 || d > UINT32_MAX) {
			err_set(im->e, "%s:%d: expected 'DISTANCE, MS' with a distance of 1 or more",
				path, line_no);
			goto out;
		}
		p = end + 1;
		ms = strtod(p, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end != p && *end == ',') {
			/* DiskSim's third column, the measured spread, times nothing. */
			p = end + 1;
			strtod(p, &end);
			while (isspace((unsigned char)*end))
				end++;
			if (end == p)
				end = p - 1;
		}
		if (end == p || *end) {
			err_set(im->e, "%s:%d: expected 'DISTANCE, MS' or 'DISTANCE, MS, STDEV', got "
				"'%s'", path, line_no, line);
			goto out;
		}
		if (add_seek(im, s, (uint32_t)d, ms, path, line_no))
			goto out;
		got++;
	}
	if (!got || (header && got != expect)) {
		err_set(im->e, "%s: says %u seek distances, has %u", path, expect, got);
		goto out;
	}
	rc = 0;
out:
	free(text);
	return rc;
}

/* A list of n numbers (HPL seek equation values, First ten seek times). */
static int list_numbers(struct importer *im, struct parv_value *blk, const char *key, double *v,
			unsigned n)
{
	struct parv_pair *pr = need(im, blk, key);
	unsigned i;

	if (!pr)
		return -1;
	if (pr->value->kind != PARV_LIST || pr->value->nitems < n)
		return where(im, pr->value, "key '%s': expected a list of %u numbers", key, n);
	if (pr->value->nitems > n)
		im_note(im, pr->value, "'%s': only its first %u values are read, as DiskSim reads "
			"them", key, n);
	for (i = 0; i < n; i++) {
		struct parv_value *it = pr->value->items[i];

		if (it->kind != PARV_WORD || it->scalar == PARV_STRING)
			return where(im, it, "key '%s': expected a number in the list, got '%s'", key,
				     it->kind == PARV_WORD ? it->text : "(not a number)");
		v[i] = it->dval;
	}
	return 0;
}

/* A seek time key of the mechanism, 0 or more ms. */
static int seek_ms(struct importer *im, const char *key, double *out)
{
	if (number(im, im->mech, key, out))
		return -1;
	if (*out < 0 || *out >= 1000)
		return where(im, parv_get(im->mech, key)->value, "key '%s': expected 0..1000 ms, got "
			     "%g", key, *out);
	return 0;
}

/*
 * Every Seek type of DiskSim's dm_mech_g1, as its formulas mean (DiskSim
 * 2.0's disksim_diskmech.c, which 4.0's mech_g1_seektime.c ports):
 *
 *   extracted   the measured curve file, linear between its rows
 *   hpl         HPL seek equation values [V1..V6]: d < V1: V2 + V3·√d, else
 *               V4 + V5·d; V6 (unless -1) the single-cylinder seek
 *   hplplus10   the same past the First ten seek times (distances 1..10)
 *   linear      the three-point line through Single cylinder seek time (1),
 *               Average seek time (n/3) and Full strobe seek time (n), n the
 *               cylinders
 *   curve       the three-point curve through the same three (mech.c)
 *   constant    Constant seek time for every access, the same cylinder too
 *
 * DiskSim 4.0 itself loads the three keys of linear and curve, and the
 * constant, without their conversion from ms (its times are picoseconds),
 * and its hpl compares with an unset boundary: those forms give it almost
 * no seek at all. ncqsim reads them as the manual and the formulas mean.
 */
static int seek_table(struct importer *im, uint32_t cylinders, struct seek_rows *s)
{
	static const char *const types[] = { "extracted", "hpl", "hplplus10", "linear", "curve",
					     "constant", NULL };
	struct parv_pair *type = need(im, im->mech, "Seek type");
	uint32_t max = cylinders - 1, d;
	unsigned t;

	if (!type)
		return -1;
	for (t = 0; types[t] && (type->value->kind != PARV_WORD ||
				 strcmp(type->value->text, types[t])); t++)
		;
	if (!types[t])
		return where(im, type->value, "key 'Seek type': expected extracted, hpl, hplplus10, "
			     "linear, curve or constant (DiskSim 4.0's seek types), got '%s'",
			     type->value->kind == PARV_WORD ? type->value->text : "(not a word)");
	s->source = type->value->text;
	switch (t) {
	case 0: {
		struct parv_pair *curve = need(im, im->mech, "Full seek curve");

		if (!curve)
			return -1;
		if (curve->value->kind != PARV_WORD)
			return where(im, curve->value, "key '%s': expected a file name", "Full seek curve");
		/* DiskSim looks the file up beside the file that holds the mechanism. */
		return read_seek_file(im, im->mech, curve->value->text, s);
	}
	case 1:
	case 2: {
		double v[6], ten[10];
		struct parv_pair *pr;
		unsigned k;

		if (list_numbers(im, im->mech, "HPL seek equation values", v, 6))
			return -1;
		pr = parv_get(im->mech, "HPL seek equation values");
		if (pr->value->items[0]->scalar != PARV_INT || v[0] < 0 || v[0] > UINT32_MAX)
			return where(im, pr->value->items[0], "key 'HPL seek equation values': the first "
				     "(V1, where the root part ends) is in whole cylinders, got '%s'",
				     pr->value->items[0]->text);
		for (k = 1; k < 6; k++)
			if (!(v[k] >= 0 && v[k] < 1000) && !(k == 5 && v[k] == -1))
				return where(im, pr->value->items[k], "key 'HPL seek equation values': "
					     "V%u must be 0..1000 ms%s, got %g", k + 1,
					     k == 5 ? " or -1 (none)" : "", v[k]);
		s->formula = DISK_SEEK_HPL;
		s->split = (uint32_t)v[0];
		memcpy(s->f, v + 1, 4 * sizeof(double));
		if (t == 2) {
			if (list_numbers(im, im->mech, "First ten seek times", ten, 10))
				return -1;
			for (d = 1; d <= 10 && d <= max; d++)
				if (add_seek(im, s, d, ten[d - 1], pr->value->file, pr->value->line))
					return -1;
		} else {
			/* V6 is the single-cylinder seek; -1 leaves distance 1 to the formula. */
			double one = v[5] != -1 ? v[5] : 1 < v[0] ? v[1] + v[2] : v[3] + v[4];

			if (add_seek(im, s, 1, one, pr->value->file, pr->value->line))
				return -1;
		}
		return 0;
	}
	case 3:
	case 4: {
		double one, avg, full;

		if (seek_ms(im, "Single cylinder seek time", &one) ||
		    seek_ms(im, "Average seek time", &avg) ||
		    seek_ms(im, "Full strobe seek time", &full))
			return -1;
		if (t == 4) {
			double b, c;

			disk_seek_curve3(one, avg, full, cylinders, &b, &c);
			if (!(one < avg && b >= 0 && c >= 0))
				return where(im, type->value, "key 'Seek type': no rising three-point "
					     "curve from %g ms (Single cylinder seek time) to %g ms (Full "
					     "strobe seek time) averages %g ms (Average seek time) over %u "
					     "cylinders (its linear and root terms would be %.3g and %.3g "
					     "ms); Seek type = linear joins them with straight lines",
					     one, full, avg, cylinders, b, c);
			s->formula = DISK_SEEK_CURVE3;
			s->f[0] = one;
			s->f[1] = avg;
			s->f[2] = full;
			return add_seek(im, s, 1, one, type->value->file, type->value->line);
		}
		/*
		 * The line is straight from 1 to n/3 and from there to n; rows at its
		 * corners are exact at every whole distance in between.
		 */
		{
			uint32_t third = cylinders / 3, at[4] = { 1, third, third + 1, max };
			unsigned k;

			for (k = 0; k < 4; k++) {
				double x = at[k], ms;

				if (x > max || (k && at[k] <= s->d[s->n - 1]))
					continue;
				if (x == 1)
					ms = one;
				else if (at[k] <= third)
					ms = one + (x - 1) / (cylinders / 3.0) * (avg - one);
				else
					ms = avg + (3 * x / (2.0 * cylinders) - 0.5) * (full - avg);
				if (add_seek(im, s, at[k], ms, type->value->file, type->value->line))
					return -1;
			}
		}
		return 0;
	}
	default: {
		double c;

		if (seek_ms(im, "Constant seek time", &c))
			return -1;
		s->formula = DISK_SEEK_CONSTANT;
		s->f[0] = c;
		return add_seek(im, s, 1, c, type->value->file, type->value->line);
	}
	}
}

/* The rows and the formula, as the drive file has them. */
static void put_seeks(FILE *out, const struct seek_rows *s)
{
	unsigned i;

	fprintf(out, "# seek = DISTANCE_CYLINDERS TIME (DiskSim: Seek type = %s)\n", s->source);
	for (i = 0; i < s->n; i++)
		fprintf(out, "seek = %u %lldns\n", s->d[i], llround(s->ms[i] * 1e6));
	switch (s->formula) {
	case DISK_SEEK_HPL:
		fprintf(out, "seek_formula = hpl %u %lldns %lldns %lldns %lldns\n", s->split,
			llround(s->f[0] * 1e6), llround(s->f[1] * 1e6), llround(s->f[2] * 1e6),
			llround(s->f[3] * 1e6));
		break;
	case DISK_SEEK_CURVE3:
		fprintf(out, "seek_formula = curve3 %lldns %lldns %lldns\n", llround(s->f[0] * 1e6),
			llround(s->f[1] * 1e6), llround(s->f[2] * 1e6));
		break;
	case DISK_SEEK_CONSTANT:
		fprintf(out, "seek_formula = constant %lldns\n", llround(s->f[0] * 1e6));
		break;
	default:
		break;
	}
}

/* ---- the layout: dm_layout_g1 ---- */

/* DiskSim's sparing schemes 0-10 (layout_g1.h), as ncqsim names them. */
static const int spare_schemes[] = {
	DISK_SPARE_NONE, DISK_SPARE_TRACKS, DISK_SPARE_CYLINDER, DISK_SPARE_TRACK_SECTORS,
	DISK_SPARE_CYLINDER_SHIFT, DISK_SPARE_CYLINDER_FRONT, DISK_SPARE_CYLINDER_FRONT_SHIFT,
	DISK_SPARE_DISK_END, DISK_SPARE_RANGE, DISK_SPARE_ZONE, DISK_SPARE_ZONE_SHIFT,
};
static const char *const spare_names[] = {
	"none", "tracks", "cylinder", "track_sectors", "cylinder_shift", "cylinder_front",
	"cylinder_front_shift", "disk_end", "range", "zone", "zone_shift",
};
static const char *const order_names[] = { "cylinder", "alternate_zone", "alternate" };

struct layout_out {
	int64_t scheme, mapping, range;
	uint64_t lbns;		/* the zone table's: what DiskSim makes the capacity */
	char *rows;		/* the zone, slips and defects rows */
	size_t len;
};

/*
 * The unit angles of a zone are in: DiskSim's "Skew units" (sectors, the
 * default, or revolutions), taken as DiskSim's loaders take their keys, in
 * file order — the layout's when it comes before Zones, then the zone's own
 * from where it stands.
 */
static int skew_units(struct importer *im, const struct parv_pair *pr, bool *revs)
{
	if (pr->value->kind != PARV_WORD || (strcmp(pr->value->text, "sectors") &&
					     strcmp(pr->value->text, "revolutions")))
		return where(im, pr->value, "key 'Skew units': expected sectors or revolutions, got "
			     "'%s'", pr->value->kind == PARV_WORD ? pr->value->text : "(not a word)");
	*revs = !strcmp(pr->value->text, "revolutions");
	return 0;
}

/*
 * An angle key of a zone as a whole number of sectors. In sectors DiskSim
 * truncates ((int)d sectors); in revolutions it keeps the angle, which
 * ncqsim can place only when it falls on a sector.
 */
static int zone_angle(struct importer *im, struct parv_value *z, const char *key, bool revs,
		      uint64_t spt, uint64_t *out)
{
	struct parv_pair *pr;
	double d, sectors;

	if (number(im, z, key, &d))
		return -1;
	pr = parv_get(z, key);
	sectors = revs ? d * (double)spt : d;
	if (d < 0)
		return where(im, pr->value, "key '%s': expected 0 or more, got %g (DiskSim 2's "
			     "negative skews, derived from the switch times, are gone from DiskSim "
			     "4.0)", key, d);
	if (revs && fabs(sectors - nearbyint(sectors)) > 1e-6)
		return where(im, pr->value, "key '%s': %g revolutions is %.4f of this zone's %llu "
			     "sectors; ncqsim places tracks on whole sectors (give the skews in "
			     "sectors)", key, d, sectors, (unsigned long long)spt);
	if (revs)
		sectors = nearbyint(sectors);
	else if (sectors != floor(sectors))
		im_note(im, pr->value, "'%s' = %g sectors is taken as %.0f, as DiskSim truncates it",
			key, d, floor(sectors));
	if (sectors > 4e9)
		return where(im, pr->value, "key '%s': %g sectors is too large", key, sectors);
	*out = (uint64_t)sectors;
	return 0;
}

/* A list of zone-relative integers (slips; defects, as pairs). */
static int mark_list(struct importer *im, struct parv_value *z, const char *key, uint32_t **out,
		     unsigned *n)
{
	struct parv_pair *lp = need(im, z, key);
	unsigned j;

	*out = NULL;
	*n = 0;
	if (!lp)
		return -1;
	if (lp->value->kind != PARV_LIST)
		return where(im, lp->value, "key '%s': expected a list of integers", key);
	if (!strcmp(key, "defects") && lp->value->nitems % 2)
		return where(im, lp->value, "key 'defects': expected pairs DEFECT, SPARE (the spare "
			     "each defect is remapped to), got %u numbers", lp->value->nitems);
	*out = calloc(lp->value->nitems + 1, sizeof(**out));
	if (!*out)
		return err_set(im->e, "out of memory");
	for (j = 0; j < lp->value->nitems; j++) {
		struct parv_value *it = lp->value->items[j];

		if (it->kind != PARV_WORD || it->scalar != PARV_INT || it->ival < 0 ||
		    it->ival > UINT32_MAX)
			return where(im, it, "key '%s': expected an integer of 0 or more, got '%s'",
				     key, it->kind == PARV_WORD ? it->text : "(not a number)");
		(*out)[j] = (uint32_t)it->ival;
	}
	*n = lp->value->nitems;
	return 0;
}

static void put_marks(FILE *out, const char *key, const uint32_t *v, unsigned n)
{
	unsigned j;

	for (j = 0; j < n; j++)
		fprintf(out, "%s%u%s", j % 12 ? " " : key, v[j], j % 12 == 11 || j + 1 == n ? "\n" : "");
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* One dm_layout_g1_zone: its row, slips and defects into `out`; its LBNs into *lbns. */
static int zone_row(struct importer *im, struct parv_value *z, bool layout_revs, int64_t cylinders,
		    int64_t surfaces, struct layout_out *lo, FILE *out)
{
	struct disk_zone_spec spec = { 0 };
	int64_t first, last, spt, spares, empty;
	uint64_t off, tskew, cskew;
	uint32_t *slips = NULL, *defects = NULL;
	unsigned nslips, ndefects, k, remapped = 0;
	bool revs = layout_revs;
	int rc = -1;

	(void)revs;

	if (z->kind != PARV_BLOCK || strcmp(z->text, "dm_layout_g1_zone"))
		return where(im, z, "key 'Zones': expected dm_layout_g1_zone blocks");
	if (integer(im, z, "First cylinder number", 0, cylinders - 1, &first) ||
	    integer(im, z, "Last cylinder number", first, cylinders - 1, &last) ||
	    integer(im, z, "Blocks per track", 1, 100000, &spt) ||
	    integer(im, z, "Empty space at zone front", 0, INT32_MAX, &empty) ||
	    integer(im, z, "Number of spares", 0, INT32_MAX, &spares))
		return -1;
	/* The angles, each in the units in force where it stands. */
	{
		static const char *const angles[] = { "Offset of first block", "Skew for track switch",
						      "Skew for cylinder switch" };
		uint64_t *dst[3] = { &off, &tskew, &cskew };
		unsigned a, i;

		for (a = 0; a < 3; a++) {
			bool here = revs;

			for (i = 0; i < z->npairs && strcmp(z->pairs[i].key, angles[a]); i++)
				if (!strcmp(z->pairs[i].key, "Skew units") &&
				    skew_units(im, &z->pairs[i], &here))
					return -1;
			if (zone_angle(im, z, angles[a], here, (uint64_t)spt, dst[a]))
				return -1;
		}
		if (parv_get(z, "Skew units") && skew_units(im, parv_get(z, "Skew units"), &revs))
			return -1;	/* a zone's own, after its angles: checked, changes nothing */
	}
	if (mark_list(im, z, "slips", &slips, &nslips) ||
	    mark_list(im, z, "defects", &defects, &ndefects))
		goto out;
	ndefects /= 2;
	if (lo->scheme == 0 && (nslips || ndefects)) {
		/* DiskSim's no-sparing layout reads neither (g1_ltop_nosparing). */
		im_note(im, z, "zone: sparing scheme 0 has no spares, so its slips (%u) and defects "
			"(%u) are ignored, as DiskSim ignores them", nslips, ndefects);
		nslips = ndefects = 0;
	}
	for (k = 1; k < nslips && slips[k - 1] < slips[k]; k++)
		;
	if (k < nslips) {
		im_note(im, z, "zone: its slips are not in ascending order; ncqsim sorts them "
			"(DiskSim 4.0 applies them as listed)");
		qsort(slips, nslips, sizeof(*slips), cmp_u32);
	}
	for (k = 1; k < nslips; k++)
		if (slips[k - 1] == slips[k]) {
			where(im, parv_get(z, "slips")->value, "key 'slips': %u is listed twice", slips[k]);
			goto out;
		}
	for (k = 0; k < ndefects; k++)
		remapped += defects[2 * k] != defects[2 * k + 1];
	if (remapped)
		im_note(im, z, "zone: %u defects remapped to spares are timed where they were (the "
			"drive's detour to the spare is not modelled)", remapped);
	spec.first_cyl = (uint32_t)first;
	spec.last_cyl = (uint32_t)last;
	spec.spt = (uint32_t)spt;
	spec.spares = (uint32_t)spares;
	spec.front_empty = (uint64_t)empty;
	spec.nslips = nslips;
	lo->lbns += disk_layout_zone_lbns(&spec, spare_schemes[lo->scheme], (uint32_t)lo->range,
					  (unsigned)surfaces);
	fprintf(out, "zone = %lld %lld %lld %llu %llu %llu %lld %lld\n", (long long)first,
		(long long)last, (long long)spt, (unsigned long long)(off % (uint64_t)spt),
		(unsigned long long)(tskew % (uint64_t)spt), (unsigned long long)(cskew % (uint64_t)spt),
		(long long)spares, (long long)empty);
	put_marks(out, lo->scheme == 1 ? "slip_tracks = " : "slips = ", slips, nslips);
	put_marks(out, lo->scheme == 1 ? "defect_tracks = " : "defects = ", defects, 2 * ndefects);
	rc = 0;
out:
	free(slips);
	free(defects);
	return rc;
}

static int layout(struct importer *im, int64_t cylinders, int64_t surfaces, struct layout_out *lo)
{
	struct parv_pair *zp;
	bool revs = false;
	FILE *out;
	unsigned i;
	int rc = 0;

	if (integer(im, im->layout, "LBN-to-PBN mapping scheme", 0, 2, &lo->mapping) ||
	    integer(im, im->layout, "Sparing scheme used", 0, 10, &lo->scheme) ||
	    integer(im, im->layout, "Rangesize for sparing", 1, INT32_MAX, &lo->range))
		return -1;
	zp = need(im, im->layout, "Zones");
	if (!zp)
		return -1;
	for (i = 0; i < im->layout->npairs && &im->layout->pairs[i] != zp; i++)
		if (!strcmp(im->layout->pairs[i].key, "Skew units") &&
		    skew_units(im, &im->layout->pairs[i], &revs))
			return -1;
	if (parv_get(im->layout, "Skew units") &&
	    skew_units(im, parv_get(im->layout, "Skew units"), &(bool){ false }))
		return -1;
	if (zp->value->kind != PARV_LIST || !zp->value->nitems)
		return where(im, zp->value, "key 'Zones': expected a list of dm_layout_g1_zone blocks");
	if (zp->value->nitems > DISK_MAX_ZONES)
		return where(im, zp->value, "key 'Zones': more than %d zones (ncqsim's limit)",
			     DISK_MAX_ZONES);
	out = open_memstream(&lo->rows, &lo->len);
	if (!out)
		return err_set(im->e, "out of memory");
	fprintf(out, "# zone = FIRST_CYL LAST_CYL SECTORS_PER_TRACK FIRST_OFFSET TRACK_SKEW "
		"CYL_SKEW SPARES FRONT_EMPTY\n");
	for (i = 0; i < zp->value->nitems && !rc; i++) {
		im->zone_from[i].file = zp->value->items[i]->file;
		im->zone_from[i].line = zp->value->items[i]->line;
		rc = zone_row(im, zp->value->items[i], revs, cylinders, surfaces, lo, out);
	}
	fclose(out);
	if (!rc && !lo->lbns)
		return where(im, zp->value, "key 'Zones': the zones hold no LBN");
	return rc;
}

/* ---- notes: what was not read ---- */

struct seen_keys {
	unsigned n;
	char keys[512][96];
};

static void note_unused(struct parv_value *b, const char *where_in, struct seen_keys *seen,
			FILE *notes, unsigned depth)
{
	unsigned i, k;

	if (!b || b->kind != PARV_BLOCK || depth > 8)
		return;
	for (i = 0; i < b->npairs; i++) {
		struct parv_pair *pr = &b->pairs[i];
		char id[96];

		if (pr->used) {
			/* Look inside what was read: a block or a list of blocks. */
			if (pr->value->kind == PARV_BLOCK)
				note_unused(pr->value, pr->value->text, seen, notes, depth + 1);
			for (k = 0; pr->value->kind == PARV_LIST && k < pr->value->nitems; k++)
				note_unused(pr->value->items[k], pr->value->items[k]->text, seen, notes,
					    depth + 1);
			continue;
		}
		snprintf(id, sizeof(id), "%s/%s", where_in, pr->key);
		for (k = 0; k < seen->n && strcmp(seen->keys[k], id); k++)
			;
		if (k < seen->n)
			continue;
		if (seen->n < 512)
			snprintf(seen->keys[seen->n++], sizeof(seen->keys[0]), "%s", id);
		if (notes)
			fprintf(notes, "ncqsim: note: %s:%d: '%s' (%s) is not modelled\n", pr->file,
				pr->line, pr->key, where_in);
	}
}

/* ---- the disk's buffer and bus phases (disksim_disk, its buses and controllers) ---- */

/*
 * What the disksim_disk block (and the path to the host) says about serving
 * one command: DiskSim 4.0's disk controller (disksim_diskctlr.c,
 * disksim_diskcache.c; docs/DRIVES.md, "From DiskSim 4.0"). Times in ms,
 * already multiplied by Time scale for overheads where DiskSim multiplies.
 */
struct disk_keys {
	double scale;
	uint64_t segments, seg_blks, ra_max, ra_min, fast_write, read_hits, write_segs, contread,
		by_req, ra_on_hit, partial, hold_read, hold_write, never_disc, extra_disc,
		write_seg, combine, almost, sneaky_full, sneaky_partial, prebuffer, write_hit_stop,
		immed_read, immed_write, stop_in_sector, disc_in_seek, keep_request;
	double watermark, write_watermark, min_seek, bulk, bus_r, bus_w, arbitration, ctlr_delay;
	double ovh[8], comp_r, comp_w, request, data_prep, reselect[2], disc_read[2], disc_write;
	double xd_cmd, xd_seek, xd_disc1, xd_inter, xd_disc2;
};

static const char *const ovh_keys[8] = {
	"Read hit over. after read", "Read hit over. after write",
	"Read miss over. after read", "Read miss over. after write",
	"Write hit over. after read", "Write hit over. after write",
	"Write miss over. after read", "Write miss over. after write",
};

/* A whole-number key that must have one value (what ncqsim models), else refused. */
static int only(struct importer *im, struct parv_value *blk, const char *key, uint64_t lo,
		uint64_t hi, uint64_t want, const char *why)
{
	uint64_t v;

	if (whole(im, blk, key, (double)lo, (double)hi, &v))
		return -1;
	if (v != want)
		return where(im, parv_get(blk, key)->value, "key '%s': %llu is not modelled (%s)", key,
			     (unsigned long long)v, why);
	return 0;
}

/* A time that DiskSim multiplies by Time scale for overheads. */
static int scaled(struct importer *im, struct parv_value *blk, const char *key, double scale,
		  double *out)
{
	if (number(im, blk, key, out))
		return -1;
	if (*out < 0)
		return where(im, parv_get(blk, key)->value, "key '%s': expected 0 or more ms, got %g",
			     key, *out);
	*out *= scale;
	return 0;
}

/* The buses and controllers between the disk and the host. */
static int path_keys(struct importer *im, struct disk_keys *k)
{
	unsigned i;

	k->bus_r = k->bus_w = k->arbitration = k->ctlr_delay = 0;
	for (i = 0; i < im->npath; i++) {
		struct parv_value *b = im->path[i];
		double type, arb, r, w, bulk, ctlr_scale;

		if (!strcmp(b->text, "disksim_bus")) {
			/*
			 * Data crosses every bus at once (the controller passes it
			 * through), so the slowest sets the pace; an exclusive bus
			 * (type 1) is won by arbitration each time, an interleaved
			 * one (2) never waits. Arbitration type picks among several
			 * requesters: with one drive there are none.
			 */
			if (number(im, b, "type", &type) ||
			    number(im, b, "Arbitration time", &arb) ||
			    number(im, b, "Read block transfer time", &r) ||
			    number(im, b, "Write block transfer time", &w))
				return -1;
			if (type != 1 && type != 2)
				return where(im, parv_get(b, "type")->value, "key 'type': expected 1 "
					     "(exclusive) or 2 (interleaved), got %g", type);
			if (arb < 0 || r < 0 || w < 0)
				return where(im, b, "bus: expected times of 0 or more ms");
			if (type == 1)
				k->arbitration += arb;
			k->bus_r = r > k->bus_r ? r : k->bus_r;
			k->bus_w = w > k->bus_w ? w : k->bus_w;
		} else {
			/*
			 * A pass-through controller (type 1) hands every message on
			 * after 1 ms x Scale for delays (DiskSim's PASSTHRU_DELAY) and
			 * data at the slower of its own and the buses' rate.
			 */
			if (only(im, b, "type", 0, 3, 1, "only the pass-through controller, type 1, "
				 "is modelled") ||
			    number(im, b, "Scale for delays", &ctlr_scale) ||
			    number(im, b, "Bulk sector transfer time", &bulk))
				return -1;
			if (ctlr_scale < 0 || bulk < 0)
				return where(im, b, "controller: expected a scale and a time of 0 or more");
			k->ctlr_delay += 1.0 * ctlr_scale;
			k->bus_r = bulk > k->bus_r ? bulk : k->bus_r;
			k->bus_w = bulk > k->bus_w ? bulk : k->bus_w;
		}
	}
	return 0;
}

static int disk_keys(struct importer *im, struct disk_keys *k)
{
	struct parv_value *d = im->disk;
	double scale;
	unsigned i;

	memset(k, 0, sizeof(*k));
	if (number(im, d, "Time scale for overheads", &scale))
		return -1;
	if (scale < 0)
		return where(im, parv_get(d, "Time scale for overheads")->value,
			     "key 'Time scale for overheads': expected 0 or more, got %g", scale);
	k->scale = scale;
	if (number(im, d, "Bulk sector transfer time", &k->bulk) ||
	    whole(im, d, "Number of buffer segments", 1, 256, &k->segments) ||
	    whole(im, d, "Segment size (in blks)", 1, 1 << 24, &k->seg_blks) ||
	    whole(im, d, "Maximum read-ahead (blks)", 0, 1 << 24, &k->ra_max) ||
	    whole(im, d, "Minimum read-ahead (blks)", 0, 1 << 24, &k->ra_min) ||
	    whole(im, d, "Fast write level", 0, 2, &k->fast_write) ||
	    whole(im, d, "Allow read hits on write data", 0, 1, &k->read_hits) ||
	    whole(im, d, "Maximum number of write segments", 0, 256, &k->write_segs) ||
	    whole(im, d, "Use separate write segment", 0, 1, &k->write_seg) ||
	    whole(im, d, "Combine seq writes", 0, 1, &k->combine) ||
	    whole(im, d, "Buffer continuous read", 0, 4, &k->contread) ||
	    whole(im, d, "Read-ahead on idle hit", 0, 1, &k->ra_on_hit) ||
	    whole(im, d, "Immed transfer partial hit", 0, 1, &k->partial) ||
	    whole(im, d, "Allow almost read hits", 0, 1, &k->almost) ||
	    whole(im, d, "Allow sneaky full read hits", 0, 1, &k->sneaky_full) ||
	    whole(im, d, "Allow sneaky partial read hits", 0, 1, &k->sneaky_partial) ||
	    whole(im, d, "Allow write prebuffering", 0, 1, &k->prebuffer) ||
	    whole(im, d, "Write hit stop prefetch", 0, 1, &k->write_hit_stop) ||
	    whole(im, d, "Immediate buffer read", 0, 2, &k->immed_read) ||
	    whole(im, d, "Immediate buffer write", 0, 2, &k->immed_write) ||
	    whole(im, d, "Stop prefetch in sector", 0, 1, &k->stop_in_sector) ||
	    whole(im, d, "Disconnect write if seek", 0, 1, &k->disc_in_seek) ||
	    whole(im, d, "Hold bus entire read xfer", 0, 1, &k->hold_read) ||
	    whole(im, d, "Hold bus entire write xfer", 0, 1, &k->hold_write) ||
	    whole(im, d, "Never disconnect", 0, 1, &k->never_disc) ||
	    whole(im, d, "Extra write disconnect", 0, 1, &k->extra_disc) ||
	    number(im, d, "High (read) water mark", &k->watermark) ||
	    number(im, d, "Low (write) water mark", &k->write_watermark) ||
	    whole(im, d, "Set watermark by reqsize", 0, 1, &k->by_req) ||
	    number(im, d, "Minimum seek delay", &k->min_seek) ||
	    scaled(im, d, "Per-request overhead time", scale, &k->request) ||
	    scaled(im, d, "Data preparation overhead", scale, &k->data_prep) ||
	    scaled(im, d, "Read completion overhead", scale, &k->comp_r) ||
	    scaled(im, d, "Write completion overhead", scale, &k->comp_w) ||
	    scaled(im, d, "First reselect overhead", scale, &k->reselect[0]) ||
	    scaled(im, d, "Other reselect overhead", scale, &k->reselect[1]) ||
	    scaled(im, d, "Read disconnect afterread", scale, &k->disc_read[0]) ||
	    scaled(im, d, "Read disconnect afterwrite", scale, &k->disc_read[1]) ||
	    scaled(im, d, "Write disconnect overhead", scale, &k->disc_write) ||
	    scaled(im, d, "Extradisc command overhead", scale, &k->xd_cmd) ||
	    scaled(im, d, "Extradisc seek delta", scale, &k->xd_seek) ||
	    scaled(im, d, "Extradisc disconnect overhead", scale, &k->xd_disc1) ||
	    scaled(im, d, "Extradisc 2nd disconnect overhead", scale, &k->xd_disc2) ||
	    /* DiskSim waits this one out unscaled (disk_disconnect). */
	    scaled(im, d, "Extradisc inter-disconnect delay", 1.0, &k->xd_inter))
		return -1;
	for (i = 0; i < 8; i++)
		if (scaled(im, d, ovh_keys[i], scale, &k->ovh[i]))
			return -1;
	{
		/* -1 drops the read's own data from its segment when it completes. */
		double keep;

		if (number(im, d, "Read-ahead over requested", &keep))
			return -1;
		if (keep != -1 && keep != 0 && keep != 1)
			return where(im, parv_get(d, "Read-ahead over requested")->value,
				     "key 'Read-ahead over requested': expected -1, 0 or 1, got %g", keep);
		k->keep_request = (uint64_t)(keep + 1);	/* 0, 1, 2 */
	}
	if (k->write_watermark < 0 || k->write_watermark > 1)
		return where(im, parv_get(d, "Low (write) water mark")->value,
			     "key '%s': expected a fraction 0..1", "Low (write) water mark");
	if (k->watermark < 0 || k->watermark > 1)
		return where(im, parv_get(d, "High (read) water mark")->value,
			     "key '%s': expected a fraction 0..1", "High (read) water mark");
	if (k->bulk < 0 || k->min_seek < 0)
		return where(im, d, "disk: expected Bulk sector transfer time and Minimum seek delay "
			     "of 0 or more ms");
	if (k->ra_min > k->seg_blks || k->ra_max > k->seg_blks)
		return where(im, parv_get(d, k->ra_min > k->seg_blks ? "Minimum read-ahead (blks)" :
					  "Maximum read-ahead (blks)")->value,
			     "key '%s': expected at most the segment's %llu blocks",
			     k->ra_min > k->seg_blks ? "Minimum read-ahead (blks)" :
			     "Maximum read-ahead (blks)", (unsigned long long)k->seg_blks);
	if (k->write_seg && k->segments < 2)
		return where(im, parv_get(d, "Use separate write segment")->value,
			     "key 'Use separate write segment': needs 2 or more buffer segments "
			     "(one for writes, the rest for reads)");
	/*
	 * Refused rather than misread: a buffer that only matches speeds,
	 * reading sectors that pass before the request, the read-ahead's
	 * keeping of the request's data when read-ahead is not bounded by
	 * Maximum read-ahead, and a sector buffer apart from the segments.
	 */
	if (only(im, d, "Enable caching in buffer", 0, 2, 1, "only 1, the buffer caching what it "
		 "holds, is modelled") ||
	    only(im, d, "Read any free blocks", 0, 1, 0, "only 0 is modelled: a read fills its "
		 "segment from its own first sector") ||
	    only(im, d, "Read directly to buffer", 0, 1, 1, "only 1 is modelled: sectors are read "
		 "into the segment itself"))
		return -1;
	return path_keys(im, k);
}

/* The keys of the measured form that come from the disksim_disk block. */
static void put_disk_keys(const struct disk_keys *k, FILE *out)
{
	static const char *const ovh_names[8] = {
		"overhead_read_hit_after_read", "overhead_read_hit_after_write",
		"overhead_read_miss_after_read", "overhead_read_miss_after_write",
		"overhead_write_hit_after_read", "overhead_write_hit_after_write",
		"overhead_write_miss_after_read", "overhead_write_miss_after_write",
	};
	static const char *const rules[] = { "segment", "track", "cylinder", "segment",
					     "sequential" };
	const char *x = k->scale != 1 ? " x Time scale for overheads" : "";
	char src[160];
	unsigned i;

#define SRC(key) (snprintf(src, sizeof(src), "%s%s", key, x), src)
	put_time(out, "bus_read_sector", k->bulk > k->bus_r ? k->bulk : k->bus_r,
		 "the slowest of Bulk sector transfer time and the path's Read block transfer times");
	put_time(out, "bus_write_sector", k->bulk > k->bus_w ? k->bulk : k->bus_w,
		 "the slowest of Bulk sector transfer time and the path's Write block transfer times");
	for (i = 0; i < 8; i++)
		put_time(out, ovh_names[i], k->ovh[i], SRC(ovh_keys[i]));
	put_time(out, "min_seek", k->min_seek, "Minimum seek delay (writes)");
	put_time(out, "completion_read", k->comp_r, SRC("Read completion overhead"));
	put_time(out, "completion_write", k->comp_w, SRC("Write completion overhead"));
	put(out, "segment_size", "DiskSim: Segment size (in blks)", "%llu",
	    (unsigned long long)(k->seg_blks * 512));
	put(out, "read_hits_on_writes", "DiskSim: Allow read hits on write data", "%llu",
	    (unsigned long long)k->read_hits);
	put(out, "read_ahead_rule", "DiskSim: Buffer continuous read (1 track, 2 cylinder, "
	    "3 segment, 4 sequential)", "%s", rules[k->contread]);
	put(out, "read_ahead_on_hit", "DiskSim: Read-ahead on idle hit", "%llu",
	    (unsigned long long)k->ra_on_hit);
	put(out, "partial_hits", "DiskSim: Immed transfer partial hit", "%llu",
	    (unsigned long long)k->partial);
	put(out, "read_watermark", "DiskSim: High (read) water mark", "%g", k->watermark);
	put(out, "write_watermark", "DiskSim: Low (write) water mark", "%g", k->write_watermark);
	put(out, "watermark_by_request", "DiskSim: Set watermark by reqsize", "%llu",
	    (unsigned long long)k->by_req);
	put(out, "write_segment", "DiskSim: Use separate write segment", "%llu",
	    (unsigned long long)k->write_seg);
	put(out, "combine_writes", "DiskSim: Combine seq writes", "%llu",
	    (unsigned long long)k->combine);
	put(out, "almost_read_hits", "DiskSim: Allow almost read hits", "%llu",
	    (unsigned long long)k->almost);
	put(out, "sneaky_full_hits", "DiskSim: Allow sneaky full read hits", "%llu",
	    (unsigned long long)k->sneaky_full);
	put(out, "sneaky_partial_hits", "DiskSim: Allow sneaky partial read hits", "%llu",
	    (unsigned long long)k->sneaky_partial);
	put(out, "write_prebuffering", "DiskSim: Allow write prebuffering", "%llu",
	    (unsigned long long)k->prebuffer);
	put(out, "read_ahead_min", "DiskSim: Minimum read-ahead (blks)", "%llu",
	    (unsigned long long)(k->ra_min * 512));
	put(out, "write_hit_stops_read_ahead", "DiskSim: Write hit stop prefetch", "%llu",
	    (unsigned long long)k->write_hit_stop);
	put(out, "zero_latency_read", "DiskSim: Immediate buffer read > 0", "%d", k->immed_read > 0);
	put(out, "zero_latency_write", "DiskSim: Immediate buffer write > 0", "%d",
	    k->immed_write > 0);
	put(out, "read_ahead_stop", "DiskSim: Disconnect write if seek, Stop prefetch in sector",
	    "%s", k->disc_in_seek && !k->stop_in_sector ? "sector" : "now");
	/* DiskSim keeps the read's data only when the read-ahead has no maximum of its own. */
	put(out, "read_data", "DiskSim: Read-ahead over requested (-1 drop; 1 keep, with no "
	    "Maximum read-ahead)", "%s", k->keep_request == 0 ? "drop" :
	    k->keep_request == 2 && !k->ra_max ? "keep" : "overwrite");
	put_time(out, "request_overhead", k->request, SRC("Per-request overhead time"));
	put_time(out, "bus_arbitration", k->arbitration,
		 "the Arbitration time of each exclusive bus to the host");
	put_time(out, "controller_delay", k->ctlr_delay,
		 "1 ms x Scale for delays of each pass-through controller to the host");
	put_time(out, "data_prep", k->data_prep, SRC("Data preparation overhead"));
	put_time(out, "reselect_first", k->reselect[0], SRC("First reselect overhead"));
	put_time(out, "reselect_other", k->reselect[1], SRC("Other reselect overhead"));
	put_time(out, "disconnect_read_after_read", k->disc_read[0], SRC("Read disconnect afterread"));
	put_time(out, "disconnect_read_after_write", k->disc_read[1],
		 SRC("Read disconnect afterwrite"));
	put_time(out, "disconnect_write", k->disc_write, SRC("Write disconnect overhead"));
	put(out, "hold_bus_read", "DiskSim: Hold bus entire read xfer", "%llu",
	    (unsigned long long)k->hold_read);
	put(out, "hold_bus_write", "DiskSim: Hold bus entire write xfer", "%llu",
	    (unsigned long long)k->hold_write);
	put(out, "never_disconnect", "DiskSim: Never disconnect", "%llu",
	    (unsigned long long)k->never_disc);
	put(out, "extra_write_disconnect", "DiskSim: Extra write disconnect", "%llu",
	    (unsigned long long)k->extra_disc);
	put_time(out, "extradisc_command", k->xd_cmd, SRC("Extradisc command overhead"));
	put_time(out, "extradisc_seek_delta", k->xd_seek, SRC("Extradisc seek delta"));
	put_time(out, "extradisc_disconnect", k->xd_disc1, SRC("Extradisc disconnect overhead"));
	put_time(out, "extradisc_inter_disconnect", k->xd_inter,
		 "Extradisc inter-disconnect delay (DiskSim does not scale it)");
	put_time(out, "extradisc_disconnect2", k->xd_disc2, SRC("Extradisc 2nd disconnect overhead"));
#undef SRC
}

/* ---- the whole drive ---- */

static void drive_name(const char *from, char *name, size_t len)
{
	size_t i;

	for (i = 0; from[i] && i + 1 < len; i++)
		name[i] = isalnum((unsigned char)from[i]) ? (char)tolower((unsigned char)from[i]) :
			(from[i] == '-' || from[i] == '.') ? from[i] : '_';
	name[i] = '\0';
}

/* ---- dm_disk: the layout and the mechanism ---- */

struct dm_out {
	int64_t surfaces, cylinders, blocks, rpm;
	double head_switch, settle;
	struct layout_out layout;
};

/* Layout Model and Mechanical Model: the block, of the one class ncqsim reads. */
static int model_part(struct importer *im, const char *key, const char *type,
		      struct parv_value **out)
{
	struct parv_pair *pr = need(im, im->model, key);

	if (!pr)
		return -1;
	if (pr->value->kind == PARV_BLOCK && !strcmp(pr->value->text, "dm_layout_g2"))
		return where(im, pr->value, "key '%s': dm_layout_g2 (an LBN map file extracted by "
			     "DIXtrac) is not read: ncqsim takes a dm_layout_g1 zone table", key);
	if (pr->value->kind == PARV_BLOCK && !strcmp(pr->value->text, "dm_layout_g4"))
		return where(im, pr->value, "key '%s': dm_layout_g4 (DiskSim's extent tables) is not "
			     "read: ncqsim takes a dm_layout_g1 zone table", key);
	if (pr->value->kind != PARV_BLOCK || strcmp(pr->value->text, type))
		return where(im, pr->value, "key '%s': expected a %s block", key, type);
	*out = pr->value;
	return 0;
}

static int diskmodel(struct importer *im, struct dm_out *dm)
{
	struct parv_pair *pr;
	double err_pct;

	if (model_part(im, "Layout Model", "dm_layout_g1", &im->layout) ||
	    model_part(im, "Mechanical Model", "dm_mech_g1", &im->mech))
		return -1;
	if (integer(im, im->model, "Number of data surfaces", 1, DISK_MAX_HEADS, &dm->surfaces) ||
	    integer(im, im->model, "Number of cylinders", 2, 100000000, &dm->cylinders) ||
	    integer(im, im->model, "Block count", 0, INT64_MAX, &dm->blocks) ||
	    integer(im, im->mech, "Rotation speed (in rpms)", 3600, 20000, &dm->rpm) ||
	    number(im, im->mech, "Head switch time", &dm->head_switch) ||
	    number(im, im->mech, "Add. write settling delay", &dm->settle) ||
	    number(im, im->mech, "Percent error in rpms", &err_pct))
		return -1;
	if (dm->head_switch < 0)
		return where(im, parv_get(im->mech, "Head switch time")->value,
			     "key 'Head switch time': expected 0 or more ms, got %g", dm->head_switch);
	if (err_pct < 0 || err_pct > 100)
		return where(im, parv_get(im->mech, "Percent error in rpms")->value,
			     "key 'Percent error in rpms': expected 0..100, got %g", err_pct);
	if (err_pct != 0)
		im_note(im, parv_get(im->mech, "Percent error in rpms")->value, "'Percent error in "
			"rpms' = %g: DiskSim 4.0 does not vary the speed (dm_mech_g1_set_period "
			"is empty), and ncqsim does not either", err_pct);
	pr = need(im, im->mech, "Access time type");
	if (!pr)
		return -1;
	if (pr->value->kind != PARV_WORD || (strcmp(pr->value->text, "trackSwitchPlusRotation") &&
					     strcmp(pr->value->text, "averageRotation") &&
					     strcmp(pr->value->text, "constant")))
		return where(im, pr->value, "key 'Access time type': expected trackSwitchPlusRotation, "
			     "averageRotation or constant, got '%s'",
			     pr->value->kind == PARV_WORD ? pr->value->text : "(not a word)");
	if (strcmp(pr->value->text, "trackSwitchPlusRotation"))
		im_note(im, pr->value, "'Access time type' = %s: DiskSim 4.0's dm_mech_g1 never reads "
			"it and times the rotational position of every access, as "
			"trackSwitchPlusRotation; so does ncqsim", pr->value->text);
	pr = parv_get(im->mech, "Constant access time");
	if (pr)
		im_note(im, pr->value, "'Constant access time': DiskSim 4.0's dm_mech_g1 never reads "
			"it (every access is timed by its seek, rotation and transfer), nor does "
			"ncqsim");
	if (layout(im, dm->cylinders, dm->surfaces, &dm->layout))
		return -1;
	if (dm->blocks != (int64_t)dm->layout.lbns)
		im_note(im, parv_get(im->model, "Block count")->value, "'Block count' = %lld, but the "
			"zone table holds %llu LBNs: DiskSim takes the table's (checknumblocks), and "
			"so does ncqsim", (long long)dm->blocks, (unsigned long long)dm->layout.lbns);
	return 0;
}

static int import_drive(struct importer *im, FILE *out, struct dm_out *dm);

static int import(struct importer *im, FILE *out)
{
	struct dm_out dm = { 0 };
	int rc = import_drive(im, out, &dm);

	free(dm.layout.rows);
	return rc;
}

static int import_drive(struct importer *im, FILE *out, struct dm_out *dm)
{
	struct parv_value *d;
	struct disk_keys k;
	struct seek_rows *seeks;
	char name[DISK_NAME_MAX];
	int rc;

	if (find_disk(im))
		return -1;
	d = im->disk;
	if (sub_block(im, d, "Model", "dm_disk", &im->model) || diskmodel(im, dm))
		return -1;
	if (disk_keys(im, &k))
		return -1;

	drive_name(d->name, name, sizeof(name));
	fprintf(out, "# %s, imported by 'ncqsim import disksim' from %s\n", d->name, im->parv_path);
	fprintf(out, "# (DiskSim 4.0 parameters; see docs/DRIVES.md for what maps where).\n");
	fprintf(out, "form = measured\n");
	put(out, "name", NULL, "%s", name);
	put(out, "description", NULL, "%.60s (DiskSim %s)", d->name, "import");
	put(out, "model", "the DiskSim disk's name", "%.40s", d->name);
	put(out, "serial", "invented: DiskSim gives none", "DISKSIM");
	put(out, "firmware", "invented", "DS40");
	put(out, "sectors", "DiskSim: the zone table's LBNs (DiskSim's capacity, whatever Block "
	    "count says)", "%llu", (unsigned long long)dm->layout.lbns);
	put(out, "logical_sector_size", "DiskSim counts 512-byte blocks", "512");
	put(out, "physical_sector_size", NULL, "512");
	put(out, "ncq", "a SCSI drive, one command at a time", "0");
	put(out, "queue_depth", NULL, "1");
	put(out, "ncq_prio", NULL, "0");
	put(out, "ncq_prio_log", NULL, "0");
	put(out, "id_data_log", NULL, "0");
	put(out, "sata_gen", "invented: the drive is SCSI", "1");
	put(out, "rpm", "DiskSim: Rotation speed (in rpms)", "%lld", (long long)dm->rpm);
	put(out, "heads", "DiskSim: Number of data surfaces", "%lld", (long long)dm->surfaces);
	put_time(out, "head_switch", dm->head_switch, "Head switch time");
	put(out, "rpo_guard", "DiskSim has none", "0");
	put(out, "fw_sched", NULL, "fifo");
	put(out, "prio_policy", NULL, "ignore");
	put(out, "prio_soft_margin", NULL, "10ms");
	put(out, "age_limit", NULL, "2s");
	put(out, "cdl", "no Command Duration Limits: a 1990s SCSI drive", "0");
	put(out, "cdl_t2a", NULL, "none");
	put(out, "cdl_t2b", NULL, "none");
	put(out, "cache_size", "segments x segment size", "%llu",
	    (unsigned long long)(k.segments * k.seg_blks * 512));
	put(out, "cache_segments", "DiskSim: Number of buffer segments", "%llu",
	    (unsigned long long)k.segments);
	put(out, "read_ahead", "DiskSim: Buffer continuous read > 0", "%d", k.contread > 0);
	put(out, "read_ahead_max", "DiskSim: Maximum read-ahead (blks) (0: a segment), within a segment",
	    "%llu", (unsigned long long)((k.ra_max && k.ra_max < k.seg_blks ? k.ra_max : k.seg_blks) *
					 512));
	put(out, "write_cache", "DiskSim: Fast write level > 0", "%d", k.fast_write > 0);
	put(out, "write_buffer", "write segments x segment size", "%llu",
	    (unsigned long long)((k.write_segs ? k.write_segs : 1) * k.seg_blks * 512));
	put(out, "trim", "a 1990s SCSI drive: no DATA SET MANAGEMENT TRIM", "0");
	put(out, "trim_time", NULL, "1ms");
	put(out, "cylinders", "DiskSim: Number of cylinders", "%lld", (long long)dm->cylinders);
	{
		char src[64];

		snprintf(src, sizeof(src), "DiskSim: Sparing scheme used = %lld", (long long)dm->layout.scheme);
		put(out, "sparing", src, "%s", spare_names[dm->layout.scheme]);
		put(out, "sparing_range", "DiskSim: Rangesize for sparing", "%lld",
		    (long long)dm->layout.range);
		snprintf(src, sizeof(src), "DiskSim: LBN-to-PBN mapping scheme = %lld",
			 (long long)dm->layout.mapping);
		put(out, "track_order", src, "%s", order_names[dm->layout.mapping]);
	}
	put_time(out, "write_settle", dm->settle, "Add. write settling delay");
	put_disk_keys(&k, out);
	fwrite(dm->layout.rows, 1, dm->layout.len, out);
	seeks = calloc(1, sizeof(*seeks));
	if (!seeks)
		return err_set(im->e, "out of memory");
	rc = seek_table(im, (uint32_t)dm->cylinders, seeks);
	if (!rc)
		put_seeks(out, seeks);
	free(seeks);
	return rc;
}

/*
 * The drive file written must load: the model's own checks (slips within
 * their units, seek rows, ranges) run on it here, and a complaint about a
 * zone's rows names the DiskSim zone they came from.
 */
static int check_drive(struct importer *im, const char *text)
{
	struct disk_model *m = malloc(sizeof(*m));
	struct err e2 = { "" };
	int rc, line;

	if (!m)
		return err_set(im->e, "out of memory");
	rc = disk_model_parse(text, "import", m, &e2);
	free(m);
	if (!rc)
		return 0;
	if (sscanf(e2.msg, "import:%d:", &line) == 1) {
		const char *p = text;
		unsigned zones = 0;
		int n;

		for (n = 1; n < line && p; n++) {
			if (!strncmp(p, "zone = ", 7))
				zones++;
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		if (p && !strncmp(p, "zone = ", 7))
			zones++;
		if (p && zones && zones <= DISK_MAX_ZONES && (!strncmp(p, "zone", 4) ||
							    !strncmp(p, "slip", 4) ||
							    !strncmp(p, "defect", 6)))
			return err_set(im->e, "%s:%d: %s (in the zone row ncqsim writes for this "
				       "dm_layout_g1_zone)", im->zone_from[zones - 1].file,
				       im->zone_from[zones - 1].line, strchr(e2.msg + 7, ' ') + 1);
	}
	return err_set(im->e, "%s: the drive file imported from it is refused: %s", im->parv_path,
		       e2.msg);
}

int disk_import_disksim(const char *parv_path, const char *text, FILE *out, FILE *notes,
			struct err *e)
{
	struct importer im = { .parv_path = parv_path, .e = e };
	struct seen_keys *seen;
	char *buf = NULL, *mbuf = NULL;
	size_t len = 0, mlen = 0;
	FILE *mem;
	int rc;
	unsigned i;

	im.p = parv_read(parv_path, text, e);
	if (!im.p)
		return -1;
	/* Into memory first: nothing is written when the input is refused. */
	mem = open_memstream(&buf, &len);
	if (!mem) {
		parv_free(im.p);
		return err_set(e, "out of memory");
	}
	im.msgs = open_memstream(&mbuf, &mlen);
	rc = import(&im, mem);
	fclose(mem);
	if (im.msgs)
		fclose(im.msgs);
	if (!rc)
		rc = buf ? check_drive(&im, buf) : err_set(e, "out of memory");
	if (!rc) {
		if (notes && mbuf)
			fwrite(mbuf, 1, mlen, notes);
		seen = calloc(1, sizeof(*seen));
		if (seen) {
			note_unused(im.disk, im.disk->text, seen, notes, 0);
			for (i = 0; i < im.npath; i++)
				note_unused(im.path[i], im.path[i]->text, seen, notes, 0);
			free(seen);
		}
		for (i = 0; notes && i < parv_note_count(im.p); i++)
			fprintf(notes, "ncqsim: note: %s\n", parv_note(im.p, i));
		for (i = 0; notes && i < parv_block_count(im.p); i++) {
			struct parv_value *b = parv_block(im.p, i);
			unsigned k;

			for (k = 0; k < im.npath && im.path[k] != b; k++)
				;
			if (b != im.disk && k == im.npath && strcmp(b->text, "dm_disk"))
				fprintf(notes, "ncqsim: note: %s:%d: block %s %s is not part of the "
					"drive; its %u keys are not read\n", b->file, b->line, b->text,
					b->name, b->npairs);
		}
		fwrite(buf, 1, len, out);
	}
	free(buf);
	free(mbuf);
	parv_free(im.p);
	return rc;
}
