/*
 * IDENTIFY DEVICE: every real page under test/data/identify decodes to the
 * values its README lists (raw and hdparm text forms); builder and parser
 * round-trip; every form is recognised; corrupted input never crashes.
 */
#include "testlib.h"
#include "ata/identify.h"

#include <stdlib.h>

struct expect {
	const char *file, *model, *firmware, *serial;
	int ncq;
	unsigned qd;
	int prio;
	unsigned long long sectors;
	unsigned logical;
	unsigned rpm;		/* 0 not reported, 1 non-rotating */
	enum ata_checksum_state sum;
};

static const struct expect pages[] = {
	{ "FUJITSU_MHY2120BH--0084000D.bin", "FUJITSU MHY2120BH", "0084000D", "K434T81257SL", 1, 32, 0, 234441648, 512, 0, ATA_CHECKSUM_VALID },
	{ "INTEL_SSDSA2CW120G3--4PC10302.bin", "INTEL SSDSA2CW120G3", "4PC10302", "CVPR109301UZ120LGN", 1, 32, 0, 234441648, 512, 1, ATA_CHECKSUM_VALID },
	{ "INTEL_SSDSA2MH080G1GC--045C8820.bin", "INTEL SSDSA2MH080G1GC", "045C8820", "CVEM842101HD080DGN", 1, 31, 0, 156301488, 512, 1, ATA_CHECKSUM_VALID },
	{ "MCCOE64GEMPP--2.9.09.bin", "MCCOE64GEMPP", "2.9.09", "SE808N0608", 0, 1, 0, 117231408, 512, 0, ATA_CHECKSUM_VALID },
	{ "Maxtor_96147H8--BAC51KJ0.bin", "Maxtor 96147H8", "BAC51KJ0", "N80BR8EC", 0, 1, 0, 120060864, 512, 0, ATA_CHECKSUM_VALID },
	{ "SAMSUNG_HD501LJ--CR100-12.bin", "SAMSUNG HD501LJ", "CR100-12", "S0MUJ1NQ110060", 1, 32, 0, 976773168, 512, 0, ATA_CHECKSUM_VALID },
	{ "SAMSUNG_MMCQE28G8MUP--0VA_VAM08L1Q.bin", "SAMSUNG MMCQE28G8MUP-0VA", "VAM08L1Q", "SE837A6888", 0, 1, 0, 250069680, 512, 1, ATA_CHECKSUM_VALID },
	{ "ST320410A--3.39.bin", "ST320410A", "3.39", "5FB3QF34", 0, 1, 0, 39100223, 512, 0, ATA_CHECKSUM_VALID },
	{ "ST9100821AS--3.CME.bin", "ST9100821AS", "3.CME", "5NJ0R13A", 1, 32, 0, 195371568, 512, 0, ATA_CHECKSUM_VALID },
	{ "TOSHIBA_MK1651GSY--38IGT0G5T.bin", "TOSHIBA MK1651GSY", "LD001D", "38IGT0G5T", 1, 32, 0, 312581808, 512, 0, ATA_CHECKSUM_VALID },
	{ "WDC_WD2500JS-75NCB3--10.02E04.bin", "WDC WD2500JS-75NCB3", "10.02E04", "WD-WCANKH572006", 1, 32, 0, 488281250, 512, 0, ATA_CHECKSUM_VALID },
	{ "WDC_WD5000AAKS--00TMA0-12.01C01.bin", "WDC WD5000AAKS-00TMA0", "12.01C01", "WD-WCAPW0493929", 1, 32, 0, 976773168, 512, 0, ATA_CHECKSUM_VALID },
	{ "hitachi-hde721010sla330.bin", "Hitachi HDE721010SLA330", "ST6OA3AA", "STR607MS2APNLS", 1, 32, 1, 1953525168, 512, 7200, ATA_CHECKSUM_VALID },
	{ "hitachi-hde721010sla330.hdparm.txt", "Hitachi HDE721010SLA330", "ST6OA3AA", "STR607MS2APNLS", 1, 32, 1, 1953525168, 512, 7200, ATA_CHECKSUM_VALID },
	{ "hitachi-hua722010cla330-badsum.bin", "Hitachi HUA722010CLA330", "JP4OA3EA", "JPW9K0HD26WMHL", 1, 32, 1, 1953525168, 512, 7200, ATA_CHECKSUM_BAD },
	{ "wdc-wsh722880aln604.bin", "WDC  WSH722880ALN604", "LVGMWF10", "65GMN5GN", 1, 32, 1, 6836191232ULL, 4096, 7200, ATA_CHECKSUM_VALID },
	{ "wdc-wsh722880aln604.hdparm.txt", "WDC  WSH722880ALN604", "LVGMWF10", "65GMN5GN", 1, 32, 1, 6836191232ULL, 4096, 7200, ATA_CHECKSUM_VALID },
};

