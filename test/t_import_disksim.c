/*
 * `ncqsim import disksim` on every form of DiskSim 4.0's diskmodel
 * (test/data/disksim-forms, README there): each .parv imported, the drive
 * file it writes loaded, and checked field by field — the zone rows, where
 * chosen LBNs land around spares and slips, worked out by hand from
 * DiskSim's definitions, and every LBN of the small zones against a plain
 * reference that lays the LBNs out sector by sector; track angles where
 * slips turn them and where the heads descend; seek times at chosen
 * distances for every seek type; the notes. Then broken forms, each
 * refused with the file and line of what is wrong.
 */
#include "testlib.h"
#include "disk/import_disksim.h"
#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#define MS 1000000LL

static char forms[512], tmp[64];

struct imported {
	char *drive, *notes;
	struct disk_model *m;
	struct disk_layout *l;
	struct disk_mech *mc;
	int rc;
	char msg[1024];
};

static void drop(struct imported *im)
{
	free(im->drive);
	free(im->notes);
	free(im->m);
	free(im->l);
	free(im->mc);
	memset(im, 0, sizeof(*im));
}

/* Import dir/name and load the drive file written. */
static int import(const char *dir, const char *name, struct imported *im)
{
	char path[700];
	size_t dl = 0, nl = 0;
	FILE *d, *n;
	struct err e = { "" };

	memset(im, 0, sizeof(*im));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	d = open_memstream(&im->drive, &dl);
	n = open_memstream(&im->notes, &nl);
	im->rc = disk_import_disksim(path, NULL, d, n, &e);
	fclose(d);
	fclose(n);
	snprintf(im->msg, sizeof(im->msg), "%s", e.msg);
	if (im->rc)
		return -1;
	im->m = malloc(sizeof(*im->m));
	im->l = malloc(sizeof(*im->l));
	im->mc = malloc(sizeof(*im->mc));
	if (disk_model_parse(im->drive, name, im->m, &e) || disk_layout_build(im->l, im->m, &e) ||
	    disk_mech_init(im->mc, im->l, im->m, &e)) {
		snprintf(im->msg, sizeof(im->msg), "%s", e.msg);
		return -1;
	}
	return 0;
}

/*
 * The drive written out by the model (`ncqsim drives FILE`) and read back:
 * the same rows, the same LBNs, the same seeks.
 */
static void check_round_trip(const char *name, const struct imported *im)
{
	struct disk_model *back = malloc(sizeof(*back));
	struct disk_layout *l = malloc(sizeof(*l));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct err e = { "" };
	uint64_t lbn;
	uint32_t d;

	disk_model_write(im->m, f);
	fclose(f);
	CHECK_MSG(disk_model_parse(text, name, back, &e) == 0 && disk_layout_build(l, back, &e) == 0,
		  "%s written back: %s", name, e.msg);
	if (!e.msg[0]) {
		CHECK(back->geo.nmarks == im->m->geo.nmarks &&
		      !memcmp(back->geo.marks, im->m->geo.marks, back->geo.nmarks * sizeof(uint32_t)));
		CHECK_EQ_INT(back->geo.seek_formula, im->m->geo.seek_formula);
		CHECK_EQ_INT(back->track_order, im->m->track_order);
		for (lbn = 0; lbn < 300; lbn++)
			CHECK_EQ_U64(disk_layout_map(l, lbn), disk_layout_map(im->l, lbn));
		{
			struct disk_mech *mc = malloc(sizeof(*mc));

			CHECK(disk_mech_init(mc, l, back, &e) == 0);
			for (d = 1; d < 1110; d += 53)
				CHECK_EQ_INT(disk_seek_ns(&mc->write, d), disk_seek_ns(&im->mc->write, d));
			free(mc);
		}
	}
	free(text);
	free(back);
	free(l);
}

/*
 * The reference: zone z's LBN slots as zone-relative sectors, laid out one
 * sector after another by the definitions (model.h, layout.h) rather than
 * by layout.c's arithmetic. Returns how many.
 */
