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
	"read_watermark = 0\n"
	"write_watermark = 0\n"
	"watermark_by_request = 1\n"
	"write_segment = 0\n"
	"combine_writes = 1\n"
	"almost_read_hits = 1\n"
	"sneaky_full_hits = 1\n"
	"sneaky_partial_hits = 1\n"
	"write_prebuffering = 1\n"
	"read_ahead_min = 0\n"
	"write_hit_stops_read_ahead = 1\n"
	"zero_latency_read = 0\n"
	"zero_latency_write = 0\n"
	"read_ahead_stop = now\n"
	"read_data = overwrite\n"
	"request_overhead = 0\n"
	"bus_arbitration = 0\n"
	"controller_delay = 0\n"
	"data_prep = 0\n"
	"reselect_first = 0\n"
	"reselect_other = 0\n"
	"disconnect_read_after_read = 0\n"
	"disconnect_read_after_write = 0\n"
	"disconnect_write = 0\n"
	"hold_bus_read = 1\n"
	"hold_bus_write = 1\n"
	"never_disconnect = 0\n"
	"extra_write_disconnect = 0\n"
	"extradisc_command = 0\n"
	"extradisc_seek_delta = 0\n"
	"extradisc_disconnect = 0\n"
	"extradisc_inter_disconnect = 0\n"
	"extradisc_disconnect2 = 0\n"
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

