/*
 * snia-csv — SNIA-style CSV block traces whose first line names the
 * columns (SNIA IOTTA's newer collections are published so). Column names
 * are matched without regard to case, spaces and underscores; a unit may
 * follow in parentheses:
 *
 *   time       Timestamp, Time, TS          (s) default, (ms), (us), (ns), (100ns)
 *   direction  Type, IOType, Opcode, RW, Op  R, W, Read, Write (any case)
 *   offset     Offset, ByteOffset           (bytes) default, (sectors) = 512 B
 *              LBA, Sector                  512-byte sectors
 *   size       Size, Length, Bytes          (bytes) default, (sectors) = 512 B
 *              Blocks, Sectors              512-byte sectors
 *   job key    Process, PID, Host, Hostname, LUN, Volume, VolumeID, Device,
 *              DiskNumber, DevNo            (several: joined with '_')
 *   priority   IOPrio, Priority, Prio       a number (the ioprio value) or
 *                                           rt:N, be:N, idle
 *
 * Other columns (response time, ...) are read past. Time, direction,
 * offset and size must be present. Times may be decimal fractions.
 */
#include "trace/trace.h"

#include "util/ioprio.h"
#include "workload/job_options.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SNIA_MAX_COLS 32
#define SNIA_MAX_KEYS 4

enum col_kind { COL_OTHER, COL_TIME, COL_DIR, COL_OFFSET, COL_SIZE, COL_KEY, COL_PRIO };

struct snia_state {
	unsigned ncols;
	int kind[SNIA_MAX_COLS];
	double time_unit_ns;		/* ns per unit of the time column */
	uint64_t offset_unit, size_unit;
	int col_time, col_dir, col_offset, col_size, col_prio;
	int col_key[SNIA_MAX_KEYS];
	unsigned nkeys;
	bool started;
	double first;
};

/* "Byte Offset (sectors)" → name "byteoffset", unit "sectors" */
static void normalise(const char *col, char *name, size_t nlen, char *unit, size_t ulen)
{
	size_t n = 0, u = 0;
	bool in_unit = false;

	for (; *col; col++) {
		unsigned char c = (unsigned char)*col;

		if (c == '(') {
			in_unit = true;
			continue;
		}
		if (c == ')' || c == ' ' || c == '_' || c == '"' || c == '\t')
			continue;
		if (in_unit && u + 1 < ulen)
			unit[u++] = (char)tolower(c);
		else if (!in_unit && n + 1 < nlen)
			name[n++] = (char)tolower(c);
	}
	name[n] = '\0';
	unit[u] = '\0';
}

static bool is_one_of(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

static const char *const time_names[] = { "timestamp", "time", "ts", NULL };
static const char *const dir_names[] = { "type", "iotype", "opcode", "rw", "op", NULL };
static const char *const offset_names[] = { "offset", "byteoffset", NULL };
static const char *const sector_names[] = { "lba", "sector", NULL };
static const char *const size_names[] = { "size", "length", "bytes", NULL };
static const char *const blocks_names[] = { "blocks", "sectors", NULL };
static const char *const key_names[] = { "process", "pid", "host", "hostname", "lun", "volume",
					 "volumeid", "device", "disknumber", "devno", NULL };
static const char *const prio_names[] = { "ioprio", "priority", "prio", NULL };

static int snia_probe(const unsigned char *head, size_t len)
{
	char line[1024], *f[SNIA_MAX_COLS + 1], name[64], unit[16];
	size_t n = 0;
	unsigned nf, i;
	bool t = false, o = false;

	while (n < len && n < sizeof(line) - 1 && head[n] != '\n' && head[n] != '\r')
		n++;
	memcpy(line, head, n);
	line[n] = '\0';
	nf = trace_csv_split(line, f, SNIA_MAX_COLS);
	if (nf < 4 || nf > SNIA_MAX_COLS)
		return 0;
	for (i = 0; i < nf; i++) {
		normalise(f[i], name, sizeof(name), unit, sizeof(unit));
		t |= is_one_of(name, time_names);
		o |= is_one_of(name, offset_names) || is_one_of(name, sector_names);
	}
	return t && o ? 80 : 0;
}

static int unit_ns(const char *unit, double *ns)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "sec", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "ns", 1 }, { "100ns", 100 }, { "ticks", 100 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].u)) {
			*ns = units[i].ns;
			return 0;
		}
	return -1;
}

