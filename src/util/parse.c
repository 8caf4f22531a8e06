#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *parse_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

void parse_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memmove(dst, src, n);
	dst[n] = '\0';
}

/* Digits of an unsigned integer at *s; advances *s. */
static int scan_u64(const char **s, uint64_t *v)
{
	const char *p = *s;
	int base = 10;
	uint64_t x = 0;
	int digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		int d;

		if (isdigit((unsigned char)*p))
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;	/* overflow */
		x = x * (uint64_t)base + (uint64_t)d;
		digits++;
	}
	if (!digits)
		return -1;
	*s = p;
	*v = x;
	return 0;
}

int parse_u64(const char *s, uint64_t *v)
{
	if (scan_u64(&s, v) || *s)
		return -1;
	return 0;
}

int parse_i64(const char *s, int64_t *v)
{
	bool neg = *s == '-';
	uint64_t u;

	if (*s == '-' || *s == '+')
		s++;
	if (parse_u64(s, &u))
		return -1;
	if (neg) {
		if (u > (uint64_t)INT64_MAX + 1)
			return -1;
		*v = (int64_t)(0 - u);
	} else {
		if (u > (uint64_t)INT64_MAX)
			return -1;
		*v = (int64_t)u;
	}
	return 0;
}

int parse_double(const char *s, double *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (*end || errno || !isfinite(*v))
		return -1;
	return 0;
}

int parse_bool(const char *s, bool *v)
{
	static const char *yes[] = { "1", "yes", "true", "on" };
	static const char *no[] = { "0", "no", "false", "off" };
	unsigned i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*v = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*v = false;
			return 0;
		}
	}
	return -1;
}

static int mul_overflows(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b;
}

int parse_size(const char *s, unsigned kb_base, uint64_t *v, bool *percent)
{
	static const char units[] = "kmgtp";
	uint64_t x, base, mult = 1;
	const char *p = s, *u;
	char suffix[8];
	size_t n, i;
	int power;

	if (kb_base != 1000 && kb_base != 1024)
		kb_base = 1024;
	if (percent)
		*percent = false;
	if (scan_u64(&p, &x))
		return -1;
	if (*p == '%' && !p[1] && percent) {
		*percent = true;
		*v = x;
		return x > 100 ? -1 : 0;
	}
	n = strlen(p);
	if (n == 0) {
		*v = x;
		return 0;
	}
	if (n > 3)
		return -1;
	for (i = 0; i <= n; i++)
		suffix[i] = (char)tolower((unsigned char)p[i]);
	u = strchr(units, suffix[0]);
	if (!u || !suffix[0])
		return -1;
	power = (int)(u - units) + 1;
	if (n == 1 || (n == 2 && (suffix[1] == 'b' || suffix[1] == 'i')))
		base = kb_base;
	else if (n == 3 && suffix[1] == 'i' && suffix[2] == 'b')
		base = kb_base == 1024 ? 1000 : 1024;
	else
		return -1;
	while (power--)
		mult *= base;
	if (mul_overflows(x, mult))
		return -1;
	*v = x * mult;
	return 0;
}

int parse_time(const char *s, int64_t unit_ns, int64_t *ns)
{
	static const struct {
		const char *suffix;
		int64_t ns;
	} units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000LL }, { "sec", 1000000000LL },
		{ "m", 60000000000LL }, { "min", 60000000000LL },
		{ "h", 3600000000000LL }, { "hour", 3600000000000LL },
		{ "d", 86400000000000LL }, { "day", 86400000000000LL },
	};
	const char *p = s;
	uint64_t x, frac = 0, frac_scale = 1;
	int64_t mult = unit_ns;
	size_t i;

	if (scan_u64(&p, &x))
		return -1;
	if (*p == '.') {
		/* A decimal fraction, e.g. "0.23ms": up to 9 digits. */
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p)) {
			if (frac_scale >= 1000000000ULL)
				return -1;
			frac = frac * 10 + (uint64_t)(*p++ - '0');
			frac_scale *= 10;
		}
	}
	if (*p) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(p, units[i].suffix))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -1;
		mult = units[i].ns;
	}
	if (mult <= 0 || x > (uint64_t)INT64_MAX / (uint64_t)mult)
		return -1;
	*ns = (int64_t)x * mult;
	if (frac) {
		/* The fraction must come out as a whole number of nanoseconds. */
		unsigned __int128 f = (unsigned __int128)frac * (uint64_t)mult;

		if (f % frac_scale)
			return -1;
		if ((uint64_t)(f / frac_scale) > (uint64_t)(INT64_MAX - *ns))
			return -1;
		*ns += (int64_t)(f / frac_scale);
	}
	return 0;
}

int parse_key_lines(const char *text, const char *file, const char *what, parse_line_fn fn,
		    void *ctx, struct err *e)
{
	const char *p = text;
	int line_no = 0;

	while (*p) {
		char line[1024], *key, *value, *eq, *hash, *comment = NULL;
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p), i;

		line_no++;
		if (len >= sizeof(line))
			return err_set(e, "%s:%d: line longer than %zu characters", file, line_no,
				       sizeof(line) - 1);
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (end ? 1 : 0);
		/* isprint() in the C locale (ncqsim never sets another): 0x20 .. 0x7e. */
		for (i = 0; i < len; i++)
			if ((unsigned char)(line[i] - 0x20) > 0x7e - 0x20 && line[i] != '\t' &&
			    line[i] != '\r')
				return err_set(e, "%s:%d: unexpected byte 0x%02x (a %s is text)", file,
					       line_no, (unsigned char)line[i], what);
		hash = strchr(line, '#');
		if (hash) {
			*hash = '\0';
			comment = parse_trim(hash + 1);
		}
		key = parse_trim(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq)
			return err_set(e, "%s:%d: expected 'key = value', got '%s'", file, line_no, key);
		*eq = '\0';
		value = parse_trim(eq + 1);
		key = parse_trim(key);
		if (fn(ctx, key, value, comment, line_no, e))
			return err_prefix(e, "%s:%d: ", file, line_no);
	}
	return 0;
}

void parse_fields_init(struct parse_fields *f, const char *s, char sep)
{
	f->p = s;
	f->sep = sep;
	f->done = false;
}

bool parse_fields_next(struct parse_fields *f, const char **field, size_t *len)
{
	const char *end;

	if (f->done)
		return false;
	end = strchr(f->p, f->sep);
	*field = f->p;
	*len = end ? (size_t)(end - f->p) : strlen(f->p);
	if (end)
		f->p = end + 1;
	else
		f->done = true;
	return true;
}