/* `text` with the line starting `key` replaced by `line` (NULL: removed). */
static char *edit_text(const char *text, const char *key, const char *line)
{
	size_t klen = strlen(key);
	char *out = malloc(strlen(text) + (line ? strlen(line) : 0) + 2), *o = out;
	const char *p = text;
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

static char *edit(const char *key, const char *line)
{
	return edit_text(tiny, key, line);
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

/*
 * The one-at-a-time drive's rules (src/disk/service.c), each against tiny
 * without it. tiny: 10 ms a revolution, zone 0 at 0.2 ms a sector and 48
 * LBNs a track, reads 0.1 ms a sector on the bus and writes 0.2 ms, no bus
 * phases, the bus held; LBN 0 is on cylinder 1.
 */
#define US 1000LL
#define REV (10 * MS)

/* tiny with each "key = value" of the NULL-ended list in place of its key's line. */
static struct disk_service *serve(const char *const *edits)
{
	struct disk_service *s = malloc(sizeof(*s));
	struct disk_model *m = malloc(sizeof(*m));
	char *text = strdup(tiny);
	struct err e = { "" };

	for (; edits && *edits; edits++) {
		char key[64], *next;

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(*edits, " ="), *edits);
		next = edit_text(text, key, *edits);
		free(text);
		text = next;
	}
	CHECK_MSG(disk_model_parse(text, "rules.drive", m, &e) == 0, "%s", e.msg);
	CHECK_MSG(disk_service_init(s, m, &e) == 0, "%s", e.msg);
	free(m);
	free(text);
	return s;
}

/* One command at `t`: how long it took; *kind how it was served. */
static int64_t took(struct disk_service *s, int64_t t, bool write, uint64_t lba, uint64_t n,
		    enum disk_service_kind *kind)
{
	return disk_service_command(s, t, write, lba, n, kind) - t;
}

/* A read miss of [0, 4) at 0 on a fresh drive: how long it took. */
static int64_t first_miss(struct disk_service *s)
{
	enum disk_service_kind k;
	int64_t d = took(s, 0, false, 0, 4, &k);

	CHECK_EQ_INT(k, DISK_SERVED_MEDIA);
	return d;
}

static void bus_phase_rules(void)
{
	enum disk_service_kind k;
	struct disk_service *s, *t;
	int64_t a, b;

	/* A hit: arbitration and the controllers (the command, ready, completion), the
	 * per-request overhead, the hit overhead, data preparation, bus, completion. */
	s = serve((const char *const[]){ "request_overhead = 1ms", "bus_arbitration = 10us",
					 "controller_delay = 20us", "data_prep = 30us", NULL });
	first_miss(s);
	CHECK_EQ_INT(took(s, 100 * MS, false, 0, 4, &k),
		     10 * US + 20 * US + MS + 100 * US + 30 * US + 2 * 20 * US + 4 * 100 * US +
		     50 * US + 20 * US);
	CHECK_EQ_INT(k, DISK_SERVED_HIT);
	free(s);

	/*
	 * A miss reselects once its first sector is in, 3 ms later with
	 * reselect_first: then all four are in and go at the bus's pace (0.4
	 * ms) instead of each after the media (0.1 ms after the last), 2.7 ms.
	 */
	s = serve(NULL);
	b = first_miss(s);
	t = serve((const char *const[]){ "reselect_first = 3ms", NULL });
	CHECK_EQ_INT(first_miss(t) - b, 3 * MS - 3 * MS / 10);
	free(t);
	/* The read's disconnect comes first: 20 ms of it outlast the media. */
	t = serve((const char *const[]){ "disconnect_read_after_read = 20ms", NULL });
	CHECK_EQ_INT(first_miss(t), 3 * MS / 10 + 20 * MS + 4 * 100 * US + 50 * US);
	free(t);
	t = serve((const char *const[]){ "disconnect_read_after_write = 20ms", NULL });
	CHECK(first_miss(t) < 20 * MS);	/* the first command follows no write */
	free(t);
	/* Held on the bus, a read sends each sector as it is read; released, it
	 * disconnects and reselects each time — the last reselection shows. */
	t = serve((const char *const[]){ "reselect_first = 50us", NULL });
	a = first_miss(t);
	free(t);
	t = serve((const char *const[]){ "reselect_first = 50us", "hold_bus_read = 0", NULL });
	CHECK_EQ_INT(first_miss(t) - a, 50 * US);
	free(t);
	/* A drive that never disconnects has no disconnects or reselections. */
	t = serve((const char *const[]){ "never_disconnect = 1", "reselect_first = 5ms",
					 "disconnect_read_after_read = 5ms", NULL });
	CHECK_EQ_INT(first_miss(t), b);
	free(t);
	free(s);

	/* A write reselects for its status after the media: reselect_first more. */
	s = serve(NULL);
	a = took(s, 0, true, 500, 2, &k);
	CHECK_EQ_INT(k, DISK_SERVED_MEDIA);
	t = serve((const char *const[]){ "reselect_first = 2ms", NULL });
	CHECK_EQ_INT(took(t, 0, true, 500, 2, &k) - a, 2 * MS);
	free(t);
	/* ... and not before its disconnect after the data: overhead, data, disconnect. */
	t = serve((const char *const[]){ "disconnect_write = 30ms", NULL });
	CHECK_EQ_INT(took(t, 0, true, 500, 2, &k), 7 * MS / 10 + 4 * MS / 10 + 30 * MS + 60 * US);
	free(t);
	free(s);

	/*
	 * The extra write disconnect: a write after a write it does not follow
	 * leaves the bus (1 ms + 0.25 ms), asks for its data 40 ms later, and
	 * after it leaves again (30 ms) before reselecting for status with
	 * reselect_other.
	 */
	{
		static const char *const xd[] = { "extra_write_disconnect = 1",
			"extradisc_command = 1ms", "extradisc_disconnect = 250us",
			"extradisc_inter_disconnect = 40ms", "extradisc_disconnect2 = 30ms",
			"reselect_other = 3ms", NULL };

		s = serve(xd);
		took(s, 0, true, 500, 2, &k);		/* after no write: as usual */
		CHECK(took(s, 100 * MS, true, 502, 2, &k) < 20 * MS);	/* it follows */
		CHECK_EQ_INT(took(s, 200 * MS, true, 1000, 2, &k),
			     MS + 250 * US + 40 * MS + 4 * MS / 10 + 30 * MS + 3 * MS + 60 * US);
		free(s);
	}
	/* ... and its mechanics start after extradisc_command + extradisc_seek_delta. */
	s = serve((const char *const[]){ "extra_write_disconnect = 1", "extradisc_command = 1ms",
					 "extradisc_seek_delta = 100ms", NULL });
	took(s, 0, true, 500, 2, &k);
	CHECK(took(s, 100 * MS, true, 1000, 2, &k) >= 101 * MS + 4 * MS / 10 + 60 * US);
	free(s);
	/*
	 * On such a drive every write waits for min(n, 10) sectors of data
	 * before its first goes down (DiskSim's rule): 20 sectors continuing a
	 * write, issued so that the sector comes round 1.06 ms after the data
	 * starts, go down then with one sector of data but a revolution later
	 * with ten (2 ms).
	 */
	{
		int64_t plain, xd;

		s = serve(NULL);
		a = disk_service_command(s, 0, true, 500, 20, &k);
		plain = took(s, a + 8 * MS, true, 520, 20, &k);
		free(s);
		s = serve((const char *const[]){ "extra_write_disconnect = 1", NULL });
		b = disk_service_command(s, 0, true, 500, 20, &k);
		xd = took(s, b + 8 * MS, true, 520, 20, &k);
		free(s);
		CHECK_EQ_INT(xd - plain, REV);
	}
	/*
	 * min_seek holds writes only: a read positions as before, a write for
	 * 5 ms — continuing a write 8.5 ms after it, its sector comes 0.64 ms
	 * after the overhead, and with min_seek a revolution later.
	 */
	s = serve(NULL);
	t = serve((const char *const[]){ "min_seek = 5ms", NULL });
	CHECK_EQ_INT(first_miss(t), first_miss(s));
	a = disk_service_command(s, 100 * MS, true, 500, 2, &k);
	b = disk_service_command(t, 100 * MS, true, 500, 2, &k);
	CHECK_EQ_INT(took(t, b + 17 * MS / 2, true, 502, 2, &k) -
		     took(s, a + 17 * MS / 2, true, 502, 2, &k), REV);
	free(s);
	free(t);
	/*
	 * A read's water mark of none (a segment's share of 0) is one sector, as
	 * DiskSim reconnects only once one is buffered: the same as the
	 * request's share of 0, which is at least one sector already.
	 */
	s = serve((const char *const[]){ "read_watermark = 0", NULL });
	t = serve((const char *const[]){ "read_watermark = 0", "watermark_by_request = 0", NULL });
	CHECK_EQ_INT(first_miss(t), first_miss(s));
	CHECK_EQ_INT(took(t, 100 * MS, false, 9000, 40, &k), took(s, 100 * MS, false, 9000, 40, &k));
	free(s);
	free(t);
	/*
	 * A constant seek form holds every access, reads too, beside min_seek:
	 * with 25 ms constant and a min_seek of 40 ms, a read miss positions
	 * for 25 ms (less than 40 ms in all, even after a whole revolution),
	 * a write for 40.
	 */
	s = serve((const char *const[]){ "cdl = 0\nseek_formula = constant 25ms", "min_seek = 40ms",
					 NULL });
	a = first_miss(s);
	CHECK(a >= 25 * MS + 3 * MS / 10 && a < 40 * MS);
	CHECK(took(s, 100 * MS, true, 9000, 2, &k) >= 40 * MS + 7 * MS / 10);
	free(s);
}

static void cache_rules(void)
{
	static const char *const wc[] = { "write_cache = 1", "write_buffer = 8k", NULL };
	enum disk_service_kind k;
	struct disk_service *s;
	int64_t t, a;
	int on;

	/*
	 * A segment of its own for writes: a read of what was just written
	 * misses, and reads have one segment fewer (tiny's two: one), so of two
	 * reads only the later stays.
	 */
	for (on = 0; on < 2; on++) {
		s = serve((const char *const[]){ on ? "write_segment = 1" : "write_segment = 0", NULL });
		t = disk_service_command(s, 0, true, 500, 2, &k) + MS;
		t = disk_service_command(s, t, false, 500, 2, &k) + MS;
		CHECK_EQ_INT(k, on ? DISK_SERVED_MEDIA : DISK_SERVED_HIT);
		free(s);
		s = serve((const char *const[]){ on ? "write_segment = 1" : "write_segment = 0",
						 "read_ahead = 0", NULL });
		first_miss(s);
		t = disk_service_command(s, 100 * MS, false, 10000, 4, &k) + 100 * MS;
		took(s, t, false, 0, 4, &k);
		CHECK_EQ_INT(k, on ? DISK_SERVED_MEDIA : DISK_SERVED_HIT);
		free(s);
	}

	/*
	 * The write cache, while a write is being destaged: a hit waits for it
	 * unless it may sneak past; another write waits unless it continues
	 * the dirty data (combine_writes) or is prebuffered into a free write
	 * segment.
	 */
	for (on = 0; on < 2; on++) {
		const char *sneaky = on ? "sneaky_full_hits = 1" : "sneaky_full_hits = 0";

		s = serve((const char *const[]){ wc[0], wc[1], sneaky, NULL });
		first_miss(s);
		t = disk_service_command(s, 100 * MS, true, 5000, 4, &k);
		CHECK_EQ_INT(k, DISK_SERVED_CACHED);
		CHECK_EQ_INT(t - 100 * MS, 5 * MS / 10 + 4 * 2 * MS / 10 + 60 * US);
		CHECK(s->busy_until > t + MS);
		CHECK_EQ_INT(took(s, t, false, 0, 4, &k),
			     on ? 2 * MS / 10 + 4 * MS / 10 + 50 * US :
			     s->busy_until - t + 4 * MS / 10 + 50 * US);
		CHECK_EQ_INT(k, DISK_SERVED_HIT);
		free(s);
	}
	{
		static const struct {
			const char *combine, *prebuffer, *buffer;
			uint64_t lba;
			bool at_once;
		} c[] = {
			{ "combine_writes = 1", "write_prebuffering = 0", "write_buffer = 8k", 5004, true },
			{ "combine_writes = 0", "write_prebuffering = 0", "write_buffer = 8k", 5004, false },
			{ "combine_writes = 1", "write_prebuffering = 0", "write_buffer = 8k", 9000, false },
			{ "combine_writes = 1", "write_prebuffering = 1", "write_buffer = 8k", 9000, true },
			/* one write segment, and it is dirty */
			{ "combine_writes = 1", "write_prebuffering = 1", "write_buffer = 4k", 9000, false },
		};
		unsigned i;

		for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			s = serve((const char *const[]){ wc[0], c[i].combine, c[i].prebuffer,
							 c[i].buffer, NULL });
			t = disk_service_command(s, 0, true, 5000, 4, &k);
			a = s->busy_until;
			/* At once: the overhead, then the data; else the data when the mechanism is free. */
			CHECK_MSG(took(s, t, true, c[i].lba, 4, &k) ==
				  (c[i].at_once ? 6 * MS / 10 : a - t) + 4 * 2 * MS / 10 + 60 * US,
				  "case %u", i);
			free(s);
		}
	}

	/* A read of the very sector the read-ahead is reading: a hit only with almost_read_hits. */
	for (on = 0; on < 2; on++) {
		s = serve((const char *const[]){ on ? "almost_read_hits = 1" : "almost_read_hits = 0",
						 NULL });
		first_miss(s);
		CHECK(s->streaming && s->ra_from == 4);
		t = s->ra_t0 + s->ra_sector_ns * 3 / 2;	/* sector 5 under the head */
		took(s, t, false, 5, 1, &k);
		CHECK_EQ_INT(k, on ? DISK_SERVED_STREAM : DISK_SERVED_MEDIA);
		free(s);
	}

	/* read_ahead_stop = sector: a command lets the sector under way finish first. */
	for (on = 0; on < 2; on++) {
		s = serve((const char *const[]){ on ? "read_ahead_stop = sector" :
						 "read_ahead_stop = now", NULL });
		first_miss(s);
		t = s->ra_t0 + s->ra_sector_ns * 3 / 2;
		t = disk_service_command(s, t, false, 100000, 1, &k) + 100 * MS;
		took(s, t, false, 5, 1, &k);
		CHECK_EQ_INT(k, on ? DISK_SERVED_HIT : DISK_SERVED_MEDIA);
		free(s);
	}

	/*
	 * read_ahead_min: a command waits until the read-ahead is that far past
	 * its read (64 sectors, so [4, 68) is then buffered) — unless it is a
	 * write overlapping the segment and write_hit_stops_read_ahead.
	 */
	{
		static const char *const big[] = { "cache_size = 64k", "segment_size = 32k",
						   "read_ahead_max = 32k", NULL };

		for (on = 0; on < 2; on++) {
			s = serve((const char *const[]){ big[0], big[1], big[2],
				  on ? "read_ahead_min = 32k" : "read_ahead_min = 0", NULL });
			t = disk_service_command(s, 0, false, 0, 4, &k);
			t = disk_service_command(s, t, false, 100000, 1, &k) + 100 * MS;
			took(s, t, false, 10, 20, &k);
			CHECK_EQ_INT(k, on ? DISK_SERVED_HIT : DISK_SERVED_MEDIA);
			free(s);
		}
		for (on = 0; on < 2; on++) {
			int64_t stops, waits;

			s = serve((const char *const[]){ big[0], big[1], big[2], "read_ahead_min = 32k",
							 "write_hit_stops_read_ahead = 1", NULL });
			t = disk_service_command(s, 0, false, 0, 4, &k);
			stops = took(s, t, true, on ? 3 : 200000, 1, &k);
			free(s);
			s = serve((const char *const[]){ big[0], big[1], big[2], "read_ahead_min = 32k",
							 "write_hit_stops_read_ahead = 0", NULL });
			t = disk_service_command(s, 0, false, 0, 4, &k);
			waits = took(s, t, true, on ? 3 : 200000, 1, &k);
			free(s);
			/* LBN 3 just passed: stopping at once catches it next time round. */
			CHECK_MSG(on ? waits - stops == REV : waits == stops, "%lld %lld",
				  (long long)waits, (long long)stops);
		}
	}

	/*
	 * read_data: drop — a read's own data leaves its segment as it
	 * completes; keep — the read-ahead stops where the segment would have
	 * to give it up (LBN 8: 4k segments), so [8, 12) is not read ahead.
	 */
	for (on = 0; on < 2; on++) {
		s = serve((const char *const[]){ on ? "read_data = drop" : "read_data = overwrite",
						 NULL });
		first_miss(s);
		took(s, 100 * MS, false, 0, 4, &k);
		CHECK_EQ_INT(k, on ? DISK_SERVED_MEDIA : DISK_SERVED_HIT);
		free(s);
		s = serve((const char *const[]){ on ? "read_data = keep" : "read_data = overwrite",
						 "read_ahead_max = 4k", NULL });
		first_miss(s);
		took(s, 100 * MS, false, 8, 4, &k);
		CHECK_EQ_INT(k, on ? DISK_SERVED_MEDIA : DISK_SERVED_HIT);
		free(s);
	}
}

