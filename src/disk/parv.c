#include "disk/parv.h"

#include "util/input.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARV_FILE_MAX	(4 << 20)
#define PARV_DEPTH_MAX	32
#define PARV_FILES_MAX	64
#define PARV_RANGE_MAX	65536

/* Everything lives in one arena, freed at once. */
struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct parv {
	struct chunk *arena;
	struct parv_value **blocks;
	unsigned nblocks, cap_blocks;
	struct parv_inst *insts;
	unsigned ninsts, cap_insts;
	struct parv_node *topology, **topology_tail;	/* roots in file order */
	const char **notes;
	unsigned nnotes, cap_notes;
	unsigned nfiles;
};

/*
 * DiskSim's modules (its libparam module table): a top-level block's type
 * is one of these, or the name of a block defined before it.
 */
static const char *const modules[] = {
	"disksim_global", "disksim_stats", "disksim_iodriver_stats", "disksim_bus_stats",
	"disksim_ctlr_stats", "disksim_device_stats", "disksim_pf_stats", "disksim_iodriver",
	"disksim_ioqueue", "disksim_bus", "disksim_ctlr", "disksim_disk", "disksim_simpledisk",
	"disksim_device", "disksim_logorg", "disksim_pf", "disksim_synthio", "disksim_synthgen",
	"disksim_iosim", "disksim_iomap", "disksim_cachemem", "disksim_cachedev",
	"disksim_syncset", "dm_disk", "dm_layout_g1", "dm_layout_g1_zone", "dm_layout_g2",
	"dm_layout_g2_zone", "dm_layout_g4", "dm_mech_g1", "memsmodel_mems", "ssdmodel_ssd", NULL,
};

static void *arena_alloc(struct parv *p, size_t n)
{
	struct chunk *c = p->arena;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 ? n : 65536;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = p->arena;
		p->arena = c;
	}
	c->used += n;
	return memset(c->data + c->used - n, 0, n);
}

