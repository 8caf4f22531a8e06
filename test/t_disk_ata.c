/*
 * The drive's ATA personality: IDENTIFY and the log pages built from its
 * model, SET FEATURES, aborts for what it does not support, NCQ errors,
 * several tags completed by one Set Device Bits FIS, cache hits whose
 * data shares the link, and READ VERIFY, whose data never leaves the drive.
 */
#include "testlib.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/identify.h"
#include "ata/log.h"
#include "disk/disk.h"

#include <math.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

struct host {
	struct sim sim;
	struct disk *disk;
	unsigned sdbs, d2hs;
	uint32_t last_sactive;
	int64_t last_sdb_at, sdb_before_at;	/* when the last two SDBs came */
	struct ata_sdb last_sdb;
	struct ata_d2h last_d2h;
	uint8_t data[8192];
	size_t data_len;
};

static void on_sdb(void *h_, const uint8_t *fis, size_t len)
{
	struct host *h = h_;

	CHECK(ata_sdb_decode(fis, len, &h->last_sdb) == ATA_OK);
	h->sdbs++;
	h->last_sactive = h->last_sdb.sactive;
	h->sdb_before_at = h->last_sdb_at;
	h->last_sdb_at = sim_now(&h->sim);
}

static void on_d2h(void *h_, const uint8_t *fis, size_t len, const uint8_t *data, size_t dlen)
{
	struct host *h = h_;

	CHECK(ata_d2h_decode(fis, len, &h->last_d2h) == ATA_OK);
	h->d2hs++;
	h->data_len = dlen;
	if (data)
		memcpy(h->data, data, dlen < sizeof(h->data) ? dlen : sizeof(h->data));
}

static const struct disk_host_ops ops = { on_sdb, on_d2h };

static void start(struct host *h, const struct disk_model *m)
{
	struct err e;

	memset(h, 0, sizeof(*h));
	sim_init(&h->sim);
	h->disk = disk_new(&h->sim, m, &ops, h, &e);
	CHECK_MSG(h->disk != NULL, "%s", e.msg);
}

static void stop(struct host *h)
{
	disk_free(h->disk);
	sim_destroy(&h->sim);
}

static void send(struct host *h, const struct ata_taskfile *tf)
{
	uint8_t fis[20];

	CHECK(ata_h2d_encode(tf, fis) == ATA_OK);
	disk_submit(h->disk, fis, sizeof(fis));
}

/* Send a non-queued command and run until the drive answers. */
static void command(struct host *h, const struct ata_taskfile *tf)
{
	unsigned before = h->d2hs;

	send(h, tf);
	while (h->d2hs == before && sim_step(&h->sim))
		;
	CHECK(h->d2hs == before + 1);
}

/* IDENTIFY DEVICE, its page decoded into *id. */
static void identify(struct host *h, struct ata_identify *id)
{
	struct ata_taskfile tf;

	ata_cmd_identify(&tf);
	command(h, &tf);
	ata_identify_parse(h->data, id);
}

static void read_log(struct host *h, uint8_t log, uint16_t page)
{
	struct ata_taskfile tf;

	ata_cmd_read_log(&tf, true, log, page, 1);
	command(h, &tf);
}

