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
	unsigned source;	/* which jobfile_add/_add_text call read it (0, 1, ...) */
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
	size_t file_start;	/* sections before the file being read (not its own) */
	unsigned nsources;	/* jobfile_add/_add_text calls so far */
	unsigned keywords_used;	/* 1 << enum jobfile_keyword: the machine's values taken */
};

/*
 * fio's keywords in option lines: `$pagesize`, `$ncpus`, `$mb_memory` are
 * replaced by this machine's values (sysconf), as fio does; the run says
 * which it took (jobfile_keyword_note).
 */
enum jobfile_keyword { JOBFILE_KW_PAGESIZE, JOBFILE_KW_NCPUS, JOBFILE_KW_MB_MEMORY, JOBFILE_KWS };
/* "$ncpus = 2, $pagesize = 4096" for the keywords in `used`, into buf. */
void jobfile_keyword_note(unsigned used, char *buf, size_t len);

/* Read `path` (and its includes). On error: "FILE:LINE: message". */
int jobfile_read(const char *path, struct jobfile *jf, struct err *e);
/* The same from text in memory (tests, fuzzing); `name` labels messages. */
int jobfile_parse(const char *text, const char *name, struct jobfile *jf, struct err *e);
/*
 * Add the sections of `path` ("-": standard input) or of `text` after
 * those jf holds (start from a zeroed jobfile): fio's several job files,
 * and the job options of its command line. Each file starts with a
 * section of its own.
 */
int jobfile_add(struct jobfile *jf, const char *path, struct err *e);
int jobfile_add_text(struct jobfile *jf, const char *text, const char *name, struct err *e);
void jobfile_free(struct jobfile *jf);

#endif
