/*
 * ATA frames and commands, table-driven: every field of the FPDMA commands
 * round-trips through the taskfile and the 20 FIS bytes; libata's one-line
 * form and hdparm's pass-through CDB match byte for byte.
 */
#include "testlib.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/sat.h"

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 3 * i, "%02x%s", b[i], i + 1 < n ? " " : "");
}

static const struct {
	struct ata_rw rw;
	const char *fis;	/* the 20 bytes */
	const char *line;
} rw_cases[] = {
	{ { .ncq = true, .tag = 1, .sectors = 704, .lba = 0x50dc13b8, .prio = ATA_PRIO_NORMAL },
	  "27 80 60 c0 b8 13 dc 40 50 00 00 02 08 00 00 00 00 00 00 00",
	  "cmd 60/c0:08:b8:13:dc/02:00:50:00:00/40 tag 1 ncq 360448 in" },
	{ { .ncq = true, .tag = 1, .sectors = 704, .lba = 0x50dc13b8, .prio = ATA_PRIO_HIGH },
	  "27 80 60 c0 b8 13 dc 40 50 00 00 02 08 80 00 00 00 00 00 00",
	  "cmd 60/c0:08:b8:13:dc/02:80:50:00:00/40 tag 1 ncq 360448 in" },
	{ { .ncq = true, .write = true, .tag = 31, .sectors = 65536, .lba = 0xfffffffeffffULL,
	    .fua = true, .prio = ATA_PRIO_ISOCHRONOUS, .icc = 0x5a, .cdl = 7 },
	  "27 80 61 00 ff ff fe c0 ff ff ff 00 f8 40 5a 00 07 00 00 00",
	  "cmd 61/00:f8:ff:ff:fe/00:40:ff:ff:ff/c0 tag 31 ncq 33554432 out" },
	{ { .ncq = true, .tag = 0, .sectors = 8, .lba = 0 },
	  "27 80 60 08 00 00 00 40 00 00 00 00 00 00 00 00 00 00 00 00",
	  "cmd 60/08:00:00:00:00/00:00:00:00:00/40 tag 0 ncq 4096 in" },
	{ { .ncq = false, .sectors = 8, .lba = 123456789 },
	  "27 80 25 00 15 cd 5b 40 07 00 00 00 08 00 00 00 00 00 00 00",
	  "cmd 25/00:08:15:cd:5b/00:00:07:00:00/40 tag 0 dma 4096 in" },
	{ { .ncq = false, .write = true, .sectors = 65536, .lba = 1, .cdl = 3 },
	  "27 80 35 03 01 00 00 40 00 00 00 00 00 00 00 00 00 00 00 00",
	  "cmd 35/03:00:01:00:00/00:00:00:00:00/40 tag 0 dma 33554432 out" },
	{ { .ncq = false, .write = true, .fua = true, .sectors = 1, .lba = 2 },
	  "27 80 3d 00 02 00 00 40 00 00 00 00 01 00 00 00 00 00 00 00",
	  "cmd 3d/00:01:02:00:00/00:00:00:00:00/40 tag 0 dma 512 out" },
};