static void test_identify_and_logs(void)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_taskfile tf;
	struct ata_identify id;
	bool has, prio;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	start(&h, &m);
	ata_cmd_identify(&tf);
	command(&h, &tf);
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	CHECK_EQ_INT(h.data_len, 512);
	ata_identify_parse(h.data, &id);
	CHECK_EQ_STR(id.model, "HGST HUH728080ALE600");
	CHECK_EQ_U64(id.sectors, 15628053168ULL);
	CHECK_EQ_INT(id.logical_sector_size, 512);
	CHECK_EQ_INT(id.physical_sector_size, 4096);
	CHECK(id.ncq && id.ncq_prio);
	CHECK_EQ_INT(id.queue_depth, 32);
	CHECK_EQ_INT(id.rotation_rpm, 7200);
	CHECK_EQ_INT(id.checksum, ATA_CHECKSUM_VALID);
	CHECK(id.write_cache_enabled);
	CHECK_EQ_INT(ata_id_word(h.data, 76) & 0x1100, 0x1100);

	read_log(&h, ATA_LOG_DIRECTORY, 0);
	CHECK_EQ_INT(ata_gpl_dir_pages(h.data, ATA_LOG_IDENTIFY_DEVICE), 9);
	read_log(&h, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SUPPORTED);
	CHECK(ata_id_log_supported_has(h.data, ATA_LOG_ID_SATA_SETTINGS, &has) == ATA_OK && has);
	read_log(&h, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SATA_SETTINGS);
	CHECK(ata_id_log_sata_settings_ncq_prio(h.data, &prio) == ATA_OK && prio);
	/* A log the drive does not have is aborted. */
	read_log(&h, 0x18, 0);
	CHECK(h.last_d2h.status & ATA_STAT_ERR);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	read_log(&h, ATA_LOG_IDENTIFY_DEVICE, 9);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);

	/* SET FEATURES: write cache off shows in IDENTIFY word 85. */
	ata_cmd_set_features(&tf, ATA_SF_WRITE_CACHE_OFF, 0);
	command(&h, &tf);
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	identify(&h, &id);
	CHECK(!id.write_cache_enabled);
	ata_cmd_set_features(&tf, 0x66, 0);	/* not supported by the model */
	command(&h, &tf);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);

	/* A command the drive does not know: DOWNLOAD MICROCODE (92h). */
	memset(&tf, 0, sizeof(tf));
	tf.command = 0x92;
	tf.c_bit = true;
	command(&h, &tf);
	CHECK(h.last_d2h.status & ATA_STAT_ERR);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	CHECK(disk_get_stats(h.disk)->aborted >= 4);
	/* FLUSH CACHE EXT (EAh) with nothing dirty: answered at once, no error. */
	ata_cmd_flush_ext(&tf);
	command(&h, &tf);
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	CHECK_EQ_U64(disk_get_stats(h.disk)->flushes, 1);
	stop(&h);

	/* IDENTIFY says NCQ priority, log page 08h does not: both are reported as built. */
	m.ncq_prio_log = false;
	start(&h, &m);
	identify(&h, &id);
	CHECK(id.ncq_prio);
	read_log(&h, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SATA_SETTINGS);
	CHECK(ata_id_log_sata_settings_ncq_prio(h.data, &prio) == ATA_OK && !prio);
	stop(&h);
}

/* DATA SET MANAGEMENT TRIM: aborted by a drive without TRIM, timed by one with it. */
static void test_trim(void)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_taskfile tf;
	struct ata_identify id;
	uint8_t fis[20], ranges[512];
	int64_t t0;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	CHECK(!m.trim);
	start(&h, &m);
	identify(&h, &id);
	CHECK(!id.trim);
	CHECK_EQ_INT(ata_dsm_trim_encode(1000, 128, ranges, 1), 1);
	ata_cmd_dsm_trim(&tf, 1);
	CHECK(ata_h2d_encode(&tf, fis) == ATA_OK);
	disk_submit_data(h.disk, fis, sizeof(fis), ranges, sizeof(ranges));
	while (h.d2hs == 1 && sim_step(&h.sim))
		;
	CHECK(h.last_d2h.status & ATA_STAT_ERR);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	CHECK_EQ_U64(disk_get_stats(h.disk)->trims, 0);
	stop(&h);

	m.trim = true;
	start(&h, &m);
	identify(&h, &id);
	CHECK(id.trim);
	CHECK_EQ_INT(id.dsm_blocks, 8);
	t0 = sim_now(&h.sim);
	ata_cmd_dsm_trim(&tf, 1);
	CHECK(ata_h2d_encode(&tf, fis) == ATA_OK);
	disk_submit_data(h.disk, fis, sizeof(fis), ranges, sizeof(ranges));
	while (h.d2hs == 1 && sim_step(&h.sim))
		;
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	CHECK_EQ_U64(disk_get_stats(h.disk)->trims, 1);
	/* No media access: the command overhead and trim_time for its one block. */
	CHECK_EQ_U64((uint64_t)(sim_now(&h.sim) - t0), (uint64_t)(m.command_overhead + m.trim_time));
	/* A range past the drive's end is aborted. */
	CHECK_EQ_INT(ata_dsm_trim_encode(id.sectors - 8, 16, ranges, 1), 1);
	disk_submit_data(h.disk, fis, sizeof(fis), ranges, sizeof(ranges));
	while (h.d2hs == 2 && sim_step(&h.sim))
		;
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	CHECK_EQ_U64(disk_get_stats(h.disk)->trims, 1);
	/* No payload: aborted too. */
	disk_submit_data(h.disk, fis, sizeof(fis), NULL, 0);
	while (h.d2hs == 3 && sim_step(&h.sim))
		;
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	stop(&h);
}

