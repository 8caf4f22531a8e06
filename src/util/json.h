/*
 * json — a streaming JSON writer in fio's layout: two spaces of indent a
 * level, "key" : value, floats as %f, so ncqsim's JSON diffs cleanly
 * against fio's. Non-finite floats are written as null (valid JSON,
 * unlike fio's "nan").
 */
#ifndef NCQSIM_JSON_H
#define NCQSIM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32
#define JSON_BUFFER 4096

/*
 * The text collects in buf and goes to out a buffer at a time: a report is
 * hundreds of short pieces, and a stdio call apiece cost more than the rest
 * of the writing. It reaches out when buf fills, and at
 * json_writer_finish() or json_writer_flush(): call one before writing to
 * out otherwise or closing it.
 */
struct json_writer {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH];
	size_t len;			/* bytes in buf */
	char buf[JSON_BUFFER];
};

void json_writer_init(struct json_writer *w, FILE *out);
/* What is buffered, to out (json_writer_finish() does it too). */
void json_writer_flush(struct json_writer *w);
/* key is NULL for the top level and for array elements. */
void json_object_begin(struct json_writer *w, const char *key);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w, const char *key);
void json_array_end(struct json_writer *w);
void json_string(struct json_writer *w, const char *key, const char *value);
void json_int(struct json_writer *w, const char *key, long long value);
void json_uint(struct json_writer *w, const char *key, unsigned long long value);
void json_double(struct json_writer *w, const char *key, double value);
void json_bool(struct json_writer *w, const char *key, bool value);
void json_null(struct json_writer *w, const char *key);
/* Close the top-level value with a newline, and flush. */
void json_writer_finish(struct json_writer *w);

/*
 * snprintf(buf, size, "%f", value), the number as json_double() writes
 * it, converted by hand below 2^53 (exactly: the same text), for keys
 * such as a percentile's "99.900000".
 */
void json_format_f(char *buf, size_t size, double value);

/* Write s as a JSON string literal (with quotes). */
void json_write_escaped(FILE *out, const char *s);
/*
 * Text already rendered by a writer whose depth was this one's (see
 * json_render_member): written as the next member, with its separator.
 */
void json_raw_member(struct json_writer *w, const char *text);

/*
 * A small reader for ncqsim's own JSON (compare's shard files): the whole
 * text into a tree. Numbers keep their text (so 64-bit integers and hex
 * floats read back exactly); strings are unescaped (\uXXXX below U+0080 and
 * U+FFFD only, which is all the writer produces besides plain UTF-8).
 */
enum json_vtype { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct json_value {
	enum json_vtype type;
	bool b;
	char *text;			/* NUMBER and STRING */
	unsigned n;			/* ARRAY and OBJECT: members */
	char **keys;			/* OBJECT */
	struct json_value *items;
};

/* 0, or -1 with *line and what was expected in msg. */
int json_read(const char *text, struct json_value *v, unsigned *line, char *msg, size_t len);
void json_value_free(struct json_value *v);
/* The member named key of an object, or NULL. */
const struct json_value *json_member(const struct json_value *obj, const char *key);

#endif
