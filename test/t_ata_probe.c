/*
 * ncqsim probe's library part (ata/probe) and its replay transport
 * (cli/probe_dev): the log decoders from tables of bytes; the probe
 * sequence through an in-memory transport that plays a drive (with and
 * without GPL logs, NCQ priority, CDL, refusals and failures), checking
 * that every command sent is a data-in IDENTIFY or READ LOG EXT; then the
 * whole command, `ncqsim probe --replay DIR`, on a recorded folder written
 * here from a real drive's IDENTIFY page and log pages built with the ata
 * library (no real drive's logs are in test/data).
 */
#include "ata/cmd.h"
#include "ata/log.h"
#include "ata/probe.h"
#include "cli/cmd.h"
#include "testlib.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_le64(uint8_t *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void put_le32(uint8_t *b, uint32_t v)
{
	put_le64(b, v);		/* callers leave the next 4 bytes free or overwrite them */
	b[4] = b[5] = b[6] = b[7] = 0;
}

static void id_header(uint8_t *page, uint8_t number)
{
	memset(page, 0, 512);
	put_le64(page, 1ULL << 63 | (uint64_t)number << 16 | 1);
}

/* The pages of a drive with NCQ priority and CDL, as ACS-5 lays them out. */
struct drive_logs {
	uint8_t dir[512], list[512], caps[512], current[512], sata[512], cdl[512];
};

static void build_logs(struct drive_logs *l, bool cdl_listed)
{
	uint16_t pages[256] = { 0 };
	static const uint8_t list[] = { 0x00, 0x03, 0x04, 0x08 };

	pages[ATA_LOG_IDENTIFY_DEVICE] = 9;
	pages[0x18] = cdl_listed ? 1 : 0;
	ata_gpl_dir_build(l->dir, pages);
	ata_id_log_supported_build(l->list, list, sizeof(list));
	ata_id_log_sata_settings_build(l->sata, true);
	id_header(l->caps, 0x03);
	put_le64(l->caps + 168, 1ULL << 63 | 1);		/* CDL supported */
	put_le64(l->caps + 176, 1ULL << 63 | 1000);		/* min 1 ms */
	put_le64(l->caps + 184, 1ULL << 63 | 4000000000ULL);	/* max 4000 s */
	id_header(l->current, 0x04);
	put_le64(l->current + 8, 1ULL << 63 | 1ULL << 21);	/* CDL enabled */
	memset(l->cdl, 0, 512);
	l->cdl[0] = 0x02;					/* guideline */
	put_le32(l->cdl + 64, 0x0d);				/* read 1: duration policy Dh */
	put_le32(l->cdl + 64 + 16, 30000);			/* 30 ms */
	put_le32(l->cdl + 64 + 32 * 6 + 4, 70000);		/* read 7: max active 70 ms */
	put_le32(l->cdl + 288 + 32 * 1, 0xf << 8 | 0x3 << 4);	/* write 2: policies */
	put_le32(l->cdl + 288 + 32 * 1 + 8, 250000);		/* max inactive 250 ms */
}

/* ---- an in-memory drive ---- */

struct fake {
	uint8_t identify[512];
	const struct drive_logs *logs;	/* NULL: refuses READ LOG EXT */
	bool refuse_identify;
	uint8_t fail_log;		/* a log whose read fails in the transport (0: none) */
	unsigned sent, bad_commands;
};

static int fake_read(void *ctx, const uint8_t cdb[ATA_SAT16_LEN], uint8_t *buf, size_t len,
		     char *why, size_t whylen)
{
	struct fake *f = ctx;
	struct ata_taskfile tf;
	bool in;
	uint16_t page, pages;
	uint8_t log;
	const uint8_t *src = NULL;

	f->sent++;
	if (ata_sat16_parse(cdb, &tf, &in) || !in || len != 512 ||
	    (tf.command != ATA_CMD_IDENTIFY && tf.command != ATA_CMD_READ_LOG_EXT)) {
		f->bad_commands++;
		return PROBE_FAILED;
	}
	if (tf.command == ATA_CMD_IDENTIFY) {
		if (f->refuse_identify)
			return PROBE_REFUSED;
		memcpy(buf, f->identify, 512);
		return PROBE_OK;
	}
	if (ata_cmd_read_log_parse(&tf, &log, &page, &pages) || pages != 1)
		f->bad_commands++;
	if (f->fail_log && log == f->fail_log) {
		snprintf(why, whylen, "transport error (host status 0x7)");
		return PROBE_FAILED;
	}
	if (!f->logs)
		return PROBE_REFUSED;
	if (log == 0x00)
		src = f->logs->dir;
	else if (log == 0x30 && page == 0x00)
		src = f->logs->list;
	else if (log == 0x30 && page == 0x03)
		src = f->logs->caps;
	else if (log == 0x30 && page == 0x04)
		src = f->logs->current;
	else if (log == 0x30 && page == 0x08)
		src = f->logs->sata;
	else if (log == 0x18 && page == 0)
		src = f->logs->cdl;
	if (!src)
		return PROBE_REFUSED;
	memcpy(buf, src, 512);
	return PROBE_OK;
}

