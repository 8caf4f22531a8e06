/*
 * A small JSON reader for tests: parses a document into a tree so tests
 * can check keys and values of ncqsim's output and of fio's samples.
 * Numbers keep their text, so 64-bit integers compare exactly.
 */
#ifndef NCQSIM_TEST_JSON_H
#define NCQSIM_TEST_JSON_H

#include <stddef.h>
#include <stdint.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	int boolean;
	double number;
	char *text;		/* string value, or a number's literal text */
	size_t len;		/* members of an array or object */
	char **keys;		/* object keys, in document order */
	struct json **items;
};

/* Parse one document (trailing whitespace allowed); NULL + message on error. */
struct json *json_parse(const char *text, char *err, size_t errlen);
/* Parse the first JSON object in text that starts with '{' at a line start. */
struct json *json_parse_embedded(const char *text, char *err, size_t errlen);
void json_free(struct json *j);

/* Member of an object, or NULL. */
struct json *json_get(const struct json *obj, const char *key);
/* Dotted path; numeric parts index arrays: "jobs.0.read.clat_ns". */
struct json *json_at(const struct json *root, const char *path);
uint64_t json_u64(const struct json *j);

#endif
