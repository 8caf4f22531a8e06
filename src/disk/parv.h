/*
 * parv — a reader for DiskSim 4.0 parameter files (.parv), as a tree.
 *
 * The grammar and the tokens are libparam's (DiskSim's libparam.y and
 * libparam.lex), so a file reads here as it reads in DiskSim:
 *
 *   file      := statement*
 *   statement := TYPE NAME '{' pairs '}'          a component's parameters; TYPE is a
 *                                                 module or an earlier block's NAME (the
 *                                                 new block takes every pair of that one
 *                                                 it does not give itself)
 *              | 'instantiate' list 'as' NAME
 *              | 'topology' TYPE NAME list        list items: TYPE NAME list
 *   pairs     := (pair (',' pair)*)?              commas between pairs, none after the last
 *   pair      := KEY '=' value | list '=' value   KEY: one or more words, joined by one space;
 *                                                 a list of words gives each the value
 *   value     := INT | FLOAT | WORD | list
 *              | TYPE '{' pairs '}'               a nested block
 *              | TYPE NAME '{' pairs '}'          a nested named block
 *              | TYPE NAME list                   a topology node
 *   list      := '[' (item (',' item)*)? ']'      item: a value, or WORD '..' WORD — the
 *                                                 words' common stem with every number
 *                                                 between their trailing numbers (disk0 ..
 *                                                 disk3 is disk0, disk1, disk2, disk3)
 *
 * Tokens, as DiskSim's lexer cuts them: a word is a run of anything but
 * white space and ; { } , [ ] : ? = ; a whole word that is -?[0-9]+ is an
 * INT, -?0x[0-9a-fA-F]+ a hexadecimal INT, -?[0-9]+.[0-9]+(e[+-][0-9]+)?
 * a FLOAT, anything else a WORD (so 1e5, .5, 5. and 1.5E+3 are words, not
 * numbers, as in DiskSim). There are no quoted strings: a quote is one of
 * a word's characters. '#' at the start of a token comments out the rest
 * of the line. `source FILE` anywhere reads FILE's tokens in its
 * place (DiskSim's lexer splices them in); FILE is relative to the
 * directory of the file that names it. ':', '?' and ';' are tokens no rule
 * takes.
 *
 * Every node keeps its file and line, so the importer's messages say where
 * a value came from; every pair has a `used` flag, so the importer can list
 * what it did not read. A key given twice in one block is refused (DiskSim:
 * "redefined"); a block whose name is already taken is ignored, as DiskSim
 * ignores it, with a note (parv_note).
 *
 * Broken input is one message "FILE:LINE: what was expected, got what".
 * Limits: files up to 4 MiB each, nesting 32 deep, 64 files, a range of at
 * most 65 536 names.
 */
#ifndef NCQSIM_DISK_PARV_H
#define NCQSIM_DISK_PARV_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

enum parv_kind { PARV_WORD, PARV_LIST, PARV_BLOCK, PARV_TOPO };

/* What a PARV_WORD is, by DiskSim's lexer. */
enum parv_scalar { PARV_STRING, PARV_INT, PARV_FLOAT };

struct parv_pair;

struct parv_value {
	enum parv_kind kind;
	enum parv_scalar scalar;	/* WORD */
	int64_t ival;			/* WORD, PARV_INT */
	double dval;			/* WORD, PARV_INT or PARV_FLOAT */
	const char *text;		/* WORD: as written; BLOCK, TOPO: its type */
	const char *name;		/* BLOCK: its name ("" when none); TOPO: its name */
	const char *parent;		/* top-level BLOCK derived from another: that one's name */
	struct parv_pair *pairs;	/* BLOCK */
	unsigned npairs;
	struct parv_value **items;	/* LIST; TOPO: its children */
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
	const char *file;
	int line;
};

struct parv;

/*
 * Read a .parv and the files it sources. `text` may be NULL to read
 * `path` from disk; with text given, sourced files are still read from
 * disk relative to path's directory (the fuzz target passes text).
 */
struct parv *parv_read(const char *path, const char *text, struct err *e);
void parv_free(struct parv *p);

/* Top-level blocks in file order (a redefinition DiskSim ignores is not among them). */
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

/* What DiskSim would only warn about ("FILE:LINE: ..."), in file order. */
unsigned parv_note_count(const struct parv *p);
const char *parv_note(const struct parv *p, unsigned i);

#endif
