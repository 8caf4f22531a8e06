/*
 * input — reading an input file whole: job files and their includes,
 * system files, drive models, IDENTIFY dumps.
 *
 * Only a regular file is read. Anything else is refused by its type
 * before it is opened ("is a directory", "is a FIFO", "is a character
 * device"): a FIFO would block forever and /dev/zero would never end.
 * A text file may start with a UTF-8 byte-order mark, which is skipped
 * (Windows editors write one); a NUL byte in text is refused.
 */
#ifndef NCQSIM_INPUT_H
#define NCQSIM_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

/*
 * Read `path` (at most `limit` bytes) into a malloc'd, NUL-terminated
 * buffer. `what` names the file in messages ("job file", "drive model").
 * With `text`, a leading BOM is dropped and NUL bytes are refused.
 * Messages: "PATH: cannot read WHAT: it is a directory".
 */
int input_read(const char *path, const char *what, size_t limit, bool text, char **buf,
	       size_t *len, struct err *e);

#endif
