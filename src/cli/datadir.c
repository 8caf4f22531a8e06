#include "cli/datadir.h"

#include "ncqsim_paths.h"	/* build/gen: NCQSIM_DATADIR from the Makefile's PREFIX */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *datadir_path(void)
{
	const char *env = getenv("NCQSIM_DATADIR");

	return env && *env ? env : NCQSIM_DATADIR;
}

const char *datadir_default(void)
{
	return NCQSIM_DATADIR;
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

const char *datadir_find(const char *sub, const char *name, const char *suffix, char *buf,
			 size_t len)
{
	const char *dir = datadir_path();
	struct stat st;
	int n;

	if (!*name || strchr(name, '/') || !stat(name, &st))
		return NULL;
	n = snprintf(buf, len, "%s/%s/%s%s", dir, sub, name, suffix ? suffix : "");
	if (n < 0 || (size_t)n >= len)
		return NULL;
	if (is_file(buf))
		return buf;
	if (suffix) {
		/* "he8.drive" as well as "he8". */
		n = snprintf(buf, len, "%s/%s/%s", dir, sub, name);
		if (n >= 0 && (size_t)n < len && is_file(buf))
			return buf;
	}
	return NULL;
}

const char *datadir_or(const char *sub, const char *name, const char *suffix, char *buf,
		       size_t len)
{
	const char *found = datadir_find(sub, name, suffix, buf, len);

	return found ? found : name;
}