static void test_rw_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(rw_cases) / sizeof(rw_cases[0]); i++) {
		struct ata_taskfile tf, back;
		struct ata_rw rw;
		uint8_t fis[ATA_FIS_H2D_LEN];
		char got[80], line[160];

		CHECK_EQ_INT(ata_rw_build(&rw_cases[i].rw, &tf), ATA_OK);
		CHECK_EQ_INT(ata_h2d_encode(&tf, fis), ATA_OK);
		hex(fis, sizeof(fis), got);
		CHECK_EQ_STR(got, rw_cases[i].fis);
		ata_libata_line(&tf, 0, line, sizeof(line));
		CHECK_EQ_STR(line, rw_cases[i].line);
		/* Back: bytes -> taskfile -> fields, each field equal. */
		CHECK_EQ_INT(ata_h2d_decode(fis, sizeof(fis), &back), ATA_OK);
		CHECK(back.command == tf.command && back.features == tf.features &&
		      back.count == tf.count && back.lba == tf.lba && back.device == tf.device &&
		      back.icc == tf.icc && back.control == tf.control &&
		      back.auxiliary == tf.auxiliary && back.c_bit == tf.c_bit);
		CHECK_EQ_INT(ata_rw_parse(&back, &rw), ATA_OK);
		CHECK_EQ_INT(rw.ncq, rw_cases[i].rw.ncq);
		CHECK_EQ_INT(rw.write, rw_cases[i].rw.write);
		CHECK_EQ_INT(rw.tag, rw_cases[i].rw.tag);
		CHECK_EQ_INT(rw.sectors, rw_cases[i].rw.sectors);
		CHECK_EQ_U64(rw.lba, rw_cases[i].rw.lba);
		CHECK_EQ_INT(rw.fua, rw_cases[i].rw.fua);
		CHECK_EQ_INT(rw.prio, rw_cases[i].rw.prio);
		CHECK_EQ_INT(rw.icc, rw_cases[i].rw.icc);
		CHECK_EQ_INT(rw.cdl, rw_cases[i].rw.cdl);
	}
}

static int rw_equal(const struct ata_rw *a, const struct ata_rw *b)
{
	return a->write == b->write && a->ncq == b->ncq && a->tag == b->tag &&
		a->sectors == b->sectors && a->lba == b->lba && a->fua == b->fua &&
		a->prio == b->prio && a->icc == b->icc && a->cdl == b->cdl;
}

/* Every value of every NCQ field survives the trip through the bytes. */
static void test_rw_exhaustive(void)
{
	unsigned tag, prio, cdl, w, fua;
	uint64_t lbas[] = { 0, 1, 0xff, 0x100, 0xffffff, 0x1000000, 0xfffffffffff0ULL };
	uint32_t counts[] = { 1, 8, 255, 256, 65535, 65536 };
	size_t l, c;
	unsigned bad = 0;

	for (w = 0; w < 2; w++)
	for (tag = 0; tag < 32; tag++)
	for (prio = 0; prio < 3; prio++)
	for (cdl = 0; cdl < 8; cdl++)
	for (fua = 0; fua < 2; fua++)
	for (l = 0; l < sizeof(lbas) / sizeof(lbas[0]); l++)
	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct ata_rw in = { .ncq = true, .write = w, .tag = (uint8_t)tag,
			.prio = (enum ata_prio)prio, .cdl = (uint8_t)cdl, .fua = fua,
			.lba = lbas[l], .sectors = counts[c], .icc = (uint8_t)(tag * 7) }, out;
		struct ata_taskfile tf;
		uint8_t fis[ATA_FIS_H2D_LEN];

		if (in.lba + in.sectors > ATA_LBA48_LIMIT)
			continue;
		if (ata_rw_build(&in, &tf) || ata_h2d_encode(&tf, fis) ||
		    ata_h2d_decode(fis, sizeof(fis), &tf) || ata_rw_parse(&tf, &out) ||
		    !rw_equal(&in, &out))
			bad++;
	}
	CHECK_EQ_INT(bad, 0);
}

static void test_rw_errors(void)
{
	struct ata_taskfile tf;
	struct ata_rw rw = { .ncq = true, .sectors = 8 };

	rw.tag = 32;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_TAG);
	rw.tag = 0;
	rw.sectors = 0;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_COUNT);
	rw.sectors = 65537;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_COUNT);
	rw.sectors = 8;
	rw.lba = ATA_LBA48_LIMIT;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_LBA);
	rw.lba = ATA_LBA48_LIMIT - 4;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_LBA);
	rw.lba = 0;
	rw.cdl = 8;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_CDL);
	rw.cdl = 0;
	rw.prio = (enum ata_prio)3;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_PRIO);
	/* Non-NCQ commands carry no PRIO, and there is no FUA read. */
	rw.ncq = false;
	rw.prio = ATA_PRIO_HIGH;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_PRIO);
	rw.prio = ATA_PRIO_NORMAL;
	rw.fua = true;
	CHECK_EQ_INT(ata_rw_build(&rw, &tf), ATA_E_COMMAND);
	/* PRIO 11b on the wire is reserved. */
	memset(&tf, 0, sizeof(tf));
	tf.command = ATA_CMD_FPDMA_READ;
	tf.count = 3 << 14;
	tf.features = 8;
	CHECK_EQ_INT(ata_rw_parse(&tf, &rw), ATA_E_PRIO);
	tf.command = ATA_CMD_IDENTIFY;
	CHECK_EQ_INT(ata_rw_parse(&tf, &rw), ATA_E_COMMAND);
}

