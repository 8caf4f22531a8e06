/*
 * parse — values as users write them, with fio's rules.
 *
 * Each returns 0, or -1 when the text is not a value of that kind; the
 * caller, who knows the option's name, words the message.
 */
#ifndef NCQSIM_PARSE_H
#define NCQSIM_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

/* Integer, decimal or 0x hexadecimal, no suffix. */
int parse_u64(const char *s, uint64_t *v);
int parse_i64(const char *s, int64_t *v);
int parse_double(const char *s, double *v);
/* 1/0, yes/no, true/false, on/off. */
int parse_bool(const char *s, bool *v);

/*
 * A size as fio 3.33 reads it: an integer (or 0x hex) with an optional
 * suffix k, m, g, t, p (any case, optional trailing b or i) meaning powers
 * of kb_base, while kib, mib, gib, tib, pib mean powers of the *other* base
 * (1000 when kb_base is 1024 — fio's code, whatever its HOWTO's list says).
 * "50%" gives *percent = true and *v = 50 when percent is not NULL.
 */
int parse_size(const char *s, unsigned kb_base, uint64_t *v, bool *percent);

/*
 * A time: a bare number counts in unit_ns nanoseconds; suffixes ns,
 * us/usec, ms/msec, s/sec, m/min, h/hour, d/day (any case). A decimal
 * fraction is allowed ("0.23ms", "1.5s") when it is a whole number of
 * nanoseconds.
 */
int parse_time(const char *s, int64_t unit_ns, int64_t *ns);

/* Trim leading and trailing white space in place; returns s. */
char *parse_trim(char *s);

/*
 * snprintf(dst, size, "%s", src) without printf's machinery: src cut to
 * size - 1 bytes and terminated (size > 0).
 */
void parse_copy(char *dst, size_t size, const char *src);

/*
 * The fields of a list separated by `sep`, one per call:
 *
 *	struct parse_fields f;
 *	const char *field;
 *	size_t len;
 *
 *	parse_fields_init(&f, "a,,b", ',');
 *	while (parse_fields_next(&f, &field, &len))
 *		...	("a", 1), ("", 0), ("b", 1)
 *
 * Every separator ends a field, so "a," has two ("a" and "") and "" has
 * one, empty: the caller decides whether an empty field is allowed.
 */
struct parse_fields {
	const char *p;
	char sep;
	bool done;
};

void parse_fields_init(struct parse_fields *f, const char *s, char sep);
bool parse_fields_next(struct parse_fields *f, const char **field, size_t *len);

/*
 * A file of "key = value" lines (drive models, system files): '#' starts a
 * comment, blank lines are skipped, keys and values are trimmed. Calls fn
 * for each line, with the comment after the value (or NULL); an error from
 * fn, and every error about the line's shape, comes back as
 * "FILE:LINE: ...". `what` names the kind of file in messages.
 */
typedef int (*parse_line_fn)(void *ctx, const char *key, const char *value,
			     const char *comment, int line, struct err *e);
int parse_key_lines(const char *text, const char *file, const char *what, parse_line_fn fn,
		    void *ctx, struct err *e);

#endif
