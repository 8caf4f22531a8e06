/*
 * Drive model files: the built-ins load and round-trip through the file
 * form; every kind of broken model file gives one message naming file,
 * line and key.
 */
#include "testlib.h"
#include "disk/layout.h"
#include "disk/mech.h"
#include "disk/model.h"

#include <stdlib.h>

static char *builtin_copy(const char *name)
{
	unsigned i;

	for (i = 0; i < disk_model_builtin_count(); i++)
		if (!strcmp(disk_model_builtin_name(i), name))
			return strdup(disk_model_builtin_text(i));
	return NULL;
}

/* Replace the line starting with `key =` by `line` (NULL: delete it). */
static char *edit(const char *text, const char *key, const char *line)
{
	size_t klen = strlen(key), n = strlen(text) + (line ? strlen(line) : 0) + 2;
	char *out = malloc(n), *o = out;
	const char *p = text;

	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p + 1) : strlen(p);

		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '=')) {
			if (line)
				o += sprintf(o, "%s\n", line);
		} else {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	*o = '\0';
	return out;
}

static void expect_error2(const char *key, const char *line, const char *key2,
			  const char *line2, const char *want)
{
	char *base = builtin_copy("he8"), *first = edit(base, key, line);
	char *text = key2 ? edit(first, key2, line2) : strdup(first);
	struct disk_model m;
	struct err e = { "" };

	CHECK_MSG(disk_model_parse(text, "x.drive", &m, &e) != 0, "%s accepted", line ? line : key);
	CHECK_MSG(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
	CHECK_MSG(!strncmp(e.msg, "x.drive", 7), "message '%s' does not name the file", e.msg);
	free(base);
	free(first);
	free(text);
}

static void expect_error(const char *key, const char *line, const char *want)
{
	expect_error2(key, line, NULL, NULL, want);
}

/*
 * A datasheet drive so small that its layout has two cylinders: no seek
 * curve fits a one-cylinder stroke (it once fitted with NaN coefficients,
 * and the run ended in an event scheduled in the past). Refused at load.
 */
static void expect_too_few_cylinders(void)
{
	static const char *const edits[][2] = {
		{ "sectors", "sectors = 1048576" }, { "heads", "heads = 64" },
		{ "zones", "zones = 1" }, { "rate_od_mbs", "rate_od_mbs = 500" },
		{ "rate_id_mbs", "rate_id_mbs = 500" },
	};
	char *text = builtin_copy("he8");
	struct disk_model m;
	struct err e = { "" };
	unsigned i;

	for (i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *next = edit(text, edits[i][0], edits[i][1]);

		free(text);
		text = next;
	}
	CHECK_MSG(disk_model_parse(text, "x.drive", &m, &e) != 0, "a two-cylinder drive accepted");
	CHECK_MSG(strstr(e.msg, "x.drive: drive 'he8': a seek curve from single track to full "
			 "stroke needs at least 3 cylinders; this drive's layout has 2") != NULL,
		  "message '%s'", e.msg);
	free(text);
}

/* A model as its file form: every key, row and source a reader can see. */
static char *written(const struct disk_model *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	disk_model_write(m, f);
	fclose(f);
	return text;
}

/*
 * disk_model_copy() into a model full of junk reads back as the original
 * (fails when it leaves out a member it should copy: its scalars, a table's
 * rows, the sources).
 */
static void check_copy(const struct disk_model *m)
{
	struct disk_model *c = malloc(sizeof(*c));
	char *want = written(m), *got;

	memset(c, 0xa5, sizeof(*c));
	disk_model_copy(c, m);
	got = written(c);
	CHECK_EQ_STR(got, want);
	CHECK(c->sectors == m->sectors && c->fw_sched == m->fw_sched &&
	      c->geo.nzones == m->geo.nzones && c->geo.nseek == m->geo.nseek &&
	      c->bus_read_sector == m->bus_read_sector && c->read_watermark == m->read_watermark);
	free(want);
	free(got);
	free(c);
}

int main(void)
{
	unsigned i;

	CHECK(disk_model_builtin_count() >= 3);
	for (i = 0; i < disk_model_builtin_count(); i++) {
		struct disk_model m, back;
		struct err e;
		char *text = NULL;
		size_t len = 0;
		FILE *f;

		CHECK_MSG(disk_model_load(disk_model_builtin_name(i), &m, &e) == 0, "%s", e.msg);
		CHECK_EQ_STR(m.name, disk_model_builtin_name(i));
		check_copy(&m);
		/* What the load checked, the drive builds: the layout and all the mechanics. */
		{
			struct disk_layout *l = malloc(sizeof(*l));
			struct disk_mech *mc = malloc(sizeof(*mc));

			CHECK_MSG(disk_layout_build(l, &m, &e) == 0 && disk_mech_init(mc, l, &m, &e) == 0,
				  "%s", e.msg);
			free(l);
			free(mc);
		}
		/* Written out and read back: the same model, sources kept. */
		f = open_memstream(&text, &len);
		disk_model_write(&m, f);
		fclose(f);
		CHECK_MSG(disk_model_parse(text, "written", &back, &e) == 0, "%s", e.msg);
		CHECK(back.rpm == m.rpm && back.sectors == m.sectors && back.age_limit == m.age_limit &&
		      back.seek_avg_read == m.seek_avg_read && back.rate_od_mbs == m.rate_od_mbs &&
		      back.prio_policy == m.prio_policy && back.layout == m.layout);
		CHECK_EQ_STR(disk_model_source(&back, opt_find(disk_model_options(), "rpm")),
			     disk_model_source(&m, opt_find(disk_model_options(), "rpm")));
		free(text);
	}
	{
		struct disk_model m;
		struct err e;

		CHECK(disk_model_load("he8", &m, &e) == 0);
		CHECK(strstr(disk_model_source(&m, opt_find(disk_model_options(), "rpm")),
			     "data sheet") != NULL);
		CHECK(disk_model_load("nosuchdrive", &m, &e) != 0);
		CHECK(strstr(e.msg, "not a built-in drive") != NULL);
		CHECK(disk_model_load("/nonexistent/x.drive", &m, &e) != 0);
		CHECK(strstr(e.msg, "cannot open") != NULL);
	}

	/* One broken thing at a time, each with the message it must produce. */
	expect_error("rpm", NULL, "key 'rpm' is missing");
	expect_error("rpm", "rpm = fast", "x.drive:");
	expect_error("rpm", "rpm = fast", "key 'rpm': expected an integer 3600..20000, got 'fast'");
	expect_error("rpm", "rpm = 100", "expected an integer 3600..20000, got '100'");
	expect_error("rpm", "rpm = 7200\nrpm = 5400", "key 'rpm' given twice");
	expect_error("rpm", "rpm 7200", "expected 'key = value', got 'rpm 7200'");
	expect_error("rpm", "rpm =", "key 'rpm' has no value");
	expect_error("rpm", "rpm = 7200\nspindle = 7200", "unknown key 'spindle'");
	expect_error("layout", "layout = spiral", "key 'layout': expected one of cylinder, serpentine");
	expect_error("age_limit", "age_limit = soon", "key 'age_limit': expected a time");
	expect_error("queue_depth", "queue_depth = 33", "key 'queue_depth'");
	expect_error("logical_sector_size", "logical_sector_size = 1024", "expected 512 or 4096");
	expect_error2("physical_sector_size", "physical_sector_size = 512",
		      "logical_sector_size", "logical_sector_size = 4096",
		      "smaller than the logical sector size");
	expect_error("rate_id_mbs", "rate_id_mbs = 400", "above rate_od_mbs");
	expect_error("seek_avg_read", "seek_avg_read = 20ms", "seek_track_read < seek_avg_read");
	expect_error("seek_avg_read", "seek_avg_read = 15.9ms", "reachable averages");
	expect_error("ncq", "ncq = 0", "queue depth 1");
	expect_error("cache_size", "cache_size = 1m", "larger than cache_size");
	expect_error("model", "model = this model string is far longer than forty characters",
		     "key 'model'");
	expect_error("rpm", "rpm = 7200\n\x01", "unexpected byte 0x01");
	/*
	 * Seek figures in order but past what a curve can average: refused at
	 * load, with the seek fit's own message under the file and drive names
	 * (the check the model does instead of building the mechanics).
	 */
	expect_error("seek_avg_read", "seek_avg_read = 15.9ms",
		     "x.drive: drive 'he8': seek_avg_read 15.900 ms cannot be met");
	expect_error("seek_avg_write", "seek_avg_write = 0.33ms",
		     "x.drive: drive 'he8': seek_avg_write 0.330 ms cannot be met");
	expect_too_few_cylinders();
	/* The printable range's edges: '~' (0x7e) is text, DEL and 0x80 are not. */
	expect_error("rpm", "rpm = 7200~", "expected an integer");
	expect_error("rpm", "rpm = 7200\n\x7f", "unexpected byte 0x7f");
	expect_error("rpm", "rpm = 7200\n\x80", "unexpected byte 0x80");
	expect_error("rpm", "rpm = 7200\n\x1f", "unexpected byte 0x1f");
	return test_done();
}