static const struct probe_transport_ops fake_ops = { .name = "fake", .read = fake_read };

static void load_identify(uint8_t page[512], const char *rel)
{
	size_t len;
	char *data = test_slurp(test_data(rel), &len);

	CHECK(data && len == 512);
	if (data && len == 512)
		memcpy(page, data, 512);
	free(data);
}

/* The decoders probe uses, ata/cdl.c's, on pages as a real drive fills them. */
static void test_decoders(void)
{
	struct drive_logs l;
	struct ata_id_cdl_caps caps;
	struct ata_cdl_log cdl;
	uint8_t page[512];
	bool on;

	build_logs(&l, true);
	CHECK_EQ_INT(ata_id_log_capabilities_read(l.caps, &caps), 0);
	CHECK(caps.cdl);
	CHECK_EQ_INT(caps.min_us, 1000);
	CHECK_EQ_U64(caps.max_us, 4000000000ULL);
	/* Bit 63 clear: the qword is not valid, whatever bit 0 says. */
	memcpy(page, l.caps, 512);
	put_le64(page + 168, 1);
	put_le64(page + 176, 1000);
	CHECK_EQ_INT(ata_id_log_capabilities_read(page, &caps), 0);
	CHECK(!caps.cdl);
	CHECK_EQ_INT(caps.min_us, 0);
	/* The wrong page number in the header. */
	id_header(page, 0x04);
	CHECK_EQ_INT(ata_id_log_capabilities_read(page, &caps), ATA_E_LOG);
	CHECK_EQ_INT(ata_id_log_current_settings_cdl(l.current, &on), 0);
	CHECK(on);
	memcpy(page, l.current, 512);
	put_le64(page + 8, 1ULL << 21);
	CHECK_EQ_INT(ata_id_log_current_settings_cdl(page, &on), 0);
	CHECK(!on);
	CHECK_EQ_INT(ata_id_log_current_settings_cdl(l.caps, &on), ATA_E_LOG);
	/* Decoded as the drive has it, a policy ncqsim's drive never uses (3h) included. */
	ata_cdl_log_decode(l.cdl, &cdl);
	CHECK_EQ_INT(cdl.perf_vs_guideline, 2);
	CHECK_EQ_INT(cdl.read[0].guideline_policy, 0xd);
	CHECK_EQ_INT(cdl.read[0].guideline_us, 30000);
	CHECK_EQ_INT(cdl.read[6].max_active_us, 70000);
	CHECK_EQ_INT(cdl.write[1].inactive_policy, 0xf);
	CHECK_EQ_INT(cdl.write[1].active_policy, 0x3);
	CHECK_EQ_INT(cdl.write[1].max_inactive_us, 250000);
	CHECK_EQ_INT(cdl.write[0].max_inactive_us, 0);
	CHECK_EQ_INT(ata_cdl_log_parse(l.cdl, &cdl), ATA_E_RANGE);
}