static int load(const char *path, uint8_t page[512], enum ata_id_form *form)
{
	size_t len;
	char *data = test_slurp(path, &len), why[256];
	int rc;

	if (!data)
		return -1;
	rc = ata_identify_load((uint8_t *)data, len, page, form, why, sizeof(why));
	free(data);
	return rc;
}

static void test_real_pages(void)
{
	size_t i;

	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		const struct expect *x = &pages[i];
		uint8_t page[512];
		enum ata_id_form form;
		struct ata_identify id;
		char path[256];

		snprintf(path, sizeof(path), "identify/%s", x->file);
		if (load(test_data(path), page, &form)) {
			CHECK_MSG(0, "%s: not loaded", x->file);
			continue;
		}
		CHECK_EQ_INT(form, strstr(x->file, ".txt") ? ATA_ID_FORM_HDPARM : ATA_ID_FORM_RAW);
		ata_identify_parse(page, &id);
		CHECK_EQ_STR(id.model, x->model);
		CHECK_EQ_STR(id.firmware, x->firmware);
		CHECK_EQ_STR(id.serial, x->serial);
		CHECK_EQ_INT(id.ncq, x->ncq);
		CHECK_EQ_INT(id.queue_depth, x->qd);
		CHECK_EQ_INT(id.ncq_prio, x->prio);
		CHECK_EQ_U64(id.sectors, x->sectors);
		CHECK_EQ_INT(id.logical_sector_size, x->logical);
		CHECK_EQ_INT(id.rotation_rpm, x->rpm);
		CHECK_EQ_INT(id.checksum, x->sum);
	}
	/* The two forms of the same page are the same bytes. */
	{
		uint8_t a[512], b[512];
		enum ata_id_form f;

		CHECK(!load(test_data("identify/wdc-wsh722880aln604.bin"), a, &f));
		CHECK(!load(test_data("identify/wdc-wsh722880aln604.hdparm.txt"), b, &f));
		CHECK(!memcmp(a, b, 512));
	}
}

