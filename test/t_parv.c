/*
 * The DiskSim .parv reader: the grammar's corners (keys with spaces and
 * punctuation, nested blocks, lists of blocks, `source` anywhere relative
 * to the including file, instantiate with ranges, topology, a block
 * derived from another, several keys given one value), numbers as
 * DiskSim's lexer tells them from words, every kind of broken input with
 * its file:line message, a source loop that ends in an error rather than
 * a hang; and the validation metric's quantiles and RMS on samples worked
 * out by hand.
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
	expect_error("disksim_bus B {\n  A = 1\n", "x.parv:3: expected '}' to close block 'B', got the "
		     "end of the file");
	expect_error("disksim_bus B { A =", "x.parv:1: expected a value, got the end of the file");
	expect_error("disksim_bus B { [ A, 2 ] = 1 }", "x.parv:1: expected key names in the list "
		     "before '='");
	expect_error("disksim_bus B { A = [ 1, 2 }", "x.parv:1: expected ',' or ']' in the list");
	expect_error("disksim_bus B { A = }", "x.parv:1: expected a value");
	expect_error("disksim_bus { A = 1 }", "expected the block's name after its type");
	expect_error("instantiate disk0 as D", "expected '[' after 'instantiate'");
	expect_error("instantiate [ disk0 ] D", "expected 'as' after the instance names");
	expect_error("topology disksim_bus b [ disksim_disk d ", "expected '[' after the component's name");
	expect_error("disksim_disk D { Model = source v.model }", "in 'source v.model'");
	/* `source` splices tokens in: a file that holds more than the value is refused there. */
	put_file("v.model", "dm_disk M { A = 1 }\nextra\n");
	expect_error("disksim_disk D { Model = source v.model }",
		     "v.model:2: expected ',' or '}' after a value, got 'extra' (in the file sourced "
		     "at ");
	put_file("loop.parv", "source loop.parv\n");
	expect_error("source loop.parv", "a source loop?");
	/* DiskSim's grammar: commas between pairs and items, none after the last. */
	expect_error("disksim_bus B { A = 1, }", "x.parv:1: expected 'KEY = value' after ',', got '}'");
	expect_error("disksim_bus B { A = 1\n B = 2 }", "x.parv:2: expected ',' or '}' after a value, got 'B'");
	expect_error("disksim_bus B { A = [ 1, 2, ] }", "expected a value after ',' in the list, got ']'");
	expect_error("disksim_bus B { A = 1, A = 2 }", "x.parv:1: key 'A' is given twice in block 'B' (first at ");
	expect_error("disksim_bus B { A = 1: }", "expected ',' or '}' after a value, got ':'");
	expect_error("disksim_bus B { 12 = 1 }", "expected 'KEY = value' or '}', got '12'");
	expect_error("disksim_bus B { A = 1.0e+999 }", "x.parv:1: number '1.0e+999' is out of range");
	expect_error("disksim_bus B { A = source }", "x.parv:1: expected a file name after 'source', got '}'");
	expect_error("instantiate [ disk0 .. bus3 ] as D", "range 'disk0 .. bus3': expected two names");
	expect_error("instantiate [ disk3 .. disk1 ] as D", "range 'disk3 .. disk1'");
	expect_error("instantiate [ d0 .. d99999 ] as D", "more than 65536 names");
	expect_error("instantiate [ 7 ] as D", "expected instance names");
	expect_error("D2 X { A = 1 }", "x.parv:1: unknown block type 'D2'");
	expect_error("topology disksim_bus b [ disksim_disk d [] disksim_disk e [] ]",
		     "expected ',' or ']' in the topology, got 'disksim_disk'");

	/* Numbers as DiskSim's lexer reads them; anything else is a word. */
	snprintf(path, sizeof(path), "%s/n.parv", dir);
	p = parv_read(path,
		     "disksim_bus N {\n"
		     "  i = 42, neg = -7, hex = 0x1F, nhex = -0x10, f = 1.5, nf = -2.25,\n"
		     "  e1 = 1.0e+3, e2 = 2.5e-2, w1 = 1e5, w2 = .5, w3 = 5., w4 = 1.5E+3,\n"
		     "  w5 = 0X1F, w6 = 1.0e5, w7 = 12abc, w8 = a#b\n"
		     "}\n", &e);
	CHECK_MSG(p != NULL, "%s", p ? "" : e.msg);
	if (p) {
		static const struct { const char *key; int scalar; double v; } want[] = {
			{ "i", PARV_INT, 42 }, { "neg", PARV_INT, -7 }, { "hex", PARV_INT, 31 },
			{ "nhex", PARV_INT, -16 }, { "f", PARV_FLOAT, 1.5 }, { "nf", PARV_FLOAT, -2.25 },
			{ "e1", PARV_FLOAT, 1000 }, { "e2", PARV_FLOAT, 0.025 },
			{ "w1", PARV_STRING, 0 }, { "w2", PARV_STRING, 0 }, { "w3", PARV_STRING, 0 },
			{ "w4", PARV_STRING, 0 }, { "w5", PARV_STRING, 0 }, { "w6", PARV_STRING, 0 },
			{ "w7", PARV_STRING, 0 }, { "w8", PARV_STRING, 0 },
		};
		unsigned i;

		d = parv_find_block(p, "N");
		for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			pr = parv_get(d, want[i].key);
			CHECK_MSG(pr && pr->value->kind == PARV_WORD &&
				  (int)pr->value->scalar == want[i].scalar &&
				  (want[i].scalar == PARV_STRING || pr->value->dval == want[i].v),
				  "key %s", want[i].key);
		}
		pr = parv_get(d, "w8");
		CHECK(pr && !strcmp(pr->value->text, "a#b"));
		pr = parv_get(d, "hex");
		CHECK(pr && pr->value->ival == 31 && !strcmp(pr->value->text, "0x1F"));
		parv_free(p);
	}

	/*
	 * Keys are words joined by one space, across lines; several keys may
	 * take one value; `source` reads a file in the middle of a block, of a
	 * list, of a key's value; a block derives from another; ranges; a
	 * redefinition DiskSim ignores; a topology node as a value; CRLF lines.
	 */
	put_file("pairs.inc", "C = 3,\r\n  D =\r\n  4");
	put_file("items.inc", "20, 30");
	put_file("val.inc", "dm_mech_g1 { Seek type = extracted }");
	snprintf(path, sizeof(path), "%s/g.parv", dir);
	p = parv_read(path,
		     "disksim_bus B {\n"
		     "  Head   switch\n   time = 0.5,\n"
		     "  [ Alpha, Beta ] = 7,\n"
		     "  source pairs.inc,\n"
		     "  L = [ 10, source items.inc, 40 ],\n"
		     "  M = source val.inc,\n"
		     "  devices = [ disk0 .. disk2 ],\n"
		     "  T = disksim_bus bus1 [ disksim_disk disk0 [] ]\n"
		     "}\n"
		     "B B2 { Alpha = 8, New = 9 }\n"
		     "disksim_bus B { Alpha = 1 }\n"
		     "instantiate [ disk0 .. disk3, spare ] as B2\n"
		     "topology disksim_bus bus1 [ disksim_disk disk0 [], disksim_disk disk1 [] ]\n",
		     &e);
	CHECK_MSG(p != NULL, "%s", p ? "" : e.msg);
	if (p) {
		struct parv_value *b2;

		CHECK_EQ_INT(parv_block_count(p), 2);
		d = parv_find_block(p, "B");
		pr = parv_get(d, "Head switch time");
		CHECK(pr && pr->value->dval == 0.5 && pr->line == 2);
		pr = parv_get(d, "Alpha");
		CHECK(pr && pr->value->ival == 7);
		pr = parv_get(d, "Beta");
		CHECK(pr && pr->value->ival == 7);
		pr = parv_get(d, "C");
		CHECK(pr && pr->value->ival == 3 && strstr(pr->file, "pairs.inc"));
		pr = parv_get(d, "D");
		CHECK(pr && pr->value->ival == 4 && pr->line == 2);
		pr = parv_get(d, "L");
		CHECK(pr && pr->value->kind == PARV_LIST && pr->value->nitems == 4 &&
		      pr->value->items[2]->ival == 30 && pr->value->items[3]->ival == 40);
		pr = parv_get(d, "M");
		CHECK(pr && pr->value->kind == PARV_BLOCK && !strcmp(pr->value->text, "dm_mech_g1") &&
		      parv_get(pr->value, "Seek type"));
		pr = parv_get(d, "devices");
		CHECK(pr && pr->value->nitems == 3 && !strcmp(pr->value->items[2]->text, "disk2"));
		pr = parv_get(d, "T");
		CHECK(pr && pr->value->kind == PARV_TOPO && !strcmp(pr->value->name, "bus1") &&
		      pr->value->nitems == 1 && pr->value->items[0]->kind == PARV_TOPO);
		b2 = parv_find_block(p, "B2");
		CHECK(b2 && !strcmp(b2->text, "disksim_bus") && b2->parent && !strcmp(b2->parent, "B"));
		pr = parv_get(b2, "Alpha");
		CHECK(pr && pr->value->ival == 8);
		pr = parv_get(b2, "Beta");
		CHECK(pr && pr->value->ival == 7 && pr->line == 4);
		CHECK(parv_get(b2, "New") != NULL);
		/* The redefined B is ignored: the first B keeps its Alpha, and a note says so. */
		CHECK_EQ_INT(parv_note_count(p), 1);
		CHECK(parv_note(p, 0) && strstr(parv_note(p, 0), "g.parv:12: block 'B' is defined again"));
		CHECK_EQ_INT(parv_inst_count(p), 5);
		CHECK_EQ_STR(parv_inst(p, 3)->name, "disk3");
		CHECK_EQ_STR(parv_inst(p, 4)->name, "spare");
		CHECK(parv_topology_find(p, "disk1") != NULL);
		parv_free(p);
	}

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
