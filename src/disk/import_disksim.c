#include "disk/import_disksim.h"

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

struct importer {
	struct parv *p;
	const char *parv_path;
	struct err *e;
	struct parv_value *disk, *model, *layout, *mech, *bus;
	FILE *out;
};

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

static int number(struct importer *im, struct parv_value *blk, const char *key, double *out)
{
	struct parv_pair *pr = need(im, blk, key);
	char *end;

	if (!pr)
		return -1;
	if (pr->value->kind != PARV_WORD)
		return where(im, pr->value, "key '%s': expected a number, got a %s", key,
			     pr->value->kind == PARV_LIST ? "list" : "block");
	errno = 0;
	*out = strtod(pr->value->text, &end);
	if (*end || errno || !isfinite(*out))
		return where(im, pr->value, "key '%s': expected a number, got '%s'", key,
			     pr->value->text);
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
	/* The bus right above the disk's instance in the topology. */
	{
		const struct parv_node *n = parv_topology_find(im->p, inst);

		if (n && n->parent && !strcmp(n->parent->type, "disksim_bus")) {
			for (i = 0; i < parv_inst_count(im->p); i++) {
				const struct parv_inst *in = parv_inst(im->p, i);

				if (!strcmp(in->name, n->parent->name))
					im->bus = parv_find_block(im->p, in->as);
			}
		}
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

/* "Seek distances measured: N", then N rows "DISTANCE, MS". */
static int read_seek_file(struct importer *im, const struct parv_value *from, const char *name,
			  struct seek_rows *s)
{
	const char *slash = strrchr(from->file, '/');
	char path[4096], *text, *line, *save = NULL;
	unsigned expect = 0, got = 0;
	int line_no = 0, rc = -1;
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
		if (!expect) {
			if (sscanf(p, "Seek distances measured: %u", &expect) != 1 || !expect) {
				err_set(im->e, "%s:%d: expected 'Seek distances measured: N'", path,
					line_no);
				goto out;
			}
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
		if (end == p || *end) {
			err_set(im->e, "%s:%d: expected 'DISTANCE, MS', got '%s'", path, line_no, line);
			goto out;
		}
		if (add_seek(im, s, (uint32_t)d, ms, path, line_no))
			goto out;
		got++;
	}
	if (!expect || got != expect) {
		err_set(im->e, "%s: says %u seek distances, has %u", path, expect, got);
		goto out;
	}
	rc = 0;
out:
	free(text);
	return rc;
}

/* The HPL seek formula (Lee's), as DiskSim's "HPL seek equation values". */
static double hpl_ms(const double *v, double d)
{
	return d < v[0] ? v[1] + v[2] * sqrt(d) : v[3] + v[4] * d;
}

static int list_numbers(struct importer *im, struct parv_value *blk, const char *key, double *v,
			unsigned n)
{
	struct parv_pair *pr = need(im, blk, key);
	unsigned i;

	if (!pr)
		return -1;
	if (pr->value->kind != PARV_LIST || pr->value->nitems != n)
		return where(im, pr->value, "key '%s': expected a list of %u numbers", key, n);
	for (i = 0; i < n; i++) {
		struct parv_value *it = pr->value->items[i];
		char *end;

		if (it->kind != PARV_WORD || (v[i] = strtod(it->text, &end), *end))
			return where(im, it, "key '%s': expected a number in the list", key);
	}
	return 0;
}

static int seek_table(struct importer *im, uint32_t cylinders, struct seek_rows *s)
{
	struct parv_pair *type = need(im, im->mech, "Seek type");
	double v[6], ten[10];
	uint32_t max = cylinders - 1, d, first = 1;
	bool plus10;

	if (!type)
		return -1;
	if (type->value->kind == PARV_WORD && !strcmp(type->value->text, "extracted")) {
		struct parv_pair *curve = need(im, im->mech, "Full seek curve");

		if (!curve)
			return -1;
		if (curve->value->kind != PARV_WORD)
			return where(im, curve->value, "key '%s': expected a file name", "Full seek curve");
		return read_seek_file(im, curve->value, curve->value->text, s);
	}
	if (type->value->kind != PARV_WORD || (strcmp(type->value->text, "hpl") &&
					       strcmp(type->value->text, "hplplus10")))
		return where(im, type->value, "key 'Seek type': '%s' is not modelled (ncqsim reads "
			     "extracted, hpl and hplplus10)", type->value->kind == PARV_WORD ?
			     type->value->text : "(not a word)");
	plus10 = !strcmp(type->value->text, "hplplus10");
	if (list_numbers(im, im->mech, "HPL seek equation values", v, 6))
		return -1;
	if (plus10) {
		if (list_numbers(im, im->mech, "First ten seek times", ten, 10))
			return -1;
		for (d = 1; d <= 10 && d <= max; d++)
			if (add_seek(im, s, d, ten[d - 1], type->value->file, type->value->line))
				return -1;
		first = 11;
	} else if (v[5] > 0) {
		/* The sixth value is the single-cylinder seek; -1 means the formula's. */
		if (add_seek(im, s, 1, v[5], type->value->file, type->value->line))
			return -1;
		first = 2;
	}
	/*
	 * Sampled: every distance to 32, then steps of an eighth more, exact at
	 * the formula's boundary and at the full stroke; linear interpolation
	 * between samples of the √ part errs by under 0.5 %.
	 */
	for (d = first; d <= max;) {
		if (add_seek(im, s, d, hpl_ms(v, d), type->value->file, type->value->line))
			return -1;
		if (d == max)
			break;
		{
			uint32_t next = d < 32 ? d + 1 : d + d / 8;

			if (d < (uint32_t)v[0] - 1 && next > (uint32_t)v[0] - 1)
				next = (uint32_t)v[0] - 1;
			else if (d < (uint32_t)v[0] && next > (uint32_t)v[0])
				next = (uint32_t)v[0];
			d = next > max ? max : next;
		}
	}
	return 0;
}

/* ---- the zone table ---- */

static int zone_rows(struct importer *im, uint32_t cylinders, FILE *out)
{
	struct parv_pair *zp = need(im, im->layout, "Zones");
	unsigned i, k;

	if (!zp)
		return -1;
	if (zp->value->kind != PARV_LIST || !zp->value->nitems)
		return where(im, zp->value, "key 'Zones': expected a list of dm_layout_g1_zone blocks");
	if (zp->value->nitems > DISK_MAX_ZONES)
		return where(im, zp->value, "key 'Zones': more than %d zones (ncqsim's limit)", DISK_MAX_ZONES);
	fprintf(out, "# zone = FIRST_CYL LAST_CYL SECTORS_PER_TRACK FIRST_OFFSET TRACK_SKEW "
		"CYL_SKEW SPARES FRONT_EMPTY\n");
	for (i = 0; i < zp->value->nitems; i++) {
		struct parv_value *z = zp->value->items[i];
		static const char *const lists[] = { "slips", "defects" };
		uint64_t first, last, spt, spares, empty;
		double off, tskew, cskew;

		if (z->kind != PARV_BLOCK || strcmp(z->text, "dm_layout_g1_zone"))
			return where(im, z, "key 'Zones': expected dm_layout_g1_zone blocks");
		if (whole(im, z, "First cylinder number", 0, cylinders - 1, &first) ||
		    whole(im, z, "Last cylinder number", 0, cylinders - 1, &last) ||
		    whole(im, z, "Blocks per track", 1, 100000, &spt) ||
		    number(im, z, "Offset of first block", &off) ||
		    whole(im, z, "Empty space at zone front", 0, 1e15, &empty) ||
		    number(im, z, "Skew for track switch", &tskew) ||
		    number(im, z, "Skew for cylinder switch", &cskew) ||
		    whole(im, z, "Number of spares", 0, 4e9, &spares))
			return -1;
		if (off < 0 || tskew < 0 || cskew < 0)
			return where(im, z, "zone: expected offsets and skews of 0 or more sectors");
		/* Skews are whole sectors in every extracted drive; DiskSim rounds an angle to one. */
		fprintf(out, "zone = %llu %llu %llu %lld %lld %lld %llu %llu\n",
			(unsigned long long)first, (unsigned long long)last,
			(unsigned long long)spt, llround(off), llround(tskew), llround(cskew),
			(unsigned long long)spares, (unsigned long long)empty);
		for (k = 0; k < 2; k++) {
			struct parv_pair *lp = need(im, z, lists[k]);
			unsigned j;

			if (!lp)
				return -1;
			if (lp->value->kind != PARV_LIST)
				return where(im, lp->value, "key '%s': expected a list of sector numbers",
					     lists[k]);
			for (j = 0; j < lp->value->nitems; j++) {
				struct parv_value *it = lp->value->items[j];
				char *end;
				unsigned long long v;

				errno = 0;
				if (it->kind != PARV_WORD ||
				    (v = strtoull(it->text, &end, 10), *end || errno || v > UINT32_MAX))
					return where(im, it, "key '%s': expected a sector number",
						     lists[k]);
				fprintf(out, "%s%llu%s", j % 12 ? " " : (k ? "defects = " : "slips = "),
					v, j % 12 == 11 || j + 1 == lp->value->nitems ? "\n" : "");
			}
		}
	}
	return 0;
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

/* ---- the whole drive ---- */

static void drive_name(const char *from, char *name, size_t len)
{
	size_t i;

	for (i = 0; from[i] && i + 1 < len; i++)
		name[i] = isalnum((unsigned char)from[i]) ? (char)tolower((unsigned char)from[i]) :
			(from[i] == '-' || from[i] == '.') ? from[i] : '_';
	name[i] = '\0';
}

static int import(struct importer *im, FILE *out)
{
	struct parv_value *d;
	uint64_t surfaces, cylinders, blocks, segments, seg_blks, ra_max, fast_write, read_hits,
		write_segs, contread, by_req, ra_on_hit, partial, extra_disc;
	double watermark, write_watermark, data_prep, min_seek, extra_cmd, extra_seek;
	double rpm, settle, head_switch, bulk, bus_r = 0, bus_w = 0, ovh[8], comp_r, comp_w,
		mapping, scheme, range;
	static const char *const ovh_keys[8] = {
		"Read hit over. after read", "Read hit over. after write",
		"Read miss over. after read", "Read miss over. after write",
		"Write hit over. after read", "Write hit over. after write",
		"Write miss over. after read", "Write miss over. after write",
	};
	static const char *const ovh_names[8] = {
		"overhead_read_hit_after_read", "overhead_read_hit_after_write",
		"overhead_read_miss_after_read", "overhead_read_miss_after_write",
		"overhead_write_hit_after_read", "overhead_write_hit_after_write",
		"overhead_write_miss_after_read", "overhead_write_miss_after_write",
	};
	static const char *const spare_names[] = {
		"none", "tracks", "range", "track_sectors", "range", NULL, NULL, "disk_end", "range",
		"zone", "zone",
	};
	struct seek_rows *seeks;
	char name[DISK_NAME_MAX];
	struct parv_pair *pr;
	unsigned i;
	int rc;

	if (find_disk(im))
		return -1;
	d = im->disk;
	if (sub_block(im, d, "Model", "dm_disk", &im->model) ||
	    sub_block(im, im->model, "Layout Model", "dm_layout_g1", &im->layout) ||
	    sub_block(im, im->model, "Mechanical Model", "dm_mech_g1", &im->mech))
		return -1;
	if (whole(im, im->model, "Number of data surfaces", 1, DISK_MAX_HEADS, &surfaces) ||
	    whole(im, im->model, "Number of cylinders", 2, 1e8, &cylinders) ||
	    whole(im, im->model, "Block count", 1, 1e15, &blocks) ||
	    number(im, im->layout, "LBN-to-PBN mapping scheme", &mapping) ||
	    number(im, im->layout, "Sparing scheme used", &scheme) ||
	    number(im, im->layout, "Rangesize for sparing", &range) ||
	    number(im, im->mech, "Rotation speed (in rpms)", &rpm) ||
	    number(im, im->mech, "Head switch time", &head_switch) ||
	    number(im, im->mech, "Add. write settling delay", &settle) ||
	    number(im, d, "Bulk sector transfer time", &bulk) ||
	    whole(im, d, "Number of buffer segments", 1, 256, &segments) ||
	    whole(im, d, "Segment size (in blks)", 1, 1 << 24, &seg_blks) ||
	    whole(im, d, "Maximum read-ahead (blks)", 0, 1 << 24, &ra_max) ||
	    whole(im, d, "Fast write level", 0, 2, &fast_write) ||
	    whole(im, d, "Allow read hits on write data", 0, 1, &read_hits) ||
	    whole(im, d, "Maximum number of write segments", 0, 256, &write_segs) ||
	    whole(im, d, "Buffer continuous read", 0, 4, &contread) ||
	    whole(im, d, "Read-ahead on idle hit", 0, 1, &ra_on_hit) ||
	    whole(im, d, "Immed transfer partial hit", 0, 1, &partial) ||
	    whole(im, d, "Extra write disconnect", 0, 1, &extra_disc) ||
	    number(im, d, "Extradisc command overhead", &extra_cmd) ||
	    number(im, d, "Extradisc seek delta", &extra_seek) ||
	    number(im, d, "High (read) water mark", &watermark) ||
	    number(im, d, "Low (write) water mark", &write_watermark) ||
	    whole(im, d, "Set watermark by reqsize", 0, 1, &by_req) ||
	    number(im, d, "Data preparation overhead", &data_prep) ||
	    number(im, d, "Minimum seek delay", &min_seek) ||
	    number(im, d, "Read completion overhead", &comp_r) ||
	    number(im, d, "Write completion overhead", &comp_w))
		return -1;
	for (i = 0; i < 8; i++)
		if (number(im, d, ovh_keys[i], &ovh[i]))
			return -1;
	if (mapping != 0)
		return where(im, parv_get(im->layout, "LBN-to-PBN mapping scheme")->value,
			     "key '%s': only scheme 0 (every surface of a cylinder in order) is "
			     "modelled", "LBN-to-PBN mapping scheme");
	if (scheme != floor(scheme) || scheme < 0 || scheme > 10 || !spare_names[(int)scheme])
		return where(im, parv_get(im->layout, "Sparing scheme used")->value,
			     "key '%s': schemes 0-4 and 7-10 are modelled (5 and 6 put spares at "
			     "the front of a cylinder)", "Sparing scheme used");
	if (range < 1 || range != floor(range))
		return where(im, parv_get(im->layout, "Rangesize for sparing")->value,
			     "key '%s': expected a whole number of cylinders, 1 or more",
			     "Rangesize for sparing");
	if (write_watermark < 0 || write_watermark > 1)
		return where(im, parv_get(d, "Low (write) water mark")->value,
			     "key '%s': expected a fraction 0..1", "Low (write) water mark");
	if (watermark < 0 || watermark > 1)
		return where(im, parv_get(d, "High (read) water mark")->value,
			     "key '%s': expected a fraction 0..1", "High (read) water mark");
	if (rpm < 3600 || rpm > 20000)
		return where(im, parv_get(im->mech, "Rotation speed (in rpms)")->value,
			     "key '%s': expected 3600..20000 rpm", "Rotation speed (in rpms)");
	/* What DiskSim's defaults make a no-op is read here, so the notes list only what matters. */
	pr = parv_get(im->mech, "Access time type");
	if (pr && (pr->value->kind != PARV_WORD || strcmp(pr->value->text, "trackSwitchPlusRotation")))
		pr->used = false;
	pr = parv_get(im->mech, "Percent error in rpms");
	if (pr && (pr->value->kind != PARV_WORD || strtod(pr->value->text, NULL) != 0))
		pr->used = false;
	pr = parv_get(d, "Enable caching in buffer");
	if (pr && (pr->value->kind != PARV_WORD || strcmp(pr->value->text, "1")))
		pr->used = false;
	if (im->bus) {
		if (number(im, im->bus, "Read block transfer time", &bus_r) ||
		    number(im, im->bus, "Write block transfer time", &bus_w))
			return -1;
	}

	drive_name(d->name, name, sizeof(name));
	fprintf(out, "# %s, imported by 'ncqsim import disksim' from %s\n", d->name, im->parv_path);
	fprintf(out, "# (DiskSim 4.0 parameters; see docs/DRIVES.md for what maps where).\n");
	fprintf(out, "form = measured\n");
	put(out, "name", NULL, "%s", name);
	put(out, "description", NULL, "%.60s (DiskSim %s)", d->name, "import");
	put(out, "model", "the DiskSim disk's name", "%.40s", d->name);
	put(out, "serial", "invented: DiskSim gives none", "DISKSIM");
	put(out, "firmware", "invented", "DS40");
	put(out, "sectors", "DiskSim: Block count", "%llu", (unsigned long long)blocks);
	put(out, "logical_sector_size", "DiskSim counts 512-byte blocks", "512");
	put(out, "physical_sector_size", NULL, "512");
	put(out, "ncq", "a SCSI drive, one command at a time", "0");
	put(out, "queue_depth", NULL, "1");
	put(out, "ncq_prio", NULL, "0");
	put(out, "ncq_prio_log", NULL, "0");
	put(out, "id_data_log", NULL, "0");
	put(out, "sata_gen", "invented: the drive is SCSI", "1");
	put(out, "rpm", "DiskSim: Rotation speed (in rpms)", "%ld", lround(rpm));
	put(out, "heads", "DiskSim: Number of data surfaces", "%llu", (unsigned long long)surfaces);
	put_time(out, "head_switch", head_switch, "Head switch time");
	put(out, "rpo_guard", "DiskSim has none", "0");
	put(out, "fw_sched", NULL, "fifo");
	put(out, "prio_policy", NULL, "ignore");
	put(out, "prio_soft_margin", NULL, "10ms");
	put(out, "age_limit", NULL, "2s");
	put(out, "cdl", "no Command Duration Limits: a 1990s SCSI drive", "0");
	put(out, "cdl_t2a", NULL, "none");
	put(out, "cdl_t2b", NULL, "none");
	put(out, "cache_size", "segments x segment size", "%llu",
	    (unsigned long long)(segments * seg_blks * 512));
	put(out, "cache_segments", "DiskSim: Number of buffer segments", "%llu",
	    (unsigned long long)segments);
	put(out, "read_ahead", "DiskSim: Buffer continuous read > 0", "%d", contread > 0);
	put(out, "read_ahead_max", "DiskSim: Maximum read-ahead (blks) (0: a segment), within a segment",
	    "%llu", (unsigned long long)((ra_max && ra_max < seg_blks ? ra_max : seg_blks) * 512));
	put(out, "write_cache", "DiskSim: Fast write level > 0", "%d", fast_write > 0);
	put(out, "write_buffer", "write segments x segment size", "%llu",
	    (unsigned long long)((write_segs ? write_segs : 1) * seg_blks * 512));
	put(out, "cylinders", "DiskSim: Number of cylinders", "%llu", (unsigned long long)cylinders);
	put(out, "sparing", "DiskSim: Sparing scheme used", "%s", spare_names[(int)scheme]);
	put(out, "sparing_range", "DiskSim: Rangesize for sparing (per cylinder: 1)", "%ld",
	    scheme == 2 || scheme == 4 ? 1L : lround(range));
	put_time(out, "write_settle", settle, "Add. write settling delay");
	put_time(out, "bus_read_sector", bulk > bus_r ? bulk : bus_r,
		 "the slower of Bulk sector transfer time and the bus's Read block transfer time");
	put_time(out, "bus_write_sector", bulk > bus_w ? bulk : bus_w,
		 "the slower of Bulk sector transfer time and the bus's Write block transfer time");
	for (i = 0; i < 8; i++) {
		char src[96];

		/* DiskSim adds the data preparation overhead to every read's command overhead. */
		snprintf(src, sizeof(src), "%s%s", ovh_keys[i],
			 i < 4 && data_prep != 0 ? " + Data preparation overhead" : "");
		put_time(out, ovh_names[i], ovh[i] + (i < 4 ? data_prep : 0), src);
	}
	put_time(out, "min_seek", min_seek, "Minimum seek delay");
	put_time(out, "completion_read", comp_r, "Read completion overhead");
	put_time(out, "completion_write", comp_w, "Write completion overhead");
	put(out, "segment_size", "DiskSim: Segment size (in blks)", "%llu",
	    (unsigned long long)(seg_blks * 512));
	put(out, "read_hits_on_writes", "DiskSim: Allow read hits on write data", "%llu",
	    (unsigned long long)read_hits);
	{
		static const char *const rules[] = { "segment", "track", "cylinder", "segment",
						     "sequential" };

		put(out, "read_ahead_rule", "DiskSim: Buffer continuous read (1 track, 2 cylinder, "
		    "3 segment, 4 sequential)", "%s", rules[contread]);
	}
	put(out, "read_ahead_on_hit", "DiskSim: Read-ahead on idle hit", "%llu",
	    (unsigned long long)ra_on_hit);
	put(out, "partial_hits", "DiskSim: Immed transfer partial hit", "%llu",
	    (unsigned long long)partial);
	put_time(out, "overhead_write_after_random_write", extra_disc ? extra_cmd + extra_seek : 0,
		 "Extra write disconnect ? Extradisc command overhead + Extradisc seek delta : 0");
	put(out, "read_watermark", "DiskSim: High (read) water mark", "%g", watermark);
	put(out, "write_watermark", "DiskSim: Low (write) water mark", "%g", write_watermark);
	put(out, "watermark_by_request", "DiskSim: Set watermark by reqsize", "%llu",
	    (unsigned long long)by_req);
	if (zone_rows(im, (uint32_t)cylinders, out))
		return -1;
	seeks = calloc(1, sizeof(*seeks));
	if (!seeks)
		return err_set(im->e, "out of memory");
	rc = seek_table(im, (uint32_t)cylinders, seeks);
	if (!rc) {
		fprintf(out, "# seek = DISTANCE_CYLINDERS TIME\n");
		for (i = 0; i < seeks->n; i++) {
			long long ns = llround(seeks->ms[i] * 1e6);

			fprintf(out, "seek = %u %lldns\n", seeks->d[i], ns);
		}
	}
	free(seeks);
	return rc;
}

int disk_import_disksim(const char *parv_path, const char *text, FILE *out, FILE *notes,
			struct err *e)
{
	struct importer im = { .parv_path = parv_path, .e = e };
	struct seen_keys *seen;
	char *buf = NULL;
	size_t len = 0;
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
	rc = import(&im, mem);
	fclose(mem);
	if (!rc) {
		seen = calloc(1, sizeof(*seen));
		if (seen) {
			note_unused(im.disk, im.disk->text, seen, notes, 0);
			if (im.bus)
				note_unused(im.bus, im.bus->text, seen, notes, 0);
			free(seen);
		}
		for (i = 0; notes && i < parv_note_count(im.p); i++)
			fprintf(notes, "ncqsim: note: %s\n", parv_note(im.p, i));
		for (i = 0; notes && i < parv_block_count(im.p); i++) {
			struct parv_value *b = parv_block(im.p, i);

			if (b != im.disk && b != im.bus && strcmp(b->text, "dm_disk"))
				fprintf(notes, "ncqsim: note: %s:%d: block %s %s is not part of the "
					"drive; its %u keys are not read\n", b->file, b->line, b->text,
					b->name, b->npairs);
		}
		fwrite(buf, 1, len, out);
	}
	free(buf);
	parv_free(im.p);
	return rc;
}