static void test_build_roundtrip(void)
{
	struct ata_identify in = {
		.model = "HGST HUH728080ALE600", .serial = "VKH12345", .firmware = "A4GNT7J0",
		.sectors = 15628053168ULL, .lba48 = true, .logical_sector_size = 512,
		.physical_sector_size = 4096, .ncq = true, .queue_depth = 32, .ncq_prio = true,
		.rotation_rpm = 7200, .sata_speeds = ATA_SATA_GEN1 | ATA_SATA_GEN2 | ATA_SATA_GEN3,
		.write_cache = true, .write_cache_enabled = true, .read_ahead = true,
		.read_ahead_enabled = true, .read_log_dma = true,
	}, out;
	uint8_t page[512];
	unsigned sum = 0, i;

	ata_identify_build(&in, page);
	for (i = 0; i < 512; i++)
		sum += page[i];
	CHECK_EQ_INT(sum & 0xff, 0);
	CHECK_EQ_INT(page[510], 0xa5);
	ata_identify_parse(page, &out);
	CHECK_EQ_STR(out.model, in.model);
	CHECK_EQ_STR(out.serial, in.serial);
	CHECK_EQ_STR(out.firmware, in.firmware);
	CHECK_EQ_U64(out.sectors, in.sectors);
	CHECK_EQ_INT(out.lba48, 1);
	CHECK_EQ_INT(out.logical_sector_size, 512);
	CHECK_EQ_INT(out.physical_sector_size, 4096);
	CHECK_EQ_INT(out.ncq, 1);
	CHECK_EQ_INT(out.queue_depth, 32);
	CHECK_EQ_INT(out.ncq_prio, 1);
	CHECK_EQ_INT(out.rotation_rpm, 7200);
	CHECK_EQ_INT(out.sata_speeds, 7);
	CHECK(out.write_cache && out.write_cache_enabled && out.read_ahead && out.read_log_dma);
	CHECK_EQ_INT(out.checksum, ATA_CHECKSUM_VALID);
	CHECK_EQ_INT(out.trim, 0);	/* a hard disk: no DSM TRIM, word 169 clear */
	CHECK_EQ_INT(ata_id_word(page, 169), 0);
	/* 28-bit capacity saturates for a drive this large. */
	CHECK_EQ_INT(ata_id_word(page, 60), 0xffff);
	CHECK_EQ_INT(ata_id_word(page, 61), 0x0fff);

	/* 4Kn, no NCQ, no 48-bit: the other branches. */
	memset(&in, 0, sizeof(in));
	strcpy(in.model, "TEST 4KN");
	in.sectors = 1000000;
	in.logical_sector_size = 4096;
	in.physical_sector_size = 4096;
	in.queue_depth = 1;
	ata_identify_build(&in, page);
	ata_identify_parse(page, &out);
	CHECK_EQ_INT(out.logical_sector_size, 4096);
	CHECK_EQ_INT(out.physical_sector_size, 4096);
	CHECK_EQ_INT(out.ncq, 0);
	CHECK_EQ_INT(out.queue_depth, 1);
	CHECK_EQ_INT(out.lba48, 0);
	CHECK_EQ_U64(out.sectors, 1000000);
	CHECK_EQ_INT(out.rotation_rpm, 0);

	/* TRIM: word 169 bit 0, and the DSM blocks a command may carry in word 105. */
	in.trim = true;
	in.dsm_blocks = 8;
	ata_identify_build(&in, page);
	CHECK_EQ_INT(ata_id_word(page, 169), 1);
	CHECK_EQ_INT(ata_id_word(page, 105), 8);
	ata_identify_parse(page, &out);
	CHECK_EQ_INT(out.trim, 1);
	CHECK_EQ_INT(out.dsm_blocks, 8);
}