/*
 * Zero latency: a 40-sector read (or write) on one track, issued at every
 * quarter millisecond of a revolution after a miss: never slower than in
 * order, and faster whenever the head settles inside it.
 */
static void zero_latency_rules(void)
{
	int write;

	for (write = 0; write < 2; write++) {
		const char *zl = write ? "zero_latency_write = 1" : "zero_latency_read = 1";
		int64_t think;
		int faster = 0, slower = 0;

		for (think = 0; think < REV; think += REV / 40) {
			enum disk_service_kind k;
			struct disk_service *in_order = serve((const char *const[]){
				"read_ahead = 0", "bus_write_sector = 1us", NULL });
			struct disk_service *zero = serve((const char *const[]){
				"read_ahead = 0", "bus_write_sector = 1us", zl, NULL });
			int64_t a = first_miss(in_order) + think, b = first_miss(zero) + think;

			CHECK_EQ_INT(a, b);
			a = took(in_order, a, write, 48, 40, &k);
			b = took(zero, b, write, 48, 40, &k);
			faster += b < a;
			slower += b > a;
			/* Settled inside, it ends a revolution after: never more than 1 + 40 x 0.2 ms. */
			CHECK(b <= 2 * REV);
			free(in_order);
			free(zero);
		}
		CHECK_EQ_INT(slower, 0);
		CHECK_MSG(faster >= 10, "zero latency faster %d times of 40", faster);
	}
}