static uint64_t reference(const struct disk_model *m, unsigned zi, uint64_t *seq, uint64_t max)
{
	const struct disk_zone_spec *s = &m->geo.zone[zi];
	const uint32_t *sl = &m->geo.marks[s->slip0];
	uint64_t spt = s->spt, cyl = spt * m->heads, cyls = s->last_cyl - s->first_cyl + 1;
	uint64_t all = cyl * cyls, q, n = 0, S = s->spares;
	unsigned k;
	bool shift = false;

#define SLIPPED(x) ({ bool _f = false; for (k = 0; k < s->nslips; k++) _f |= sl[k] == (x); _f; })
	switch (m->sparing) {
	case DISK_SPARE_TRACKS: {
		uint64_t t, tracks = all / spt, left = tracks - S;

		for (t = 0; t < tracks && left; t++)
			if (!SLIPPED(t)) {
				for (q = t * spt; q < (t + 1) * spt && n < max; q++)
					seq[n++] = q;
				left--;
			}
		return n;
	}
	case DISK_SPARE_NONE:
		for (q = 0; q < all && n < max; q++)
			seq[n++] = q;
		return n;
	case DISK_SPARE_TRACK_SECTORS:
	case DISK_SPARE_CYLINDER:
	case DISK_SPARE_RANGE:
	case DISK_SPARE_ZONE: {
		/* Each unit: its first `unit - spares` sectors that are not slipped. */
		uint64_t unit = m->sparing == DISK_SPARE_TRACK_SECTORS ? spt :
			m->sparing == DISK_SPARE_CYLINDER ? cyl :
			m->sparing == DISK_SPARE_RANGE ? cyl * m->sparing_range : all, u;

		for (u = 0; u * unit < all; u++) {
			uint64_t end = (u + 1) * unit <= all ? (u + 1) * unit : all;
			uint64_t want = (u + 1) * unit <= all ? unit - S : end - u * unit;

			for (q = u * unit; q < end && want && n < max; q++)
				if (!SLIPPED(q)) {
					seq[n++] = q;
					want--;
				}
		}
		return n;
	}
	case DISK_SPARE_CYLINDER_FRONT:
		for (q = 0; q < all && n < max; q++)
			if (q % cyl >= S)
				seq[n++] = q;
		return n;
	default:
		shift = true;
		break;
	}
	/*
	 * The shifting schemes: the data sectors in order, a slipped one skipped,
	 * and a slip among the spares costing the next data sector.
	 */
	{
		uint64_t pending = 0, cap = m->sparing == DISK_SPARE_ZONE_SHIFT ? all - S : all;

		(void)shift;
		for (q = 0; q < all && n < max; q++) {
			bool data;

			if (m->sparing == DISK_SPARE_CYLINDER_SHIFT)
				data = q % cyl < cyl - S;
			else if (m->sparing == DISK_SPARE_CYLINDER_FRONT_SHIFT)
				data = q % cyl >= S;
			else
				data = q < cap;
			if (!data) {
				pending += SLIPPED(q);
				continue;
			}
			if (SLIPPED(q))
				continue;
			if (pending) {
				pending--;
				continue;
			}
			seq[n++] = q;
		}
		return n;
	}
#undef SLIPPED
}

/* Every LBN of zones 0 and 1, and the first and last of zone 2, as the reference has them. */
static void check_map(const char *name, const struct imported *im)
{
	static uint64_t seq[2000];
	unsigned zi;

	for (zi = 0; zi < 3; zi++) {
		const struct disk_zone *z = &im->l->zone[zi];
		uint64_t n = reference(im->m, zi, seq, zi < 2 ? 2000 : 1000), i, bad = 0;

		n = n > z->front_empty ? n - z->front_empty : 0;
		if (zi < 2)
			CHECK_MSG(n == z->nlbn, "%s zone %u: the reference has %llu LBNs, the layout %llu",
				  name, zi, (unsigned long long)n, (unsigned long long)z->nlbn);
		for (i = 0; i < n && i < z->nlbn; i++)
			if (disk_layout_map(im->l, z->first_lbn + i) - z->first_ps !=
			    seq[i + z->front_empty] && bad++ < 3)
				test_fail(__FILE__, __LINE__, "%s zone %u: LBN %llu is at %llu, the "
					  "reference says %llu", name, zi,
					  (unsigned long long)(z->first_lbn + i),
					  (unsigned long long)(disk_layout_map(im->l, z->first_lbn + i) -
							       z->first_ps),
					  (unsigned long long)seq[i + z->front_empty]);
		test_checks++;
	}
	CHECK_EQ_U64(im->l->zone[2].first_lbn + im->l->zone[2].nlbn, (uint64_t)im->m->sectors);
}

/* Where LBN lbn is: cylinder, head, sector, and the sector's angle in sectors from the index. */
static void check_lbn(const char *name, const struct imported *im, uint64_t lbn, uint32_t cyl,
		      uint32_t head, uint32_t sector, int angle)
{
	struct disk_chs c;
	const struct disk_zone *z;

	disk_layout_locate(im->l, disk_layout_map(im->l, lbn), &c);
	z = &im->l->zone[c.zone];
	CHECK_MSG(c.cyl == cyl && c.head == head && c.sector == sector,
		  "%s: LBN %llu at cylinder %u head %u sector %u, expected %u %u %u", name,
		  (unsigned long long)lbn, c.cyl, c.head, c.sector, cyl, head, sector);
	if (angle >= 0)
		CHECK_MSG(c.angle == (int64_t)angle * im->l->rev_ns / z->spt,
			  "%s: LBN %llu starts %lld ns after the index, expected sector %d's %lld",
			  name, (unsigned long long)lbn, (long long)c.angle, angle,
			  (long long)((int64_t)angle * im->l->rev_ns / z->spt));
}

static void expect_note(const char *name, const struct imported *im, const char *want)
{
	CHECK_MSG(im->notes && strstr(im->notes, want), "%s: no note '%s' in:\n%s", name, want,
		  im->notes ? im->notes : "");
}

