/*
 * The DiskSim .parv reader: the grammar's corners (keys with spaces and
 * punctuation, nested blocks, lists of blocks, value-level and top-level
 * `source` relative to the including file, instantiate, topology), every
 * kind of broken input with its file:line message, a source loop that
 * ends in an error rather than a hang; and the validation metric's
 * quantiles and RMS on samples worked out by hand.
 */
#include "testlib.h"
#include "disk/parv.h"
#include "run/validate.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void put_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void expect_error(const char *text, const char *want)
{
	char path[128];
	struct err e = { "" };
	struct parv *p;

	snprintf(path, sizeof(path), "%s/x.parv", dir);
	p = parv_read(path, text, &e);
	CHECK_MSG(p == NULL, "accepted: %s", text);
	parv_free(p);
	CHECK_MSG(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'", e.msg, want);
}

int main(void)
{
	char path[128];
	struct err e;
	struct parv *p;
	struct parv_value *d, *m;
	struct parv_pair *pr;

	snprintf(dir, sizeof(dir), "/tmp/t_parv.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	mkdir(strcat(strcpy(path, dir), "/sub"), 0700);
	put_file("sub/d.specs",
		 "disksim_disk D1 {\n"
		 "   Model = source m.model,   # relative to sub/, where this file is\n"
		 "   Read hit over. after read = 0.5,\n"
		 "   Segment size (in blks) = 64,\n"
		 "   Scheduler = disksim_ioqueue { Scheduling policy = 1 }\n"
		 "}\n");
	put_file("sub/m.model",
		 "dm_disk D1_model {\n"
		 "   Zones = [ dm_layout_g1_zone { First cylinder number = 0, slips = [ 1, 2 ] },\n"
		 "             dm_layout_g1_zone { First cylinder number = 9, slips = [] } ],\n"
		 "   Seek type = extracted\n"
		 "}\n");
	snprintf(path, sizeof(path), "%s/top.parv", dir);
	p = parv_read(path,
		     "# a comment\n"
		     "disksim_bus B { Read block transfer time = 0.1 }\n"
		     "source sub/d.specs\n"
		     "instantiate [ disk0, disk1 ] as D1\n"
		     "instantiate [ bus1 ] as B\n"
		     "topology disksim_bus bus1 [ disksim_disk disk0 [], disksim_disk disk1 [] ]\n",
		     &e);
	CHECK_MSG(p != NULL, "%s", p ? "" : e.msg);
	if (p) {
		const struct parv_node *n;

		CHECK_EQ_INT(parv_block_count(p), 2);
		d = parv_find_block(p, "D1");
		CHECK(d && !strcmp(d->text, "disksim_disk"));
		pr = parv_get(d, "Read hit over. after read");
		CHECK(pr && pr->value->kind == PARV_WORD && !strcmp(pr->value->text, "0.5") &&
		      pr->line == 3 && pr->used);
		CHECK(parv_get(d, "Segment size (in blks)") != NULL);
		pr = parv_get(d, "Model");
		CHECK(pr && pr->value->kind == PARV_BLOCK && !strcmp(pr->value->text, "dm_disk") &&
		      !strcmp(pr->value->name, "D1_model") && strstr(pr->value->file, "sub/m.model"));
		m = pr ? pr->value : NULL;
		pr = parv_get(m, "Zones");
		CHECK(pr && pr->value->kind == PARV_LIST && pr->value->nitems == 2);
		if (pr && pr->value->nitems == 2) {
			struct parv_pair *sl = parv_get(pr->value->items[0], "slips");

			CHECK(sl && sl->value->nitems == 2 && !strcmp(sl->value->items[1]->text, "2"));
			sl = parv_get(pr->value->items[1], "slips");
			CHECK(sl && sl->value->kind == PARV_LIST && sl->value->nitems == 0);
		}
		pr = parv_get(d, "Scheduler");
		CHECK(pr && pr->value->kind == PARV_BLOCK && !strcmp(pr->value->name, ""));
		CHECK_EQ_INT(parv_inst_count(p), 3);
		CHECK_EQ_STR(parv_inst(p, 1)->name, "disk1");
		CHECK_EQ_STR(parv_inst(p, 1)->as, "D1");
		n = parv_topology_find(p, "disk1");
		CHECK(n && n->parent && !strcmp(n->parent->name, "bus1"));
		CHECK(parv_get(d, "No such key") == NULL);
		parv_free(p);
	}

	expect_error("disksim_frob F { }", "x.parv:1: unknown block type 'disksim_frob'");
	expect_error("source nowhere.specs", "x.parv:1: in 'source nowhere.specs': ");
	expect_error("source nowhere.specs", "cannot open");
	expect_error("disksim_bus B {\n  A = 1,\n  B 2\n}", "x.parv:3: expected 'KEY = value' or '}'");
	expect_error("disksim_bus B {\n  A = 1,\n", "expected '}' to close block 'B'");
	expect_error("disksim_bus B { A = [ 1, 2 }", "x.parv:1: expected ',' or ']' in the list");
	expect_error("disksim_bus B { A = }", "x.parv:1: expected a value");
	expect_error("disksim_bus { A = 1 }", "expected the block's name after its type");
	expect_error("instantiate disk0 as D", "expected '[' after 'instantiate'");
	expect_error("instantiate [ disk0 ] D", "expected 'as' after the instance names");
	expect_error("topology disksim_bus b [ disksim_disk d ", "expected '[' after the component's name");
	expect_error("disksim_disk D { Model = source v.model }", "in 'source v.model'");
	put_file("v.model", "17\n");
	expect_error("disksim_disk D { Model = source v.model }", "expected a block 'TYPE NAME { ... }'");
	put_file("loop.parv", "source loop.parv\n");
	expect_error("source loop.parv", "a source loop?");

	/* Quantiles: samples at i/n, linear between, the first below 1/n. */
	{
		static const double x[4] = { 1, 2, 3, 4 }, y[4] = { 2, 3, 4, 5 };

		CHECK_NEAR(validate_quantile(x, 4, 0.25), 1, 1e-12);
		CHECK_NEAR(validate_quantile(x, 4, 0.1), 1, 1e-12);
		CHECK_NEAR(validate_quantile(x, 4, 0.375), 1.5, 1e-12);
		CHECK_NEAR(validate_quantile(x, 4, 0.5), 2, 1e-12);
		CHECK_NEAR(validate_quantile(x, 4, 1.0), 4, 1e-12);
		CHECK_NEAR(validate_rms(x, 4, x, 4), 0, 1e-12);
		CHECK_NEAR(validate_rms(x, 4, y, 4), 1, 1e-12);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK(system(path) == 0);
	return test_done();
}