static void test_other_commands(void)
{
	struct ata_taskfile tf;
	uint8_t cdb[ATA_SAT16_LEN], log;
	uint16_t page, pages;
	char got[80], line[160];

	/* hdparm's IDENTIFY through SG_IO. */
	ata_cmd_identify(&tf);
	CHECK_EQ_INT(ata_sat16_build(&tf, cdb), ATA_OK);
	hex(cdb, sizeof(cdb), got);
	CHECK_EQ_STR(got, "85 08 0e 00 00 00 01 00 00 00 00 00 00 40 ec 00");
	ata_libata_line(&tf, 0, line, sizeof(line));
	CHECK_EQ_STR(line, "cmd ec/00:01:00:00:00/00:00:00:00:00/40 tag 0 pio 512 in");

	/* An NCQ read with PRIO through SAT: protocol 12, length in FEATURE. */
	{
		struct ata_rw rw = { .ncq = true, .tag = 5, .sectors = 8, .lba = 0x1234,
			.prio = ATA_PRIO_HIGH };

		ata_rw_build(&rw, &tf);
		CHECK_EQ_INT(ata_sat16_build(&tf, cdb), ATA_OK);
		hex(cdb, sizeof(cdb), got);
		CHECK_EQ_STR(got, "85 19 0d 00 08 80 28 00 34 00 12 00 00 40 60 00");
	}

	CHECK_EQ_INT(ata_cmd_read_log(&tf, false, 0x30, 0x08, 1), ATA_OK);
	CHECK_EQ_INT(tf.command, ATA_CMD_READ_LOG_EXT);
	CHECK_EQ_U64(tf.lba, 0x0830);
	CHECK_EQ_INT(ata_cmd_read_log_parse(&tf, &log, &page, &pages), ATA_OK);
	CHECK_EQ_INT(log, 0x30);
	CHECK_EQ_INT(page, 8);
	CHECK_EQ_INT(pages, 1);
	CHECK_EQ_INT(ata_cmd_read_log(&tf, true, 0x30, 0x1234, 2), ATA_OK);
	CHECK_EQ_INT(tf.command, ATA_CMD_READ_LOG_DMA_EXT);
	CHECK_EQ_INT(ata_cmd_read_log_parse(&tf, &log, &page, &pages), ATA_OK);
	CHECK_EQ_INT(page, 0x1234);
	CHECK_EQ_INT(ata_cmd_read_log(&tf, false, 0x30, 0, 0), ATA_E_COUNT);

	/*
	 * DATA SET MANAGEMENT TRIM, as libata sends a discard: one block of
	 * entries, LBA 47:0 and count 63:48 little-endian, 65535 sectors at most
	 * each, 64 to a block.
	 */
	{
		uint8_t payload[2 * 512];
		uint16_t blocks;
		bool trim;
		uint64_t lba;
		uint32_t n;

		CHECK_EQ_INT(ata_cmd_dsm_trim(&tf, 1), ATA_OK);
		CHECK_EQ_INT(tf.command, 0x06);
		CHECK_EQ_INT(tf.features, 0x01);
		CHECK_EQ_INT(ata_cmd_dsm_parse(&tf, &blocks, &trim), ATA_OK);
		CHECK_EQ_INT(blocks, 1);
		CHECK(trim);
		ata_libata_line(&tf, 0, line, sizeof(line));
		CHECK_EQ_STR(line, "cmd 06/01:01:00:00:00/00:00:00:00:00/40 tag 0 dma 512 out");
		CHECK_EQ_STR(ata_command_name(0x06), "DATA SET MANAGEMENT");
		CHECK_EQ_INT(ata_cmd_dsm_trim(&tf, 0), ATA_E_COUNT);

		CHECK_EQ_INT(ata_dsm_trim_encode(0x123456789aULL, 128, payload, 1), 1);
		hex(payload, 8, got);
		CHECK_EQ_STR(got, "9a 78 56 34 12 00 80 00");
		CHECK(ata_dsm_trim_entry(payload, 0, &lba, &n));
		CHECK_EQ_U64(lba, 0x123456789aULL);
		CHECK_EQ_INT(n, 128);
		CHECK(!ata_dsm_trim_entry(payload, 1, &lba, &n));
		/* 65535 × 64 sectors fill one block; one more needs a second. */
		CHECK_EQ_INT(ata_dsm_trim_encode(0, 65535ULL * 64, payload, 1), 64);
		CHECK(ata_dsm_trim_entry(payload, 63, &lba, &n));
		CHECK_EQ_U64(lba, 65535ULL * 63);
		CHECK_EQ_INT(n, 65535);
		CHECK_EQ_INT(ata_dsm_trim_encode(0, 65535ULL * 64 + 1, payload, 1), 0);
		CHECK_EQ_INT(ata_dsm_trim_encode(0, 65535ULL * 64 + 1, payload, 2), 65);
		CHECK(ata_dsm_trim_entry(payload, 64, &lba, &n));
		CHECK_EQ_INT(n, 1);
	}

	/*
	 * READ VERIFY SECTORS (EXT), as libata's ata_scsi_verify_xlat() builds
	 * it for a SCSI VERIFY: 28-bit while the last sector is below 2^28 and
	 * the count at most 256 (LBA 27:24 in DEVICE 3:0, 256 as COUNT 0),
	 * else 48-bit (65536 as COUNT 0). Non-data: no bytes in the line.
	 */
	{
		static const struct {
			uint64_t lba;
			uint32_t n;
			int rc;
			const char *line;
		} rows[] = {
			{ 0x123456, 8, ATA_OK, "cmd 40/00:08:56:34:12/00:00:00:00:00/40 tag 0 nodata" },
			{ 0xabcdef0, 256, ATA_OK, "cmd 40/00:00:f0:de:bc/00:00:00:00:00/4a tag 0 nodata" },
			{ 0xfffff00, 256, ATA_OK, "cmd 40/00:00:00:ff:ff/00:00:00:00:00/4f tag 0 nodata" },
			{ 0xfffff01, 256, ATA_OK, "cmd 42/00:00:01:ff:ff/00:01:0f:00:00/40 tag 0 nodata" },
			{ 0, 257, ATA_OK, "cmd 42/00:01:00:00:00/00:01:00:00:00/40 tag 0 nodata" },
			{ 0x123456789aULL, 65536, ATA_OK,
			  "cmd 42/00:00:9a:78:56/00:00:34:12:00/40 tag 0 nodata" },
			{ 0, 0, ATA_E_COUNT, NULL },
			{ 0, 65537, ATA_E_COUNT, NULL },
			{ ATA_LBA48_LIMIT - 1, 2, ATA_E_LBA, NULL },
		};
		size_t i;
		uint64_t lba;
		uint32_t n;

		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			CHECK_EQ_INT(ata_cmd_read_verify(&tf, rows[i].lba, rows[i].n), rows[i].rc);
			if (rows[i].rc)
				continue;
			ata_libata_line(&tf, 0, line, sizeof(line));
			CHECK_EQ_STR(line, rows[i].line);
			CHECK_EQ_INT(ata_cmd_read_verify_parse(&tf, &lba, &n), ATA_OK);
			CHECK_EQ_U64(lba, rows[i].lba);
			CHECK_EQ_INT(n, rows[i].n);
		}
		CHECK_EQ_STR(ata_command_name(0x40), "READ VERIFY SECTORS");
		CHECK_EQ_STR(ata_command_name(0x42), "READ VERIFY SECTORS EXT");
		/* Through SAT: non-data (protocol 3), nothing to move (t_length 0). */
		CHECK_EQ_INT(ata_cmd_read_verify(&tf, 0, 257), ATA_OK);
		CHECK_EQ_INT(ata_sat16_build(&tf, cdb), ATA_OK);
		hex(cdb, sizeof(cdb), got);
		CHECK_EQ_STR(got, "85 07 00 00 00 01 01 00 00 00 00 00 00 40 42 00");
		ata_cmd_flush_ext(&tf);
		CHECK_EQ_INT(ata_cmd_read_verify_parse(&tf, &lba, &n), ATA_E_COMMAND);
	}

	ata_cmd_set_features(&tf, ATA_SF_WRITE_CACHE_OFF, 0);
	CHECK_EQ_INT(tf.command, ATA_CMD_SET_FEATURES);
	CHECK_EQ_INT(tf.features, 0x82);
	ata_libata_line(&tf, 3, line, sizeof(line));
	CHECK_EQ_STR(line, "cmd ef/82:00:00:00:00/00:00:00:00:00/40 tag 3 nodata");
}

