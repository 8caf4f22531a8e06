#include "workload/jobfile.h"

#include "util/input.h"
#include "util/parse.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INCLUDE_DEPTH 16
#define MAX_FILE_BYTES (4 << 20)
#define MAX_LINE 8192

static int parse_text(struct jobfile *jf, const char *text, const char *file, int depth,
		      struct err *e);

static const char *keep_name(struct jobfile *jf, const char *name)
{
	char **files = realloc(jf->files, (jf->nfiles + 1) * sizeof(*files));

	if (!files)
		return NULL;
	jf->files = files;
	jf->files[jf->nfiles] = strdup(name);
	if (!jf->files[jf->nfiles])
		return NULL;
	return jf->files[jf->nfiles++];
}

static char *read_all(const char *path, const char *from, int from_line, struct err *e)
{
	char *buf;
	size_t len;

	if (input_read(path, "job file", MAX_FILE_BYTES, true, &buf, &len, e)) {
		if (from)
			err_prefix(e, "%s:%d: include: ", from, from_line);
		return NULL;
	}
	return buf;
}

static const char *const keyword_names[JOBFILE_KWS] = { "pagesize", "ncpus", "mb_memory" };

/* The machine's value of a keyword, as fio takes it (sysconf; memory in MiB). */
static unsigned long long keyword_value(int kw)
{
	long v;

	switch (kw) {
	case JOBFILE_KW_PAGESIZE:
		v = sysconf(_SC_PAGESIZE);
		return v > 0 ? (unsigned long long)v : 4096;
	case JOBFILE_KW_NCPUS:
		v = sysconf(_SC_NPROCESSORS_ONLN);
		return v > 0 ? (unsigned long long)v : 1;
	default: {
		long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

		return pages > 0 && psz > 0 ?
			(unsigned long long)pages * (unsigned long long)psz / (1024 * 1024) : 0;
	}
	}
}

void jobfile_keyword_note(unsigned used, char *buf, size_t len)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < JOBFILE_KWS && n < len; k++)
		if (used & (1u << k))
			n += (size_t)snprintf(buf + n, len - n, "%s$%s = %llu", n ? ", " : "",
					      keyword_names[k], keyword_value(k));
}

/*
 * ${VAR} → the environment's value; unset is empty, as in fio. fio's
 * keywords $pagesize, $ncpus, $mb_memory → this machine's values (a
 * `$` before anything else stays as it is).
 */
static int expand_env(const char *in, char *out, size_t outlen, const char *file, int line,
		      unsigned *keywords, struct err *e)
{
	size_t n = 0;

	while (*in) {
		bool keyword = false;
		int kw;

		for (kw = 0; in[0] == '$' && kw < JOBFILE_KWS && !keyword; kw++) {
			size_t klen = strlen(keyword_names[kw]);
			char val[32];
			size_t vlen;

			if (strncmp(in + 1, keyword_names[kw], klen))
				continue;
			vlen = (size_t)snprintf(val, sizeof(val), "%llu", keyword_value(kw));
			if (n + vlen >= outlen)
				return err_set(e, "%s:%d: line too long after expanding $%s", file, line,
					       keyword_names[kw]);
			memcpy(out + n, val, vlen);
			n += vlen;
			in += 1 + klen;
			*keywords |= 1u << kw;
			keyword = true;
		}
		if (keyword)
			continue;
		if (in[0] == '$' && in[1] == '{') {
			const char *end = strchr(in + 2, '}');
			char name[256];
			const char *val;
			size_t vlen;

			if (!end)
				return err_set(e, "%s:%d: '${' without a closing '}'", file, line);
			if ((size_t)(end - in - 2) >= sizeof(name) || end == in + 2)
				return err_set(e, "%s:%d: bad variable name in '%.*s'", file, line,
					       (int)(end - in + 1), in);
			memcpy(name, in + 2, (size_t)(end - in - 2));
			name[end - in - 2] = '\0';
			val = getenv(name);
			vlen = val ? strlen(val) : 0;
			if (n + vlen >= outlen)
				return err_set(e, "%s:%d: line too long after expanding ${%s}", file,
					       line, name);
			memcpy(out + n, val ? val : "", vlen);
			n += vlen;
			in = end + 1;
			continue;
		}
		if (n + 1 >= outlen)
			return err_set(e, "%s:%d: line too long", file, line);
		out[n++] = *in++;
	}
	out[n] = '\0';
	return 0;
}

