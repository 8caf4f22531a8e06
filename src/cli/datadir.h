/*
 * datadir — where an installed ncqsim keeps its shared files: the drive
 * files (drives/NAME.drive) and the examples (examples/seed.fio, ...).
 *
 * The directory is $NCQSIM_DATADIR when set, else the one compiled in from
 * the Makefile's PREFIX (PREFIX/share/ncqsim, default /usr/local). A name
 * the user gives is looked up there only after it was not found as given,
 * so a checkout and its files always win over an installed copy.
 */
#ifndef NCQSIM_DATADIR_H
#define NCQSIM_DATADIR_H

#include <stddef.h>

/* The data directory in force (never NULL). */
const char *datadir_path(void);
/* The one compiled in (what the man pages and completion name). */
const char *datadir_default(void);

/*
 * For a bare `name` (no '/') that does not exist as given: the path of
 * DATADIR/sub/name, or with `suffix` appended, when that file exists.
 * Returns `buf`, or NULL when there is nothing to find there.
 */
const char *datadir_find(const char *sub, const char *name, const char *suffix, char *buf,
			 size_t len);
/* The same, but `name` itself when nothing is found there. */
const char *datadir_or(const char *sub, const char *name, const char *suffix, char *buf,
		       size_t len);

#endif