static void test_fis_codecs(void)
{
	struct ata_sdb s = { .status = 0x40, .error = 0, .sactive = 0x80000005,
		.interrupt = true }, s2 = { 0 };
	struct ata_d2h d = { .status = 0x51, .error = 0x04, .lba = 0xabcdef012345ULL,
		.device = 0x40, .count = 0x1234, .interrupt = true, .pm_port = 3 }, d2;
	struct ata_taskfile tf = { .command = 0x60 };
	uint8_t b[ATA_FIS_D2H_LEN];
	char got[80];

	CHECK_EQ_INT(ata_sdb_encode(&s, b), ATA_OK);
	hex(b, ATA_FIS_SDB_LEN, got);
	CHECK_EQ_STR(got, "a1 40 40 00 05 00 00 80");
	CHECK_EQ_INT(ata_sdb_decode(b, ATA_FIS_SDB_LEN, &s2), ATA_OK);
	CHECK_EQ_U64(s2.sactive, 0x80000005);
	CHECK(s2.interrupt && !s2.notification);
	/* Status bits 7 and 3 do not travel in an SDB FIS. */
	s.status = 0xff;
	ata_sdb_encode(&s, b);
	CHECK_EQ_INT(b[2], 0x77);
	CHECK_EQ_INT(ata_sdb_decode(b, 7, &s2), ATA_E_LENGTH);
	b[0] = 0x27;
	CHECK_EQ_INT(ata_sdb_decode(b, 8, &s2), ATA_E_FIS_TYPE);

	CHECK_EQ_INT(ata_d2h_encode(&d, b), ATA_OK);
	CHECK_EQ_INT(ata_d2h_decode(b, sizeof(b), &d2), ATA_OK);
	CHECK(d2.status == d.status && d2.error == d.error && d2.lba == d.lba &&
	      d2.device == d.device && d2.count == d.count && d2.interrupt == d.interrupt &&
	      d2.pm_port == d.pm_port);
	CHECK_EQ_INT(b[0], 0x34);
	CHECK_EQ_INT(b[1], 0x43);

	CHECK_EQ_INT(ata_h2d_decode(b, 20, &tf), ATA_E_FIS_TYPE);
	CHECK_EQ_INT(ata_h2d_decode(b, 19, &tf), ATA_E_LENGTH);
	tf.pm_port = 16;
	CHECK_EQ_INT(ata_h2d_encode(&tf, b), ATA_E_PORT);
	CHECK(ata_strerror(ATA_E_TAG) && strcmp(ata_strerror(ATA_E_TAG), "unknown error"));
}