static void test_sat_parse(void)
{
	/* hdparm's IDENTIFY CDB, and a READ LOG EXT of log 30h page 08h. */
	static const uint8_t identify[16] = { 0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
					      0x40, 0xec, 0 };
	struct ata_taskfile tf, back;
	uint8_t cdb[16];
	uint16_t page, pages;
	uint8_t log;
	bool in;

	CHECK_EQ_INT(ata_sat16_parse(identify, &tf, &in), 0);
	CHECK(in);
	CHECK_EQ_INT(tf.command, ATA_CMD_IDENTIFY);
	CHECK_EQ_INT(tf.count, 1);
	ata_cmd_read_log(&tf, false, 0x30, 0x0108, 2);
	CHECK_EQ_INT(ata_sat16_build(&tf, cdb), 0);
	CHECK_EQ_INT(ata_sat16_parse(cdb, &back, &in), 0);
	CHECK(in);
	CHECK_EQ_INT(ata_cmd_read_log_parse(&back, &log, &page, &pages), 0);
	CHECK_EQ_INT(log, 0x30);
	CHECK_EQ_INT(page, 0x0108);
	CHECK_EQ_INT(pages, 2);
	cdb[0] = 0xa1;		/* ATA PASS-THROUGH(12) is not what probe sends */
	CHECK_EQ_INT(ata_sat16_parse(cdb, &back, &in), ATA_E_COMMAND);
}

static void test_sequence(void)
{
	struct drive_logs l;
	struct fake f;
	struct probe_transport t = { &fake_ops, &f };
	struct probe_info p;
	char why[256];

	/* A drive with every log: NCQ priority in the log, CDL supported and enabled. */
	build_logs(&l, true);
	memset(&f, 0, sizeof(f));
	load_identify(f.identify, "identify/wdc-wsh722880aln604.bin");
	f.logs = &l;
	CHECK_EQ_INT(probe_drive(&t, &p, why, sizeof(why)), PROBE_OK);
	CHECK_EQ_STR(p.id.model, "WDC  WSH722880ALN604");
	CHECK(p.gpl_read && p.id_data_log && p.id_data_log_known);
	CHECK(p.ncq_prio_log && p.ncq_prio_log_known);
	CHECK(p.cdl_known && p.cdl_supported && p.cdl_enabled && p.cdl_log_read);
	CHECK_EQ_INT(p.cdl_min_us, 1000);
	CHECK_EQ_INT(p.cdl_log.read[0].guideline_us, 30000);
	CHECK_EQ_INT(p.nnotes, 0);
	CHECK_EQ_INT(f.sent, 7);	/* IDENTIFY, 00h, 30h/00h, /08h, /03h, /04h, 18h */
	CHECK_EQ_INT(f.bad_commands, 0);

	/* CDL supported but log 18h not listed: said, not guessed. */
	build_logs(&l, false);
	memset(&f, 0, sizeof(f));
	load_identify(f.identify, "identify/wdc-wsh722880aln604.bin");
	f.logs = &l;
	CHECK_EQ_INT(probe_drive(&t, &p, why, sizeof(why)), PROBE_OK);
	CHECK(p.cdl_supported && !p.cdl_log_read);
	CHECK_EQ_INT(p.nnotes, 1);
	CHECK(strstr(p.notes[0], "log 18h") != NULL);

	/* An old drive that refuses READ LOG EXT: no GPL logs, definitely. */
	memset(&f, 0, sizeof(f));
	load_identify(f.identify, "identify/Maxtor_96147H8--BAC51KJ0.bin");
	CHECK_EQ_INT(probe_drive(&t, &p, why, sizeof(why)), PROBE_OK);
	CHECK(!p.gpl_read && p.id_data_log_known && !p.id_data_log);
	CHECK(p.ncq_prio_log_known && !p.ncq_prio_log && p.cdl_known && !p.cdl_supported);
	CHECK_EQ_INT(f.sent, 2);
	CHECK_EQ_INT(f.bad_commands, 0);

	/* A transport failure on a log: noted, the rest still known from IDENTIFY. */
	build_logs(&l, true);
	memset(&f, 0, sizeof(f));
	load_identify(f.identify, "identify/hitachi-hde721010sla330.bin");
	f.logs = &l;
	f.fail_log = 0x18;
	CHECK_EQ_INT(probe_drive(&t, &p, why, sizeof(why)), PROBE_OK);
	CHECK(p.cdl_supported && !p.cdl_log_read);
	CHECK_EQ_INT(p.nnotes, 1);
	CHECK(strstr(p.notes[0], "host status") != NULL);
	CHECK_EQ_INT(p.id.rotation_rpm, 7200);

	/* IDENTIFY refused: the probe fails, saying why. */
	memset(&f, 0, sizeof(f));
	f.refuse_identify = true;
	CHECK_EQ_INT(probe_drive(&t, &p, why, sizeof(why)), PROBE_REFUSED);
	CHECK(strstr(why, "IDENTIFY DEVICE") != NULL);
	CHECK_EQ_INT(f.sent, 1);
}