static int bytes_unit(const char *unit, uint64_t def, uint64_t *v)
{
	if (!*unit) {
		*v = def;
		return 0;
	}
	if (!strcmp(unit, "bytes") || !strcmp(unit, "b"))
		*v = 1;
	else if (!strcmp(unit, "sectors") || !strcmp(unit, "512"))
		*v = 512;
	else if (!strcmp(unit, "kb") || !strcmp(unit, "kib"))
		*v = 1024;
	else
		return -1;
	return 0;
}

static int snia_begin(void *state, struct trace_in *in, const struct trace_opts *o,
		      struct err *e)
{
	struct snia_state *s = state;
	char *line, *f[SNIA_MAX_COLS + 1], name[64], unit[16];
	long n = trace_in_line(in, &line, e);
	unsigned i;

	(void)o;
	if (n == -2)
		return -1;
	if (n < 0)
		return err_set(e, "%s:1: expected a header line naming the columns, got an empty "
			       "file", trace_in_path(in));
	s->col_time = s->col_dir = s->col_offset = s->col_size = s->col_prio = -1;
	s->ncols = trace_csv_split(line, f, SNIA_MAX_COLS);
	if (s->ncols > SNIA_MAX_COLS)
		return err_set(e, "%s:1: more than %d columns", trace_in_path(in), SNIA_MAX_COLS);
	for (i = 0; i < s->ncols; i++) {
		int *slot = NULL;

		normalise(f[i], name, sizeof(name), unit, sizeof(unit));
		if (is_one_of(name, time_names)) {
			slot = &s->col_time;
			if (unit_ns(unit, &s->time_unit_ns))
				return err_set(e, "%s:1: column '%s': expected a time unit s, ms, us, "
					       "ns or 100ns, got '%s'", trace_in_path(in), f[i], unit);
		} else if (is_one_of(name, dir_names)) {
			slot = &s->col_dir;
		} else if (is_one_of(name, offset_names) || is_one_of(name, sector_names)) {
			slot = &s->col_offset;
			if (bytes_unit(unit, is_one_of(name, sector_names) ? 512 : 1, &s->offset_unit))
				return err_set(e, "%s:1: column '%s': expected the unit bytes or "
					       "sectors, got '%s'", trace_in_path(in), f[i], unit);
		} else if (is_one_of(name, size_names) || is_one_of(name, blocks_names)) {
			slot = &s->col_size;
			if (bytes_unit(unit, is_one_of(name, blocks_names) ? 512 : 1, &s->size_unit))
				return err_set(e, "%s:1: column '%s': expected the unit bytes or "
					       "sectors, got '%s'", trace_in_path(in), f[i], unit);
		} else if (is_one_of(name, prio_names)) {
			slot = &s->col_prio;
		} else if (is_one_of(name, key_names) && s->nkeys < SNIA_MAX_KEYS) {
			s->col_key[s->nkeys++] = (int)i;
			continue;
		}
		if (slot && *slot >= 0)
			return err_set(e, "%s:1: column '%s' repeats what an earlier column gives",
				       trace_in_path(in), f[i]);
		if (slot)
			*slot = (int)i;
	}
	if (s->col_time < 0 || s->col_dir < 0 || s->col_offset < 0 || s->col_size < 0)
		return err_set(e, "%s:1: expected a header naming at least a time (Timestamp), a "
			       "direction (Type), an offset (Offset or LBA) and a size (Size) column",
			       trace_in_path(in));
	return 0;
}

static int parse_prio(const char *s, uint16_t *v)
{
	uint64_t n;
	char cls[8];
	unsigned level = 4;
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);

	if (!trace_u64(s, &n) && n <= 0xffff) {
		*v = (uint16_t)n;
		return 0;
	}
	if (len >= sizeof(cls))
		return -1;
	memcpy(cls, s, len);
	cls[len] = '\0';
	if (colon && (trace_u64(colon + 1, &n) || n > 7))
		return -1;
	if (colon)
		level = (unsigned)n;
	if (!strcasecmp(cls, "rt"))
		*v = ioprio_value(IOPRIO_CLASS_RT, 0, colon ? level : 0);
	else if (!strcasecmp(cls, "be"))
		*v = ioprio_value(IOPRIO_CLASS_BE, 0, level);
	else if (!strcasecmp(cls, "idle") && !colon)
		*v = ioprio_value(IOPRIO_CLASS_IDLE, 0, 0);
	else
		return -1;
	return 0;
}

