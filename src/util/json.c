#include "util/json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/outfile.h"

void json_writer_init(struct json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->first[0] = true;
	w->len = 0;
}

void json_writer_flush(struct json_writer *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len)
		outfile_write_failed(w->out, errno);
	w->len = 0;
}

/* put() when the text does not fit what is left: flush first, or write it straight out. */
static __attribute__((noinline)) void put_slow(struct json_writer *w, const char *s, size_t n)
{
	json_writer_flush(w);
	if (n > sizeof(w->buf)) {
		if (fwrite(s, 1, n, w->out) != n)
			outfile_write_failed(w->out, errno);
		return;
	}
	memcpy(w->buf, s, n);
	w->len = n;
}

/*
 * n bytes of text. Most pieces are a few bytes (a key, a separator, a
 * number): up to 16 are copied as two overlapping words each way, inline,
 * rather than by a call to memcpy().
 */
static inline __attribute__((always_inline)) void put(struct json_writer *w, const char *s,
						      size_t n)
{
	char *d = w->buf + w->len;

	if (n > sizeof(w->buf) - w->len) {
		put_slow(w, s, n);
		return;
	}
	w->len += n;
	if (n >= 8 && n <= 16) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n < 4) {
		while (n--)
			*d++ = *s++;
	} else {
		memcpy(d, s, n);
	}
}

static void put_char(struct json_writer *w, char c)
{
	if (w->len == sizeof(w->buf))
		json_writer_flush(w);
	w->buf[w->len++] = c;
}

/* A string literal's text, without its NUL. */
#define PUT_LITERAL(w, s) put((w), (s), sizeof(s) - 1)

/*
 * The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], min, cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the terminating NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* The bytes that stand for themselves in a JSON string: printable ASCII but '"' and '\\'. */
static const unsigned char plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7f] = 1,	/* a GNU C range */
};

static bool plain_byte(unsigned char c)
{
	return plain[c];
}

/* A run of characters that stand for themselves goes into the buffer in one piece. */
static void write_escaped(struct json_writer *w, const char *s)
{
	const char *run = s;

	put_char(w, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (plain_byte(c))
			continue;
		put(w, run, (size_t)(s - run));
		run = s + 1;
		if (c >= 0x80) {
			size_t n = utf8_len((const unsigned char *)s);

			/* A byte that is not UTF-8 becomes U+FFFD: the output stays valid JSON. */
			if (!n) {
				PUT_LITERAL(w, "\\ufffd");
				continue;
			}
			put(w, s, n);
			s += n - 1;
			run = s + 1;
			continue;
		}
		switch (c) {
		case '"':  PUT_LITERAL(w, "\\\""); break;
		case '\\': PUT_LITERAL(w, "\\\\"); break;
		case '\n': PUT_LITERAL(w, "\\n"); break;
		case '\t': PUT_LITERAL(w, "\\t"); break;
		case '\r': PUT_LITERAL(w, "\\r"); break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04x", c);	/* the rest below 0x20 */
			put(w, esc, 6);
		}
	}
	put(w, run, (size_t)(s - run));
	put_char(w, '"');
}

void json_write_escaped(FILE *out, const char *s)
{
	struct json_writer w;

	json_writer_init(&w, out);
	write_escaped(&w, s);
	json_writer_flush(&w);
}

/* A newline and depth levels of two-space indent. */
static void new_line(struct json_writer *w, int depth)
{
	static const char indent[] = "\n                                "
		"                                ";

	_Static_assert(sizeof(indent) == 2 + 2 * JSON_MAX_DEPTH, "a newline and the deepest indent");
	put(w, indent, 1 + 2 * (size_t)depth);
}

/* Separator, newline and indent before a member, then its key. */
static void member(struct json_writer *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			put_char(w, ',');
		new_line(w, w->depth);
	}
	w->first[w->depth] = false;
	if (key) {
		write_escaped(w, key);
		PUT_LITERAL(w, " : ");
	}
}

