#include "util/input.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int input_read(const char *path, const char *what, size_t limit, bool text, char **buf,
	       size_t *len, struct err *e)
{
	struct stat st;
	FILE *f;
	char *b;
	size_t n, skip = 0;

	if (stat(path, &st))
		return err_set(e, "%s: cannot open %s: %s", path, what, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return err_set(e, "%s: cannot read %s: it is %s", path, what, kind_of(st.st_mode));
	if ((uint64_t)st.st_size > limit)
		return err_set(e, "%s: %s larger than %zu bytes (%lld)", path, what, limit,
			       (long long)st.st_size);
	f = fopen(path, "rb");
	if (!f)
		return err_set(e, "%s: cannot open %s: %s", path, what, strerror(errno));
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		fclose(f);
		return err_set(e, "%s: out of memory reading %s", path, what);
	}
	/* The size may have changed since stat: read what is there, up to the limit. */
	n = fread(b, 1, (size_t)st.st_size, f);
	if (ferror(f) || (n == (size_t)st.st_size && fgetc(f) != EOF)) {
		int bad = ferror(f);

		fclose(f);
		free(b);
		return bad ? err_set(e, "%s: cannot read %s", path, what) :
			err_set(e, "%s: %s changed while being read", path, what);
	}
	fclose(f);
	b[n] = '\0';
	if (text) {
		if (n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
			skip = 3;
		if (strlen(b + skip) != n - skip) {
			free(b);
			return err_set(e, "%s: a NUL byte in the %s (it should be text)", path, what);
		}
		if (skip)
			memmove(b, b + skip, n - skip + 1);
	}
	*buf = b;
	*len = n - skip;
	return 0;
}