/*
 * Every field of Register H2D and Set Device Bits distinct, so a byte in
 * the wrong place shows (the codecs pack fields into 64-bit words).
 */
static void test_fis_layout(void)
{
	struct ata_taskfile tf = { .command = 0x03, .features = 0x0b04, .count = 0x0d0c,
		.lba = 0x0a0908060504ULL, .device = 0x07, .icc = 0x0e, .control = 0x0f,
		.auxiliary = 0x13121110, .pm_port = 0x2, .c_bit = true }, back;
	struct ata_sdb s = { .status = 0x35, .error = 0x06, .sactive = 0x0a090807,
		.pm_port = 0xc, .interrupt = true, .notification = true }, s2;
	uint8_t b[ATA_FIS_H2D_LEN];
	char got[80];

	CHECK_EQ_INT(ata_h2d_encode(&tf, b), ATA_OK);
	hex(b, ATA_FIS_H2D_LEN, got);
	CHECK_EQ_STR(got, "27 82 03 04 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13");
	memset(&back, 0xff, sizeof(back));
	CHECK_EQ_INT(ata_h2d_decode(b, sizeof(b), &back), ATA_OK);
	CHECK(back.command == tf.command && back.features == tf.features &&
	      back.count == tf.count && back.lba == tf.lba && back.device == tf.device &&
	      back.icc == tf.icc && back.control == tf.control &&
	      back.auxiliary == tf.auxiliary && back.pm_port == tf.pm_port && back.c_bit);
	/* A control update: C clear, LBA 47:0 all ones. */
	tf.c_bit = false;
	tf.lba = 0xffffffffffffULL;
	CHECK_EQ_INT(ata_h2d_encode(&tf, b), ATA_OK);
	hex(b, ATA_FIS_H2D_LEN, got);
	CHECK_EQ_STR(got, "27 02 03 04 ff ff ff 07 ff ff ff 0b 0c 0d 0e 0f 10 11 12 13");
	CHECK_EQ_INT(ata_h2d_decode(b, sizeof(b), &back), ATA_OK);
	CHECK(!back.c_bit && back.lba == tf.lba && back.features == tf.features);

	CHECK_EQ_INT(ata_sdb_encode(&s, b), ATA_OK);
	hex(b, ATA_FIS_SDB_LEN, got);
	CHECK_EQ_STR(got, "a1 cc 35 06 07 08 09 0a");
	memset(&s2, 0xff, sizeof(s2));
	CHECK_EQ_INT(ata_sdb_decode(b, ATA_FIS_SDB_LEN, &s2), ATA_OK);
	CHECK(s2.status == s.status && s2.error == s.error && s2.sactive == s.sactive &&
	      s2.pm_port == s.pm_port && s2.interrupt && s2.notification);
}

