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

struct json_writer {
	FILE *out;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_writer_init(struct json_writer *w, FILE *out);
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
/* Close the top-level value with a newline. */
void json_writer_finish(struct json_writer *w);

/* Write s as a JSON string literal (with quotes). */
void json_write_escaped(FILE *out, const char *s);

#endif
