#include "disk/cdlpage.h"

#include "util/input.h"
#include "util/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum field {
	F_UNITS, F_INACTIVE, F_INACTIVE_POLICY, F_ACTIVE, F_ACTIVE_POLICY, F_GUIDELINE,
	F_GUIDELINE_POLICY, F_COUNT,
};

static const char *const field_names[F_COUNT] = {
	"t2cdlunits", "max-inactive-time", "max-inactive-time-policy", "max-active-time",
	"max-active-time-policy", "duration-guideline", "duration-guideline-policy",
};

/* Nanoseconds per t2cdlunits code; 0 for "none", -1 for a code SPC-6 does not define here. */
static int64_t unit_ns(uint64_t code)
{
	switch (code) {
	case 0x0: return 0;
	case 0x6: return 500;
	case 0x8: return 1000;
	case 0xa: return 10000000;
	case 0xe: return 500000000;
	}
	return -1;
}

struct page_reader {
	const char *file;
	bool t2a, kind_seen, perf_seen;
	int desc;			/* the descriptor being read, 1..7; 0 before the first */
	bool desc_seen[ATA_CDL_DESCRIPTORS];
	bool field_seen[F_COUNT];
	uint64_t field[F_COUNT];
	struct ata_cdl_desc *out;	/* 7 descriptors */
	struct ata_cdl_log *log;
};

static bool policy_allowed(enum field f, uint64_t p)
{
	switch (f) {
	case F_INACTIVE_POLICY:
		return p == 0x0 || p == 0xd || p == 0xf;
	case F_ACTIVE_POLICY:
		return p == 0x0 || p == 0xd || p == 0xe || p == 0xf;
	case F_GUIDELINE_POLICY:
		return p == 0x0 || p == 0x1 || p == 0x2 || p == 0xd || p == 0xf;
	default:
		return false;
	}
}

static uint32_t to_us(uint64_t value, int64_t ns)
{
	return (uint32_t)(((uint64_t)ns * value + 999) / 1000);
}

/* The descriptor just read is complete: check and store it. */
static int finish_desc(struct page_reader *r, int line, struct err *e)
{
	struct ata_cdl_desc *d;
	int64_t ns;
	unsigned f;

	if (!r->desc)
		return 0;
	for (f = 0; f < F_COUNT; f++)
		if (!r->field_seen[f])
			return err_set(e, "%s:%d: descriptor %d: '%s' is missing (each descriptor gives "
				       "all seven fields)", r->file, line, r->desc, field_names[f]);
	ns = unit_ns(r->field[F_UNITS]);
	if (!ns && (r->field[F_INACTIVE] || r->field[F_ACTIVE] || r->field[F_GUIDELINE]))
		return err_set(e, "%s:%d: descriptor %d: t2cdlunits 0x0 (none) with a nonzero limit",
			       r->file, line, r->desc);
	d = &r->out[r->desc - 1];
	d->max_inactive_us = to_us(r->field[F_INACTIVE], ns);
	d->max_active_us = to_us(r->field[F_ACTIVE], ns);
	d->guideline_us = to_us(r->field[F_GUIDELINE], ns);
	d->inactive_policy = (uint8_t)r->field[F_INACTIVE_POLICY];
	d->active_policy = (uint8_t)r->field[F_ACTIVE_POLICY];
	d->guideline_policy = (uint8_t)r->field[F_GUIDELINE_POLICY];
	return 0;
}

