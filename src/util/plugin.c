#include "util/plugin.h"

#include <stdio.h>
#include <string.h>

const struct plugin *plugin_at(const struct plugin_registry *r, unsigned i)
{
	unsigned n = 0;

	while (r->builtin[n]) {
		if (n == i)
			return r->builtin[n];
		n++;
	}
	return i - n < r->nadded ? r->added[i - n] : NULL;
}

const struct plugin *plugin_find(const struct plugin_registry *r, const char *name)
{
	const struct plugin *p;
	unsigned i;

	for (i = 0; (p = plugin_at(r, i)); i++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

int plugin_register(struct plugin_registry *r, const struct plugin *p, struct err *e)
{
	if (!p->name || !*p->name)
		return err_set(e, "%s without a name", r->kind);
	if (plugin_find(r, p->name))
		return err_set(e, "%s '%s' is registered already", r->kind, p->name);
	if (r->nadded == PLUGIN_MAX_ADDED)
		return err_set(e, "no room for %s '%s': at most %d may be added", r->kind,
			       p->name, PLUGIN_MAX_ADDED);
	r->added[r->nadded++] = p;
	return 0;
}

void plugin_names(const struct plugin_registry *r, char *buf, size_t len)
{
	const struct plugin *p;
	size_t n = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; (p = plugin_at(r, i)) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", p->name);
}
