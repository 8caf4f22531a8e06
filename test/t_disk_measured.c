/*
 * Measured drive files: a small hand-made drive whose layout and timing
 * can be worked out by hand — LBNs around front_empty, spares and slips;
 * the seek table between, below and beyond its rows; write settle; the
 * per-command overheads; the service order of a lone command — and every
 * kind of broken measured file, each with its file:line message.
 */
#include "testlib.h"
#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"
#include "disk/service.h"

#include <stdlib.h>

#define MS 1000000LL

/* Two zones, 2 heads, 6000 rpm (10 ms a revolution). */
static const char *const tiny =
	"form = measured\n"
	"name = tiny\n"
	"description = a drive small enough to check by hand\n"
	"model = TINY\n"
	"serial = T1\n"
	"firmware = 1\n"
	"sectors = 1500000\n"
	"logical_sector_size = 512\n"
	"physical_sector_size = 512\n"
	"ncq = 0\n"
	"queue_depth = 1\n"
	"ncq_prio = 0\n"
	"ncq_prio_log = 0\n"
	"id_data_log = 0\n"
	"sata_gen = 1\n"
	"rpm = 6000\n"
	"heads = 2\n"
	"head_switch = 1ms\n"
	"rpo_guard = 0\n"
	"fw_sched = fifo\n"
	"prio_policy = ignore\n"
	"prio_soft_margin = 10ms\n"
	"age_limit = 2s\n"
	"cache_size = 8k\n"
	"cache_segments = 2\n"
	"read_ahead = 1\n"
	"read_ahead_max = 2k\n"
	"write_cache = 0\n"
	"write_buffer = 4k\n"
	"cylinders = 20000\n"
	"sparing = track_sectors\n"
	"sparing_range = 1\n"
	"write_settle = -0.5ms\n"
	"min_seek = 0\n"
	"bus_read_sector = 0.1ms\n"
	"bus_write_sector = 0.2ms\n"
	"overhead_read_hit_after_read = 0.1ms\n"
	"overhead_read_hit_after_write = 0.2ms\n"
	"overhead_read_miss_after_read = 0.3ms\n"
	"overhead_read_miss_after_write = 0.4ms\n"
	"overhead_write_hit_after_read = 0.5ms\n"
	"overhead_write_hit_after_write = 0.6ms\n"
	"overhead_write_miss_after_read = 0.7ms\n"
	"overhead_write_miss_after_write = 0.8ms\n"
	"completion_read = 0.05ms\n"
	"completion_write = 0.06ms\n"
	"segment_size = 4k\n"
	"read_hits_on_writes = 1\n"
	"read_ahead_rule = segment\n"
	"read_ahead_on_hit = 0\n"
	"partial_hits = 0\n"
	"overhead_write_after_random_write = 0\n"
	"read_watermark = 0\n"
	"write_watermark = 0\n"
	"watermark_by_request = 1\n"
	"zone = 0 11999 50 0 5 10 2 96\n"		/* 48 LBNs a track; the first 96 unused */
	"slips = 100\n"
	"zone = 12001 19999 40 3 4 8 1 0\n"		/* 39 LBNs a track */
	"seek = 1 1ms\n"
	"seek = 11 2ms\n"
	"seek = 39 6ms\n"
	"cdl = 0\n"				/* (keys may come in any order) */
	"cdl_t2a = none\n"
	"cdl_t2b = none\n"
	"track_order = cylinder\n";

/* The text with the line starting `key` replaced by `line` (NULL: removed). */
static char *edit(const char *key, const char *line)
{
	size_t klen = strlen(key);
	char *out = malloc(strlen(tiny) + (line ? strlen(line) : 0) + 2), *o = out;
	const char *p = tiny;
	bool done = false;

	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p + 1) : strlen(p);

		if (!done && !strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '=')) {
			if (line)
				o += sprintf(o, "%s\n", line);
			done = true;
		} else {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	*o = '\0';
	return out;
}