static struct jobfile_section *new_section(struct jobfile *jf, const char *name,
					   const char *file, int line, struct err *e)
{
	struct jobfile_section *s;

	if (jf->nsections == jf->cap) {
		size_t cap = jf->cap ? jf->cap * 2 : 8;
		struct jobfile_section *ns = realloc(jf->sections, cap * sizeof(*ns));

		if (!ns) {
			err_set(e, "out of memory");
			return NULL;
		}
		jf->sections = ns;
		jf->cap = cap;
	}
	s = &jf->sections[jf->nsections++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->global = !strcmp(name, "global");
	s->source = jf->nsources - 1;
	s->file = file;
	s->line = line;
	return s;
}

static int add_line(struct jobfile_section *s, const char *key, const char *value,
		    const char *file, int line, struct err *e)
{
	struct jobfile_line *l;

	if (s->nlines == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct jobfile_line *nl = realloc(s->lines, cap * sizeof(*nl));

		if (!nl)
			return err_set(e, "out of memory");
		s->lines = nl;
		s->cap = cap;
	}
	l = &s->lines[s->nlines];
	l->key = strdup(key);
	l->value = value ? strdup(value) : NULL;
	if (!l->key || (value && !l->value)) {
		free(l->key);
		free(l->value);
		return err_set(e, "out of memory");
	}
	l->file = file;
	l->line = line;
	s->nlines++;
	return 0;
}

static int include_file(struct jobfile *jf, const char *arg, const char *file, int line,
			int depth, struct err *e)
{
	char path[4096];
	const char *slash = strrchr(file, '/');
	const char *name;
	char *text;
	int rc;

	if (!*arg)
		return err_set(e, "%s:%d: include: expected a file name", file, line);
	if (depth >= MAX_INCLUDE_DEPTH)
		return err_set(e, "%s:%d: include %s: nested more than %d deep (a loop?)", file,
			       line, arg, MAX_INCLUDE_DEPTH);
	if (arg[0] != '/' && slash)
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - file), file, arg);
	else
		snprintf(path, sizeof(path), "%s", arg);
	text = read_all(path, file, line, e);
	if (!text)
		return -1;
	name = keep_name(jf, path);
	if (!name) {
		free(text);
		return err_set(e, "out of memory");
	}
	rc = parse_text(jf, text, name, depth + 1, e);
	free(text);
	return rc;
}

static int parse_text(struct jobfile *jf, const char *text, const char *file, int depth,
		      struct err *e)
{
	const char *p = text;
	int line_no = 0;

	while (*p) {
		char raw[MAX_LINE], buf[MAX_LINE], *s, *cut;
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p), i;