static void open_container(struct json_writer *w, const char *key, char c)
{
	member(w, key);
	put_char(w, c);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_container(struct json_writer *w, char c)
{
	int empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty)
		new_line(w, w->depth);
	put_char(w, c);
}

void json_object_begin(struct json_writer *w, const char *key)
{
	open_container(w, key, '{');
}

void json_object_end(struct json_writer *w)
{
	close_container(w, '}');
}

void json_array_begin(struct json_writer *w, const char *key)
{
	open_container(w, key, '[');
}

void json_array_end(struct json_writer *w)
{
	close_container(w, ']');
}

void json_string(struct json_writer *w, const char *key, const char *value)
{
	member(w, key);
	write_escaped(w, value ? value : "");
}

/*
 * printf's %llu (after a '-' for %lld), digits written by hand: the report
 * is mostly numbers, and this is a fraction of vfprintf's work. `tail` (a
 * %f's ".000000") follows in the same piece.
 */
static void write_decimal(struct json_writer *w, bool negative, unsigned long long v,
			  const char *tail)
{
	char buf[48], *p = buf + 24;
	size_t n = strlen(tail);

	memcpy(p, tail, n);
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		*--p = '-';
	put(w, p, (size_t)(buf + 24 + n - p));
}

void json_int(struct json_writer *w, const char *key, long long value)
{
	member(w, key);
	write_decimal(w, value < 0,
		      value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value, "");
}

void json_uint(struct json_writer *w, const char *key, unsigned long long value)
{
	member(w, key);
	write_decimal(w, false, value, "");
}

/*
 * printf's "%f" of a finite value below 2^53 in magnitude, exactly: the
 * value is m * 2^e, so value * 10^6 is m * 10^6 / 2^-e, whose quotient
 * rounded to nearest, ties to even (printf's rounding in the default
 * mode), is the value in millionths. m * 10^6 < 2^73 fits 128 bits; past
 * a shift of 74 the value is below half a millionth and rounds to 0.
 * The text ends at buf + size (no NUL); returns its start, *len its length.
 */
