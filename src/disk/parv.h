/*
 * parv — a reader for DiskSim 4.0 parameter files (.parv), as a tree.
 *
 * The grammar, as DiskSim's libparam reads it:
 *
 *   file      := statement*
 *   statement := 'source' FILE                       another file's statements, here
 *              | TYPE NAME '{' pairs '}'              a component's parameters
 *              | 'instantiate' '[' names ']' 'as' NAME
 *              | 'topology' TYPE NAME '[' children ']'
 *   pairs     := (KEY '=' value ','?)*                KEY: words, spaces, "()./-" allowed
 *   value     := NUMBER | WORD | '[' (value ','?)* ']'
 *              | TYPE NAME? '{' pairs '}'             a nested block
 *              | 'source' FILE                        a file holding one TYPE NAME { } block
 *   children  := (TYPE NAME '[' children ']' ','?)*
 *
 * '#' starts a comment. A `source` path is relative to the directory of
 * the file that names it. Every node keeps its file and line, so the
 * importer's messages say where a value came from; every pair has a `used`
 * flag, so the importer can list what it did not read.
 *
 * Broken input (a missing file, an unknown top-level block type, a
 * missing '=' or '}') is one message "FILE:LINE: what was expected".
 * Limits: files up to 4 MiB each, nesting 32 deep, 64 files.
 */
#ifndef NCQSIM_DISK_PARV_H
#define NCQSIM_DISK_PARV_H

#include <stdbool.h>

#include "util/err.h"

enum parv_kind { PARV_WORD, PARV_LIST, PARV_BLOCK };

struct parv_pair;

struct parv_value {
	enum parv_kind kind;
	const char *text;		/* WORD: the word; BLOCK: its type */
	const char *name;		/* BLOCK: its name, "" when none */
	struct parv_pair *pairs;	/* BLOCK */
	unsigned npairs;
	struct parv_value **items;	/* LIST */
	unsigned nitems;
	const char *file;
	int line;
};

struct parv_pair {
	const char *key;
	struct parv_value *value;
	const char *file;
	int line;
	bool used;
};

/* A topology node: TYPE NAME [ children ]. */
struct parv_node {
	const char *type, *name;
	struct parv_node *parent, *children, *next;
};

struct parv_inst {
	const char *name;	/* the instance (disk0) */
	const char *as;		/* the block it instantiates (HP_C2247A_validate) */
};

struct parv;

/*
 * Read a .parv and the files it sources. `text` may be NULL to read
 * `path` from disk; with text given, sourced files are still read from
 * disk relative to path's directory (the fuzz target passes text).
 */
struct parv *parv_read(const char *path, const char *text, struct err *e);
void parv_free(struct parv *p);

/* Top-level blocks in file order. */
unsigned parv_block_count(const struct parv *p);
struct parv_value *parv_block(const struct parv *p, unsigned i);
/* The top-level block named `name`, or NULL. */
struct parv_value *parv_find_block(const struct parv *p, const char *name);

unsigned parv_inst_count(const struct parv *p);
const struct parv_inst *parv_inst(const struct parv *p, unsigned i);
/* The first topology node with this instance name, or NULL. */
const struct parv_node *parv_topology_find(const struct parv *p, const char *name);

/* In a block: the pair with this key (marked used), or NULL. */
struct parv_pair *parv_get(struct parv_value *block, const char *key);

#endif
