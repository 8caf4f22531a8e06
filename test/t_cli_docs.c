/*
 * The command documentation cannot drift from what the commands accept:
 * for every command with a doc, each option getopt_long() is given has a
 * row in the doc (so --help, the man page and the completion show it), and
 * each row names an option getopt_long() takes, with or without a value as
 * the row says. Then --help from a doc has the shape the tests and users
 * rely on.
 */
#include "cli/cmd.h"
#include "testlib.h"

#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

static const struct cmd_opt *doc_row(const struct cmd_doc *doc, const char *name)
{
	const struct cmd_opt *o;
	unsigned g;

	for (g = 0; doc->options && doc->options[g]; g++)
		for (o = doc->options[g]; o->name; o++)
			if (!strncmp(o->name, "--", 2) && !strcmp(o->name + 2, name))
				return o;
	return NULL;
}

static const struct option *getopt_row(const struct option *l, const char *name)
{
	for (; l->name; l++)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

static void check_command(const struct cmd *c)
{
	const struct cmd_doc *doc = c->doc;
	const struct option *l;
	const struct cmd_opt *o;
	unsigned g, rows = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_MSG(doc->usage && doc->usage[0], "%s: no usage form", c->name);
	CHECK_MSG(doc->longopts != NULL, "%s: no getopt table in its doc", c->name);
	if (!doc->longopts)
		return;
	for (l = doc->longopts; l->name; l++) {
		o = doc_row(doc, l->name);
		CHECK_MSG(o != NULL, "%s: option '--%s' is accepted but not documented", c->name,
			  l->name);
		if (o)
			CHECK_MSG((o->arg != NULL) == (l->has_arg == required_argument),
				  "%s: '--%s' takes %s value, its doc row says otherwise", c->name,
				  l->name, l->has_arg == required_argument ? "a" : "no");
	}
	for (g = 0; doc->options && doc->options[g]; g++)
		for (o = doc->options[g]; o->name; o++, rows++) {
			CHECK_MSG(!strncmp(o->name, "--", 2) && getopt_row(doc->longopts, o->name + 2),
				  "%s: documented option '%s' is not accepted", c->name, o->name);
			CHECK_MSG(o->help && *o->help, "%s: '%s' has no help", c->name, o->name);
		}
	CHECK_MSG(rows > 0, "%s: no options documented", c->name);

	/* --help: "usage: ncqsim NAME", an "options:" list with every row. */
	f = open_memstream(&text, &len);
	if (!f)
		return;
	cmd_doc_help(c->name, doc, f);
	fclose(f);
	{
		char want[64];

		snprintf(want, sizeof(want), "usage: ncqsim %s", c->name);
		CHECK_MSG(!strncmp(text, want, strlen(want)), "%s: --help starts '%.40s'", c->name,
			  text);
	}
	CHECK_MSG(strstr(text, "\noptions:\n") != NULL, "%s: --help has no options list", c->name);
	for (g = 0; doc->options && doc->options[g]; g++)
		for (o = doc->options[g]; o->name; o++) {
			char row[96];

			snprintf(row, sizeof(row), "\n  %s", o->name);
			CHECK_MSG(strstr(text, row) != NULL, "%s: --help lacks '%s'", c->name, o->name);
		}
	free(text);
}

/* A command registered without a doc, printing its own --help (as one may). */
static int fake_cmd(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("usage: ncqsim fake [--level N] FILE\n"
	       "       ncqsim fake --list\n"
	       "\n"
	       "Does a fake thing to FILE; the back\\slash and .dot survive.\n"
	       "\n"
	       "options:\n"
	       "  --level N     how much (default 1)\n"
	       "  --list        list them\n"
	       "  --help        this text\n");
	return 0;
}

/* Its man page and completion come from that text. */
static void check_fallback(void)
{
	const struct cmd fake = { "fake", fake_cmd, "a command without a doc", NULL };
	char dir[] = "/tmp/ncqsim-docs-XXXXXX", path[64], *page, *opts = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_EQ_INT(cmd_doc_man_command(dir, &fake), 0);
	snprintf(path, sizeof(path), "%s/ncqsim-fake.1", dir);
	page = test_slurp(path, &len);
	CHECK(page != NULL);
	if (page) {
		CHECK(strstr(page, ".TH NCQSIM\\-FAKE 1") != NULL);
		CHECK(strstr(page, "ncqsim\\-fake \\- a command without a doc") != NULL);
		CHECK(strstr(page, "ncqsim fake [\\-\\-level N] FILE") != NULL);
		CHECK(strstr(page, "back\\eslash") != NULL);
		CHECK(strstr(page, "\\-\\-level N") != NULL);
		CHECK(strstr(page, "\n.dot") == NULL);
	}
	free(page);
	/* groff, where installed, renders it without a warning. */
	if (!system("command -v groff >/dev/null 2>&1")) {
		char cmd[128], out[256] = "";
		FILE *g;

		snprintf(cmd, sizeof(cmd), "groff -man -ww -z %s 2>&1", path);
		g = popen(cmd, "r");
		CHECK(g != NULL);
		if (g) {
			CHECK_MSG(!fgets(out, sizeof(out), g), "groff warns: %s", out);
			pclose(g);
		}
	}
	remove(path);
	rmdir(dir);

	f = open_memstream(&opts, &len);
	if (!f)
		return;
	cmd_doc_bash_options(f, &fake);
	fclose(f);
	CHECK_EQ_STR(opts, " --level --list --help");
	free(opts);
}

int main(void)
{
	check_fallback();
	size_t i, n;
	const struct cmd *table = cmd_table(&n);
	unsigned documented = 0;

	for (i = 0; i < n; i++) {
		CHECK_MSG(table[i].summary && *table[i].summary, "%s: no summary", table[i].name);
		if (!table[i].doc)
			continue;
		documented++;
		check_command(&table[i]);
	}
	/* Every command of this tree has a doc; one added without keeps working. */
	CHECK(documented >= 7);
	return test_done();
}
