/*
 * opt — declarative option tables, in the manner of fio's struct
 * fio_option[]: every option of every kind (fio job options, sysfs knobs,
 * drive-model parameters) is one row giving its name, type, where it is
 * stored, its default, its range or allowed values, its unit, its help and
 * where the default comes from. One setter parses values for all of them,
 * and --help, `ncqsim knobs`, `ncqsim drives NAME` and the docs are
 * generated from the same rows, so they cannot drift apart.
 */
#ifndef NCQSIM_OPT_H
#define NCQSIM_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"
#include "util/plugin.h"

enum opt_type {
	OPT_BOOL,	/* bool: 0/1, yes/no, true/false, on/off */
	OPT_FLAG,	/* bool that may also be given bare ("time_based") */
	OPT_INT,	/* int64_t */
	OPT_UINT,	/* unsigned int */
	OPT_SIZE,	/* uint64_t bytes, fio size suffixes */
	OPT_TIME,	/* int64_t nanoseconds; a bare number counts in time_unit */
	OPT_DOUBLE,	/* double */
	OPT_ENUM,	/* int: the value of the matching choice */
	OPT_STRING,	/* char[size] */
	OPT_CUSTOM,	/* parsed by ->parse */
	OPT_PLUGIN,	/* const struct plugin *: a row of ->registry, by name */
};

struct opt_choice {
	const char *name;
	int value;
	const char *help;
};

struct opt_def;
typedef int (*opt_parse_fn)(const struct opt_def *o, void *base, const char *value,
			    struct err *e);
typedef void (*opt_format_fn)(const struct opt_def *o, const void *base, char *buf,
			      size_t len);

/* Flags. */
enum {
	OPT_F_READONLY	= 1 << 0,	/* can be read, not set */
	OPT_F_HIDDEN	= 1 << 1,	/* not listed in help */
};

struct opt_def {
	const char *name;
	enum opt_type type;
	size_t offset;
	size_t size;			/* OPT_STRING buffer size */
	const char *def;		/* opt_defaults()'s default, as text; NULL = none (zero). Job options have none here: job_options_defaults() sets theirs */
	int64_t min, max;		/* integer/size/time range when min < max */
	double dmin, dmax;		/* OPT_DOUBLE range when dmin < dmax */
	const struct opt_choice *choices;	/* OPT_ENUM, NULL-name terminated */
	const struct plugin_registry *registry;	/* OPT_PLUGIN */
	const char *unit;		/* for help and listings: "ms", "rpm" */
	int64_t time_unit;		/* OPT_TIME: ns per bare unit (0 = 1 s) */
	const char *help;
	const char *source;		/* where the default comes from */
	opt_parse_fn parse;		/* OPT_CUSTOM */
	opt_format_fn format;		/* OPT_CUSTOM: current value as text */
	unsigned flags;
	const char *alias;
};

#define OPT_END { .name = NULL }

/* Find by name or alias in a table ending with OPT_END. */
const struct opt_def *opt_find(const struct opt_def *table, const char *name);

/*
 * Parse `value` and store it. `kind` names what the table holds in error
 * messages ("option", "knob", "key"); on error returns -1 with e.g.
 *   option 'bs': expected a size such as 4k, got '4q'
 * `value` NULL means the option was given bare.
 */
int opt_set(const struct opt_def *o, void *base, const char *value,
	    const char *kind, unsigned kb_base, struct err *e);

/* Store every default of a table (an error there is a bug in the table). */
int opt_defaults(const struct opt_def *table, void *base, const char *kind, struct err *e);

/* The current value as text in the option's own terms ("500ms", "4096"). */
void opt_format(const struct opt_def *o, const void *base, char *buf, size_t len);

/* What the option expects, for messages and help: "a size such as 4k". */
void opt_expectation(const struct opt_def *o, char *buf, size_t len);

/* A time in the largest unit that divides it exactly: "500ms", "10s". */
void opt_format_time(int64_t ns, char *buf, size_t len);

#endif