static void zone_row(const char *name, const struct imported *im, unsigned zi, uint32_t first,
		     uint32_t last, uint32_t spt, uint32_t off, uint32_t ts, uint32_t cs,
		     uint32_t spares, uint64_t empty)
{
	const struct disk_zone_spec *z = &im->m->geo.zone[zi];

	CHECK_MSG(z->first_cyl == first && z->last_cyl == last && z->spt == spt &&
		  z->first_offset == off && z->track_skew == ts && z->cyl_skew == cs &&
		  z->spares == spares && z->front_empty == empty,
		  "%s zone %u: %u %u %u %u %u %u %u %llu", name, zi, z->first_cyl, z->last_cyl, z->spt,
		  z->first_offset, z->track_skew, z->cyl_skew, z->spares,
		  (unsigned long long)z->front_empty);
}

/* The layout forms: zone rows, capacity, chosen LBNs, every LBN against the reference. */
static void layouts(void)
{
	struct imported im;
	static const struct { const char *parv, *sparing; uint64_t lbns; } all[] = {
		{ "sparing0.parv", "none", 1100142 }, { "sparing1.parv", "tracks", 1100116 },
		{ "sparing2.parv", "cylinder", 1100132 }, { "sparing3.parv", "track_sectors", 1100128 },
		{ "sparing4.parv", "cylinder_shift", 1100130 },
		{ "sparing5.parv", "cylinder_front", 1100132 },
		{ "sparing6.parv", "cylinder_front_shift", 1100130 },
		{ "sparing7.parv", "disk_end", 1100142 }, { "sparing8.parv", "range", 1100139 },
		{ "sparing9.parv", "zone", 1100139 }, { "sparing10.parv", "zone_shift", 1100137 },
		{ "mapping1.parv", "none", 1100144 }, { "mapping2.parv", "none", 1100144 },
		{ "skew-revolutions.parv", "none", 1100142 },
		{ "skew-fraction.parv", "none", 1100142 },
	};
	unsigned i;
	char want[64];

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const char *n = all[i].parv;

		CHECK_MSG(import(forms, n, &im) == 0, "%s: %s", n, im.msg);
		if (im.rc || !im.m) {
			drop(&im);
			continue;
		}
		snprintf(want, sizeof(want), "\nsparing = %s ", all[i].sparing);
		CHECK_MSG(strstr(im.drive, want) != NULL, "%s: no '%s'", n, want + 1);
		CHECK_EQ_U64((uint64_t)im.m->sectors, all[i].lbns);
		CHECK_EQ_INT(im.m->geo.nzones, 3);
		CHECK_EQ_INT(im.m->cylinders, 1110);
		zone_row(n, &im, 1, 5, 8, 8, 0, 2, 4, im.m->geo.zone[1].spares, 0);
		zone_row(n, &im, 2, 10, 1109, 500, 0, 50, 80, 0, 0);
		check_map(n, &im);
		check_round_trip(n, &im);
		drop(&im);
	}

	/* Scheme 0: the slip at 5 is ignored; two empty slots at the front; Block count 1100150. */
	CHECK(import(forms, "sparing0.parv", &im) == 0);
	zone_row("s0", &im, 0, 0, 3, 10, 1, 3, 5, 0, 2);
	CHECK_EQ_INT(im.m->geo.zone[0].nslips, 0);
	check_lbn("s0", &im, 0, 0, 0, 2, 3);		/* slot 2; sector 2 is 1 + 2 from the index */
	check_lbn("s0", &im, 8, 0, 1, 0, 4);		/* head 1: one track skew on, 1 + 3 */
	check_lbn("s0", &im, 18, 1, 0, 0, 9);		/* cylinder 1: 1 + 3 + 5 */
	check_lbn("s0", &im, 78, 5, 0, 0, 0);		/* zone 1 after the empty cylinder 4 */
	expect_note("s0", &im, "sparing scheme 0 has no spares, so its slips (1) and defects (0) "
		    "are ignored");
	expect_note("s0", &im, "'Block count' = 1100150, but the zone table holds 1100142 LBNs");
	drop(&im);

	/* Scheme 1: track 1 slipped, so LBNs 10.. start on track 2; the defect pair kept. */
	CHECK(import(forms, "sparing1.parv", &im) == 0);
	CHECK(strstr(im.drive, "\nslip_tracks = 1\n") && strstr(im.drive, "\ndefect_tracks = 3 7\n"));
	check_lbn("s1", &im, 9, 0, 0, 9, -1);
	check_lbn("s1", &im, 10, 1, 0, 0, 9);		/* track 2 = cylinder 1, head 0 */
	check_lbn("s1", &im, 59, 3, 0, 9, -1);		/* the last: track 6; tracks 7 (and 1) spare */
	check_lbn("s1", &im, 60, 5, 0, 0, -1);
	expect_note("s1", &im, "1 defects remapped to spares are timed where they were");
	drop(&im);

	/*
	 * Scheme 2: 18 LBNs a cylinder; the slip at 3 moves LBNs 3..17 one on,
	 * LBN 17 into cylinder 0's first spare; cylinder 1 starts at 20, its
	 * slip at 25 moving LBN 23 on; each cylinder's tracks one sector
	 * further for every slip before it.
	 */
	CHECK(import(forms, "sparing2.parv", &im) == 0);
	check_lbn("s2", &im, 2, 0, 0, 2, 3);
	check_lbn("s2", &im, 3, 0, 0, 4, 5);
	check_lbn("s2", &im, 17, 0, 1, 8, (1 + 3 + 8) % 10);
	check_lbn("s2", &im, 18, 1, 0, 0, (1 + 8 + 1) % 10);
	check_lbn("s2", &im, 23, 1, 0, 6, (1 + 8 + 1 + 6) % 10);
	check_lbn("s2", &im, 36, 2, 0, 0, (1 + 16 + 2) % 10);
	drop(&im);

	/* Scheme 3: 9 LBNs a track; track 1's slip at 12 (its third sector); track 2 turned one on. */
	CHECK(import(forms, "sparing3.parv", &im) == 0);
	check_lbn("s3", &im, 9, 0, 1, 0, 4);
	check_lbn("s3", &im, 10, 0, 1, 1, 5);
	check_lbn("s3", &im, 11, 0, 1, 3, 7);
	check_lbn("s3", &im, 17, 0, 1, 9, 3);		/* in track 1's spare */
	check_lbn("s3", &im, 18, 1, 0, 0, (1 + 8 + 1) % 10);
	drop(&im);

	/*
	 * Scheme 4: the slip at 3 and the one in cylinder 0's spares (19) each
	 * cost one LBN: LBN 17 goes to cylinder 1's second data sector, its
	 * first left empty (as DiskSim's g1_ltop_sectpercylspare lays it).
	 */
	CHECK(import(forms, "sparing4.parv", &im) == 0);
	check_lbn("s4", &im, 3, 0, 0, 4, -1);
	check_lbn("s4", &im, 16, 0, 1, 7, -1);
	check_lbn("s4", &im, 17, 1, 0, 1, (1 + 8 + 2 + 1) % 10);
	check_lbn("s4", &im, 69, 3, 1, 7, -1);		/* 72 data sectors, 2 slips: the last at 71 */
	drop(&im);

	/* Scheme 5: two spares at the front of every cylinder. */
	CHECK(import(forms, "sparing5.parv", &im) == 0);
	check_lbn("s5", &im, 0, 0, 0, 2, 3);
	check_lbn("s5", &im, 18, 1, 0, 2, -1);
	check_lbn("s5", &im, 72, 5, 0, 1, -1);		/* zone 1: one front spare */
	drop(&im);

	/* Scheme 6: the slip among cylinder 0's front spares costs its first data sector. */
	CHECK(import(forms, "sparing6.parv", &im) == 0);
	check_lbn("s6", &im, 0, 0, 0, 3, -1);
	check_lbn("s6", &im, 16, 0, 1, 9, -1);
	check_lbn("s6", &im, 17, 1, 0, 3, -1);		/* cylinder 1's sector 2 is slipped */
	drop(&im);

	/* Scheme 7: no spares; each slip shifts the rest of the zone. */
	CHECK(import(forms, "sparing7.parv", &im) == 0);
	check_lbn("s7", &im, 4, 0, 0, 5, -1);
	check_lbn("s7", &im, 28, 1, 0, 9, -1);
	check_lbn("s7", &im, 29, 1, 1, 1, -1);
	check_lbn("s7", &im, 77, 3, 1, 9, -1);
	check_lbn("s7", &im, 78, 5, 0, 0, -1);
	drop(&im);

	/*
	 * Scheme 8, ranges of 3 cylinders with 3 spares: LBNs 0..56 in cylinders
	 * 0-2 (the slip at 10 moving 10..56 on), 57.. in cylinder 3, which has
	 * no spares; zone 1: 46 + 16.
	 */
	CHECK(import(forms, "sparing8.parv", &im) == 0);
	check_lbn("s8", &im, 9, 0, 0, 9, -1);
	check_lbn("s8", &im, 10, 0, 1, 1, -1);
	check_lbn("s8", &im, 56, 2, 1, 7, -1);
	check_lbn("s8", &im, 57, 3, 0, 0, -1);
	check_lbn("s8", &im, 76, 3, 1, 9, -1);
	check_lbn("s8", &im, 77 + 46, 8, 0, 0, -1);
	drop(&im);

	/* Schemes 9 and 10: the same places; 10's slips cost the zone two LBNs. */
	CHECK(import(forms, "sparing9.parv", &im) == 0);
	check_lbn("s9", &im, 7, 0, 0, 8, -1);
	check_lbn("s9", &im, 49, 2, 1, 1, -1);
	check_lbn("s9", &im, 75, 3, 1, 7, -1);
	check_lbn("s9", &im, 76, 5, 0, 0, -1);
	drop(&im);
	CHECK(import(forms, "sparing10.parv", &im) == 0);
	check_lbn("s10", &im, 49, 2, 1, 1, -1);
	check_lbn("s10", &im, 73, 3, 1, 5, -1);
	check_lbn("s10", &im, 74, 5, 0, 0, -1);
	drop(&im);

	/*
	 * Mapping 1: heads descending on the zone's odd cylinders (1, 3; 6, 8);
	 * mapping 2: on odd-numbered ones (1, 3; 5, 7). A track's skew counts
	 * the switches in LBN order, so cylinder 1's first track, head 1, is
	 * one cylinder skew past cylinder 0's last.
	 */
	CHECK(import(forms, "mapping1.parv", &im) == 0);
	CHECK(strstr(im.drive, "\ntrack_order = alternate_zone ") != NULL);
	check_lbn("m1", &im, 20, 1, 1, 0, (1 + 8) % 10);
	check_lbn("m1", &im, 30, 1, 0, 0, (1 + 8 + 3) % 10);
	check_lbn("m1", &im, 80, 5, 0, 0, 0);
	check_lbn("m1", &im, 96, 6, 1, 0, 2 + 4);
	{
		/* An access across the switch from cylinder 0 to 1 stays on head 1. */
		struct disk_head h = { 0, 1, false };
		struct disk_chs c;
		struct disk_access acc;

		disk_layout_locate(im.l, disk_layout_map(im.l, 15), &c);
		disk_mech_access_at(im.mc, &h, 0, &c, 10, false, 0, &acc);
		CHECK_EQ_INT(h.cyl, 1);
		CHECK_EQ_INT(h.head, 1);
		CHECK_EQ_INT(acc.transfer, 15 * MS);	/* 5 sectors, the 5-sector cylinder skew, 5 */
	}
	drop(&im);
	CHECK(import(forms, "mapping2.parv", &im) == 0);
	CHECK(strstr(im.drive, "\ntrack_order = alternate ") != NULL);
	check_lbn("m2", &im, 20, 1, 1, 0, -1);
	check_lbn("m2", &im, 80, 5, 1, 0, 0);
	check_lbn("m2", &im, 96, 6, 0, 0, 2 + 4);
	drop(&im);

	/* Skews in revolutions land on the same sectors; a fraction of a sector is truncated. */
	CHECK(import(forms, "skew-revolutions.parv", &im) == 0);
	zone_row("rev", &im, 0, 0, 3, 10, 1, 3, 5, 0, 2);
	zone_row("rev", &im, 1, 5, 8, 8, 0, 2, 4, 0, 0);
	drop(&im);
	CHECK(import(forms, "skew-fraction.parv", &im) == 0);
	zone_row("frac", &im, 0, 0, 3, 10, 1, 3, 5, 0, 2);
	expect_note("frac", &im, "layout-frac.layout:14: 'Skew for track switch' = 3.7 sectors is "
		    "taken as 3, as DiskSim truncates it");
	drop(&im);
}