static int snia_next(void *state, struct trace_in *in, struct trace_record *r, struct err *e)
{
	struct snia_state *s = state;
	char *line, *f[SNIA_MAX_COLS + 1];
	long n;

	while ((n = trace_in_line(in, &line, e)) >= 0) {
		unsigned nf, k;
		char *end, *d;
		double t;
		uint64_t off, size;
		size_t used = 0;

		if (!n)
			continue;
		nf = trace_csv_split(line, f, SNIA_MAX_COLS);
		if (nf != s->ncols)
			return trace_bad(in, e, "expected %u columns as the header names, got %s%u",
					 s->ncols, nf > SNIA_MAX_COLS ? "more than " : "",
					 nf > SNIA_MAX_COLS ? SNIA_MAX_COLS : nf);
		t = strtod(f[s->col_time], &end);
		if (end == f[s->col_time] || *end || !(t >= 0) || t * s->time_unit_ns > 9e18)
			return trace_bad(in, e, "column %d (time): expected a number, got '%s'",
					 s->col_time + 1, f[s->col_time]);
		d = f[s->col_dir];
		if (!strcasecmp(d, "r") || !strcasecmp(d, "read"))
			r->ddir = DDIR_READ;
		else if (!strcasecmp(d, "w") || !strcasecmp(d, "write"))
			r->ddir = DDIR_WRITE;
		else
			return trace_bad(in, e, "column %d (direction): expected R, W, Read or Write, "
					 "got '%s'", s->col_dir + 1, d);
		if (trace_u64(f[s->col_offset], &off) || off > (UINT64_MAX >> 10) / s->offset_unit)
			return trace_bad(in, e, "column %d (offset): expected a whole number, got "
					 "'%s'", s->col_offset + 1, f[s->col_offset]);
		if (trace_u64(f[s->col_size], &size) || size > UINT32_MAX / s->size_unit)
			return trace_bad(in, e, "column %d (size): expected a whole number (at most "
					 "4 GiB), got '%s'", s->col_size + 1, f[s->col_size]);
		r->ioprio = 0;
		if (s->col_prio >= 0 && f[s->col_prio][0] && parse_prio(f[s->col_prio], &r->ioprio))
			return trace_bad(in, e, "column %d (priority): expected an ioprio value or "
					 "rt:N, be:N, idle, got '%s'", s->col_prio + 1,
					 f[s->col_prio]);
		if (!size) {
			trace_in_ignored(in);
			continue;
		}
		if (!s->started) {
			s->started = true;
			s->first = t;
		}
		r->time_ns = (int64_t)((t - s->first) * s->time_unit_ns + (t >= s->first ? 0.5 : -0.5));
		r->offset = off * s->offset_unit;
		r->len = size * s->size_unit;
		r->pid = 0;
		r->who[0] = '\0';
		for (k = 0; k < s->nkeys; k++) {
			int w = snprintf(r->who + used, sizeof(r->who) - used, "%s%s", k ? "_" : "",
					 f[s->col_key[k]]);

			if (w < 0 || (size_t)w >= sizeof(r->who) - used)
				break;
			used += (size_t)w;
		}
		if (s->nkeys == 1 && !strcmp(f[s->col_key[0]], r->who)) {
			uint64_t pid;

			if (!trace_u64(r->who, &pid) && pid <= UINT32_MAX)
				r->pid = (uint32_t)pid;
		}
		r->where = trace_in_lineno(in);
		return 1;
	}
	return n == -2 ? -1 : 0;
}

const struct trace_format trace_snia_format = {
	.plugin = { "snia-csv", "CSV with a header naming the columns (Timestamp, Type, Offset, "
		    "Size, ...)", NULL },
	.probe = snia_probe,
	.state_size = sizeof(struct snia_state),
	.begin = snia_begin,
	.next = snia_next,
};
