#include "util/json.h"

#include <math.h>

void json_writer_init(struct json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->first[0] = true;
}

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

void json_write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			size_t n = utf8_len((const unsigned char *)s);

			/* A byte that is not UTF-8 becomes U+FFFD: the output stays valid JSON. */
			if (!n) {
				fputs("\\ufffd", out);
				continue;
			}
			fwrite(s, 1, n, out);
			s += n - 1;
			continue;
		}
		switch (c) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (c < 0x20)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

/* Separator, newline and indent before a member, then its key. */
static void member(struct json_writer *w, const char *key)
{
	int i;

	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->out);
		fputc('\n', w->out);
		for (i = 0; i < w->depth; i++)
			fputs("  ", w->out);
	}
	w->first[w->depth] = false;
	if (key) {
		json_write_escaped(w->out, key);
		fputs(" : ", w->out);
	}
}

static void open_container(struct json_writer *w, const char *key, char c)
{
	member(w, key);
	fputc(c, w->out);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_container(struct json_writer *w, char c)
{
	int i, empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty) {
		fputc('\n', w->out);
		for (i = 0; i < w->depth; i++)
			fputs("  ", w->out);
	}
	fputc(c, w->out);
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
	json_write_escaped(w->out, value ? value : "");
}

void json_int(struct json_writer *w, const char *key, long long value)
{
	member(w, key);
	fprintf(w->out, "%lld", value);
}

void json_uint(struct json_writer *w, const char *key, unsigned long long value)
{
	member(w, key);
	fprintf(w->out, "%llu", value);
}

void json_double(struct json_writer *w, const char *key, double value)
{
	member(w, key);
	if (isfinite(value))
		fprintf(w->out, "%f", value);
	else
		fputs("null", w->out);
}

void json_bool(struct json_writer *w, const char *key, bool value)
{
	member(w, key);
	fputs(value ? "true" : "false", w->out);
}

void json_null(struct json_writer *w, const char *key)
{
	member(w, key);
	fputs("null", w->out);
}

void json_writer_finish(struct json_writer *w)
{
	fputc('\n', w->out);
}