/* The seek types: the time at chosen distances, reads and writes (+0.5 ms settle). */
static void seeks(void)
{
	struct imported im;
	struct disk_head h = { 20, 0, false };
	struct disk_chs c;
	struct disk_access acc;
	double n = 1110, b, cc;
	unsigned d;

#define SEEK_R(dist) disk_seek_ns(&im.mc->read, dist)
#define SEEK_W(dist) disk_seek_ns(&im.mc->write, dist)
	CHECK(import(forms, "sparing0.parv", &im) == 0);
	/* forms.seek: 1 -> 1.0, 4 -> 2.5, 9 -> 4.0 ms; linear between, the last slope past. */
	CHECK_EQ_INT(SEEK_R(1), 1 * MS);
	CHECK_EQ_INT(SEEK_R(2), 1500000);
	CHECK_EQ_INT(SEEK_R(9), 4 * MS);
	CHECK_EQ_INT(SEEK_R(14), 5500000);
	CHECK_EQ_INT(SEEK_W(4), 3 * MS);
	drop(&im);

	CHECK(import(forms, "seek-hpl.parv", &im) == 0);
	CHECK(strstr(im.drive, "\nseek = 1 800000ns\nseek_formula = hpl 4 1000000ns 500000ns 1500000ns 250000ns\n") != NULL);
	CHECK_EQ_INT(SEEK_R(1), 800000);
	CHECK_EQ_INT(SEEK_R(2), (int64_t)(1e6 + 5e5 * sqrt(2)));
	CHECK_EQ_INT(SEEK_R(3), (int64_t)(1e6 + 5e5 * sqrt(3)));
	CHECK_EQ_INT(SEEK_R(4), 2500000);
	CHECK_EQ_INT(SEEK_R(1109), 1500000 + 250000 * 1109);
	CHECK_EQ_INT(SEEK_W(2), (int64_t)(1.5e6 + 5e5 * sqrt(2)));
	drop(&im);

	CHECK(import(forms, "seek-hpl-none.parv", &im) == 0);
	CHECK_EQ_INT(SEEK_R(1), 1500000);		/* V6 = -1: 1.0 + 0.5 * sqrt(1) */
	CHECK_EQ_INT(SEEK_R(5), 2750000);
	drop(&im);

	CHECK(import(forms, "seek-hplplus10.parv", &im) == 0);
	check_round_trip("hplplus10", &im);
	CHECK_EQ_INT(SEEK_R(1), 700000);
	CHECK_EQ_INT(SEEK_R(7), 1900000);
	CHECK_EQ_INT(SEEK_R(10), 2500000);
	CHECK_EQ_INT(SEEK_R(11), (int64_t)(1e6 + 5e5 * sqrt(11)));
	CHECK_EQ_INT(SEEK_R(29), (int64_t)(1e6 + 5e5 * sqrt(29)));
	CHECK_EQ_INT(SEEK_R(30), 9 * MS);
	drop(&im);

	/* Three-point line: 1 -> 1, n/3 = 370 -> 1 + 369/370 * 2; past it 3 + (3d/2n - 0.5) * 2 ms. */
	CHECK(import(forms, "seek-linear.parv", &im) == 0);
	CHECK_EQ_INT(SEEK_R(1), 1 * MS);
	CHECK(llabs(SEEK_R(100) - (int64_t)((1 + 99 / (n / 3) * 2) * 1e6)) <= 1);
	CHECK(llabs(SEEK_R(370) - (int64_t)((1 + 369 / (n / 3) * 2) * 1e6)) <= 1);
	CHECK(llabs(SEEK_R(371) - (int64_t)((3 + (3 * 371 / (2 * n) - 0.5) * 2) * 1e6)) <= 1);
	CHECK(llabs(SEEK_R(800) - (int64_t)((3 + (3 * 800 / (2 * n) - 0.5) * 2) * 1e6)) <= 1);
	CHECK(llabs(SEEK_R(1109) - (int64_t)((3 + (3 * 1109 / (2 * n) - 0.5) * 2) * 1e6)) <= 1);
	drop(&im);

	/*
	 * Three-point curve: 1 + B (d-1) + C sqrt(d-1) with B = (7 - 45 + 40) / 3n
	 * and C = (-10 + 45 - 25) / 3 sqrt(n) ms — through 5 ms at n, averaging
	 * 3 ms under the weight 2 (n - x) / n^2.
	 */
	CHECK(import(forms, "seek-curve.parv", &im) == 0);
	check_round_trip("curve", &im);
	b = 2.0 / (3 * n);
	cc = 10.0 / (3 * sqrt(n));
	CHECK_NEAR(1 + b * n + cc * sqrt(n), 5, 1e-12);
	{
		double sum = 0, x;

		for (x = 0.5; x < n; x += 1)
			sum += 2 * (n - x) / (n * n) * (1 + b * x + cc * sqrt(x));
		CHECK_NEAR(sum, 3, 1e-3);
	}
	for (d = 1; d < 1110; d += 137)
		CHECK_MSG(llabs(SEEK_R(d) - (int64_t)((1 + b * (d - 1) + cc * sqrt(d - 1)) * 1e6)) <= 1,
			  "curve at %u: %lld", d, (long long)SEEK_R(d));
	expect_note("curve", &im, "'Access time type' = averageRotation: DiskSim 4.0's dm_mech_g1 "
		    "never reads it");
	expect_note("curve", &im, "'Percent error in rpms' = 1");
	expect_note("curve", &im, "'Constant access time'");
	drop(&im);

	/* Constant: 2.5 ms at every distance, and for an access on the head's own track. */
	CHECK(import(forms, "seek-constant.parv", &im) == 0);
	check_round_trip("constant", &im);
	CHECK_EQ_INT(SEEK_R(1), 2500000);
	CHECK_EQ_INT(SEEK_R(700), 2500000);
	CHECK_EQ_INT(SEEK_W(3), 3 * MS);
	disk_layout_locate(im.l, disk_layout_map(im.l, 500), &c);
	h.cyl = c.cyl;
	h.head = c.head;
	disk_mech_access_at(im.mc, &h, 0, &c, 1, false, 0, &acc);
	CHECK_EQ_INT(acc.seek, 2500000);
	disk_mech_access_at(im.mc, &h, 0, &c, 1, true, 0, &acc);
	CHECK_EQ_INT(acc.seek, 3 * MS);
	drop(&im);
#undef SEEK_R
#undef SEEK_W
}

