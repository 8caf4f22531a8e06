/*
 * CDL descriptor pages in cdladm's text form: the built-in hc570 pages are
 * the benchmark's (reference/cdl/T2A.cdl: 50..500 ms guidelines, 20 %);
 * units convert to microseconds (500 ns rounds up); every broken page gives
 * one message naming the file, the line and the field; a drive model loads
 * pages by name or file (drive.cdl_t2a), and a page without cdl = 1 is
 * refused; SET FEATURES 0Dh turns CDL on and the drive's PRIO preference off.
 */
#include "testlib.h"
#include "drivelab.h"
#include "ata/cdl.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "disk/cdlpage.h"
#include "disk/model.h"

#include <stdlib.h>
#include <unistd.h>

#define DESC(n, units, inact, ipol, act, apol, guide, gpol)				\
	"== descriptor: " #n "\nt2cdlunits: " units "\nmax-inactive-time: " inact	\
	"\nmax-inactive-time-policy: " ipol "\nmax-active-time: " act			\
	"\nmax-active-time-policy: " apol "\nduration-guideline: " guide		\
	"\nduration-guideline-policy: " gpol "\n"
#define REST DESC(2, "0xa", "0", "0x0", "0", "0x0", "0", "0x0")			\
	DESC(3, "0xa", "0", "0x0", "0", "0x0", "0", "0x0")				\
	DESC(4, "0xa", "0", "0x0", "0", "0x0", "0", "0x0")				\
	DESC(5, "0xa", "0", "0x0", "0", "0x0", "0", "0x0")				\
	DESC(6, "0xa", "0", "0x0", "0", "0x0", "0", "0x0")				\
	DESC(7, "0x0", "0", "0x0", "0", "0x0", "0", "0x0")

static void broken(const char *text, bool t2a, const char *want)
{
	struct ata_cdl_log l;
	struct err e;

	memset(&l, 0, sizeof(l));
	CHECK_MSG(disk_cdl_page_parse(text, "p.cdl", t2a, &l, &e) != 0, "accepted: %s", want);
	CHECK_MSG(strstr(e.msg, want) != NULL, "'%s' does not say '%s'", e.msg, want);
}

static void set_cdl(struct drivelab *lab, uint8_t count)
{
	struct ata_taskfile tf;
	uint8_t fis[20];

	ata_cmd_set_features(&tf, ATA_SF_CDL, count);
	CHECK(ata_h2d_encode(&tf, fis) == ATA_OK);
	drivelab_command(lab, fis);
}

static bool cdl_enabled(struct drivelab *lab)
{
	struct ata_taskfile tf;
	uint8_t fis[20];
	bool on = false;

	ata_cmd_read_log(&tf, true, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_CURRENT_SETTINGS, 1);
	CHECK(ata_h2d_encode(&tf, fis) == ATA_OK);
	drivelab_command(lab, fis);
	CHECK(drivelab_last_data_len == ATA_LOG_PAGE_BYTES);
	CHECK(ata_id_log_current_settings_cdl(drivelab_last_data, &on) == ATA_OK);
	return on;
}

/*
 * SET FEATURES 0Dh: log 30h page 04h follows it, and with CDL on the drive
 * stops honouring PRIO (its high-priority enhancement is off): a quarter of
 * the commands PRIO high are preferred (hc570 is strict) before, not after.
 * A drive without CDL aborts the command.
 */