static int page_line(struct page_reader *r, char *key, char *value, int line, struct err *e)
{
	uint64_t v;
	unsigned f;

	if (!strcmp(key, "cdlp")) {
		const char *want = r->t2a ? "T2A" : "T2B";

		if (r->kind_seen)
			return err_set(e, "%s:%d: 'cdlp' given twice", r->file, line);
		if (strcasecmp(value, want))
			return err_set(e, "%s:%d: 'cdlp': expected %s for this page, got '%s'", r->file,
				       line, want, value);
		r->kind_seen = true;
		return 0;
	}
	if (!r->kind_seen)
		return err_set(e, "%s:%d: expected 'cdlp: %s' first, got '%s'", r->file, line,
			       r->t2a ? "T2A" : "T2B", key);
	if (parse_u64(value, &v))
		return err_set(e, "%s:%d: '%s': expected a number (decimal or 0x hex), got '%s'",
			       r->file, line, key, value);
	if (!strcmp(key, "== descriptor")) {
		if (finish_desc(r, line, e))
			return -1;
		if (v < 1 || v > ATA_CDL_DESCRIPTORS)
			return err_set(e, "%s:%d: descriptor: expected 1..7, got '%s'", r->file, line,
				       value);
		if (r->desc_seen[v - 1])
			return err_set(e, "%s:%d: descriptor %llu given twice", r->file, line,
				       (unsigned long long)v);
		r->desc = (int)v;
		r->desc_seen[v - 1] = true;
		memset(r->field_seen, 0, sizeof(r->field_seen));
		return 0;
	}
	if (!strcmp(key, "perf-vs-duration-guideline")) {
		if (!r->t2a)
			return err_set(e, "%s:%d: 'perf-vs-duration-guideline' belongs to a T2A page",
				       r->file, line);
		if (r->perf_seen || r->desc)
			return err_set(e, "%s:%d: 'perf-vs-duration-guideline' once, before the "
				       "descriptors", r->file, line);
		if (v > 0xc)
			return err_set(e, "%s:%d: 'perf-vs-duration-guideline': expected 0x0..0xc, "
				       "got '%s'", r->file, line, value);
		r->perf_seen = true;
		r->log->perf_vs_guideline = (uint8_t)v;
		return 0;
	}
	for (f = 0; f < F_COUNT; f++)
		if (!strcmp(key, field_names[f]))
			break;
	if (f == F_COUNT)
		return err_set(e, "%s:%d: unknown field '%s'", r->file, line, key);
	if (!r->desc)
		return err_set(e, "%s:%d: '%s' before '== descriptor: N'", r->file, line, key);
	if (r->field_seen[f])
		return err_set(e, "%s:%d: descriptor %d: '%s' given twice", r->file, line, r->desc,
			       key);
	if (f == F_UNITS && unit_ns(v) < 0)
		return err_set(e, "%s:%d: 't2cdlunits': expected 0x0, 0x6, 0x8, 0xa or 0xe, got '%s'",
			       r->file, line, value);
	if ((f == F_INACTIVE || f == F_ACTIVE || f == F_GUIDELINE) && v > 0xffff)
		return err_set(e, "%s:%d: '%s': expected 0..65535 units, got '%s'", r->file, line,
			       key, value);
	if ((f == F_INACTIVE_POLICY || f == F_ACTIVE_POLICY || f == F_GUIDELINE_POLICY) &&
	    !policy_allowed((enum field)f, v))
		return err_set(e, "%s:%d: '%s': expected %s, got '%s'", r->file, line, key,
			       f == F_INACTIVE_POLICY ? "0x0, 0xd or 0xf" :
			       f == F_ACTIVE_POLICY ? "0x0, 0xd, 0xe or 0xf" :
			       "0x0, 0x1, 0x2, 0xd or 0xf", value);
	r->field[f] = v;
	r->field_seen[f] = true;
	return 0;
}

int disk_cdl_page_parse(const char *text, const char *file, bool t2a, struct ata_cdl_log *l,
			struct err *e)
{
	struct page_reader r = { .file = file, .t2a = t2a, .log = l };
	const char *p = text;
	int line = 0;
	unsigned i;

	r.out = t2a ? l->read : l->write;
	memset(r.out, 0, sizeof(l->read));
	if (t2a)
		l->perf_vs_guideline = 0;
	while (*p) {
		char buf[256], *key, *value, *colon, *hash;
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		line++;
		if (len >= sizeof(buf))
			return err_set(e, "%s:%d: line longer than %zu characters", file, line,
				       sizeof(buf) - 1);
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (nl ? 1 : 0);
		if ((hash = strchr(buf, '#')))
			*hash = '\0';
		key = parse_trim(buf);
		if (!*key)
			continue;
		colon = strchr(key, ':');
		if (!colon)
			return err_set(e, "%s:%d: expected 'field: value', got '%s'", file, line, key);
		*colon = '\0';
		value = parse_trim(colon + 1);
		key = parse_trim(key);
		if (page_line(&r, key, value, line, e))
			return -1;
	}
	if (finish_desc(&r, line, e))
		return -1;
	if (!r.kind_seen)
		return err_set(e, "%s: not a CDL page: no 'cdlp: %s' line", file, t2a ? "T2A" : "T2B");
	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++)
		if (!r.desc_seen[i])
			return err_set(e, "%s: descriptor %u is missing (a page gives all seven)", file,
				       i + 1);
	return 0;
}

/* ---- built-in pages: drives/NAME.cdl ---- */

static const struct {
	const char *name;
	const char *text;
} builtin_pages[] = {
	{ "hc570-t2a",
#include "hc570-t2a.cdl.inc"
	},
	{ "hc570-t2b",
#include "hc570-t2b.cdl.inc"
	},
};

int disk_cdl_page_load(const char *name_or_path, bool t2a, struct ata_cdl_log *l,
		       struct err *e)
{
	char *text;
	size_t len;
	unsigned i;
	int rc;

	if (!strcmp(name_or_path, "none")) {
		memset(t2a ? l->read : l->write, 0, sizeof(l->read));
		if (t2a)
			l->perf_vs_guideline = 0;
		return 0;
	}
	for (i = 0; i < sizeof(builtin_pages) / sizeof(builtin_pages[0]); i++)
		if (!strcmp(name_or_path, builtin_pages[i].name)) {
			char label[64];

			snprintf(label, sizeof(label), "built-in page '%s'", builtin_pages[i].name);
			return disk_cdl_page_parse(builtin_pages[i].text, label, t2a, l, e);
		}
	if (input_read(name_or_path, "CDL page", 1 << 16, true, &text, &len, e)) {
		char why[sizeof(e->msg)];

		snprintf(why, sizeof(why), "%s", e->msg);
		return err_set(e, "%s (expected none, a built-in page such as hc570-t2a, or a file)",
			       why);
	}
	rc = disk_cdl_page_parse(text, name_or_path, t2a, l, e);
	free(text);
	return rc;
}