		line_no++;
		if (len >= sizeof(raw))
			return err_set(e, "%s:%d: line longer than %d characters", file, line_no,
				       MAX_LINE - 1);
		memcpy(raw, p, len);
		raw[len] = '\0';
		p += len + (end ? 1 : 0);
		for (i = 0; i < len; i++)
			if ((unsigned char)raw[i] < 0x20 && raw[i] != '\t' && raw[i] != '\r')
				return err_set(e, "%s:%d: unexpected byte 0x%02x (a job file is text)",
					       file, line_no, (unsigned char)raw[i]);
		s = parse_trim(raw);
		if (!*s || *s == ';' || *s == '#')
			continue;
		/* A value ends at the first ';' or '#' (fio's strip_blank_end). */
		cut = strpbrk(s, ";#");
		if (cut)
			*cut = '\0';
		s = parse_trim(s);
		if (!*s)
			continue;
		/* fio expands ${VAR} in option lines, not in section names. */
		if (*s != '[') {
			if (expand_env(s, buf, sizeof(buf), file, line_no, &jf->keywords_used, e))
				return -1;
			s = parse_trim(buf);
			if (!*s)
				continue;
		}
		if (*s == '[') {
			char *close = strchr(s, ']');
			char *name;

			if (!close)
				return err_set(e, "%s:%d: section header '%s' has no closing ']'", file,
					       line_no, s);
			if (*parse_trim(close + 1))
				return err_set(e, "%s:%d: unexpected '%s' after section header", file,
					       line_no, parse_trim(close + 1));
			*close = '\0';
			name = parse_trim(s + 1);
			if (!*name)
				return err_set(e, "%s:%d: empty section name '[]'", file, line_no);
			if (strlen(name) >= JOBFILE_NAME_MAX)
				return err_set(e, "%s:%d: section name longer than %d characters", file,
					       line_no, JOBFILE_NAME_MAX - 1);
			if (!new_section(jf, name, file, line_no, e))
				return -1;
			continue;
		}
		if (!strncmp(s, "include", 7) && (isspace((unsigned char)s[7]) || !s[7])) {
			if (include_file(jf, parse_trim(s + 7), file, line_no, depth, e))
				return -1;
			continue;
		}
		if (jf->nsections <= jf->file_start)
			return err_set(e, "%s:%d: option '%s' before any [section]", file, line_no, s);
		{
			char *eq = strchr(s, '='), *key = s, *value = NULL;

			if (eq) {
				*eq = '\0';
				key = parse_trim(s);
				/*
				 * fio 3.33 keeps a blank after '=' in the value: it refuses
				 * "rw= randwrite" and misreads "bs= 8k" (a plain number
				 * still reads right); we refuse those, clearly.
				 */
				if (isspace((unsigned char)eq[1]) && *parse_trim(eq + 1) &&
				    strspn(parse_trim(eq + 1), "0123456789") !=
				    strlen(parse_trim(eq + 1)))
					return err_set(e, "%s:%d: option '%s': a blank after '=' (fio 3.33 "
						       "keeps it in the value, and refuses or misreads "
						       "'%s'); write '%s=%s'", file, line_no,
						       parse_trim(s), eq + 1, parse_trim(s),
						       parse_trim(eq + 1));
				value = parse_trim(eq + 1);
			}
			if (!*key)
				return err_set(e, "%s:%d: '=' without an option name", file, line_no);
			if (add_line(&jf->sections[jf->nsections - 1], key, value, file, line_no, e))
				return -1;
		}
	}
	return 0;
}

int jobfile_add_text(struct jobfile *jf, const char *text, const char *name, struct err *e)
{
	const char *kept = keep_name(jf, name);

	if (!kept)
		return err_set(e, "out of memory");
	jf->file_start = jf->nsections;
	jf->nsources++;
	return parse_text(jf, text, kept, 0, e);
}

/* A job file on standard input ("-"), as fio reads one. */
static char *read_stdin(struct err *e)
{
	size_t len = 0, cap = 65536, n;
	char *buf = malloc(cap + 1);

	if (!buf) {
		err_set(e, "out of memory");
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len, stdin)) > 0) {
		len += n;
		if (len == cap) {
			char *nb;

			if (cap >= MAX_FILE_BYTES) {
				free(buf);
				err_set(e, "-: the job file on standard input is larger than %d bytes",
					MAX_FILE_BYTES);
				return NULL;
			}
			nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				free(buf);
				err_set(e, "out of memory");
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (ferror(stdin)) {
		free(buf);
		err_set(e, "-: cannot read standard input");
		return NULL;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		err_set(e, "-: a NUL byte on standard input (a job file is text)");
		return NULL;
	}
	return buf;
}

int jobfile_add(struct jobfile *jf, const char *path, struct err *e)
{
	char *text = strcmp(path, "-") ? read_all(path, NULL, 0, e) : read_stdin(e);
	int rc;

	if (!text)
		return -1;
	rc = jobfile_add_text(jf, text, path, e);
	free(text);
	return rc;
}

int jobfile_parse(const char *text, const char *name, struct jobfile *jf, struct err *e)
{
	memset(jf, 0, sizeof(*jf));
	if (jobfile_add_text(jf, text, name, e)) {
		jobfile_free(jf);
		return -1;
	}
	return 0;
}

int jobfile_read(const char *path, struct jobfile *jf, struct err *e)
{
	memset(jf, 0, sizeof(*jf));
	if (jobfile_add(jf, path, e)) {
		jobfile_free(jf);
		return -1;
	}
	return 0;
}

void jobfile_free(struct jobfile *jf)
{
	size_t i, j;

	for (i = 0; i < jf->nsections; i++) {
		for (j = 0; j < jf->sections[i].nlines; j++) {
			free(jf->sections[i].lines[j].key);
			free(jf->sections[i].lines[j].value);
		}
		free(jf->sections[i].lines);
	}
	free(jf->sections);
	for (i = 0; i < jf->nfiles; i++)
		free(jf->files[i]);
	free(jf->files);
	memset(jf, 0, sizeof(*jf));
}