static char *arena_strndup(struct parv *p, const char *s, size_t n)
{
	char *d = arena_alloc(p, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Grow an arena array of `size`-byte elements holding n, capacity *cap, by doubling. */
static void *arena_grow(struct parv *p, void *arr, unsigned n, unsigned *cap, size_t size)
{
	void *na;

	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 8;
	na = arena_alloc(p, (size_t)*cap * size);
	if (na && n)
		memcpy(na, arr, (size_t)n * size);
	return na;
}

/* ---- the lexer: DiskSim's tokens, with `source` splicing a file in ---- */

enum tok_kind {
	T_EOF, T_LBRACE, T_RBRACE, T_LBRAK, T_RBRAK, T_COMMA, T_EQUAL, T_DOTDOT, T_WORD,
	T_STRAY,		/* ':', '?' or ';': DiskSim tokens no rule takes */
};

struct tok {
	enum tok_kind kind;
	enum parv_scalar scalar;	/* T_WORD */
	int64_t ival;
	double dval;
	const char *text;		/* arena copy */
	const char *file;
	int line;
};

struct src {
	char *owned;
	const char *s;
	const char *file;	/* arena copy */
	int line;
	const char *from_file;	/* where `source` named it */
	int from_line;
};

#define LOOKAHEAD 3

struct lexer {
	struct parv *p;
	struct err *e;
	struct src stack[PARV_DEPTH_MAX + 1];
	int top;
	struct tok la[LOOKAHEAD];
	int nla;
	bool failed;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Not part of a word: DiskSim's string class excludes these (and white space). */
static bool is_delim(char c)
{
	return !c || is_space(c) || c == ';' || c == '{' || c == '}' || c == ',' || c == '[' ||
		c == ']' || c == ':' || c == '?' || c == '=';
}

static bool all_digits(const char *s, const char *end, int (*ok)(int))
{
	if (s == end)
		return false;
	for (; s < end; s++)
		if (!ok((unsigned char)*s))
			return false;
	return true;
}

static int is_dec(int c) { return c >= '0' && c <= '9'; }

static int is_hex(int c)
{
	return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* libparam.lex: decint -?[0-9]+, hexint -?0x[0-9a-fA-F]+, float -?[0-9]+\.[0-9]+(e[+-][0-9]+)? */
static enum parv_scalar classify(const char *w)
{
	const char *s = w + (*w == '-'), *end = s + strlen(s), *dot, *ex;

	if (all_digits(s, end, is_dec))
		return PARV_INT;
	if (s[0] == '0' && s[1] == 'x' && all_digits(s + 2, end, is_hex))
		return PARV_INT;
	dot = strchr(s, '.');
	if (!dot || !all_digits(s, dot, is_dec))
		return PARV_STRING;
	ex = strchr(dot, 'e');
	if (!ex)
		return all_digits(dot + 1, end, is_dec) ? PARV_FLOAT : PARV_STRING;
	if (!all_digits(dot + 1, ex, is_dec) || (ex[1] != '+' && ex[1] != '-') ||
	    !all_digits(ex + 2, end, is_dec))
		return PARV_STRING;
	return PARV_FLOAT;
}

/* Where the current file was sourced from, for messages from inside it. */
static void from_where(const struct lexer *x, const char *file, char *buf, size_t len)
{
	int i;

	buf[0] = '\0';
	for (i = x->top; i > 0; i--)
		if (x->stack[i].file == file) {
			snprintf(buf, len, " (in the file sourced at %s:%d)", x->stack[i].from_file,
				 x->stack[i].from_line);
			return;
		}
}

static int fail_at(struct lexer *x, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail_at(struct lexer *x, const char *file, int line, const char *fmt, ...)
{
	char msg[300], from[200];
	va_list ap;

	if (x->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	from_where(x, file, from, sizeof(from));
	x->failed = true;
	return err_set(x->e, "%s:%d: %s%s", file, line, msg, from);
}

static char *relative_path(struct parv *p, const char *from, const char *name)
{
	const char *slash = strrchr(from, '/');
	size_t dir = slash ? (size_t)(slash - from) + 1 : 0;
	char *s;

	if (name[0] == '/' || !dir)
		return arena_strndup(p, name, strlen(name));
	s = arena_alloc(p, dir + strlen(name) + 1);
	if (s) {
		memcpy(s, from, dir);
		strcpy(s + dir, name);
	}
	return s;
}

/* Start reading `path` (its text already in memory when `text` is given). */
static int push_file(struct lexer *x, const char *path, const char *text, const char *from_file,
		     int from_line, const char *name)
{
	struct src *sr;
	char *owned = NULL;
	size_t len;

	if (x->top + 1 > PARV_DEPTH_MAX || ++x->p->nfiles > PARV_FILES_MAX) {
		x->failed = true;
		return err_set(x->e, "%s:%d: 'source %s': more than %d files or nested sources "
			       "(a source loop?)", from_file, from_line, name, PARV_FILES_MAX);
	}
	if (!text) {
		if (input_read(path, "DiskSim parameter file", PARV_FILE_MAX, true, &owned, &len,
			       x->e)) {
			x->failed = true;
			if (from_file)
				err_prefix(x->e, "%s:%d: in 'source %s': ", from_file, from_line, name);
			return -1;
		}
		text = owned;
	}
	if (from_file)
		x->top++;
	sr = &x->stack[x->top];
	sr->owned = owned;
	sr->s = text;
	sr->file = arena_strndup(x->p, path, strlen(path));
	sr->line = 1;
	sr->from_file = from_file;
	sr->from_line = from_line;
	if (!sr->file) {
		x->failed = true;
		return err_set(x->e, "out of memory");
	}
	return 0;
}

/* The next raw character run: white space and comments skipped, files popped at their end. */
static int lex(struct lexer *x, struct tok *t)
{
	for (;;) {
		struct src *sr = &x->stack[x->top];
		const char *s = sr->s, *start;

		while (is_space(*s)) {
			if (*s == '\n')
				sr->line++;
			s++;
		}
		if (*s == '#') {
			while (*s && *s != '\n' && *s != '\f')
				s++;
			sr->s = s;
			continue;
		}
		sr->s = s;
		memset(t, 0, sizeof(*t));
		t->file = sr->file;
		t->line = sr->line;
		if (!*s) {
			if (x->top == 0) {
				t->kind = T_EOF;
				t->text = "the end of the file";
				return 0;
			}
			free(sr->owned);
			sr->owned = NULL;
			x->top--;
			continue;
		}
		switch (*s) {
		case '{': t->kind = T_LBRACE; break;
		case '}': t->kind = T_RBRACE; break;
		case '[': t->kind = T_LBRAK; break;
		case ']': t->kind = T_RBRAK; break;
		case ',': t->kind = T_COMMA; break;
		case '=': t->kind = T_EQUAL; break;
		case ':': case '?': case ';': t->kind = T_STRAY; break;
		default: t->kind = T_WORD; break;
		}
		if (t->kind != T_WORD) {
			char *c = arena_strndup(x->p, s, 1);

			if (!c)
				return fail_at(x, t->file, t->line, "out of memory");
			t->text = c;
			sr->s = s + 1;
			return 0;
		}
		start = s;
		while (!is_delim(*s))
			s++;
		sr->s = s;
		t->text = arena_strndup(x->p, start, (size_t)(s - start));
		if (!t->text)
			return fail_at(x, t->file, t->line, "out of memory");
		if (!strcmp(t->text, "..")) {
			t->kind = T_DOTDOT;
			return 0;
		}
		if (!strcmp(t->text, "source")) {
			struct tok name;
			char *path;

			if (lex(x, &name))
				return -1;
			if (name.kind != T_WORD || name.file != t->file)
				return fail_at(x, t->file, t->line, "expected a file name after 'source', "
					       "got '%s'", name.text);
			path = relative_path(x->p, t->file, name.text);
			if (!path)
				return fail_at(x, t->file, t->line, "out of memory");
			if (push_file(x, path, NULL, t->file, t->line, name.text))
				return -1;
			continue;
		}
		t->scalar = classify(t->text);
		if (t->scalar != PARV_STRING) {
			char *end;

			errno = 0;
			if (t->scalar == PARV_INT) {
				const char *hex = strstr(t->text, "0x");

				t->ival = strtoll(t->text, &end, hex ? 16 : 10);
				t->dval = (double)t->ival;
			} else {
				t->dval = strtod(t->text, &end);
			}
			if (errno || *end || t->dval != t->dval || t->dval > 1e300 || t->dval < -1e300)
				return fail_at(x, t->file, t->line, "number '%s' is out of range",
					       t->text);
		}
		return 0;
	}
}

static const struct tok *peek(struct lexer *x, int n)
{
	while (x->nla <= n && !x->failed) {
		if (lex(x, &x->la[x->nla]))
			break;
		x->nla++;
	}
	if (x->failed) {
		static const struct tok bad = { .kind = T_EOF, .text = "", .file = "", .line = 0 };

		return &bad;
	}
	return &x->la[n];
}

static struct tok next(struct lexer *x)
{
	struct tok t = *peek(x, 0);

	if (!x->failed) {
		memmove(&x->la[0], &x->la[1], sizeof(x->la[0]) * (size_t)(x->nla - 1));
		x->nla--;
	}
	return t;
}

static bool is_word(const struct tok *t)
{
	return t->kind == T_WORD && t->scalar == PARV_STRING;
}

/* "expected WHAT, got NEXT" at the next token. */
static int expected(struct lexer *x, const char *what)
{
	const struct tok *t = peek(x, 0);

	if (x->failed)
		return -1;
	if (t->kind == T_EOF)
		return fail_at(x, t->file, t->line, "expected %s, got the end of the file", what);
	return fail_at(x, t->file, t->line, "expected %s, got '%s'", what, t->text);
}

static bool accept(struct lexer *x, enum tok_kind k)
{
	if (peek(x, 0)->kind != k || x->failed)
		return false;
	next(x);
	return true;
}

static void note(struct lexer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct lexer *x, const char *fmt, ...)
{
	struct parv *p = x->p;
	char msg[400];
	va_list ap;
	const char **nn;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nn = arena_grow(p, p->notes, p->nnotes, &p->cap_notes, sizeof(*nn));
	if (!nn)
		return;
	p->notes = nn;
	p->notes[p->nnotes] = arena_strndup(p, msg, strlen(msg));
	if (p->notes[p->nnotes])
		p->nnotes++;
}

/* ---- the grammar ---- */

static struct parv_value *new_value(struct lexer *x, enum parv_kind kind, const struct tok *at)
{
	struct parv_value *v = arena_alloc(x->p, sizeof(*v));

	if (!v) {
		fail_at(x, at->file, at->line, "out of memory");
		return NULL;
	}
	v->kind = kind;
	v->file = at->file;
	v->line = at->line;
	v->name = "";
	return v;
}

static int add_item(struct lexer *x, struct parv_value *list, unsigned *cap, struct parv_value *it)
{
	struct parv_value **ni = arena_grow(x->p, list->items, list->nitems, cap, sizeof(*ni));

	if (!ni)
		return fail_at(x, it->file, it->line, "out of memory");
	list->items = ni;
	list->items[list->nitems++] = it;
	return 0;
}

static int parse_value(struct lexer *x, struct parv_value **out, int depth);
static int parse_pairs(struct lexer *x, struct parv_value *b, int depth);

/* A word's stem and trailing number (disk12: "disk", 12), as DiskSim's dumb_split. */
static bool split_number(const char *w, size_t *stem, long *n)
{
	size_t len = strlen(w), i = len;

	while (i > 0 && is_dec((unsigned char)w[i - 1]))
		i--;
	if (i == 0 || i == len || len - i > 9)
		return false;
	*stem = i;
	*n = strtol(w + i, NULL, 10);
	return true;
}

/* After '[': items up to ']'. */
static int parse_list(struct lexer *x, struct parv_value *v, int depth)
{
	unsigned cap = 0;

	if (accept(x, T_RBRAK))
		return 0;
	for (;;) {
		struct parv_value *it;

		if (is_word(peek(x, 0)) && peek(x, 1)->kind == T_DOTDOT) {
			struct tok a = next(x), b;
			size_t sa, sb;
			long ia, ib, i;

			next(x);
			b = *peek(x, 0);
			if (!is_word(&b))
				return expected(x, "a name after '..'");
			next(x);
			if (!split_number(a.text, &sa, &ia) || !split_number(b.text, &sb, &ib) ||
			    sa != sb || strncmp(a.text, b.text, sa) || ib < ia)
				return fail_at(x, a.file, a.line, "range '%s .. %s': expected two names "
					       "with one stem and rising numbers, such as disk0 .. disk3",
					       a.text, b.text);
			if (ib - ia >= PARV_RANGE_MAX)
				return fail_at(x, a.file, a.line, "range '%s .. %s': more than %d names",
					       a.text, b.text, PARV_RANGE_MAX);
			for (i = ia; i <= ib; i++) {
				char name[64];

				snprintf(name, sizeof(name), "%.*s%ld", (int)sa, a.text, i);
				it = new_value(x, PARV_WORD, &a);
				if (!it || !(it->text = arena_strndup(x->p, name, strlen(name))))
					return fail_at(x, a.file, a.line, "out of memory");
				if (add_item(x, v, &cap, it))
					return -1;
			}
		} else {
			if (parse_value(x, &it, depth + 1) || add_item(x, v, &cap, it))
				return -1;
		}
		if (accept(x, T_COMMA)) {
			if (peek(x, 0)->kind == T_RBRAK)
				return expected(x, "a value after ',' in the list");
			continue;
		}
		if (accept(x, T_RBRAK))
			return 0;
		return expected(x, "',' or ']' in the list");
	}
}

static int parse_value(struct lexer *x, struct parv_value **out, int depth)
{
	const struct tok *t = peek(x, 0);
	struct parv_value *v;

	if (x->failed)
		return -1;
	if (depth > PARV_DEPTH_MAX)
		return fail_at(x, t->file, t->line, "values nested more than %d deep", PARV_DEPTH_MAX);
	if (t->kind == T_LBRAK) {
		struct tok open = next(x);

		v = new_value(x, PARV_LIST, &open);
		if (!v || parse_list(x, v, depth))
			return -1;
		*out = v;
		return 0;
	}
	if (t->kind != T_WORD)
		return expected(x, "a value");
	{
		struct tok w = next(x);

		v = new_value(x, PARV_WORD, &w);
		if (!v)
			return -1;
		v->text = w.text;
		v->scalar = w.scalar;
		v->ival = w.ival;
		v->dval = w.dval;
		if (w.scalar != PARV_STRING) {
			*out = v;
			return 0;
		}
		/* TYPE { }, TYPE NAME { } or TYPE NAME [ ]: a block or a topology node. */
		if (is_word(peek(x, 0)) &&
		    (peek(x, 1)->kind == T_LBRACE || peek(x, 1)->kind == T_LBRAK)) {
			struct tok name = next(x);

			v->name = name.text;
			if (accept(x, T_LBRAK)) {
				v->kind = PARV_TOPO;
				*out = v;
				{
					struct parv_value list = { .kind = PARV_LIST };

					if (parse_list(x, &list, depth))
						return -1;
					v->items = list.items;
					v->nitems = list.nitems;
				}
				return 0;
			}
		}
		if (accept(x, T_LBRACE)) {
			v->kind = PARV_BLOCK;
			if (parse_pairs(x, v, depth))
				return -1;
		}
		*out = v;
		return 0;
	}
}

static int add_pair(struct lexer *x, struct parv_value *b, unsigned *cap, const char *key,
		    const struct tok *at, struct parv_value *value)
{
	struct parv_pair *np;
	unsigned i;

	for (i = 0; i < b->npairs; i++)
		if (!strcmp(b->pairs[i].key, key))
			return fail_at(x, at->file, at->line, "key '%s' is given twice in block '%s' "
				       "(first at %s:%d)", key, b->name[0] ? b->name : b->text,
				       b->pairs[i].file, b->pairs[i].line);
	np = arena_grow(x->p, b->pairs, b->npairs, cap, sizeof(*np));
	if (!np)
		return fail_at(x, at->file, at->line, "out of memory");
	b->pairs = np;
	np = &b->pairs[b->npairs++];
	np->key = key;
	np->value = value;
	np->file = at->file;
	np->line = at->line;
	return 0;
}

/* KEY = value, or [ KEY, KEY ] = value. */
static int parse_pair(struct lexer *x, struct parv_value *b, unsigned *cap, int depth)
{
	struct tok first = *peek(x, 0);
	struct parv_value *value, keys = { .kind = PARV_LIST };
	char key[512];
	size_t len = 0;
	unsigned i;

	if (first.kind == T_LBRAK) {
		next(x);
		if (parse_list(x, &keys, depth))
			return -1;
		for (i = 0; i < keys.nitems; i++)
			if (keys.items[i]->kind != PARV_WORD || keys.items[i]->scalar != PARV_STRING)
				return fail_at(x, keys.items[i]->file, keys.items[i]->line,
					       "expected key names in the list before '='");
		if (!accept(x, T_EQUAL))
			return expected(x, "'=' after the list of keys");
		if (parse_value(x, &value, depth + 1))
			return -1;
		for (i = 0; i < keys.nitems; i++)
			if (add_pair(x, b, cap, keys.items[i]->text, &first, value))
				return -1;
		return 0;
	}
	/* A key is words joined by one space: "Read hit over. after read". */
	while (is_word(peek(x, 0))) {
		struct tok w = next(x);
		size_t n = strlen(w.text);

		if (len + n + 2 > sizeof(key))
			return fail_at(x, w.file, w.line, "a key longer than %zu characters",
				       sizeof(key) - 2);
		if (len)
			key[len++] = ' ';
		memcpy(key + len, w.text, n);
		len += n;
	}
	if (!len || !accept(x, T_EQUAL))
		return expected(x, "'KEY = value' or '}'");
	key[len] = '\0';
	if (parse_value(x, &value, depth + 1))
		return -1;
	{
		char *k = arena_strndup(x->p, key, len);

		if (!k)
			return fail_at(x, first.file, first.line, "out of memory");
		return add_pair(x, b, cap, k, &first, value);
	}
}

/* After '{': pairs separated by commas, up to '}'. */
static int parse_pairs(struct lexer *x, struct parv_value *b, int depth)
{
	unsigned cap = 0;

	if (accept(x, T_RBRACE))
		return 0;
	for (;;) {
		if (peek(x, 0)->kind == T_EOF && !x->failed)
			return fail_at(x, peek(x, 0)->file, peek(x, 0)->line, "expected '}' to close "
				       "block '%s', got the end of the file",
				       b->name[0] ? b->name : b->text);
		if (parse_pair(x, b, &cap, depth))
			return -1;
		if (accept(x, T_COMMA)) {
			if (peek(x, 0)->kind == T_RBRACE)
				return expected(x, "'KEY = value' after ','");
			continue;
		}
		if (accept(x, T_RBRACE))
			return 0;
		if (peek(x, 0)->kind == T_EOF && !x->failed)
			return fail_at(x, peek(x, 0)->file, peek(x, 0)->line, "expected '}' to close "
				       "block '%s', got the end of the file",
				       b->name[0] ? b->name : b->text);
		return expected(x, "',' or '}' after a value");
	}
}

static struct parv_value *find_block(const struct parv *p, const char *name)
{
	unsigned i;

	for (i = 0; i < p->nblocks; i++)
		if (!strcmp(p->blocks[i]->name, name))
			return p->blocks[i];
	return NULL;
}

static bool is_module(const char *t)
{
	unsigned i;

	for (i = 0; modules[i]; i++)
		if (!strcmp(t, modules[i]))
			return true;
	return false;
}

/* TYPE NAME { pairs } at the top level. */
static int parse_blockdef(struct lexer *x)
{
	struct tok type = next(x), name;
	struct parv *p = x->p;
	struct parv_value *b, *parent = NULL, **nb;

	if (!is_module(type.text)) {
		parent = find_block(p, type.text);
		if (!parent)
			return fail_at(x, type.file, type.line, "unknown block type '%s' (DiskSim 4.0 "
				       "components are disksim_global, disksim_stats, disksim_iodriver, "
				       "disksim_bus, disksim_ctlr, disksim_disk, dm_disk, ..., or a block "
				       "defined above)", type.text);
	}
	if (!is_word(peek(x, 0)))
		return expected(x, "the block's name after its type");
	name = next(x);
	if (!accept(x, T_LBRACE))
		return expected(x, "'{' to open the block");
	b = new_value(x, PARV_BLOCK, &type);
	if (!b)
		return -1;
	b->text = parent ? parent->text : type.text;
	b->parent = parent ? parent->name : NULL;
	b->name = name.text;
	if (parse_pairs(x, b, 0))
		return -1;
	if (parent) {
		/* DiskSim's lp_setup_subtype: the parent's pairs this block does not give. */
		unsigned i, k, cap = b->npairs;

		for (i = 0; i < parent->npairs; i++) {
			for (k = 0; k < b->npairs && strcmp(b->pairs[k].key, parent->pairs[i].key); k++)
				;
			if (k < b->npairs)
				continue;
			if (add_pair(x, b, &cap, parent->pairs[i].key, &type, parent->pairs[i].value))
				return -1;
			b->pairs[b->npairs - 1].file = parent->pairs[i].file;
			b->pairs[b->npairs - 1].line = parent->pairs[i].line;
		}
	}
	if (find_block(p, b->name)) {
		const struct parv_value *first = find_block(p, b->name);

		note(x, "%s:%d: block '%s' is defined again (first at %s:%d); DiskSim ignores this "
		     "one, and so does ncqsim", b->file, b->line, b->name, first->file, first->line);
		return 0;
	}
	nb = arena_grow(p, p->blocks, p->nblocks, &p->cap_blocks, sizeof(*nb));
	if (!nb)
		return fail_at(x, type.file, type.line, "out of memory");
	p->blocks = nb;
	p->blocks[p->nblocks++] = b;
	return 0;
}

static int parse_instantiate(struct lexer *x)
{
	struct tok at = next(x), as;
	struct parv_value list = { .kind = PARV_LIST };
	struct parv *p = x->p;
	unsigned i;

	if (peek(x, 0)->kind != T_LBRAK)
		return expected(x, "'[' after 'instantiate'");
	next(x);
	if (parse_list(x, &list, 0))
		return -1;
	for (i = 0; i < list.nitems; i++)
		if (list.items[i]->kind != PARV_WORD || list.items[i]->scalar != PARV_STRING)
			return fail_at(x, list.items[i]->file, list.items[i]->line,
				       "expected instance names in the list of 'instantiate'");
	if (!is_word(peek(x, 0)) || strcmp(peek(x, 0)->text, "as"))
		return expected(x, "'as' after the instance names");
	next(x);
	if (!is_word(peek(x, 0)))
		return expected(x, "a block name after 'as'");
	as = next(x);
	for (i = 0; i < list.nitems; i++) {
		struct parv_inst *ni = arena_grow(p, p->insts, p->ninsts, &p->cap_insts, sizeof(*ni));

		if (!ni)
			return fail_at(x, at.file, at.line, "out of memory");
		p->insts = ni;
		ni = &p->insts[p->ninsts++];
		ni->name = list.items[i]->text;
		ni->as = as.text;
		ni->file = at.file;
		ni->line = at.line;
	}
	return 0;
}

/* After TYPE NAME '[': children "TYPE NAME [ ... ]", separated by commas, up to ']'. */
static int parse_children(struct lexer *x, struct parv_node *parent, int depth)
{
	struct parv_node **tail = &parent->children;

	if (depth > PARV_DEPTH_MAX)
		return fail_at(x, peek(x, 0)->file, peek(x, 0)->line,
			       "topology nested more than %d deep", PARV_DEPTH_MAX);
	if (accept(x, T_RBRAK))
		return 0;
	for (;;) {
		struct parv_node *n = arena_alloc(x->p, sizeof(*n));

		if (!n)
			return fail_at(x, peek(x, 0)->file, peek(x, 0)->line, "out of memory");
		if (!is_word(peek(x, 0)))
			return expected(x, "a component type or ']' in the topology");
		n->type = next(x).text;
		if (!is_word(peek(x, 0)))
			return expected(x, "a component name in the topology");
		n->name = next(x).text;
		if (!accept(x, T_LBRAK))
			return expected(x, "'[' after the component's name");
		n->parent = parent;
		*tail = n;
		tail = &n->next;
		if (parse_children(x, n, depth + 1))
			return -1;
		if (accept(x, T_COMMA))
			continue;
		if (accept(x, T_RBRAK))
			return 0;
		return expected(x, "',' or ']' in the topology");
	}
}

static int parse_topology(struct lexer *x)
{
	struct parv_node *root = arena_alloc(x->p, sizeof(*root));

	next(x);
	if (!root)
		return fail_at(x, peek(x, 0)->file, peek(x, 0)->line, "out of memory");
	if (!is_word(peek(x, 0)) || !is_word(peek(x, 1)) || peek(x, 2)->kind != T_LBRAK)
		return expected(x, "'TYPE NAME [' after 'topology'");
	root->type = next(x).text;
	root->name = next(x).text;
	next(x);
	*x->p->topology_tail = root;
	x->p->topology_tail = &root->next;
	return parse_children(x, root, 1);
}

static int parse_statements(struct lexer *x)
{
	for (;;) {
		const struct tok *t = peek(x, 0);

		if (x->failed)
			return -1;
		if (t->kind == T_EOF)
			return 0;
		if (!is_word(t))
			return expected(x, "a block 'TYPE NAME {', 'instantiate' or 'topology'");
		if (!strcmp(t->text, "instantiate")) {
			if (parse_instantiate(x))
				return -1;
		} else if (!strcmp(t->text, "topology")) {
			if (parse_topology(x))
				return -1;
		} else if (parse_blockdef(x)) {
			return -1;
		}
	}
}

struct parv *parv_read(const char *path, const char *text, struct err *e)
{
	struct parv *p = calloc(1, sizeof(*p));
	struct lexer *x = calloc(1, sizeof(*x));
	int rc, i;

	if (!p || !x) {
		free(p);
		free(x);
		err_set(e, "out of memory");
		return NULL;
	}
	p->topology_tail = &p->topology;
	x->p = p;
	x->e = e;
	rc = push_file(x, path, text, NULL, 0, path);
	if (!rc)
		rc = parse_statements(x);
	for (i = 0; i <= x->top; i++)
		free(x->stack[i].owned);
	free(x);
	if (rc) {
		parv_free(p);
		return NULL;
	}
	return p;
}

void parv_free(struct parv *p)
{
	struct chunk *c, *next_chunk;

	if (!p)
		return;
	for (c = p->arena; c; c = next_chunk) {
		next_chunk = c->next;
		free(c);
	}
	free(p);
}

unsigned parv_block_count(const struct parv *p)
{
	return p->nblocks;
}

struct parv_value *parv_block(const struct parv *p, unsigned i)
{
	return i < p->nblocks ? p->blocks[i] : NULL;
}

struct parv_value *parv_find_block(const struct parv *p, const char *name)
{
	return find_block(p, name);
}

unsigned parv_inst_count(const struct parv *p)
{
	return p->ninsts;
}

const struct parv_inst *parv_inst(const struct parv *p, unsigned i)
{
	return i < p->ninsts ? &p->insts[i] : NULL;
}

static const struct parv_node *find_node(const struct parv_node *n, const char *name)
{
	for (; n; n = n->next) {
		const struct parv_node *f;

		if (!strcmp(n->name, name))
			return n;
		f = find_node(n->children, name);
		if (f)
			return f;
	}
	return NULL;
}

const struct parv_node *parv_topology_find(const struct parv *p, const char *name)
{
	return find_node(p->topology, name);
}

struct parv_pair *parv_get(struct parv_value *block, const char *key)
{
	unsigned i;

	if (!block || block->kind != PARV_BLOCK)
		return NULL;
	for (i = 0; i < block->npairs; i++)
		if (!strcmp(block->pairs[i].key, key)) {
			block->pairs[i].used = true;
			return &block->pairs[i];
		}
	return NULL;
}

unsigned parv_note_count(const struct parv *p)
{
	return p->nnotes;
}

const char *parv_note(const struct parv *p, unsigned i)
{
	return i < p->nnotes ? p->notes[i] : NULL;
}
