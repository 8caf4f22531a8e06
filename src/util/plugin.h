/*
 * plugin — name-keyed registries of plug-ins, in the manner of fio's
 * ioengine list: a plug-in is one row (name, help, its own options) at the
 * head of its ops table, registered in its kind's registry and found by
 * name. The option choices, `--help` and error messages that name the
 * possible values are built from the rows, so adding a plug-in is one file
 * and one row; nothing else lists the names.
 *
 * Kinds and their registries: I/O schedulers (host/blk.h,
 * blk_schedulers), firmware base policies and priority policies
 * (disk/fwq.h, fwq_policies and fwq_prio_policies).
 *
 * A registry holds its built-in rows (a const array) and up to
 * PLUGIN_MAX_ADDED rows registered at run time (tests, future plug-in
 * files). Registration is the one mutation of state shared between
 * simulations: do it before any simulation starts, never while one runs
 * (compare's threads only read the registry).
 */
#ifndef NCQSIM_PLUGIN_H
#define NCQSIM_PLUGIN_H

#include <stddef.h>

#include "util/err.h"

struct opt_def;

/* The first member of every plug-in's ops table. */
struct plugin {
	const char *name;
	const char *help;
	/* The plug-in's own settings (offsets as its kind documents), or NULL. */
	const struct opt_def *options;
};

#define PLUGIN_MAX_ADDED 8

struct plugin_registry {
	const char *kind;			/* "I/O scheduler": for messages */
	const struct plugin *const *builtin;	/* NULL-terminated */
	const struct plugin *added[PLUGIN_MAX_ADDED];
	unsigned nadded;
};

/* The ops table a plugin row heads. */
#define plugin_ops(p, type) ((const type *)(const void *)((const char *)(p) - offsetof(type, plugin)))

const struct plugin *plugin_find(const struct plugin_registry *r, const char *name);
/* The i-th row, built-in ones first; NULL past the last. */
const struct plugin *plugin_at(const struct plugin_registry *r, unsigned i);
/* Add a row; refused when the name is taken or the registry is full. */
int plugin_register(struct plugin_registry *r, const struct plugin *p, struct err *e);
/* "none, deadline, mq-deadline" */
void plugin_names(const struct plugin_registry *r, char *buf, size_t len);

#endif
