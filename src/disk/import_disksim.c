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
	/* Between the disk and the host: buses and controllers, the disk's bus first. */
	struct parv_value *path[8];
	unsigned npath;
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

static int import(struct importer *im, FILE *out)
{
	struct parv_value *d;
	struct disk_keys k;
	uint64_t surfaces, cylinders, blocks;
	double rpm, settle, head_switch, mapping, scheme, range;
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
	    disk_keys(im, &k))
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
	put(out, "cylinders", "DiskSim: Number of cylinders", "%llu", (unsigned long long)cylinders);
	put(out, "sparing", "DiskSim: Sparing scheme used", "%s", spare_names[(int)scheme]);
	put(out, "sparing_range", "DiskSim: Rangesize for sparing (per cylinder: 1)", "%ld",
	    scheme == 2 || scheme == 4 ? 1L : lround(range));
	put_time(out, "write_settle", settle, "Add. write settling delay");
	put_disk_keys(&k, out);
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
			for (i = 0; i < im.npath; i++)
				note_unused(im.path[i], im.path[i]->text, seen, notes, 0);
			free(seen);
		}
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
	parv_free(im.p);
	return rc;
}
