#include "disk/parv.h"

#include "util/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARV_FILE_MAX	(4 << 20)
#define PARV_DEPTH_MAX	32
#define PARV_FILES_MAX	64

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
	struct parv_node *topology;	/* roots, chained by next */
	unsigned nfiles;
	int open_failed_depth;	/* the source depth whose file could not be read, -1 none */
};

/* Top-level component types of DiskSim 4.0; anything else is refused. */
static const char *const top_types[] = {
	"disksim_global", "disksim_stats", "disksim_iodriver", "disksim_bus", "disksim_ctlr",
	"disksim_disk", "disksim_simpledisk", "disksim_logorg", "disksim_pf", "disksim_synthio",
	"disksim_iosim", "disksim_cachemem", "disksim_cachedev", "dm_disk", "memsmodel_mems",
	"ssdmodel_ssd", "disksim_syncset", NULL,
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

struct lexer {
	struct parv *p;
	const char *s;
	const char *file;	/* arena copy */
	int line;
	int depth;
	struct err *e;
};

static void skip_space(struct lexer *x)
{
	for (;;) {
		while (*x->s == ' ' || *x->s == '\t' || *x->s == '\r' || *x->s == '\n') {
			if (*x->s == '\n')
				x->line++;
			x->s++;
		}
		if (*x->s != '#')
			return;
		while (*x->s && *x->s != '\n')
			x->s++;
	}
}

static bool is_punct(char c)
{
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == '=' || c == '#';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* What comes next, for messages: a word, a character or the end. */
static void describe_next(struct lexer *x, char *buf, size_t len)
{
	size_t n = 0;

	skip_space(x);
	if (!*x->s) {
		snprintf(buf, len, "the end of the file");
		return;
	}
	if (is_punct(*x->s)) {
		snprintf(buf, len, "'%c'", *x->s);
		return;
	}
	while (x->s[n] && !is_space(x->s[n]) && !is_punct(x->s[n]) && n < 40)
		n++;
	snprintf(buf, len, "'%.*s'", (int)n, x->s);
}

static int expected(struct lexer *x, const char *what)
{
	char got[64];

	describe_next(x, got, sizeof(got));
	return err_set(x->e, "%s:%d: expected %s, got %s", x->file, x->line, what, got);
}

static bool accept(struct lexer *x, char c)
{
	skip_space(x);
	if (*x->s != c)
		return false;
	x->s++;
	return true;
}

/* A word: anything up to white space or punctuation. NULL (no error set) when none. */
static char *word(struct lexer *x)
{
	const char *start;

	skip_space(x);
	start = x->s;
	while (*x->s && !is_space(*x->s) && !is_punct(*x->s))
		x->s++;
	if (x->s == start)
		return NULL;
	return arena_strndup(x->p, start, (size_t)(x->s - start));
}

static bool peek_word(struct lexer *x, const char *w)
{
	size_t n = strlen(w);

	skip_space(x);
	return !strncmp(x->s, w, n) && (is_space(x->s[n]) || !x->s[n]);
}

static int parse_file(struct parv *p, const char *path, const char *text, bool value_file,
		      struct parv_value **out, int depth, struct err *e);

/* A path relative to the directory of `from`. */
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

static int source_file(struct lexer *x, bool value_file, struct parv_value **out)
{
	int line = x->line;
	char *name = word(x), *path;

	if (!name)
		return expected(x, "a file name after 'source'");
	path = relative_path(x->p, x->file, name);
	if (!path)
		return err_set(x->e, "%s:%d: out of memory", x->file, line);
	x->p->open_failed_depth = -1;
	if (parse_file(x->p, path, NULL, value_file, out, x->depth + 1, x->e)) {
		/* Say where the source was named when the file itself failed; an error
		 * inside it already names its own file and line. */
		if (x->p->open_failed_depth == x->depth + 1)
			err_prefix(x->e, "%s:%d: in 'source %s': ", x->file, line, name);
		return -1;
	}
	return 0;
}

static int parse_value(struct lexer *x, struct parv_value **out);

/* After '{': KEY = value pairs up to '}'. */
static int parse_pairs(struct lexer *x, struct parv_value *b)
{
	unsigned cap = 0;

	for (;;) {
		const char *start, *eq;
		struct parv_pair *pr;
		size_t n;

		skip_space(x);
		if (accept(x, '}'))
			return 0;
		if (!*x->s)
			return err_set(x->e, "%s:%d: expected '}' to close block '%s', got the end of "
				       "the file", x->file, x->line, b->name[0] ? b->name : b->text);
		/* A key runs to '=' on its line: DiskSim's keys have spaces and "()./-". */
		start = x->s;
		for (eq = start; *eq && *eq != '=' && *eq != '\n' && *eq != '{' && *eq != '}' &&
		     *eq != '[' && *eq != ']' && *eq != ',' && *eq != '#'; eq++)
			;
		if (*eq != '=' || eq == start)
			return expected(x, "'KEY = value' or '}'");
		n = (size_t)(eq - start);
		while (n && is_space(start[n - 1]))
			n--;
		if (!n)
			return expected(x, "a key before '='");
		if (b->npairs == cap) {
			struct parv_pair *np;

			cap = cap ? cap * 2 : 16;
			np = arena_alloc(x->p, cap * sizeof(*np));
			if (!np)
				return err_set(x->e, "%s:%d: out of memory", x->file, x->line);
			if (b->npairs)
				memcpy(np, b->pairs, b->npairs * sizeof(*np));
			b->pairs = np;
		}
		pr = &b->pairs[b->npairs];
		pr->key = arena_strndup(x->p, start, n);
		pr->file = x->file;
		pr->line = x->line;
		x->s = eq + 1;
		if (parse_value(x, &pr->value))
			return -1;
		b->npairs++;
		accept(x, ',');
	}
}

static struct parv_value *new_value(struct lexer *x, enum parv_kind kind)
{
	struct parv_value *v = arena_alloc(x->p, sizeof(*v));

	if (v) {
		v->kind = kind;
		v->file = x->file;
		v->line = x->line;
		v->name = "";
	}
	return v;
}

static int parse_value(struct lexer *x, struct parv_value **out)
{
	struct parv_value *v;
	char *w;

	if (++x->depth > PARV_DEPTH_MAX)
		return err_set(x->e, "%s:%d: values nested more than %d deep", x->file, x->line,
			       PARV_DEPTH_MAX);
	skip_space(x);
	if (accept(x, '[')) {
		unsigned cap = 0;

		v = new_value(x, PARV_LIST);
		if (!v)
			return err_set(x->e, "%s:%d: out of memory", x->file, x->line);
		while (!accept(x, ']')) {
			if (!*x->s)
				return expected(x, "']' to close the list");
			if (v->nitems == cap) {
				struct parv_value **ni;

				cap = cap ? cap * 2 : 8;
				ni = arena_alloc(x->p, cap * sizeof(*ni));
				if (!ni)
					return err_set(x->e, "%s:%d: out of memory", x->file, x->line);
				if (v->nitems)
					memcpy(ni, v->items, v->nitems * sizeof(*ni));
				v->items = ni;
			}
			if (parse_value(x, &v->items[v->nitems]))
				return -1;
			v->nitems++;
			if (!accept(x, ',') && (skip_space(x), *x->s != ']'))
				return expected(x, "',' or ']' in the list");
		}
		*out = v;
		x->depth--;
		return 0;
	}
	v = new_value(x, PARV_WORD);
	w = word(x);
	if (!v || !w)
		return v ? expected(x, "a value") : err_set(x->e, "%s:%d: out of memory", x->file,
							    x->line);
	if (!strcmp(w, "source")) {
		if (source_file(x, true, out))
			return -1;
		x->depth--;
		return 0;
	}
	v->text = w;
	/* TYPE { or TYPE NAME {: a nested block. */
	skip_space(x);
	if (*x->s != '{' && *x->s && !is_punct(*x->s)) {
		const char *save = x->s;
		int save_line = x->line;
		char *name = word(x);

		if (name && accept(x, '{')) {
			v->name = name;
			x->s--;
		} else {
			x->s = save;
			x->line = save_line;
		}
	}
	if (accept(x, '{')) {
		v->kind = PARV_BLOCK;
		if (parse_pairs(x, v))
			return -1;
	}
	*out = v;
	x->depth--;
	return 0;
}

static int add_block(struct parv *p, struct parv_value *b, struct err *e)
{
	if (p->nblocks == p->cap_blocks) {
		unsigned cap = p->cap_blocks ? p->cap_blocks * 2 : 16;
		struct parv_value **nb = arena_alloc(p, cap * sizeof(*nb));

		if (!nb)
			return err_set(e, "out of memory");
		if (p->nblocks)
			memcpy(nb, p->blocks, p->nblocks * sizeof(*nb));
		p->blocks = nb;
		p->cap_blocks = cap;
	}
	p->blocks[p->nblocks++] = b;
	return 0;
}

static int parse_instantiate(struct lexer *x)
{
	const char *names[256];
	unsigned n = 0, i;
	char *as;

	if (!accept(x, '['))
		return expected(x, "'[' after 'instantiate'");
	while (!accept(x, ']')) {
		char *w = word(x);

		if (!w)
			return expected(x, "an instance name or ']'");
		if (n == 256)
			return err_set(x->e, "%s:%d: more than 256 names in one instantiate",
				       x->file, x->line);
		names[n++] = w;
		accept(x, ',');
	}
	if (!peek_word(x, "as"))
		return expected(x, "'as' after the instance names");
	word(x);
	as = word(x);
	if (!as)
		return expected(x, "a block name after 'as'");
	for (i = 0; i < n; i++) {
		struct parv *p = x->p;

		if (p->ninsts == p->cap_insts) {
			unsigned cap = p->cap_insts ? p->cap_insts * 2 : 16;
			struct parv_inst *ni = arena_alloc(p, cap * sizeof(*ni));

			if (!ni)
				return err_set(x->e, "out of memory");
			if (p->ninsts)
				memcpy(ni, p->insts, p->ninsts * sizeof(*ni));
			p->insts = ni;
			p->cap_insts = cap;
		}
		p->insts[p->ninsts].name = names[i];
		p->insts[p->ninsts].as = as;
		p->ninsts++;
	}
	return 0;
}

/* TYPE NAME [ children ]: the children after '['. */
static int parse_children(struct lexer *x, struct parv_node *parent)
{
	struct parv_node **tail = &parent->children;

	if (++x->depth > PARV_DEPTH_MAX)
		return err_set(x->e, "%s:%d: topology nested more than %d deep", x->file, x->line,
			       PARV_DEPTH_MAX);
	while (!accept(x, ']')) {
		struct parv_node *n = arena_alloc(x->p, sizeof(*n));

		if (!n)
			return err_set(x->e, "out of memory");
		n->type = word(x);
		if (!n->type)
			return expected(x, "a component type or ']' in the topology");
		n->name = word(x);
		if (!n->name)
			return expected(x, "a component name in the topology");
		if (!accept(x, '['))
			return expected(x, "'[' after the component's name");
		n->parent = parent;
		*tail = n;
		tail = &n->next;
		if (parse_children(x, n))
			return -1;
		accept(x, ',');
	}
	x->depth--;
	return 0;
}

static int parse_topology(struct lexer *x)
{
	struct parv_node *root = arena_alloc(x->p, sizeof(*root));

	if (!root)
		return err_set(x->e, "out of memory");
	root->type = word(x);
	root->name = root->type ? word(x) : NULL;
	if (!root->type || !root->name)
		return expected(x, "'TYPE NAME [' after 'topology'");
	if (!accept(x, '['))
		return expected(x, "'[' after the topology's root");
	root->next = x->p->topology;
	x->p->topology = root;
	return parse_children(x, root);
}

static bool known_top_type(const char *t)
{
	unsigned i;

	for (i = 0; top_types[i]; i++)
		if (!strcmp(t, top_types[i]))
			return true;
	return false;
}

static int parse_statements(struct lexer *x)
{
	for (;;) {
		int line;
		char *w;

		skip_space(x);
		if (!*x->s)
			return 0;
		line = x->line;
		w = word(x);
		if (!w)
			return expected(x, "a block 'TYPE NAME {', 'source', 'instantiate' or 'topology'");
		if (!strcmp(w, "source")) {
			if (source_file(x, false, NULL))
				return -1;
		} else if (!strcmp(w, "instantiate")) {
			if (parse_instantiate(x))
				return -1;
		} else if (!strcmp(w, "topology")) {
			if (parse_topology(x))
				return -1;
		} else if (known_top_type(w)) {
			struct parv_value *b = new_value(x, PARV_BLOCK);
			char *name = word(x);

			if (!b)
				return err_set(x->e, "out of memory");
			if (!name)
				return expected(x, "the block's name after its type");
			b->text = w;
			b->name = name;
			b->line = line;
			if (!accept(x, '{'))
				return expected(x, "'{' to open the block");
			if (parse_pairs(x, b) || add_block(x->p, b, x->e))
				return -1;
		} else {
			return err_set(x->e, "%s:%d: unknown block type '%s' (DiskSim 4.0 components "
				       "are disksim_global, disksim_stats, disksim_iodriver, "
				       "disksim_bus, disksim_ctlr, disksim_disk, dm_disk, ...)",
				       x->file, line, w);
		}
	}
}

static char *read_whole(const char *path, struct err *e)
{
	char *text;
	size_t len;

	if (input_read(path, "DiskSim parameter file", PARV_FILE_MAX, true, &text, &len, e))
		return NULL;
	return text;
}

static int parse_file(struct parv *p, const char *path, const char *text, bool value_file,
		      struct parv_value **out, int depth, struct err *e)
{
	struct lexer x = { .p = p, .line = 1, .depth = depth, .e = e };
	char *owned = NULL;
	int rc;

	if (depth > PARV_DEPTH_MAX || ++p->nfiles > PARV_FILES_MAX)
		return err_set(e, "%s: more than %d files or nested sources (a source loop?)", path,
			       PARV_FILES_MAX);
	if (!text) {
		owned = read_whole(path, e);
		if (!owned) {
			p->open_failed_depth = depth;
			return -1;
		}
		text = owned;
	}
	x.s = text;
	x.file = arena_strndup(p, path, strlen(path));
	if (!x.file) {
		free(owned);
		return err_set(e, "out of memory");
	}
	if (value_file) {
		/* `Key = source FILE`: the file holds one block, TYPE NAME { ... }. */
		rc = parse_value(&x, out);
		if (!rc && (*out)->kind != PARV_BLOCK)
			rc = err_set(e, "%s:%d: expected a block 'TYPE NAME { ... }'", x.file,
				     (*out)->line);
		if (!rc) {
			skip_space(&x);
			if (*x.s)
				rc = expected(&x, "the end of the file after the block");
		}
	} else {
		rc = parse_statements(&x);
	}
	free(owned);
	return rc;
}

struct parv *parv_read(const char *path, const char *text, struct err *e)
{
	struct parv *p = calloc(1, sizeof(*p));

	if (!p) {
		err_set(e, "out of memory");
		return NULL;
	}
	if (parse_file(p, path, text, false, NULL, 0, e)) {
		parv_free(p);
		return NULL;
	}
	return p;
}

void parv_free(struct parv *p)
{
	struct chunk *c, *next;

	if (!p)
		return;
	for (c = p->arena; c; c = next) {
		next = c->next;
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
	unsigned i;

	for (i = 0; i < p->nblocks; i++)
		if (!strcmp(p->blocks[i]->name, name))
			return p->blocks[i];
	return NULL;
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
