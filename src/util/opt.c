#include "util/opt.h"

#include "util/parse.h"

#include <inttypes.h>
#include <string.h>

/*
 * The first bytes compared inline before strcmp(): a table is scanned from
 * its start for every key read (a drive model's ninety lines scan over a
 * hundred entries each), and almost every entry differs at the first byte.
 */
static bool same_name(const char *a, const char *b)
{
	return a[0] == b[0] && !strcmp(a, b);
}

const struct opt_def *opt_find(const struct opt_def *table, const char *name)
{
	const struct opt_def *o;

	for (o = table; o->name; o++)
		if (same_name(o->name, name) || (o->alias && same_name(o->alias, name)))
			return o;
	return NULL;
}

static bool has_range(const struct opt_def *o)
{
	return o->min < o->max;
}

static void format_choices(const struct opt_def *o, char *buf, size_t len)
{
	const struct opt_choice *c;
	size_t n = 0;

	buf[0] = '\0';
	for (c = o->choices; c && c->name && n < len; c++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", c == o->choices ? "" : ", ", c->name);
}

void opt_format_time(int64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *suffix;
		int64_t ns;
	} units[] = {
		{ "s", 1000000000LL }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 },
	};
	size_t i;
	int64_t mag = ns < 0 ? -ns : ns;

	if (ns == 0) {
		snprintf(buf, len, "0");
		return;
	}
	/* The largest unit not above the value, with as many decimals as needed. */
	for (i = 0; i < sizeof(units) / sizeof(units[0]) - 1 && mag < units[i].ns; i++)
		;
	if (ns % units[i].ns == 0) {
		snprintf(buf, len, "%" PRId64 "%s", ns / units[i].ns, units[i].suffix);
	} else {
		char num[48];
		size_t n;

		snprintf(num, sizeof(num), "%.9f", (double)ns / (double)units[i].ns);
		n = strlen(num);
		while (n > 0 && num[n - 1] == '0')
			num[--n] = '\0';
		snprintf(buf, len, "%s%s", num, units[i].suffix);
	}
}

static void format_size(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "kmgtp";
	int i = -1;

	while (v && v % 1024 == 0 && i < 4) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[i]);
}

void opt_expectation(const struct opt_def *o, char *buf, size_t len)
{
	char lo[32], hi[32], list[512];

	switch (o->type) {
	case OPT_BOOL:
	case OPT_FLAG:
		snprintf(buf, len, "0 or 1");
		return;
	case OPT_INT:
	case OPT_UINT:
		if (has_range(o))
			snprintf(buf, len, "an integer %" PRId64 "..%" PRId64, o->min, o->max);
		else
			snprintf(buf, len, "an integer");
		return;
	case OPT_SIZE:
		if (has_range(o))
			snprintf(buf, len, "a size %" PRId64 "..%" PRId64 " bytes (suffixes k, m, g, t)",
				 o->min, o->max);
		else
			snprintf(buf, len, "a size such as 4k");
		return;
	case OPT_TIME:
		if (has_range(o)) {
			opt_format_time(o->min, lo, sizeof(lo));
			opt_format_time(o->max, hi, sizeof(hi));
			snprintf(buf, len, "a time %s..%s (a bare number is %s)", lo, hi,
				 o->time_unit == 1000000 ? "milliseconds" :
				 o->time_unit == 1000 ? "microseconds" :
				 o->time_unit == 1 ? "nanoseconds" : "seconds");
		} else {
			snprintf(buf, len, "a time such as 500ms or 10s");
		}
		return;
	case OPT_DOUBLE:
		if (o->dmin < o->dmax)
			snprintf(buf, len, "a number %g..%g", o->dmin, o->dmax);
		else
			snprintf(buf, len, "a number");
		return;
	case OPT_ENUM:
		format_choices(o, list, sizeof(list));
		snprintf(buf, len, "one of %s", list);
		return;
	case OPT_STRING:
		snprintf(buf, len, "a string of at most %zu characters", o->size ? o->size - 1 : 0);
		return;
	case OPT_PLUGIN:
		plugin_names(o->registry, list, sizeof(list));
		snprintf(buf, len, "one of %s", list);
		return;
	case OPT_CUSTOM:
		snprintf(buf, len, "%s", o->help ? o->help : "a value");
		return;
	}
	snprintf(buf, len, "a value");
}

static int bad_value(const struct opt_def *o, const char *kind, const char *value,
		     struct err *e)
{
	char want[600];

	opt_expectation(o, want, sizeof(want));
	return err_set(e, "%s '%s': expected %s, got '%s'", kind, o->name, want, value);
}

#define FIELD(type) ((type *)((char *)base + o->offset))