/*
 * The direct codecs (ata_rw_fis_build, ata_rw_fis_parse) against the two
 * steps they stand for, over fields of every kind, bad ones included, and
 * over frames of random bytes: the same result, the same bytes, the same
 * fields.
 */
static void test_rw_direct(void)
{
	static const uint8_t commands[] = { ATA_CMD_FPDMA_READ, ATA_CMD_FPDMA_WRITE,
		ATA_CMD_READ_DMA_EXT, ATA_CMD_WRITE_DMA_EXT, ATA_CMD_WRITE_DMA_FUA_EXT,
		ATA_CMD_IDENTIFY, ATA_CMD_FLUSH_EXT };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	unsigned i, k, bad_build = 0, bad_parse = 0, parsed = 0;

	for (i = 0; i < 200000; i++) {
		struct ata_rw in, a, b;
		struct ata_taskfile tf;
		uint8_t f1[ATA_FIS_H2D_LEN], f2[ATA_FIS_H2D_LEN];
		int r1, r2;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		memset(&in, 0, sizeof(in));
		in.ncq = x >> 63;
		in.write = x >> 62 & 1;
		in.fua = x >> 61 & 1;
		in.tag = (uint8_t)(x >> 55 & 0x3f);		/* up to 63: some bad */
		in.prio = (enum ata_prio)(x >> 53 & 3);
		in.cdl = (uint8_t)(x >> 49 & 0xf);		/* up to 15 */
		in.icc = (uint8_t)(x >> 41);
		in.sectors = (uint32_t)(x >> 24 & 0x1ffff);	/* 0 .. 131071 */
		in.lba = (x & 3) == 0 ? ATA_LBA48_LIMIT - (x >> 20 & 0xffff) :
			(x * 31) & (ATA_LBA48_LIMIT - 1);
		memset(f1, 0xee, sizeof(f1));
		memset(f2, 0xee, sizeof(f2));
		r1 = ata_rw_fis_build(&in, f1);
		r2 = ata_rw_build(&in, &tf);
		if (!r2)
			r2 = ata_h2d_encode(&tf, f2);
		bad_build += r1 != r2 || (!r1 && memcmp(f1, f2, sizeof(f1)));

		/* A frame: this one, or random bytes with a command from the list. */
		if (r1 || (x >> 40 & 1)) {
			for (k = 0; k < ATA_FIS_H2D_LEN; k++)
				f1[k] = (uint8_t)((x >> (k % 8 * 8)) ^ (k * 37) ^ (i >> (k % 3)));
			f1[0] = (x >> 39 & 7) ? ATA_FIS_REG_H2D : f1[0];
			f1[2] = commands[(x >> 33) % sizeof(commands)];
		}
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		r1 = ata_rw_fis_parse(f1, sizeof(f1), &a);
		r2 = ata_h2d_decode(f1, sizeof(f1), &tf);
		if (!r2)
			r2 = !tf.c_bit ? ATA_E_COMMAND : ata_rw_parse(&tf, &b);
		parsed += !r1;
		bad_parse += r1 != r2 || (!r1 && !rw_equal(&a, &b));
	}
	CHECK_EQ_INT(bad_build, 0);
	CHECK_EQ_INT(bad_parse, 0);
	CHECK_MSG(parsed > 50000, "only %u frames parsed", parsed);
	CHECK_EQ_INT(ata_rw_fis_parse((const uint8_t *)"\x27", 1, &(struct ata_rw){ 0 }),
		     ATA_E_LENGTH);
}