static void test_enable(void)
{
	struct drivelab lab;
	uint64_t prio_picks;

	CHECK(drivelab_init(&lab, "hc570", 3) == 0);
	lab.qd = 32;
	lab.high_every = 4;
	CHECK(!cdl_enabled(&lab));
	drivelab_run(&lab, 4000);
	prio_picks = disk_get_stats(lab.disk)->picks_prio;
	CHECK_MSG(prio_picks > 300, "PRIO preferred only %llu times", (unsigned long long)prio_picks);
	set_cdl(&lab, 1);
	CHECK(!(drivelab_last_d2h[2] & ATA_STAT_ERR));
	CHECK(cdl_enabled(&lab));
	drivelab_run(&lab, 8000);
	CHECK_EQ_U64(disk_get_stats(lab.disk)->picks_prio, prio_picks);
	set_cdl(&lab, 0);
	CHECK(!cdl_enabled(&lab));
	drivelab_destroy(&lab);

	CHECK(drivelab_init(&lab, "he8", 3) == 0);
	set_cdl(&lab, 1);
	CHECK(drivelab_last_d2h[2] & ATA_STAT_ERR);
	drivelab_destroy(&lab);
}

int main(void)
{
	struct ata_cdl_log l;
	struct disk_model m;
	struct err e;
	char path[64];
	FILE *f;

	/* The built-in pages. */
	memset(&l, 0, sizeof(l));
	CHECK(disk_cdl_page_load("hc570-t2a", true, &l, &e) == 0);
	CHECK(disk_cdl_page_load("hc570-t2b", false, &l, &e) == 0);
	CHECK_EQ_INT(l.perf_vs_guideline, 0xc);
	CHECK_EQ_INT(l.read[0].guideline_us, 50000);
	CHECK_EQ_INT(l.read[5].guideline_us, 500000);
	CHECK_EQ_INT(l.read[6].guideline_us, 0);
	CHECK_EQ_INT(l.write[1].guideline_us, 100000);
	CHECK_EQ_INT(l.read[0].max_active_us, 0);

	/* Units: 500 ns rounds up to whole microseconds; 500 ms. */
	CHECK(disk_cdl_page_parse("cdlp: T2A\n" DESC(1, "0x6", "3", "0xf", "0", "0x0", "0", "0x0")
				  REST, "p.cdl", true, &l, &e) == 0);
	CHECK_EQ_INT(l.read[0].max_inactive_us, 2);
	CHECK_EQ_INT(l.read[0].inactive_policy, 0xf);
	CHECK(disk_cdl_page_parse("# c\ncdlp: T2B  # the write page\n"
				  DESC(1, "0xe", "0", "0x0", "2", "0xd", "0", "0x2") REST,
				  "p.cdl", false, &l, &e) == 0);
	CHECK_EQ_INT(l.write[0].max_active_us, 1000000);
	CHECK_EQ_INT(l.write[0].active_policy, 0xd);
	CHECK_EQ_INT(l.write[0].guideline_policy, 0x2);

	/* Broken pages: file, line, field. */
	broken("", true, "p.cdl: not a CDL page");
	broken("cdlp: T2B\n", true, "p.cdl:1: 'cdlp': expected T2A for this page, got 'T2B'");
	broken("t2cdlunits: 0xa\n", true, "p.cdl:1: expected 'cdlp: T2A' first");
	broken("cdlp: T2A\ncdlp: T2A\n", true, "p.cdl:2: 'cdlp' given twice");
	broken("cdlp: T2A\nperf-vs-duration-guideline: 0xd\n", true,
	       "p.cdl:2: 'perf-vs-duration-guideline': expected 0x0..0xc, got '0xd'");
	broken("cdlp: T2B\nperf-vs-duration-guideline: 0x1\n", false, "belongs to a T2A page");
	broken("cdlp: T2A\n== descriptor: 8\n", true, "p.cdl:2: descriptor: expected 1..7, got '8'");
	broken("cdlp: T2A\nmax-active-time: 1\n", true, "p.cdl:2: 'max-active-time' before");
	broken("cdlp: T2A\n== descriptor: 1\nmax-active-time: x\n", true,
	       "p.cdl:3: 'max-active-time': expected a number");
	broken("cdlp: T2A\n== descriptor: 1\nmax-active-time: 70000\n", true,
	       "expected 0..65535 units, got '70000'");
	broken("cdlp: T2A\n== descriptor: 1\nt2cdlunits: 0x7\n", true,
	       "p.cdl:3: 't2cdlunits': expected 0x0, 0x6, 0x8, 0xa or 0xe, got '0x7'");
	broken("cdlp: T2A\n== descriptor: 1\nmax-active-time-policy: 0x1\n", true,
	       "'max-active-time-policy': expected 0x0, 0xd, 0xe or 0xf, got '0x1'");
	broken("cdlp: T2A\n== descriptor: 1\nmax-inactive-time-policy: 0xe\n", true,
	       "'max-inactive-time-policy': expected 0x0, 0xd or 0xf");
	broken("cdlp: T2A\n== descriptor: 1\nduration-guideline-policy: 0xe\n", true,
	       "'duration-guideline-policy': expected 0x0, 0x1, 0x2, 0xd or 0xf");
	broken("cdlp: T2A\n== descriptor: 1\nbogus: 1\n", true, "p.cdl:3: unknown field 'bogus'");
	broken("cdlp: T2A\n== descriptor: 1\nt2cdlunits: 0xa\nt2cdlunits: 0xa\n", true,
	       "p.cdl:4: descriptor 1: 't2cdlunits' given twice");
	broken("cdlp: T2A\n== descriptor: 1\nt2cdlunits: 0xa\n== descriptor: 2\n", true,
	       "p.cdl:4: descriptor 1: 'max-inactive-time' is missing");
	broken("cdlp: T2A\n" DESC(1, "0x0", "0", "0x0", "5", "0x0", "0", "0x0") REST, true,
	       "descriptor 1: t2cdlunits 0x0 (none) with a nonzero limit");
	broken("cdlp: T2A\n" DESC(2, "0xa", "0", "0x0", "0", "0x0", "0", "0x0"), true,
	       "p.cdl: descriptor 1 is missing");
	broken("cdlp: T2A\n" DESC(1, "0xa", "0", "0x0", "0", "0x0", "0", "0x0")
	       DESC(1, "0xa", "0", "0x0", "0", "0x0", "0", "0x0"), true,
	       "descriptor 1 given twice");
	broken("cdlp: T2A\nno colon here\n", true, "p.cdl:2: expected 'field: value'");
	CHECK(disk_cdl_page_load("/nonexistent/t2a.cdl", true, &l, &e) != 0);
	CHECK(strstr(e.msg, "/nonexistent/t2a.cdl: cannot open CDL page") != NULL);
	CHECK(disk_cdl_page_load("/tmp", true, &l, &e) != 0);
	CHECK(strstr(e.msg, "/tmp: cannot read CDL page: it is a directory") != NULL);

	/* A model loads a page file through drive.cdl_t2a; a bad one names the key. */
	snprintf(path, sizeof(path), "/tmp/t_disk_cdl.%d.cdl", (int)getpid());
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("cdlp: T2A\n" DESC(1, "0xa", "0", "0x0", "2", "0xf", "0", "0x0") REST, f);
		fclose(f);
	}
	CHECK(disk_model_load("hc570", &m, &e) == 0);
	CHECK(disk_model_set(&m, "cdl_t2a", path, &e) == 0);
	CHECK_EQ_INT(m.cdl_log.read[0].max_active_us, 20000);
	CHECK_EQ_INT(m.cdl_log.read[0].active_policy, 0xf);
	CHECK_EQ_INT(m.cdl_log.write[0].guideline_us, 50000);	/* T2B untouched */
	remove(path);
	CHECK(disk_model_set(&m, "cdl_t2a", "/nonexistent.cdl", &e) != 0);
	CHECK(strstr(e.msg, "key 'cdl_t2a'") != NULL);
	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(disk_model_set(&m, "cdl_t2a", "hc570-t2a", &e) != 0);
	CHECK(strstr(e.msg, "descriptor pages need cdl = 1") != NULL);
	test_enable();
	return test_done();
}
