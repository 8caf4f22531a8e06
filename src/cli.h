/*
 * cli — helpers shared by the sub-commands: errors in ncqsim's one-line
 * form, reading input files with a size limit, output formats.
 */
#ifndef NCQSIM_CLI_H
#define NCQSIM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* "ncqsim: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read a whole file (at most `limit` bytes) into a malloc'd, NUL-terminated
 * buffer. On failure prints "ncqsim: FILE: why" and returns NULL.
 */
uint8_t *cli_read_file(const char *path, size_t limit, size_t *len);

enum {
	CLI_OUT_NORMAL	= 1 << 0,
	CLI_OUT_JSON	= 1 << 1,
	CLI_OUT_JSONPLUS = 1 << 2,
};
/*
 * Parse --output-format's comma list ("normal,json+") into CLI_OUT_* bits,
 * allowing only those in `allowed`. Prints the error itself.
 */
int cli_output_formats(const char *list, unsigned allowed, unsigned *formats);

/* Open --output FILE (or stdout for NULL / "-"). Prints the error itself. */
FILE *cli_open_output(const char *path);
void cli_close_output(FILE *f);

#endif