static void test_forms(void)
{
	uint8_t page[512], raw[512], blob[8 + 16 + 8 + 512 + 8 + 4], out[512];
	enum ata_id_form form;
	char text[4096], why[256];
	size_t n = 0, i;

	CHECK(!load(test_data("identify/hitachi-hde721010sla330.bin"), raw, &form));

	/* skdump blob: another section first, then IDFY, then a trailing one. */
	memcpy(blob, "SMST", 4);
	blob[4] = blob[5] = blob[6] = 0; blob[7] = 16;
	memset(blob + 8, 0x11, 16);
	memcpy(blob + 24, "IDFY", 4);
	blob[28] = 0; blob[29] = 0; blob[30] = 2; blob[31] = 0;
	memcpy(blob + 32, raw, 512);
	memcpy(blob + 544, "SMTH", 4);
	blob[548] = blob[549] = blob[550] = 0; blob[551] = 4;
	memset(blob + 552, 0, 4);
	CHECK_EQ_INT(ata_identify_load(blob, sizeof(blob), page, &form, why, sizeof(why)), ATA_OK);
	CHECK_EQ_INT(form, ATA_ID_FORM_SKDUMP);
	CHECK(!memcmp(page, raw, 512));
	/* A section that claims more than the file has. */
	blob[31] = 1; blob[30] = 3;
	CHECK_EQ_INT(ata_identify_load(blob, sizeof(blob), page, &form, why, sizeof(why)),
		     ATA_E_NOT_IDENTIFY);
	CHECK(strstr(why, "IDFY") != NULL);
	/* IDFY of the wrong size. */
	blob[30] = 1; blob[31] = 0;
	CHECK_EQ_INT(ata_identify_load(blob, sizeof(blob), page, &form, why, sizeof(why)),
		     ATA_E_NOT_IDENTIFY);

	/* hdparm --Istdin style: junk lines first, 16 words a line. */
	n += (size_t)snprintf(text + n, sizeof(text) - n, "/dev/sdb:\n\nsome header line\n");
	for (i = 0; i < 256; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%04x%s",
				      ata_id_word(raw, (unsigned)i), i % 16 == 15 ? "\n" : " ");
	n += (size_t)snprintf(text + n, sizeof(text) - n, "trailing words are ignored\n");
	CHECK_EQ_INT(ata_identify_load((uint8_t *)text, n, out, &form, why, sizeof(why)), ATA_OK);
	CHECK_EQ_INT(form, ATA_ID_FORM_HEXWORDS);
	CHECK(!memcmp(out, raw, 512));
}

static void test_broken(void)
{
	static const char *bad_texts[] = {
		"",
		"hello world\nno hex here\n",
		"0000 1111 2222\n",			/* too few words */
		"0000 1111 22222 3333\n",		/* a 5-digit group */
	};
	uint8_t raw[512], page[512], copy[512];
	enum ata_id_form form;
	char why[256];
	size_t i;
	unsigned bit;

	for (i = 0; i < sizeof(bad_texts) / sizeof(bad_texts[0]); i++) {
		why[0] = 0;
		CHECK_EQ_INT(ata_identify_load((const uint8_t *)bad_texts[i], strlen(bad_texts[i]),
					       page, &form, why, sizeof(why)), ATA_E_NOT_IDENTIFY);
		CHECK(why[0] != '\0');
	}
	CHECK(!load(test_data("identify/wdc-wsh722880aln604.bin"), raw, &form));
	/* Truncated and over-long raw pages are refused. */
	for (i = 0; i < 512; i += 37)
		CHECK_EQ_INT(ata_identify_load(raw, i, page, &form, why, sizeof(why)),
			     ATA_E_NOT_IDENTIFY);
	{
		uint8_t longer[600] = { 0 };

		memcpy(longer, raw, 512);
		CHECK_EQ_INT(ata_identify_load(longer, sizeof(longer), page, &form, why, sizeof(why)),
			     ATA_E_NOT_IDENTIFY);
	}
	/* Every bit of every byte flipped: decoded, never a crash, never "valid". */
	for (i = 0; i < 512; i++) {
		for (bit = 0; bit < 8; bit++) {
			struct ata_identify id;

			memcpy(copy, raw, 512);
			copy[i] ^= (uint8_t)(1u << bit);
			CHECK_EQ_INT(ata_identify_load(copy, 512, page, &form, why, sizeof(why)), ATA_OK);
			ata_identify_parse(page, &id);
			CHECK(id.checksum != ATA_CHECKSUM_VALID);
			CHECK(i == 510 ? id.checksum == ATA_CHECKSUM_ABSENT : id.checksum == ATA_CHECKSUM_BAD);
			CHECK(strlen(id.model) <= 40 && strlen(id.serial) <= 20 && strlen(id.firmware) <= 8);
		}
	}
}

int main(void)
{
	test_real_pages();
	test_build_roundtrip();
	test_forms();
	test_broken();
	return test_done();
}