static void expect_error(const char *key, const char *line, const char *want)
{
	char *text = edit(key, line);
	struct disk_model *m = malloc(sizeof(*m));
	struct err e = { "" };

	CHECK_MSG(disk_model_parse(text, "m.drive", m, &e) != 0, "'%s' accepted", line ? line : key);
	CHECK_MSG(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
	CHECK_MSG(!strncmp(e.msg, "m.drive", 7), "message '%s' does not name the file", e.msg);
	free(m);
	free(text);
}

int main(void)
{
	struct disk_model *m = malloc(sizeof(*m)), *back = malloc(sizeof(*back));
	struct disk_layout *l = malloc(sizeof(*l));
	struct disk_mech *mc = malloc(sizeof(*mc));
	struct disk_service *s = malloc(sizeof(*s));
	struct err e;
	uint64_t ps, n;
	struct disk_chs c;

	CHECK_MSG(disk_model_parse(tiny, "tiny.drive", m, &e) == 0, "%s", e.msg);
	CHECK_EQ_INT(m->form, DISK_FORM_MEASURED);
	CHECK_EQ_INT(m->geo.nzones, 2);
	CHECK_EQ_INT(m->write_settle, -MS / 2);
	CHECK_EQ_INT(m->overhead[DISK_OVH_WRITE][DISK_OVH_MISS][DISK_OVH_AFTER_WRITE], 8 * MS / 10);
	/* Written out and read back: the same drive. */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		disk_model_write(m, f);
		fclose(f);
		CHECK_MSG(disk_model_parse(text, "written", back, &e) == 0, "%s", e.msg);
		CHECK(back->geo.nzones == 2 && back->geo.nseek == 3 && back->geo.nmarks == 1 &&
		      back->write_settle == m->write_settle && back->cylinders == 20000 &&
		      back->bus_write_sector == m->bus_write_sector &&
		      back->read_ahead_rule == m->read_ahead_rule &&
		      !memcmp(back->overhead, m->overhead, sizeof(m->overhead)));
		free(text);
	}

	/* Layout: 48 data sectors a track in zone 0, its first 96 LBN slots unused. */
	CHECK_MSG(disk_layout_build(l, m, &e) == 0, "%s", e.msg);
	CHECK(l->mapped);
	CHECK_EQ_U64(l->zone[0].nlbn, 12000 * 2 * 48 - 96);
	CHECK_EQ_U64(l->zone[1].first_ps, 12000 * 2 * 50);
	/*
	 * Slot 96 is track 2, sector 0 (physical 100) — but 100 is slipped, so
	 * LBN 0 is at 101 and the rest of that track moves on by one too.
	 */
	CHECK_EQ_U64(disk_layout_map(l, 0), 101);
	CHECK_EQ_U64(disk_layout_map(l, 47), 148);
	CHECK_EQ_U64(disk_layout_map(l, 48), 150);	/* next track untouched: per-track sparing */
	CHECK_EQ_U64(disk_layout_map(l, l->zone[1].first_lbn), 1200000);
	CHECK_EQ_U64(disk_layout_map(l, l->zone[1].first_lbn + 39), 1200040);
	disk_layout_locate(l, 1200040, &c);
	CHECK_EQ_INT(c.zone, 1);
	CHECK_EQ_INT(c.cyl, 12001);
	CHECK_EQ_INT(c.head, 1);
	/* A track's first sector: offset 3 + head skew 4 for head 1 of the zone's first cylinder. */
	CHECK_EQ_INT(c.angle, (int64_t)(7 * 10 * MS / 40));
	disk_layout_physical(l, 40, 10, &ps, &n);
	CHECK_EQ_U64(ps, disk_layout_map(l, 40));
	CHECK_EQ_U64(n, disk_layout_map(l, 49) + 1 - ps);	/* the track's 2 spares pass too */
	CHECK_EQ_U64(n, 11);

	/* Seek table: linear between rows, the first row below it, the last slope beyond. */
	CHECK_MSG(disk_mech_init(mc, l, m, &e) == 0, "%s", e.msg);
	CHECK_EQ_INT(disk_seek_ns(&mc->read, 0), 0);
	CHECK_EQ_INT(disk_seek_ns(&mc->read, 1), MS);
	CHECK_EQ_INT(disk_seek_ns(&mc->read, 6), 3 * MS / 2);
	CHECK_EQ_INT(disk_seek_ns(&mc->read, 25), 4 * MS);
	CHECK_EQ_INT(disk_seek_ns(&mc->write, 6), MS);	/* settle -0.5 ms */
	CHECK_EQ_INT(mc->head_switch_write, MS / 2);
	CHECK_EQ_INT(disk_mech_overhead_ns(mc, false, true, true), 4 * MS / 10);
	CHECK_EQ_INT(disk_mech_overhead_ns(mc, true, false, false), 5 * MS / 10);
	CHECK_EQ_INT(disk_mech_bus_ns(mc, true, 3), 6 * MS / 10);
	/* The floor used to prune the firmware's choice is a lower bound everywhere. */
	{
		uint32_t d;

		for (d = 0; d < 20000; d++)
			CHECK(mc->seek_floor[d >> mc->seek_floor_shift] <= disk_seek_ns(&mc->read, d));
	}

	/* One command at a time: a miss, then a hit from the same segment. */
	CHECK_MSG(disk_service_init(s, m, &e) == 0, "%s", e.msg);
	{
		enum disk_service_kind k;
		int64_t done = disk_service_command(s, 0, false, 0, 4, &k), t;

		CHECK_EQ_INT(k, DISK_SERVED_MEDIA);
		/* At least overhead, seek to cylinder 1, 4 sectors, bus for 1, completion. */
		CHECK(done >= 3 * MS / 10 + MS + 8 * MS / 10 + MS / 10 + MS / 20);
		CHECK(done <= 3 * MS / 10 + MS + 10 * MS + MS + MS);
		t = done + 50 * MS;
		CHECK_EQ_INT(disk_service_command(s, t, false, 0, 4, &k) - t,
			     MS / 10 + 4 * MS / 10 + MS / 20);
		CHECK_EQ_INT(k, DISK_SERVED_HIT);
		/* Read ahead while idle: the next sectors are there too. */
		t += 50 * MS;
		disk_service_command(s, t, false, 4, 2, &k);
		CHECK_EQ_INT(k, DISK_SERVED_HIT);
		/* A write goes to the media (no write cache), and is then readable from the buffer. */
		t += 50 * MS;
		done = disk_service_command(s, t, true, 500, 2, &k);
		CHECK_EQ_INT(k, DISK_SERVED_MEDIA);
		CHECK(done - t >= 7 * MS / 10 + 4 * MS / 10);
		t = done + MS;
		CHECK_EQ_INT(disk_service_command(s, t, false, 500, 2, &k) - t,
			     2 * MS / 10 + 2 * MS / 10 + MS / 20);	/* hit, after a write */
	}

	/*
	 * The write watermark: with all of the data needed first, a 20-sector
	 * write takes its overhead, the whole bus transfer, then the media.
	 */
	{
		char *text = edit("write_watermark", "write_watermark = 1");
		enum disk_service_kind k;
		int64_t t = 1000 * MS, done;

		CHECK_MSG(disk_model_parse(text, "wm.drive", back, &e) == 0, "%s", e.msg);
		CHECK_MSG(disk_service_init(s, back, &e) == 0, "%s", e.msg);
		done = disk_service_command(s, t, true, 1000, 20, &k);
		CHECK_MSG(done - t >= 7 * MS / 10 + 20 * 2 * MS / 10 + 20 * 2 * MS / 10,
			  "write took %lld ns", (long long)(done - t));
		free(text);
	}

	/*
	 * read_ahead_on_hit: a miss on [0, 2) reads ahead to 6 (read_ahead_max,
	 * 4 sectors); a hit on [2, 4) then reads on to 8, so [6, 8) hits too.
	 */
	{
		int on;

		for (on = 0; on < 2; on++) {
			char *text = edit("read_ahead_on_hit", on ? "read_ahead_on_hit = 1" :
					  "read_ahead_on_hit = 0");
			enum disk_service_kind k;
			int64_t t;

			CHECK_MSG(disk_model_parse(text, "rh.drive", back, &e) == 0, "%s", e.msg);
			CHECK_MSG(disk_service_init(s, back, &e) == 0, "%s", e.msg);
			t = disk_service_command(s, 0, false, 0, 2, &k) + 100 * MS;
			CHECK_EQ_INT(k, DISK_SERVED_MEDIA);
			t = disk_service_command(s, t, false, 2, 2, &k) + 100 * MS;
			CHECK_EQ_INT(k, DISK_SERVED_HIT);
			disk_service_command(s, t, false, 6, 2, &k);
			CHECK_EQ_INT(k, on ? DISK_SERVED_HIT : DISK_SERVED_MEDIA);
			free(text);
		}
	}

	/* min_seek: even a one-cylinder seek positions for that long. */
	{
		char *text = edit("min_seek", "min_seek = 5ms");
		enum disk_service_kind k;
		int64_t done;

		CHECK_MSG(disk_model_parse(text, "ms.drive", back, &e) == 0, "%s", e.msg);
		CHECK_MSG(disk_service_init(s, back, &e) == 0, "%s", e.msg);
		done = disk_service_command(s, 0, false, 0, 4, &k);
		CHECK_MSG(done >= 3 * MS / 10 + 5 * MS + 8 * MS / 10 + MS / 10 + MS / 20,
			  "read took %lld ns", (long long)done);
		free(text);
	}

	/* Broken measured files, one thing at a time. */
	expect_error("form", "form = sometimes", "key 'form': expected datasheet or measured");
	expect_error("name", "name = tiny\nform = measured", "must come before every other key");
	expect_error("cylinders", NULL, "key 'cylinders' is missing");
	expect_error("cylinders", "cylinders = 20000\nzones = 2",
		     "key 'zones' belongs to the datasheet form");
	expect_error("zone = 0", "zone = 0 11999 50 0 5 10 2", "m.drive:56: zone: expected 8 numbers");
	expect_error("zone = 0", "zone = 0 11999 x 0 5 10 2 96", "zone: expected 8 numbers");
	expect_error("zone = 12001", "zone = 10 19999 40 3 4 8 1 0",
		     "zone: first cylinder 10 is not after the previous zone's last cylinder 11999");
	expect_error("zone = 12001", "zone = 12001 20045 40 3 4 8 1 0",
		     "m.drive:58: zone: last cylinder 20045 is beyond the drive's 20000 cylinders");
	expect_error("zone = 12001", "zone = 12001 19999 40 3 4 8 40 0",
		     "leave none of its 40 for data");
	expect_error("slips", "slips = 5000000", "m.drive:56: zone: slip 5000000 is beyond the zone's");
	expect_error("slips", "slips = 1 two", "slips: expected up to 128 sector numbers");
	expect_error("zone = 0", "slips = 5\nzone = 0 11999 50 0 5 10 2 96",
		     "slips: expected after a 'zone' row");
	expect_error("seek = 11", "seek = 1 3ms", "seek: distance 1 is not above the previous row's 1");
	expect_error("seek = 11", "seek = 11 fast", "seek: expected a time such as 2.35ms");
	expect_error("seek = 11", "seek = 11", "seek: expected 'DISTANCE TIME'");
	expect_error("write_settle", "write_settle = -", "key 'write_settle': expected a time");
	expect_error("write_settle", "write_settle = -200ms", "no longer than 100ms");
	expect_error("sparing", "sparing = sometimes", "key 'sparing': expected one of");
	expect_error("read_watermark", "read_watermark = 2", "key 'read_watermark'");
	expect_error("fw_sched", "fw_sched = satf", "a measured drive takes fifo");
	expect_error("sectors", "sectors = 4000000", "the zone table holds 1775826 LBNs");
	expect_error("physical_sector_size", "physical_sector_size = 4096",
		     "must equal logical_sector_size");
	/* A datasheet file cannot take measured keys. */
	{
		struct err e2 = { "" };
		const char *text = "name = x\ncylinders = 10\n";

		CHECK(disk_model_parse(text, "d.drive", back, &e2) != 0);
		CHECK_MSG(strstr(e2.msg, "d.drive:2: key 'cylinders' belongs to the measured form"),
			  "%s", e2.msg);
	}
	free(m);
	free(back);
	free(l);
	free(mc);
	free(s);
	return test_done();
}