/* A copy of the forms in tmp with one file's `from` replaced by `to`, imported: refused with `want`. */
static void broken(const char *parv, const char *file, const char *from, const char *to,
		   const char *want)
{
	char path[700], *text, *at, *edited;
	struct imported im;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, file);
	text = test_slurp(path, NULL);
	CHECK_MSG(text && (at = strstr(text, from)), "%s has no '%s'", file, from);
	if (!text || !at) {
		free(text);
		return;
	}
	edited = malloc(strlen(text) + strlen(to) + 1);
	sprintf(edited, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	f = fopen(path, "w");
	fputs(edited, f);
	fclose(f);
	CHECK_MSG(import(tmp, parv, &im) != 0 && im.rc, "%s with '%s' accepted", file, to);
	CHECK_MSG(strstr(im.msg, want), "%s with '%s': message '%s' lacks '%s'", file, to, im.msg,
		  want);
	drop(&im);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	free(text);
	free(edited);
}

static void broken_forms(void)
{
	char cmd[700];

	snprintf(tmp, sizeof(tmp), "/tmp/t_import_disksim.XXXXXX");
	CHECK(mkdtemp(tmp) != NULL);
	snprintf(cmd, sizeof(cmd), "cp %s/* %s/", forms, tmp);
	CHECK(system(cmd) == 0);

	broken("sparing2.parv", "layout-s2.layout", "Sparing scheme used = 2", "Sparing scheme used = 11",
	       "layout-s2.layout:5: key 'Sparing scheme used': expected an integer 0..10, got 11");
	broken("sparing2.parv", "layout-s2.layout", "mapping scheme = 0", "mapping scheme = 3",
	       "layout-s2.layout:4: key 'LBN-to-PBN mapping scheme': expected an integer 0..2, got 3");
	broken("sparing2.parv", "sparing2.parv", "source layout-s2.layout",
	       "dm_layout_g2 { Layout Map File = x.map, Zones = [] }",
	       "sparing2.parv:8: key 'Layout Model': dm_layout_g2 (an LBN map file extracted by "
	       "DIXtrac) is not read: ncqsim takes a dm_layout_g1 zone table");
	broken("sparing2.parv", "sparing2.parv", "source layout-s2.layout",
	       "dm_layout_g4 { TP = [], IDX = [], Slips = [], Remaps = [] }",
	       "key 'Layout Model': dm_layout_g4 (DiskSim's extent tables) is not read");
	broken("sparing2.parv", "mech-extracted.mech", "Seek type = extracted", "Seek type = sqrt",
	       "mech-extracted.mech:5: key 'Seek type': expected extracted, hpl, hplplus10, linear, "
	       "curve or constant (DiskSim 4.0's seek types), got 'sqrt'");
	/* Cylinder 0 of scheme 2 has 2 spares: a third slip in it has nowhere to go. */
	broken("sparing2.parv", "layout-s2.layout", "slips = [ 3, 25 ]", "slips = [ 3, 5, 9 ]",
	       "layout-s2.layout:8: zone: 3 slips in the 20 sectors from 0, more than the 2 spares "
	       "there (in the zone row ncqsim writes for this dm_layout_g1_zone)");
	broken("sparing8.parv", "layout-s8.layout", "slips = [ 10 ]", "slips = [ 65 ]",
	       "layout-s8.layout:8: zone: slip 65 is in the last 1 cylinders, which have no spares");
	broken("sparing8.parv", "layout-s8.layout", "Number of spares = 3", "Number of spares = 60",
	       "layout-s8.layout:8: zone: 60 spares leave none of the 60 sectors of its sparing unit "
	       "for data");
	broken("sparing5.parv", "layout-s5.layout", "slips = []", "slips = [ 4 ]",
	       "layout-s5.layout:8: zone: sparing = cylinder_front takes no slips");
	broken("sparing7.parv", "layout-s7.layout", "Number of spares = 0", "Number of spares = 2",
	       "layout-s7.layout:8: zone: sparing = disk_end keeps no spares in the zones, got 2");
	broken("sparing1.parv", "layout-s1.layout", "slips = [ 1 ]", "slips = [ 1, 2, 4 ]",
	       "layout-s1.layout:8: zone: 3 slipped and 1 remapped tracks outnumber its 2 spare tracks");
	broken("sparing9.parv", "layout-s9.layout", "slips = [ 7, 50 ]", "slips = [ 7, 500 ]",
	       "layout-s9.layout:8: zone: slip 500 is beyond the zone's 80 sectors");
	broken("sparing1.parv", "layout-s1.layout", "defects = [ 3, 7 ]", "defects = [ 3, 7, 9 ]",
	       "layout-s1.layout:18: key 'defects': expected pairs DEFECT, SPARE");
	broken("sparing9.parv", "layout-s9.layout", "slips = [ 7, 50 ]", "slips = [ 50, 7, 50 ]",
	       "layout-s9.layout:17: key 'slips': 50 is listed twice");
	broken("sparing2.parv", "layout-s2.layout", "Blocks per track = 10,", "Blocks per track = 10.0,",
	       "layout-s2.layout:11: key 'Blocks per track': expected an integer 1..100000 (DiskSim "
	       "reads this key as one), got '10.0'");
	broken("sparing2.parv", "layout-s2.layout", "Skew for track switch = 3.0",
	       "Skew for track switch = -1.0", "layout-s2.layout:14: key 'Skew for track switch': "
	       "expected 0 or more, got -1 (DiskSim 2's negative skews");
	broken("skew-revolutions.parv", "layout-rev.layout", "Skew for track switch = 0.3",
	       "Skew for track switch = 0.33", "layout-rev.layout:15: key 'Skew for track switch': "
	       "0.33 revolutions is 3.3000 of this zone's 10 sectors; ncqsim places tracks on whole "
	       "sectors");
	broken("skew-revolutions.parv", "layout-rev.layout", "   Skew units = revolutions,",
	       "   Skew units = degrees,", "layout-rev.layout:7: key 'Skew units': expected sectors or "
	       "revolutions, got 'degrees'");
	broken("seek-curve.parv", "mech-curve.mech", "Average seek time = 3.0",
	       "Average seek time = 0.9", "mech-curve.mech:4: key 'Seek type': no rising three-point "
	       "curve from 1 ms (Single cylinder seek time) to 5 ms");
	broken("seek-hpl.parv", "mech-hpl.mech", "[ 4, 1.0", "[ 4.5, 1.0",
	       "mech-hpl.mech:5: key 'HPL seek equation values': the first (V1, where the root "
	       "part ends) is in whole cylinders, got '4.5'");
	broken("seek-hpl.parv", "mech-hpl.mech", ", 0.8 ]", " ]",
	       "mech-hpl.mech:5: key 'HPL seek equation values': expected a list of 6 numbers");
	broken("seek-hpl.parv", "mech-hpl.mech", ", 0.8 ]", ", -2.0 ]",
	       "mech-hpl.mech:5: key 'HPL seek equation values': V6 must be 0..1000 ms or -1 (none)");
	broken("seek-hplplus10.parv", "mech-hplplus10.mech", "2.3, 2.5 ]", "2.3 ]",
	       "mech-hplplus10.mech:6: key 'First ten seek times': expected a list of 10 numbers");
	broken("seek-constant.parv", "mech-constant.mech", "Constant seek time = 2.5",
	       "Constant seek time = fast", "mech-constant.mech:5: key 'Constant seek time': "
	       "expected a number, got 'fast'");
	broken("seek-hpl.parv", "mech-hpl.mech", "Access time type = trackSwitchPlusRotation",
	       "Access time type = instant", "mech-hpl.mech:3: key 'Access time type': expected "
	       "trackSwitchPlusRotation, averageRotation or constant, got 'instant'");
	broken("sparing2.parv", "mech-extracted.mech", "Rotation speed (in rpms) = 6000",
	       "Rotation speed (in rpms) = 6000.0", "mech-extracted.mech:9: key 'Rotation speed (in "
	       "rpms)': expected an integer 3600..20000 (DiskSim reads this key as one), got '6000.0'");
	broken("sparing2.parv", "forms.seek", "4, 2.500000, 0.02", "4; 2.5",
	       "forms.seek:3: expected 'DISTANCE, MS' with a distance of 1 or more");
	broken("sparing2.parv", "forms.seek", "9, 4.000000, 0.03\n", "",
	       "forms.seek: says 3 seek distances, has 2");
	/* Values out of their range, each refused where it stands. */
	broken("sparing2.parv", "mech-extracted.mech", "Percent error in rpms = 0.0",
	       "Percent error in rpms = 101", "mech-extracted.mech:10: key 'Percent error in rpms': "
	       "expected 0..100, got 101");
	broken("sparing2.parv", "mech-extracted.mech", "Head switch time = 0.4",
	       "Head switch time = -0.4", "mech-extracted.mech:8: key 'Head switch time': expected 0 "
	       "or more ms, got -0.4");
	broken("sparing2.parv", "disk.keys", "Low (write) water mark = 0.5",
	       "Low (write) water mark = 1.5", "disk.keys:26: key 'Low (write) water mark': expected "
	       "a fraction 0..1");
	broken("sparing2.parv", "disk.keys", "High (read) water mark = 0.5",
	       "High (read) water mark = -0.1", "disk.keys:27: key 'High (read) water mark': "
	       "expected a fraction 0..1");
	broken("sparing2.parv", "disk.keys", "Number of buffer segments = 2,\n"
	       "Maximum number of write segments = 1,\nSegment size (in blks) = 64,\n"
	       "Use separate write segment = 0,", "Number of buffer segments = 1,\n"
	       "Maximum number of write segments = 1,\nSegment size (in blks) = 64,\n"
	       "Use separate write segment = 1,", "disk.keys:25: key 'Use separate write segment': "
	       "needs 2 or more buffer segments (one for writes, the rest for reads)");
	/* A disk derived from another (libparam's subtypes): its own pairs over the base's. */
	{
		struct imported im;
		char path[700];
		FILE *f;

		snprintf(path, sizeof(path), "%s/derived.parv", tmp);
		f = fopen(path, "w");
		fputs("disksim_disk BASE {\n"
		      "   source disk.keys,\n"
		      "   Model = dm_disk M { Block count = 1100132, Number of data surfaces = 2,\n"
		      "      Number of cylinders = 1110, Layout Model = source layout-s2.layout,\n"
		      "      Mechanical Model = source mech-extracted.mech }\n"
		      "}\n"
		      "BASE CHILD { Segment size (in blks) = 32 }\n"
		      "instantiate [ disk0 .. disk1 ] as CHILD\n", f);
		fclose(f);
		CHECK_MSG(import(tmp, "derived.parv", &im) == 0, "%s", im.msg);
		if (im.m) {
			CHECK_EQ_U64(im.m->segment_size, 32 * 512);
			CHECK_EQ_INT(im.m->sparing, DISK_SPARE_CYLINDER);
			CHECK(strstr(im.drive, "# CHILD, imported") != NULL);
		}
		drop(&im);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	snprintf(forms, sizeof(forms), "%s", test_data("disksim-forms"));
	layouts();
	seeks();
	broken_forms();
	return test_done();
}
