#include "testlib.h"

#include <stdarg.h>
#include <stdlib.h>

int test_failures;
int test_checks;

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	test_failures++;
	if (test_failures > 50)
		return;		/* the first fifty tell the story */
	fprintf(stderr, "%s:%d: check failed: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int test_done(void)
{
	if (test_failures) {
		fprintf(stderr, "%d of %d checks failed\n", test_failures, test_checks);
		return 1;
	}
	printf("%d checks passed\n", test_checks);
	return 0;
}

const char *test_data(const char *rel)
{
	static char buf[8][1024];
	static int next;
	const char *dir = getenv("TESTDATA");
	char *b = buf[next++ % 8];

	snprintf(b, sizeof(buf[0]), "%s/%s", dir ? dir : "test/data", rel);
	return b;
}

char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			char *p = realloc(data, cap);
			if (!p) {
				free(data);
				fclose(f);
				return NULL;
			}
			data = p;
		}
		size_t got = fread(data + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	data[n] = '\0';
	if (len)
		*len = n;
	return data;
}