/*
 * READ VERIFY SECTORS (EXT): the read rules without the transfer. A
 * verify of sectors not in the cache reads them from the media; one of
 * cached sectors is a cache hit that answers after the command overhead
 * alone, where a READ DMA EXT of them also carries their data over the link.
 */
static void test_read_verify(void)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_taskfile tf;
	struct ata_rw rw = { .sectors = 64, .lba = 1000 };
	struct ata_identify id;
	const struct disk_stats *st;
	int64_t t0, verify_ns, read_ns;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	start(&h, &m);
	ata_cmd_identify(&tf);
	command(&h, &tf);
	ata_identify_parse(h.data, &id);
	st = disk_get_stats(h.disk);

	CHECK_EQ_INT(ata_cmd_read_verify(&tf, 1000, 64), ATA_OK);
	CHECK_EQ_INT(tf.command, ATA_CMD_READ_VERIFY);
	command(&h, &tf);
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	CHECK_EQ_U64(h.data_len, 0);
	CHECK_EQ_U64(st->verifies, 1);
	st = disk_get_stats(h.disk);	/* the media counts are summed when asked for */
	CHECK_EQ_U64(st->media_reads, 1);
	CHECK_EQ_U64(st->cache_hits, 0);

	/* Now cached: the verify hits and sends nothing; the read sends 32 KiB. */
	t0 = sim_now(&h.sim);
	command(&h, &tf);
	verify_ns = sim_now(&h.sim) - t0;
	CHECK_EQ_U64(st->cache_hits, 1);
	st = disk_get_stats(h.disk);
	CHECK_EQ_U64(st->media_reads, 1);
	CHECK_EQ_U64((uint64_t)verify_ns, (uint64_t)m.command_overhead);
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_OK);
	t0 = sim_now(&h.sim);
	command(&h, &tf);
	read_ns = sim_now(&h.sim) - t0;
	CHECK_EQ_U64(st->cache_hits, 2);
	CHECK_MSG(fabs((double)(read_ns - verify_ns) - 64 * 512 * 1000.0 / m.interface_mbs) < 2,
		  "read %lld ns, verify %lld ns", (long long)read_ns, (long long)verify_ns);

	/* The 48-bit form, past the end of the drive: IDNF, as a read. */
	CHECK_EQ_INT(ata_cmd_read_verify(&tf, id.sectors - 8, 300), ATA_OK);
	CHECK_EQ_INT(tf.command, ATA_CMD_READ_VERIFY_EXT);
	command(&h, &tf);
	CHECK(h.last_d2h.status & ATA_STAT_ERR);
	CHECK(h.last_d2h.error & ATA_ERR_IDNF);
	CHECK_EQ_U64(st->verifies, 2);
	/* A verify of the last 300 sectors: a media read, good status. */
	CHECK_EQ_INT(ata_cmd_read_verify(&tf, id.sectors - 300, 300), ATA_OK);
	command(&h, &tf);
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	CHECK_EQ_U64(st->verifies, 3);
	st = disk_get_stats(h.disk);
	CHECK_EQ_U64(st->media_reads, 2);
	stop(&h);
}

