/*
 * jobfile — reads fio job files with fio's rules, into sections of raw
 * `key[=value]` lines that know their file and line:
 *
 *   [name]        starts a job; [global] sets defaults for the jobs below it
 *   ; or #        a comment line; a value is also cut at the first ; or #
 *   key=value     (blanks around '=' ignored), or a bare `key` flag
 *   include FILE  reads FILE in place (relative to the including file)
 *   ${VAR}        the environment variable VAR (empty when unset, as fio)
 *
 * Typing the values is the option table's business (job_options.c).
 */
#ifndef NCQSIM_JOBFILE_H
#define NCQSIM_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

#define JOBFILE_NAME_MAX 128

struct jobfile_line {
	char *key;
	char *value;		/* NULL for a bare flag */
	const char *file;	/* owned by the jobfile */
	int line;
};

struct jobfile_section {
	char name[JOBFILE_NAME_MAX];
	bool global;
	const char *file;
	int line;
	struct jobfile_line *lines;
	size_t nlines, cap;
};

struct jobfile {
	struct jobfile_section *sections;
	size_t nsections, cap;
	char **files;		/* every file read, for messages */
	size_t nfiles;
};

/* Read `path` (and its includes). On error: "FILE:LINE: message". */
int jobfile_read(const char *path, struct jobfile *jf, struct err *e);
/* The same from text in memory (tests, fuzzing); `name` labels messages. */
int jobfile_parse(const char *text, const char *name, struct jobfile *jf, struct err *e);
void jobfile_free(struct jobfile *jf);

#endif
