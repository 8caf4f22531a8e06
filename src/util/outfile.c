#include "util/outfile.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first write error a writer saw on a stream (outfile_write_failed()). */
static _Thread_local FILE *failed_stream;
static _Thread_local int failed_errno;

void outfile_write_failed(FILE *f, int err)
{
	if (failed_stream != f) {
		failed_stream = f;
		failed_errno = err;
	}
}

/* Why the stream failed before its last flush: what its writer saw, or EIO. */
static int earlier_error(FILE *f)
{
	return failed_stream == f && failed_errno ? failed_errno : EIO;
}

static const char *shown(const struct outfile *o)
{
	return o->path ? o->path : "standard output";
}

int outfile_open(struct outfile *o, const char *path, const char *what, struct err *e)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = strdup(path);
	if (!o->path)
		return err_set(e, "%s: out of memory", what);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			free(o->path);
			return err_set(e, "%s: %s is a directory", what, path);
		}
		/* A device, FIFO or socket: written in place (renaming over /dev/null would be a disaster). */
		o->f = fopen(path, "w");
		if (!o->f) {
			err_set(e, "%s: cannot write %s: %s", what, path, strerror(errno));
			free(o->path);
			return -1;
		}
		return 0;
	}
	o->tmp = malloc(strlen(path) + 16);
	if (!o->tmp) {
		free(o->path);
		return err_set(e, "%s: out of memory", what);
	}
	/* Beside the target, so the rename stays within one file system. */
	sprintf(o->tmp, "%s.tmp-XXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		err_set(e, "%s: cannot write %s: %s", what, path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		free(o->path);
		return -1;
	}
	/* mkstemp makes it 0600; an output file gets the usual mode. */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return 0;
}

static void release(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

int outfile_commit(struct outfile *o, struct err *e)
{
	int saved = 0;

	/*
	 * fflush's errno says why; a stream that failed earlier and lost its
	 * data says what its writer saw then (outfile_write_failed()), or EIO.
	 */
	if (fflush(o->f))
		saved = errno ? errno : EIO;
	else if (ferror(o->f))
		saved = earlier_error(o->f);
	failed_stream = NULL;
	if (o->f == stdout) {
		if (saved || ferror(stdout)) {
			clearerr(stdout);
			return err_set(e, "cannot write the report to standard output: %s",
				       strerror(saved ? saved : EIO));
		}
		return 0;
	}
	if (o->tmp && !saved && fsync(fileno(o->f)) && errno != EINVAL)
		saved = errno;
	if (fclose(o->f) && !saved)
		saved = errno ? errno : EIO;
	o->f = NULL;
	if (!saved && o->tmp && rename(o->tmp, o->path))
		saved = errno;
	if (saved) {
		err_set(e, "cannot write %s: %s", shown(o), strerror(saved));
		if (o->tmp)
			unlink(o->tmp);
		release(o);
		return -1;
	}
	release(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (!o->f)
		return;
	if (failed_stream == o->f)
		failed_stream = NULL;
	if (o->f == stdout) {
		fflush(stdout);
	} else {
		fclose(o->f);
		if (o->tmp)
			unlink(o->tmp);
	}
	release(o);
}

/* dirname resolved by realpath, then the last part: "/abs/dir/name"; false if the folder is not there. */
static bool canonical(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	if (slash) {
		size_t n = (size_t)(slash - path);

		if (n >= sizeof(dir))
			return false;
		memcpy(dir, path, n);
		dir[n] = '\0';
		if (!n)
			snprintf(dir, sizeof(dir), "/");
	} else {
		snprintf(dir, sizeof(dir), ".");
	}
	if (!realpath(dir, real))
		return false;
	return (size_t)snprintf(out, len, "%s/%s", real, base) < len;
}

bool outfile_same_target(const char *path, const char *other)
{
	struct stat a, b;
	char ca[PATH_MAX + NAME_MAX + 2], cb[PATH_MAX + NAME_MAX + 2];

	if (!path || !other)
		return false;
	if (!stat(path, &a) && !stat(other, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return canonical(path, ca, sizeof(ca)) && canonical(other, cb, sizeof(cb)) &&
		!strcmp(ca, cb);
}