/* Parse and store, read-only or not. */
static int opt_store(const struct opt_def *o, void *base, const char *value,
		     const char *kind, unsigned kb_base, struct err *e)
{
	bool b;
	int64_t i;
	uint64_t u;
	double d;

	if (!value) {
		if (o->type == OPT_FLAG) {
			*FIELD(bool) = true;
			return 0;
		}
		return err_set(e, "%s '%s' needs a value", kind, o->name);
	}
	switch (o->type) {
	case OPT_BOOL:
	case OPT_FLAG:
		if (parse_bool(value, &b))
			return bad_value(o, kind, value, e);
		*FIELD(bool) = b;
		return 0;
	case OPT_INT:
		if (parse_i64(value, &i) || (has_range(o) && (i < o->min || i > o->max)))
			return bad_value(o, kind, value, e);
		*FIELD(int64_t) = i;
		return 0;
	case OPT_UINT:
		if (parse_u64(value, &u) || u > UINT32_MAX ||
		    (has_range(o) && ((int64_t)u < o->min || (int64_t)u > o->max)))
			return bad_value(o, kind, value, e);
		*FIELD(unsigned) = (unsigned)u;
		return 0;
	case OPT_SIZE:
		if (parse_size(value, kb_base, &u, NULL) || u > INT64_MAX ||
		    (has_range(o) && ((int64_t)u < o->min || (int64_t)u > o->max)))
			return bad_value(o, kind, value, e);
		*FIELD(uint64_t) = u;
		return 0;
	case OPT_TIME:
		if (parse_time(value, o->time_unit ? o->time_unit : 1000000000LL, &i) ||
		    (has_range(o) && (i < o->min || i > o->max)))
			return bad_value(o, kind, value, e);
		*FIELD(int64_t) = i;
		return 0;
	case OPT_DOUBLE:
		if (parse_double(value, &d) || (o->dmin < o->dmax && (d < o->dmin || d > o->dmax)))
			return bad_value(o, kind, value, e);
		*FIELD(double) = d;
		return 0;
	case OPT_ENUM: {
		const struct opt_choice *c;

		for (c = o->choices; c && c->name; c++) {
			if (!strcmp(c->name, value)) {
				*FIELD(int) = c->value;
				return 0;
			}
		}
		return bad_value(o, kind, value, e);
	}
	case OPT_PLUGIN: {
		const struct plugin *p = plugin_find(o->registry, value);

		if (!p)
			return bad_value(o, kind, value, e);
		*FIELD(const struct plugin *) = p;
		return 0;
	}
	case OPT_STRING:
		if (strlen(value) >= o->size)
			return bad_value(o, kind, value, e);
		memcpy(FIELD(char), value, strlen(value) + 1);
		return 0;
	case OPT_CUSTOM:
		if (!o->parse)
			return err_set(e, "%s '%s' cannot be set", kind, o->name);
		if (o->parse(o, base, value, e))
			return err_prefix(e, "%s '%s': ", kind, o->name);
		return 0;
	}
	return err_set(e, "%s '%s': unknown type", kind, o->name);
}

int opt_set(const struct opt_def *o, void *base, const char *value,
	    const char *kind, unsigned kb_base, struct err *e)
{
	if (o->flags & OPT_F_READONLY)
		return err_set(e, "%s '%s' is read-only", kind, o->name);
	return opt_store(o, base, value, kind, kb_base, e);
}

int opt_defaults(const struct opt_def *table, void *base, const char *kind, struct err *e)
{
	const struct opt_def *o;

	/* A read-only value still has a default to start from. */
	for (o = table; o->name; o++)
		if (o->def && opt_store(o, base, o->def, kind, 1024, e))
			return err_prefix(e, "default of ");
	return 0;
}

void opt_format(const struct opt_def *o, const void *base, char *buf, size_t len)
{
	const char *p = (const char *)base + o->offset;

	switch (o->type) {
	case OPT_BOOL:
	case OPT_FLAG:
		snprintf(buf, len, "%d", *(const bool *)p ? 1 : 0);
		return;
	case OPT_INT:
		snprintf(buf, len, "%" PRId64, *(const int64_t *)p);
		return;
	case OPT_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)p);
		return;
	case OPT_SIZE:
		format_size(*(const uint64_t *)p, buf, len);
		return;
	case OPT_TIME:
		opt_format_time(*(const int64_t *)p, buf, len);
		return;
	case OPT_DOUBLE:
		snprintf(buf, len, "%g", *(const double *)p);
		return;
	case OPT_ENUM: {
		const struct opt_choice *c;

		for (c = o->choices; c && c->name; c++) {
			if (c->value == *(const int *)p) {
				snprintf(buf, len, "%s", c->name);
				return;
			}
		}
		snprintf(buf, len, "?");
		return;
	}
	case OPT_STRING:
		snprintf(buf, len, "%s", p);
		return;
	case OPT_PLUGIN: {
		const struct plugin *pl = *(const struct plugin *const *)(const void *)p;

		snprintf(buf, len, "%s", pl ? pl->name : "?");
		return;
	}
	case OPT_CUSTOM:
		if (o->format)
			o->format(o, base, buf, len);
		else
			snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "?");
}