static void write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	CHECK_MSG(f != NULL, "cannot write %s", path);
	if (!f)
		return;
	CHECK(fwrite(data, 1, len, f) == len);
	fclose(f);
}

/* `ncqsim probe --replay DIR` in this process, its stdout into `out`. */
static int run_probe(const char *dir, char **out)
{
	char *argv[] = { "probe", "--replay", (char *)dir, NULL };
	FILE *tmp = tmpfile();
	long size;
	int saved, rc;

	*out = NULL;
	if (!tmp)
		return -1;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fileno(tmp), STDOUT_FILENO);
	rc = cmd_probe(3, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	size = ftell(tmp);
	rewind(tmp);
	*out = calloc(1, (size_t)(size > 0 ? size : 0) + 1);
	if (*out && size > 0 && fread(*out, 1, (size_t)size, tmp) != (size_t)size)
		rc = -1;
	fclose(tmp);
	return rc;
}

static void test_replay_folder(void)
{
	char dir[] = "/tmp/ncqsim-probe-XXXXXX", sub[600], *out;
	struct drive_logs l;
	uint8_t id[512];
	static const char *const want[] = {
		"ncq_prio = 1 ", "ncq_prio_log = 1 ", "id_data_log = 1 ", "queue_depth = 32 ",
		"rpm = 7200 ", "sectors = 6836191232 ", "logical_sector_size = 4096 ",
		"# Command Duration Limits: supported, enabled; limits 1000 .. 4000000000 us",
		"#     1: duration guideline 30000 us (policy Dh)",
		"#   device/queue_depth        31\n", "#   device/ncq_prio_enable    0\n",
		"#   queue/scheduler           [mq-deadline] none\n",
		"#   device/cdl_supported      (absent)",
		"#heads =", "# to be measured: recording surfaces",
	};
	unsigned i;

	CHECK(mkdtemp(dir) != NULL);
	build_logs(&l, true);
	load_identify(id, "identify/wdc-wsh722880aln604.bin");
	write_file(dir, "identify", id, 512);
	write_file(dir, "log-00.bin", l.dir, 512);
	write_file(dir, "log-30.bin", l.list, 512);
	write_file(dir, "log-30-03.bin", l.caps, 512);
	write_file(dir, "log-30-04.bin", l.current, 512);
	write_file(dir, "log-30-08.bin", l.sata, 512);
	write_file(dir, "log-18.bin", l.cdl, 512);
	snprintf(sub, sizeof(sub), "%s/sysfs", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/sysfs/device", dir);
	mkdir(sub, 0700);
	write_file(sub, "queue_depth", "31\n", 3);
	write_file(sub, "ncq_prio_supported", "1\n", 2);
	write_file(sub, "ncq_prio_enable", "0\n", 2);
	snprintf(sub, sizeof(sub), "%s/sysfs/queue", dir);
	mkdir(sub, 0700);
	write_file(sub, "scheduler", "[mq-deadline] none\n", 19);

	CHECK_EQ_INT(run_probe(dir, &out), 0);
	for (i = 0; out && i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_MSG(strstr(out, want[i]) != NULL, "probe output lacks '%s'", want[i]);
	free(out);

	/* A recorded page of the wrong size is the recording's fault: said, not decoded. */
	write_file(dir, "log-30-08.bin", l.sata, 100);
	CHECK_EQ_INT(run_probe(dir, &out), 0);
	CHECK(out && strstr(out, "a recorded log page is 512 bytes, got 100") != NULL);
	CHECK(out && strstr(out, "#ncq_prio_log =") != NULL);
	free(out);

	{
		static const char *const files[] = { "identify", "log-00.bin", "log-30.bin",
			"log-30-03.bin", "log-30-04.bin", "log-30-08.bin", "log-18.bin",
			"sysfs/device/queue_depth", "sysfs/device/ncq_prio_supported",
			"sysfs/device/ncq_prio_enable", "sysfs/queue/scheduler", "sysfs/device",
			"sysfs/queue", "sysfs" };

		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(sub, sizeof(sub), "%s/%s", dir, files[i]);
			remove(sub);
		}
		rmdir(dir);
	}
}

int main(void)
{
	test_decoders();
	test_sat_parse();
	test_sequence();
	test_replay_folder();
	return test_done();
}