/*
 * The SDB's fast paths against the full codecs: ata_sdb_encode_done()
 * writes what ata_sdb_encode() writes for a good completion, and
 * ata_sdb_decode_good() takes exactly the frames ata_sdb_decode() takes
 * whose status has neither ERR nor SENSE, with the same SActive — and
 * refuses the short, the mistyped and the failed ones.
 */
static void test_sdb_fast_paths(void)
{
	static const uint8_t statuses[] = { 0x40, 0x50, 0x41, 0x42, 0x43, 0xff, 0x00 };
	uint8_t full[ATA_FIS_SDB_LEN], fast[ATA_FIS_SDB_LEN];
	uint32_t sactive = 0;
	unsigned i, k;

	for (i = 0; i < sizeof(statuses); i++) {
		struct ata_sdb s = { .status = statuses[i], .sactive = 0x80000005u << (i % 4),
			.interrupt = true }, d = { 0 };

		CHECK_EQ_INT(ata_sdb_encode(&s, full), ATA_OK);
		ata_sdb_encode_done(s.sactive, s.status, fast);
		CHECK(!memcmp(full, fast, sizeof(full)));
		CHECK_EQ_INT(ata_sdb_decode(fast, sizeof(fast), &d), ATA_OK);
		CHECK_EQ_INT(ata_sdb_decode_good(fast, sizeof(fast), &sactive),
			     !(d.status & (ATA_STAT_ERR | ATA_STAT_SENSE)));
		if (!(d.status & (ATA_STAT_ERR | ATA_STAT_SENSE)))
			CHECK_EQ_U64(sactive, s.sactive);
	}
	ata_sdb_encode_done(1u << 7, 0x40, fast);
	CHECK(ata_sdb_decode_good(fast, sizeof(fast), &sactive) && sactive == 1u << 7);
	for (k = 0; k < sizeof(fast); k++)	/* every short length */
		CHECK(!ata_sdb_decode_good(fast, k, &sactive));
	CHECK(!ata_sdb_decode_good(fast, sizeof(fast) + 1, &sactive));
	fast[0] = ATA_FIS_REG_D2H;
	CHECK(!ata_sdb_decode_good(fast, sizeof(fast), &sactive));
	CHECK(ata_sdb_decode(fast, sizeof(fast), &(struct ata_sdb){ 0 }) != ATA_OK);
}

int main(void)
{
	test_fis_layout();
	test_rw_table();
	test_rw_exhaustive();
	test_rw_errors();
	test_rw_direct();
	test_other_commands();
	test_fis_codecs();
	test_sdb_fast_paths();
	return test_done();
}