/*
 * A write larger than its 8-sector segment, with a bus four times the
 * media's pace and a 0.2 ms reselection: holding the bus it takes each
 * sector as room appears; released, it waits for its dirty data to fall
 * to the watermark — to one sector, and the sector after each refill
 * comes too late (two revolutions lost, at the 9th and the 17th), or to
 * four, and none does.
 */
static void long_write_rules(void)
{
	static const char *const base[] = { "bus_write_sector = 50us", "reselect_first = 200us" };
	enum disk_service_kind k;
	struct disk_service *s;
	int64_t held, wm1, wm4;

	s = serve((const char *const[]){ base[0], base[1], "hold_bus_write = 1", NULL });
	held = took(s, 0, true, 500, 20, &k);
	free(s);
	s = serve((const char *const[]){ base[0], base[1], "hold_bus_write = 0",
					 "write_watermark = 0", NULL });
	wm1 = took(s, 0, true, 500, 20, &k);
	free(s);
	s = serve((const char *const[]){ base[0], base[1], "hold_bus_write = 0",
					 "write_watermark = 0.5", NULL });
	wm4 = took(s, 0, true, 500, 20, &k);
	free(s);
	CHECK_EQ_INT(wm4, held);
	CHECK_EQ_INT(wm1 - held, 2 * REV);
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
		/*
		 * disk_model_copy() over junk: the same file text (zones, slips,
		 * seek rows and formula, sources), and the same layout built from it.
		 */
		{
			char *copied = NULL;
			size_t clen = 0;
			FILE *cf;

			memset(back, 0xa5, sizeof(*back));
			disk_model_copy(back, m);
			cf = open_memstream(&copied, &clen);
			disk_model_write(back, cf);
			fclose(cf);
			CHECK_EQ_STR(copied, text);
			CHECK_MSG(disk_layout_build(l, back, &e) == 0, "%s", e.msg);
			CHECK_EQ_U64(l->zone[1].first_ps, 12000 * 2 * 50);
			free(copied);
		}
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
	/* Mapped: disk_layout_place() takes the general path, the same place. */
	CHECK(!l->plain);
	{
		uint64_t ps2, n2;
		struct disk_chs c2;

		disk_layout_place(l, 40, 10, &ps2, &n2, &c2);
		disk_layout_locate(l, ps, &c);
		CHECK(ps2 == ps && n2 == n && c2.zone == c.zone && c2.cyl == c.cyl &&
		      c2.head == c.head && c2.sector == c.sector && c2.angle == c.angle);
	}

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

	bus_phase_rules();
	cache_rules();
	zero_latency_rules();
	long_write_rules();

	/* Broken measured files, one thing at a time. */
	expect_error("form", "form = sometimes", "key 'form': expected datasheet or measured");
	expect_error("name", "name = tiny\nform = measured", "must come before every other key");
	expect_error("cylinders", NULL, "key 'cylinders' is missing");
	expect_error("cylinders", "cylinders = 20000\nzones = 2",
		     "key 'zones' belongs to the datasheet form");
	expect_error("zone = 0", "zone = 0 11999 50 0 5 10 2", "m.drive:85: zone: expected 8 numbers");
	expect_error("zone = 0", "zone = 0 11999 x 0 5 10 2 96", "zone: expected 8 numbers");
	expect_error("zone = 12001", "zone = 10 19999 40 3 4 8 1 0",
		     "zone: first cylinder 10 is not after the previous zone's last cylinder 11999");
	expect_error("zone = 12001", "zone = 12001 20045 40 3 4 8 1 0",
		     "m.drive:87: zone: last cylinder 20045 is beyond the drive's 20000 cylinders");
	expect_error("zone = 12001", "zone = 12001 19999 40 3 4 8 40 0",
		     "leave none of its 40 for data");
	expect_error("slips", "slips = 5000000", "m.drive:85: zone: slip 5000000 is beyond the zone's");
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
