/*
 * Values as users write them (fio's size and time rules), the option
 * table setter with its messages, and the JSON writer's layout.
 */
#include "testlib.h"
#include "util/json.h"
#include "util/opt.h"
#include "util/parse.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_sizes(void)
{
	static const struct {
		const char *s;
		unsigned kb_base;
		uint64_t v;
	} ok[] = {
		{ "4096", 1024, 4096 }, { "4k", 1024, 4096 }, { "4K", 1024, 4096 },
		{ "4kb", 1024, 4096 }, { "4KB", 1024, 4096 }, { "4ki", 1024, 4096 },
		{ "4kib", 1024, 4000 }, { "4KiB", 1024, 4000 },	/* fio 3.33: the other base */
		{ "1m", 1024, 1048576 }, { "1mib", 1024, 1000000 }, { "2g", 1024, 2147483648ULL },
		{ "1t", 1024, 1099511627776ULL }, { "1p", 1024, 1125899906842624ULL },
		{ "4k", 1000, 4000 }, { "4kib", 1000, 4096 }, { "0x1000", 1024, 4096 },
		{ "0", 1024, 0 },
	};
	static const char *bad[] = { "", "4q", "k", "4kk", "4 k", "-4k", "4.5k", "4kbb",
		"99999999999999999999", "16777216t", "0x", "4%" };
	uint64_t v;
	bool pct;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_MSG(parse_size(ok[i].s, ok[i].kb_base, &v, NULL) == 0, "'%s' rejected", ok[i].s);
		CHECK_MSG(v == ok[i].v, "'%s' (kb_base %u) = %llu, expected %llu", ok[i].s,
			  ok[i].kb_base, (unsigned long long)v, (unsigned long long)ok[i].v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(parse_size(bad[i], 1024, &v, NULL) != 0, "'%s' accepted", bad[i]);
	CHECK(parse_size("50%", 1024, &v, &pct) == 0 && pct && v == 50);
	CHECK(parse_size("150%", 1024, &v, &pct) != 0);
}

static void test_times(void)
{
	static const struct {
		const char *s;
		int64_t unit, ns;
	} ok[] = {
		{ "5", 1000000000, 5000000000LL }, { "500ms", 1000000000, 500000000 },
		{ "2m", 1000000000, 120000000000LL }, { "1h", 1000000000, 3600000000000LL },
		{ "10", 1000, 10000 },		/* thinktime: microseconds */
		{ "10ms", 1000, 10000000 }, { "3us", 1, 3000 }, { "7ns", 1000, 7 },
		{ "1d", 1, 86400000000000LL }, { "2s", 1000000, 2000000000 }, { "2sec", 1, 2000000000 },
		{ "250usec", 1, 250000 }, { "1min", 1, 60000000000LL },
		{ "0.23ms", 1, 230000 }, { "1.5s", 1000, 1500000000 }, { "2.5", 1000000, 2500000 },
	};
	static const char *bad[] = { "", "5x", "ms", "1.5ns", "-1", "5 s", "99999999999999999999",
		"200000d", "1.", ".5s", "1.0000000001s" };
	int64_t ns;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_MSG(parse_time(ok[i].s, ok[i].unit, &ns) == 0, "'%s' rejected", ok[i].s);
		CHECK_MSG(ns == ok[i].ns, "'%s' = %lld ns, expected %lld", ok[i].s,
			  (long long)ns, (long long)ok[i].ns);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(parse_time(bad[i], 1000000000, &ns) != 0, "'%s' accepted", bad[i]);
}

static void test_scalars(void)
{
	uint64_t u;
	int64_t i;
	double d;
	bool b;

	CHECK(parse_u64("18446744073709551615", &u) == 0 && u == UINT64_MAX);
	CHECK(parse_u64("18446744073709551616", &u) != 0);
	CHECK(parse_u64("12a", &u) != 0);
	CHECK(parse_i64("-9223372036854775808", &i) == 0 && i == INT64_MIN);
	CHECK(parse_i64("9223372036854775808", &i) != 0);
	CHECK(parse_double("0.25", &d) == 0 && d == 0.25);
	CHECK(parse_double("nan", &d) != 0);
	CHECK(parse_double("1e999", &d) != 0);
	CHECK(parse_double("", &d) != 0);
	CHECK(parse_bool("on", &b) == 0 && b);
	CHECK(parse_bool("No", &b) == 0 && !b);
	CHECK(parse_bool("2", &b) != 0);
}

struct conf {
	bool flag;
	int64_t depth;
	unsigned qd;
	uint64_t bs;
	int64_t expire;
	double ratio;
	int mode;
	char name[8];
};

static const struct opt_choice modes[] = {
	{ "fifo", 1, "first come" }, { "satf", 2, "shortest access time first" }, { NULL, 0, NULL },
};

static const struct opt_def table[] = {
	{ .name = "flag", .type = OPT_FLAG, .offset = offsetof(struct conf, flag), .def = "0" },
	{ .name = "depth", .type = OPT_INT, .offset = offsetof(struct conf, depth), .def = "1",
	  .min = 1, .max = 32 },
	{ .name = "qd", .type = OPT_UINT, .offset = offsetof(struct conf, qd), .def = "32",
	  .flags = OPT_F_READONLY },
	{ .name = "bs", .type = OPT_SIZE, .offset = offsetof(struct conf, bs), .def = "4k",
	  .alias = "blocksize" },
	{ .name = "expire", .type = OPT_TIME, .offset = offsetof(struct conf, expire),
	  .def = "500", .time_unit = 1000000, .min = 0, .max = 3600000000000LL },
	{ .name = "ratio", .type = OPT_DOUBLE, .offset = offsetof(struct conf, ratio), .def = "0.5",
	  .dmin = 0, .dmax = 1 },
	{ .name = "mode", .type = OPT_ENUM, .offset = offsetof(struct conf, mode), .def = "satf",
	  .choices = modes },
	{ .name = "name", .type = OPT_STRING, .offset = offsetof(struct conf, name),
	  .size = sizeof(((struct conf *)0)->name), .def = "x" },
	OPT_END,
};

static void test_opt_table(void)
{
	struct conf c;
	struct err e;
	char buf[64];

	CHECK_EQ_INT(opt_defaults(table, &c, "option", &e), 0);
	CHECK_EQ_INT(c.depth, 1);
	CHECK_EQ_INT(c.qd, 32);
	CHECK_EQ_U64(c.bs, 4096);
	CHECK_EQ_INT(c.expire, 500000000);
	CHECK_EQ_INT(c.mode, 2);
	CHECK_EQ_STR(c.name, "x");

	CHECK_EQ_INT(opt_set(opt_find(table, "flag"), &c, NULL, "option", 1024, &e), 0);
	CHECK(c.flag);
	CHECK(opt_find(table, "blocksize") == opt_find(table, "bs"));
	CHECK(opt_find(table, "nope") == NULL);

	CHECK(opt_set(opt_find(table, "bs"), &c, "4q", "option", 1024, &e) != 0);
	CHECK_EQ_STR(e.msg, "option 'bs': expected a size such as 4k, got '4q'");
	CHECK(opt_set(opt_find(table, "depth"), &c, "33", "option", 1024, &e) != 0);
	CHECK_EQ_STR(e.msg, "option 'depth': expected an integer 1..32, got '33'");
	CHECK(opt_set(opt_find(table, "qd"), &c, "4", "knob", 1024, &e) != 0);
	CHECK_EQ_STR(e.msg, "knob 'qd' is read-only");
	CHECK(opt_set(opt_find(table, "mode"), &c, "rr", "key", 1024, &e) != 0);
	CHECK_EQ_STR(e.msg, "key 'mode': expected one of fifo, satf, got 'rr'");
	CHECK(opt_set(opt_find(table, "ratio"), &c, "1.5", "option", 1024, &e) != 0);
	CHECK(opt_set(opt_find(table, "name"), &c, "too long!", "option", 1024, &e) != 0);
	CHECK(opt_set(opt_find(table, "depth"), &c, NULL, "option", 1024, &e) != 0);
	CHECK_EQ_STR(e.msg, "option 'depth' needs a value");
	CHECK(opt_set(opt_find(table, "expire"), &c, "2h", "knob", 1024, &e) != 0);

	CHECK_EQ_INT(opt_set(opt_find(table, "expire"), &c, "10s", "knob", 1024, &e), 0);
	opt_format(opt_find(table, "expire"), &c, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "10s");
	opt_format(opt_find(table, "mode"), &c, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "satf");
	opt_format_time(2500000, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "2.5ms");
	opt_format_time(230000, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "230us");
	opt_format_time(10000000000LL, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "10s");
	opt_format_time(1500, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "1.5us");
	opt_format(opt_find(table, "bs"), &c, buf, sizeof(buf));
	CHECK_EQ_STR(buf, "4k");
}

/* A string as json_write_escaped writes it. */
static const char *escaped(const char *in)
{
	static char out[256];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	json_write_escaped(f, in);
	fclose(f);
	snprintf(out, sizeof(out), "%s", text);
	free(text);
	return out;
}

/*
 * Each ASCII byte alone: printable ones but '"' and '\\' stand for
 * themselves (0x7f too), the rest below 0x20 are escaped (fails when the
 * writer's table of plain bytes is off by one anywhere).
 */
static void test_json_ascii(void)
{
	unsigned c, bad = 0;

	for (c = 1; c < 0x80; c++) {
		char in[2] = { (char)c, 0 }, want[16];

		if (c >= 0x20 && c != '"' && c != '\\')
			snprintf(want, sizeof(want), "\"%c\"", c);
		else if (c == '"' || c == '\\')
			snprintf(want, sizeof(want), "\"\\%c\"", c);
		else if (c == '\n' || c == '\t' || c == '\r')
			snprintf(want, sizeof(want), "\"\\%c\"", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		bad += strcmp(escaped(in), want) != 0;
	}
	CHECK_MSG(bad == 0, "%u ASCII bytes escaped wrongly", bad);
}

/* Valid UTF-8 passes through; every byte that is not becomes \ufffd. */
static void test_json_utf8(void)
{
	CHECK_EQ_STR(escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe"),
		     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe\"");
	CHECK_EQ_STR(escaped("j\xff"), "\"j\\ufffd\"");
	CHECK_EQ_STR(escaped("\xc3"), "\"\\ufffd\"");			/* cut short */
	CHECK_EQ_STR(escaped("\xc0\xaf"), "\"\\ufffd\\ufffd\"");	/* overlong '/' */
	CHECK_EQ_STR(escaped("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");	/* a surrogate */
	CHECK_EQ_STR(escaped("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* > U+10FFFF */
	CHECK_EQ_STR(escaped("\xe2\x82x"), "\"\\ufffd\\ufffdx\"");
}

static void test_json_writer(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_writer w;

	json_writer_init(&w, f);
	json_object_begin(&w, NULL);
	json_string(&w, "fio version", "ncqsim-0.1");
	json_string(&w, "bs", "4k\"\n");
	json_int(&w, "groupid", -1);
	json_double(&w, "iops", 1.5);
	json_double(&w, "bad", 0.0 / 0.0);
	json_object_end(&w);
	json_writer_finish(&w);
	fclose(f);
	CHECK_EQ_STR(text, "{\n  \"fio version\" : \"ncqsim-0.1\",\n  \"bs\" : \"4k\\\"\\n\",\n"
		     "  \"groupid\" : -1,\n  \"iops\" : 1.500000,\n  \"bad\" : null\n}\n");
	free(text);

	text = NULL;
	f = open_memstream(&text, &len);
	json_writer_init(&w, f);
	json_object_begin(&w, NULL);
	json_string(&w, "a", "x");
	json_object_begin(&w, "empty");
	json_object_end(&w);
	json_array_begin(&w, "list");
	json_uint(&w, NULL, 1);
	json_bool(&w, NULL, true);
	json_array_end(&w);
	json_object_end(&w);
	json_writer_finish(&w);
	fclose(f);
	CHECK_EQ_STR(text, "{\n  \"a\" : \"x\",\n  \"empty\" : {},\n  \"list\" : [\n    1,\n    true\n  ]\n}\n");
	free(text);
}

/* One number member as the writer writes it, without the object around it. */
static const char *json_number(int kind, long long i, unsigned long long u, double d)
{
	static char out[512];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_writer w;

	json_writer_init(&w, f);
	if (kind == 'i')
		json_int(&w, NULL, i);
	else if (kind == 'u')
		json_uint(&w, NULL, u);
	else
		json_double(&w, NULL, d);
	json_writer_flush(&w);
	fclose(f);
	snprintf(out, sizeof(out), "%s", text);
	free(text);
	return out;
}

/*
 * Integers and whole doubles are written by hand, not by printf: the same
 * text as %lld, %llu and %f at their edges (the sign, 0, the limits, 2^53
 * and past it, negative zero, fractions, NaN and infinities).
 */
static void test_json_numbers(void)
{
	static const long long ints[] = { 0, 1, -1, 9, 10, -10, 1234567890123LL, LLONG_MAX,
		LLONG_MIN, LLONG_MIN + 1 };
	static const unsigned long long uints[] = { 0, 1, 10, 99, 100, 4294967296ULL,
		ULLONG_MAX, ULLONG_MAX - 1 };
	static const double doubles[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 1e-7, 2.5e-7, 99.9999995,
		4503599627370495.5, 9007199254740991.0, 9007199254740992.0, 9007199254740994.0,
		18446744073709551616.0, 1e300, -1e300, 123456.0, 0.1 + 0.2 };
	char want[512];
	unsigned k;

	for (k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
		snprintf(want, sizeof(want), "%lld", ints[k]);
		CHECK_EQ_STR(json_number('i', ints[k], 0, 0), want);
	}
	for (k = 0; k < sizeof(uints) / sizeof(uints[0]); k++) {
		snprintf(want, sizeof(want), "%llu", uints[k]);
		CHECK_EQ_STR(json_number('u', 0, uints[k], 0), want);
	}
	for (k = 0; k < sizeof(doubles) / sizeof(doubles[0]); k++) {
		snprintf(want, sizeof(want), "%f", doubles[k]);
		CHECK_EQ_STR(json_number('d', 0, 0, doubles[k]), want);
	}
	CHECK_EQ_STR(json_number('d', 0, 0, -0.0), "-0.000000");
	CHECK_EQ_STR(json_number('d', 0, 0, 1.0 / 0.0), "null");
	CHECK_EQ_STR(json_number('d', 0, 0, -1.0 / 0.0), "null");
	CHECK_EQ_STR(json_number('d', 0, 0, 0.0 / 0.0), "null");
}

/*
 * Fractions are converted by hand too: against printf's %f for values of
 * every binary exponent the hand path takes (subnormals to 2^53), with
 * random mantissas, and for the exact ties at the sixth decimal (odd
 * multiples of 2^-7: 0.0078125 rounds to even, 0.0234375 up) and the
 * values either side of them (fails when ties round away from zero, or a
 * carry into the integer part is lost).
 */
static void test_json_fractions(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char want[512];
	unsigned k, bad = 0;
	int e;

	for (e = -1074; e < 53; e++)
		for (k = 0; k < 24; k++) {
			double d;
			uint64_t bits;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			d = ldexp(1.0 + (double)(x >> 12) / 4503599627370496.0, e);
			if (k & 1)
				d = -d;
			if (k == 2)
				d = ldexp(1.0, e);		/* a power of two */
			if (k == 3) {
				memcpy(&bits, &d, sizeof(bits));
				bits++;				/* the next double up */
				memcpy(&d, &bits, sizeof(bits));
			}
			snprintf(want, sizeof(want), "%f", d);
			bad += strcmp(json_number('d', 0, 0, d), want) != 0;
			{
				char got[512];
				size_t cut = k < 8 ? 4 + k : sizeof(got);	/* cut short too */

				snprintf(want, cut, "%f", d);
				json_format_f(got, cut, d);
				bad += strcmp(got, want) != 0;
			}
		}
	{
		/* A size of 0 or 1, as snprintf(): nothing written, or the NUL alone. */
		char got[4] = "xyz";

		json_format_f(got, 0, 2.5);
		bad += strcmp(got, "xyz") != 0;
		json_format_f(got, 1, 2.5);
		bad += got[0] != '\0' || got[1] != 'y';
	}
	for (k = 1; k < 4000; k += 2) {
		double tie = (double)k / 128.0 + (double)(k % 7) * 65536.0;

		snprintf(want, sizeof(want), "%f", tie);
		bad += strcmp(json_number('d', 0, 0, tie), want) != 0;
		snprintf(want, sizeof(want), "%f", nextafter(tie, 0.0));
		bad += strcmp(json_number('d', 0, 0, nextafter(tie, 0.0)), want) != 0;
		snprintf(want, sizeof(want), "%f", nextafter(tie, 1e300));
		bad += strcmp(json_number('d', 0, 0, nextafter(tie, 1e300)), want) != 0;
	}
	snprintf(want, sizeof(want), "%f", 9.9999995);		/* rounds up into the integer part */
	CHECK_EQ_STR(json_number('d', 0, 0, 9.9999995), want);
	snprintf(want, sizeof(want), "%f", 9007199254740991.5 - 1.0);
	CHECK_EQ_STR(json_number('d', 0, 0, 9007199254740991.5 - 1.0), want);
	CHECK_EQ_STR(json_number('d', 0, 0, -1e-9), "-0.000000");
	CHECK_EQ_STR(json_number('d', 0, 0, 4.9406564584124654e-324), "0.000000");
	CHECK_EQ_STR(json_number('d', 0, 0, 0.0078125), "0.007812");
	CHECK_EQ_STR(json_number('d', 0, 0, 0.0234375), "0.023438");
	CHECK_MSG(bad == 0, "%u fractions written unlike printf's %%f", bad);
}

/* parse_copy() writes what snprintf's "%s" writes: cut to fit, always terminated. */
static void test_copy(void)
{
	static const char *const srcs[] = { "", "a", "abc", "abcd", "abcdefgh" };
	unsigned k, size;

	for (k = 0; k < sizeof(srcs) / sizeof(srcs[0]); k++)
		for (size = 1; size <= 6; size++) {
			char got[8], want[8];

			memset(got, 'x', sizeof(got));
			memset(want, 'x', sizeof(want));
			parse_copy(got, size, srcs[k]);
			snprintf(want, size, "%s", srcs[k]);
			CHECK(!memcmp(got, want, sizeof(got)));
		}
}

/* Every field of a separated list, joined with '|' so empty fields show. */
static const char *fields(const char *s)
{
	static char out[128];
	struct parse_fields f;
	const char *p;
	size_t len, n = 0;
	unsigned i = 0;

	out[0] = '\0';
	parse_fields_init(&f, s, ',');
	while (parse_fields_next(&f, &p, &len))
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%.*s", i++ ? "|" : "", (int)len, p);
	return out;
}

static void test_fields(void)
{
	CHECK_EQ_STR(fields("a,bc,d"), "a|bc|d");
	CHECK_EQ_STR(fields("a,,b"), "a||b");
	CHECK_EQ_STR(fields("a,"), "a|");
	CHECK_EQ_STR(fields(",a"), "|a");
	CHECK_EQ_STR(fields("abc"), "abc");
	CHECK_EQ_STR(fields(""), "");
	CHECK_EQ_STR(fields(","), "|");
}

/* The reader of compare's shard files: what the writer writes reads back; broken text is refused. */
static void test_json_reader(void)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *msg;
	} bad[] = {
		{ "", 1, "expected a JSON value" },
		{ "{", 1, "expected a member name in quotes" },
		{ "{\n  \"a\" : 1,\n", 3, "expected a member name in quotes" },
		{ "{ \"a\" 1 }", 1, "expected ':' after a member name" },
		{ "{ \"a\" : 1 ]", 1, "expected ',' or '}'" },
		{ "[1, 2", 1, "expected ',' or ']'" },
		{ "[1,\n2,\nx]", 3, "expected a JSON value" },
		{ "\"abc", 1, "expected a closing '\"' on the line" },
		{ "\"a\\qb\"", 1, "expected a JSON escape after '\\'" },
		{ "\"\\u12g4\"", 1, "expected four hex digits after \\u" },
		{ "{} {}", 1, "expected the end of the text after the top-level value" },
		{ "nul", 1, "expected a JSON value" },
	};
	struct json_value v;
	const struct json_value *m;
	char msg[128], *text = NULL;
	size_t len = 0, i;
	unsigned line;
	FILE *f;
	struct json_writer w;

	/* What json_writer writes, including escapes and nesting, reads back. */
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	json_writer_init(&w, f);
	json_object_begin(&w, NULL);
	json_string(&w, "s", "a \"q\" \\ \n\t\x01 é");
	json_int(&w, "i", -42);
	json_uint(&w, "u", 18446744073709551615ULL);
	json_bool(&w, "b", true);
	json_null(&w, "z");
	json_array_begin(&w, "a");
	json_uint(&w, NULL, 1);
	json_object_begin(&w, NULL);
	json_object_end(&w);
	json_array_end(&w);
	json_object_end(&w);
	json_writer_finish(&w);
	fclose(f);
	CHECK_MSG(json_read(text, &v, &line, msg, sizeof(msg)) == 0, "line %u: %s", line, msg);
	CHECK(v.type == JV_OBJECT && v.n == 6);
	m = json_member(&v, "s");
	CHECK(m && m->type == JV_STRING && !strcmp(m->text, "a \"q\" \\ \n\t\x01 é"));
	m = json_member(&v, "i");
	CHECK(m && m->type == JV_NUMBER && !strcmp(m->text, "-42"));
	m = json_member(&v, "u");
	CHECK(m && m->type == JV_NUMBER && !strcmp(m->text, "18446744073709551615"));
	m = json_member(&v, "b");
	CHECK(m && m->type == JV_BOOL && m->b);
	m = json_member(&v, "z");
	CHECK(m && m->type == JV_NULL);
	m = json_member(&v, "a");
	CHECK(m && m->type == JV_ARRAY && m->n == 2 && m->items[1].type == JV_OBJECT &&
	      m->items[1].n == 0);
	CHECK(json_member(&v, "missing") == NULL && json_member(m, "s") == NULL);
	json_value_free(&v);
	free(text);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		CHECK_MSG(json_read(bad[i].text, &v, &line, msg, sizeof(msg)) != 0, "'%s' accepted",
			  bad[i].text);
		CHECK_MSG(line == bad[i].line && !strcmp(msg, bad[i].msg),
			  "'%s': line %u '%s', expected line %u '%s'", bad[i].text, line, msg,
			  bad[i].line, bad[i].msg);
	}
}

int main(void)
{
	test_fields();
	test_json_utf8();
	test_sizes();
	test_times();
	test_scalars();
	test_opt_table();
	test_json_writer();
	test_json_ascii();
	test_copy();
	test_json_fractions();
	test_json_numbers();
	test_json_reader();
	return test_done();
}