static void test_ncq(void)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_taskfile tf;
	struct ata_rw rw = { .ncq = true, .sectors = 8, .lba = 4096 };
	struct ata_ncq_error ne;

	CHECK(disk_model_load("he8", &m, &e) == 0);
	/*
	 * Fill the cache, then two hits at one instant. Over a link that
	 * carries data in no time they complete together: one SDB with both
	 * tags.
	 */
	m.interface_mbs = HUGE_VAL;
	start(&h, &m);
	rw.tag = 0;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	rw.tag = 3;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	rw.tag = 7;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK_EQ_INT(h.sdbs, 2);
	CHECK_EQ_U64(h.last_sactive, (1u << 3) | (1u << 7));
	stop(&h);
	/* Over SATA the second one's data follows the first's: an SDB each, 4 KiB apart. */
	CHECK(disk_model_load("he8", &m, &e) == 0);
	start(&h, &m);
	rw.tag = 0;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK_EQ_INT(h.sdbs, 1);
	CHECK_EQ_U64(h.last_sactive, 1);
	rw.tag = 3;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	rw.tag = 7;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK_EQ_INT(h.sdbs, 3);
	CHECK_EQ_U64(h.last_sactive, 1u << 7);
	CHECK_EQ_INT(h.last_sdb_at - h.sdb_before_at, (int64_t)(4096 * 1000.0 / m.interface_mbs));
	CHECK(disk_get_stats(h.disk)->cache_hits == 2);

	/* A non-queued command while a queued one is outstanding: aborted. */
	rw.tag = 1;
	rw.lba = 1000000000;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	ata_cmd_identify(&tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	CHECK_EQ_U64(h.last_sactive, 1u << 1);

	/*
	 * Beyond the capacity, with tag 2 queued beside it: an SDB with ERR
	 * that completes nothing (tag 2 is aborted too), and log 10h names the
	 * failed tag.
	 */
	rw.tag = 2;
	rw.lba = 123456789;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	rw.tag = 5;
	rw.lba = (uint64_t)m.sectors - 4;
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK(h.last_sdb.status & ATA_STAT_ERR);
	CHECK_EQ_U64(h.last_sdb.sactive, 0);
	read_log(&h, ATA_LOG_NCQ_ERROR, 0);
	CHECK(ata_ncq_error_parse(h.data, &ne) == ATA_OK);
	CHECK_EQ_INT(ne.tag, 5);
	CHECK_EQ_U64(ne.lba, (uint64_t)m.sectors - 4);
	stop(&h);

	/* A drive without NCQ aborts FPDMA commands; DMA EXT works. */
	m.ncq = false;
	m.ncq_prio = m.ncq_prio_log = false;
	m.queue_depth = 1;
	start(&h, &m);
	rw.tag = 0;
	rw.lba = 0;
	ata_rw_build(&rw, &tf);
	command(&h, &tf);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	rw.ncq = false;
	ata_rw_build(&rw, &tf);
	command(&h, &tf);
	CHECK_EQ_INT(h.last_d2h.status & ATA_STAT_ERR, 0);
	CHECK(sim_now(&h.sim) > 1000000);	/* it went to the media */
	stop(&h);
}

/*
 * READ FPDMA QUEUED with PRIO 11b (reserved) on a free tag: the frame is
 * refused (ABRT), not queued, and the tag stays free for the same command
 * with PRIO normal.
 */
static void test_ncq_reserved_prio(void)
{
	struct disk_model m;
	struct err e;
	struct host h;
	struct ata_taskfile tf;
	struct ata_rw rw = { .ncq = true, .sectors = 8, .lba = 4096, .tag = 4 };

	CHECK(disk_model_load("he8", &m, &e) == 0);
	start(&h, &m);
	ata_rw_build(&rw, &tf);
	tf.count |= 3u << 14;
	command(&h, &tf);
	CHECK(h.last_d2h.error & ATA_ERR_ABRT);
	CHECK_EQ_INT(h.sdbs, 0);
	CHECK_EQ_U64(disk_get_stats(h.disk)->aborted, 1);
	ata_rw_build(&rw, &tf);
	send(&h, &tf);
	sim_run(&h.sim, SIM_FOREVER);
	CHECK_EQ_INT(h.sdbs, 1);
	CHECK_EQ_U64(h.last_sactive, 1u << 4);
	stop(&h);
}

/* A host that reuses an outstanding tag is a bug: the simulation aborts. */
static void test_tag_reuse_asserts(void)
{
	pid_t pid;
	int status = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct disk_model m;
		struct err e;
		struct host h;
		struct ata_taskfile tf;
		struct ata_rw rw = { .ncq = true, .sectors = 8, .lba = 0, .tag = 2 };

		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		disk_model_load("he8", &m, &e);
		start(&h, &m);
		ata_rw_build(&rw, &tf);
		send(&h, &tf);
		send(&h, &tf);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status 0x%x", status);
}

int main(void)
{
	test_identify_and_logs();
	test_trim();
	test_read_verify();
	test_ncq();
	test_ncq_reserved_prio();
	test_tag_reuse_asserts();
	return test_done();
}
