#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ncqsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ncqsim: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

uint8_t *cli_read_file(const char *path, size_t limit, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		cli_error("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (n + 4096 + 1 > cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap);
			if (!nb) {
				cli_error("%s: out of memory", path);
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
		if (n > limit) {
			cli_error("%s: file too large (more than %zu bytes)", path, limit);
			goto fail;
		}
		if (got < 4096) {
			if (ferror(f)) {
				cli_error("%s: read error: %s", path, strerror(errno));
				goto fail;
			}
			break;
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

int cli_output_formats(const char *list, unsigned allowed, unsigned *formats)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "normal", CLI_OUT_NORMAL }, { "json", CLI_OUT_JSON }, { "json+", CLI_OUT_JSONPLUS },
	};
	char buf[256], *tok, *save = NULL;
	unsigned f = 0, i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < 3; i++)
			if (!strcmp(tok, names[i].name) && (allowed & names[i].bit))
				break;
		if (i == 3) {
			cli_error("option '--output-format': expected %s, got '%s'",
				  allowed & CLI_OUT_JSONPLUS ? "a comma list of normal, json, json+" :
				  "normal or json", tok);
			return -1;
		}
		f |= names[i].bit;
	}
	if (!f) {
		cli_error("option '--output-format': expected a format, got '%s'", list);
		return -1;
	}
	*formats = f;
	return 0;
}

FILE *cli_open_output(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		cli_error("%s: cannot write: %s", path, strerror(errno));
	return f;
}

void cli_close_output(FILE *f)
{
	if (f && f != stdout)
		fclose(f);
	else
		fflush(stdout);
}