static const char *fixed6(char *buf, size_t size, double value, size_t *len)
{
	uint64_t bits, m, ipart;
	unsigned frac, shift, k;
	int exp2;
	char *p = buf + size;

	memcpy(&bits, &value, sizeof(bits));
	exp2 = (int)(bits >> 52 & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (exp2)
		m |= 1ULL << 52;
	else
		exp2 = 1;	/* subnormal */
	/* value = m * 2^(exp2 - 1075); the caller's bound makes the exponent negative or m whole. */
	if (exp2 >= 1075) {
		ipart = m << (exp2 - 1075);
		frac = 0;
	} else if ((shift = (unsigned)(1075 - exp2)) > 74) {
		ipart = 0;
		frac = 0;
	} else {
		unsigned __int128 scaled = (unsigned __int128)m * 1000000u;
		unsigned __int128 q = scaled >> shift;
		unsigned __int128 rest = scaled - (q << shift), half = (unsigned __int128)1 << (shift - 1);

		if (rest > half || (rest == half && (q & 1)))
			q++;
		ipart = (uint64_t)(q / 1000000u);
		frac = (unsigned)(q % 1000000u);
	}
	for (k = 0; k < 6; k++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	*--p = '.';
	do {
		*--p = (char)('0' + ipart % 10);
		ipart /= 10;
	} while (ipart);
	if (signbit(value))
		*--p = '-';
	*len = (size_t)(buf + size - p);
	return p;
}

/* The most fixed6() writes: '-', 16 digits, '.', 6 digits. */
#define FIXED6_MAX 24

static void write_fixed6(struct json_writer *w, double value)
{
	char buf[FIXED6_MAX];
	size_t n;
	const char *p = fixed6(buf, sizeof(buf), value, &n);

	put(w, p, n);
}

void json_format_f(char *buf, size_t size, double value)
{
	char tmp[FIXED6_MAX];
	const char *p;
	size_t n;

	if (!size)	/* as snprintf(buf, 0, ...): nothing written */
		return;
	if (!(fabs(value) < 9007199254740992.0)) {
		snprintf(buf, size, "%f", value);
		return;
	}
	p = fixed6(tmp, sizeof(tmp), value, &n);
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

void json_double(struct json_writer *w, const char *key, double value)
{
	member(w, key);
	/*
	 * A whole number below 2^53 is exact in a double and %f prints it as
	 * its digits and ".000000"; a negative zero or a fraction below 2^53
	 * is converted exactly by hand (write_fixed6()), a larger value by
	 * printf.
	 */
	if (value >= 0 && value < 9007199254740992.0 && !signbit(value) &&
	    (double)(unsigned long long)value == value) {
		write_decimal(w, false, (unsigned long long)value, ".000000");
	} else if (fabs(value) < 9007199254740992.0) {
		write_fixed6(w, value);
	} else if (isfinite(value)) {
		char buf[512];	/* %f of the largest double: 309 digits, '-', ".000000" */
		int n = snprintf(buf, sizeof(buf), "%f", value);

		put(w, buf, (size_t)n);
	} else {
		PUT_LITERAL(w, "null");
	}
}

void json_bool(struct json_writer *w, const char *key, bool value)
{
	member(w, key);
	if (value)
		PUT_LITERAL(w, "true");
	else
		PUT_LITERAL(w, "false");
}

void json_null(struct json_writer *w, const char *key)
{
	member(w, key);
	PUT_LITERAL(w, "null");
}

void json_writer_finish(struct json_writer *w)
{
	put_char(w, '\n');
	json_writer_flush(w);
}

void json_raw_member(struct json_writer *w, const char *text)
{
	if (w->depth > 0 && !w->first[w->depth])
		put_char(w, ',');
	w->first[w->depth] = false;
	put(w, text, strlen(text));
}

/* ---- reading ---- */

struct jparser {
	const char *p;
	unsigned line;
	char *msg;
	size_t len;
	int depth;
};

static int jfail(struct jparser *jp, const char *what)
{
	snprintf(jp->msg, jp->len, "expected %s", what);
	return -1;
}

static void jskip(struct jparser *jp)
{
	while (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\r' || *jp->p == '\n') {
		if (*jp->p == '\n')
			jp->line++;
		jp->p++;
	}
}

static int jstring(struct jparser *jp, char **out)
{
	const char *s = jp->p + 1;
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return jfail(jp, "memory for a string");
	for (;;) {
		char c = *s++;

		if (n + 8 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return jfail(jp, "memory for a string");
			}
			buf = nb;
		}
		if (c == '"')
			break;
		if (!c || c == '\n') {
			free(buf);
			return jfail(jp, "a closing '\"' on the line");
		}
		if (c != '\\') {
			buf[n++] = c;
			continue;
		}
		c = *s++;
		switch (c) {
		case '"': case '\\': case '/': buf[n++] = c; break;
		case 'n': buf[n++] = '\n'; break;
		case 't': buf[n++] = '\t'; break;
		case 'r': buf[n++] = '\r'; break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'u': {
			unsigned cp = 0, i;

			for (i = 0; i < 4; i++) {
				char h = *s++;

				cp <<= 4;
				if (h >= '0' && h <= '9')
					cp |= (unsigned)(h - '0');
				else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')
					cp |= (unsigned)((h | 0x20) - 'a' + 10);
				else {
					free(buf);
					return jfail(jp, "four hex digits after \\u");
				}
			}
			if (cp < 0x80) {
				buf[n++] = (char)cp;
			} else if (cp < 0x800) {
				buf[n++] = (char)(0xc0 | cp >> 6);
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			} else {
				buf[n++] = (char)(0xe0 | cp >> 12);
				buf[n++] = (char)(0x80 | (cp >> 6 & 0x3f));
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			}
			break;
		}
		default:
			free(buf);
			return jfail(jp, "a JSON escape after '\\'");
		}
	}
	buf[n] = '\0';
	jp->p = s;
	*out = buf;
	return 0;
}

static int jvalue(struct jparser *jp, struct json_value *v);

/* Append a member to an array or object. */
static struct json_value *jpush(struct json_value *v, char *key)
{
	struct json_value *items = realloc(v->items, (v->n + 1) * sizeof(*items));

	if (!items)
		return NULL;
	v->items = items;
	if (v->type == JV_OBJECT) {
		char **keys = realloc(v->keys, (v->n + 1) * sizeof(*keys));

		if (!keys)
			return NULL;
		v->keys = keys;
		keys[v->n] = key;
	}
	memset(&items[v->n], 0, sizeof(items[0]));
	return &items[v->n++];
}

static int jcontainer(struct jparser *jp, struct json_value *v, char close)
{
	if (++jp->depth > JSON_MAX_DEPTH)
		return jfail(jp, "less deeply nested JSON");
	jp->p++;
	jskip(jp);
	if (*jp->p == close) {
		jp->p++;
		jp->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		struct json_value *item;

		if (close == '}') {
			if (*jp->p != '"')
				return jfail(jp, "a member name in quotes");
			if (jstring(jp, &key))
				return -1;
			jskip(jp);
			if (*jp->p != ':') {
				free(key);
				return jfail(jp, "':' after a member name");
			}
			jp->p++;
		}
		item = jpush(v, key);
		if (!item) {
			free(key);
			return jfail(jp, "memory for the JSON tree");
		}
		if (jvalue(jp, item))
			return -1;
		jskip(jp);
		if (*jp->p == ',') {
			jp->p++;
			jskip(jp);
			continue;
		}
		if (*jp->p == close) {
			jp->p++;
			jp->depth--;
			return 0;
		}
		return jfail(jp, close == '}' ? "',' or '}'" : "',' or ']'");
	}
}

static int jvalue(struct jparser *jp, struct json_value *v)
{
	jskip(jp);
	switch (*jp->p) {
	case '{':
		v->type = JV_OBJECT;
		return jcontainer(jp, v, '}');
	case '[':
		v->type = JV_ARRAY;
		return jcontainer(jp, v, ']');
	case '"':
		v->type = JV_STRING;
		return jstring(jp, &v->text);
	}
	if (!strncmp(jp->p, "null", 4)) {
		v->type = JV_NULL;
		jp->p += 4;
		return 0;
	}
	if (!strncmp(jp->p, "true", 4) || !strncmp(jp->p, "false", 5)) {
		v->type = JV_BOOL;
		v->b = *jp->p == 't';
		jp->p += v->b ? 4 : 5;
		return 0;
	}
	if (*jp->p == '-' || (*jp->p >= '0' && *jp->p <= '9')) {
		size_t n = strspn(jp->p, "+-0123456789.eE");

		v->type = JV_NUMBER;
		v->text = strndup(jp->p, n);
		if (!v->text)
			return jfail(jp, "memory for a number");
		jp->p += n;
		return 0;
	}
	return jfail(jp, "a JSON value");
}

int json_read(const char *text, struct json_value *v, unsigned *line, char *msg, size_t len)
{
	struct jparser jp = { text, 1, msg, len, 0 };

	memset(v, 0, sizeof(*v));
	if (jvalue(&jp, v) == 0) {
		jskip(&jp);
		if (!*jp.p)
			return 0;
		jfail(&jp, "the end of the text after the top-level value");
	}
	*line = jp.line;
	json_value_free(v);
	return -1;
}

void json_value_free(struct json_value *v)
{
	unsigned i;

	for (i = 0; i < v->n; i++) {
		json_value_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

const struct json_value *json_member(const struct json_value *obj, const char *key)
{
	unsigned i;

	if (!obj || obj->type != JV_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}
