/*
 * outfile — an output file that is either written whole or not at all.
 *
 * A regular file (or a new one) is written under a temporary name in the
 * same folder and renamed over the target only when every byte reached
 * the file system: a full disk or a failed run leaves the old file (or
 * none), never a half-written one that looks complete. Anything else
 * that exists (/dev/null, /dev/full, a terminal, a FIFO) is written in
 * place, with every error still reported. NULL or "-" is standard output.
 *
 * Every write error is caught at outfile_commit(): stdio keeps the first
 * error of a stream (ferror), and fflush/fsync/fclose report the rest.
 */
#ifndef NCQSIM_OUTFILE_H
#define NCQSIM_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/err.h"

struct outfile {
	FILE *f;
	char *path;		/* the target; NULL for standard output */
	char *tmp;		/* the temporary name, or NULL when written in place */
};

/* `what` names the file in messages ("--output", "write_lat_log"). */
int outfile_open(struct outfile *o, const char *path, const char *what, struct err *e);
/* Close and put in place. On error the message names the path and the error. */
int outfile_commit(struct outfile *o, struct err *e);
/* Close and throw away (the temporary); the target stays as it was. */
void outfile_abort(struct outfile *o);
/*
 * A writer whose fwrite() to f came up short passes errno here: once a
 * flush inside fwrite() has failed, stdio throws the buffered text away
 * and keeps only that the stream failed (ferror), not why, so that
 * outfile_commit() would otherwise have to say EIO for a full disk.
 */
void outfile_write_failed(FILE *f, int err);

/*
 * Whether writing `path` would write `other`: the same file (device and
 * inode) when both exist, else the same name once the folder is resolved
 * ("./x" and "x").
 */
bool outfile_same_target(const char *path, const char *other);

#endif
