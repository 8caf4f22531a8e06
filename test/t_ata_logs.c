/*
 * Log pages: the GPL directory, log 30h pages 00h and 08h (how the host
 * learns NCQ priority support), and the NCQ Command Error log's checksum.
 */
#include "testlib.h"
#include "ata/log.h"

static void test_gpl_dir(void)
{
	uint16_t pages[256] = { 0 };
	uint8_t page[512];

	pages[ATA_LOG_IDENTIFY_DEVICE] = 9;
	pages[ATA_LOG_NCQ_ERROR] = 1;
	ata_gpl_dir_build(page, pages);
	CHECK_EQ_INT(page[0], 1);
	CHECK_EQ_INT(page[1], 0);
	CHECK_EQ_INT(page[0x60], 9);
	CHECK_EQ_INT(ata_gpl_dir_pages(page, 0x30), 9);
	CHECK_EQ_INT(ata_gpl_dir_pages(page, 0x10), 1);
	CHECK_EQ_INT(ata_gpl_dir_pages(page, 0x18), 0);
}

static void test_id_log(void)
{
	static const uint8_t list[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
	uint8_t page[512];
	bool has, prio;

	CHECK_EQ_INT(ata_id_log_supported_build(page, list, sizeof(list)), ATA_OK);
	CHECK_EQ_INT(page[8], 9);
	CHECK_EQ_INT(page[9 + 8], 8);
	CHECK_EQ_INT(ata_id_log_supported_has(page, 0x08, &has), ATA_OK);
	CHECK(has);
	CHECK_EQ_INT(ata_id_log_supported_build(page, list, 8), ATA_OK);	/* no 08h */
	CHECK_EQ_INT(ata_id_log_supported_has(page, 0x08, &has), ATA_OK);
	CHECK(!has);
	page[2] = 0x08;		/* wrong page number in the header */
	CHECK_EQ_INT(ata_id_log_supported_has(page, 0x08, &has), ATA_E_LOG);

	ata_id_log_sata_settings_build(page, true);
	CHECK_EQ_INT(page[9] & 0x08, 0x08);
	CHECK_EQ_INT(ata_id_log_sata_settings_ncq_prio(page, &prio), ATA_OK);
	CHECK(prio);
	ata_id_log_sata_settings_build(page, false);
	CHECK_EQ_INT(ata_id_log_sata_settings_ncq_prio(page, &prio), ATA_OK);
	CHECK(!prio);
	page[7] = 0;		/* header bit 63 clear: not a valid page */
	CHECK_EQ_INT(ata_id_log_sata_settings_ncq_prio(page, &prio), ATA_E_LOG);
}

static void test_ncq_error(void)
{
	struct ata_ncq_error in = { .tag = 17, .status = 0x41, .error = 0x40,
		.lba = 0x123456789abcULL, .device = 0x40, .count = 8,
		.sense_key = 3, .asc = 0x11, .ascq = 0 }, out;
	uint8_t page[512];
	unsigned sum = 0, i;

	CHECK_EQ_INT(ata_ncq_error_build(&in, page), ATA_OK);
	for (i = 0; i < 512; i++)
		sum += page[i];
	CHECK_EQ_INT(sum & 0xff, 0);
	CHECK_EQ_INT(page[0], 17);
	CHECK_EQ_INT(page[4], 0xbc);
	CHECK_EQ_INT(page[8], 0x56);
	CHECK_EQ_INT(ata_ncq_error_parse(page, &out), ATA_OK);
	CHECK_EQ_INT(out.tag, 17);
	CHECK(!out.nq);
	CHECK_EQ_U64(out.lba, in.lba);
	CHECK_EQ_INT(out.count, 8);
	CHECK_EQ_INT(out.sense_key, 3);
	CHECK_EQ_INT(out.asc, 0x11);
	page[100] ^= 1;
	CHECK_EQ_INT(ata_ncq_error_parse(page, &out), ATA_E_CHECKSUM);
	in.tag = 32;
	CHECK_EQ_INT(ata_ncq_error_build(&in, page), ATA_E_TAG);
	in.tag = 0;
	in.nq = true;
	ata_ncq_error_build(&in, page);
	CHECK_EQ_INT(page[0], 0x80);
}

int main(void)
{
	test_gpl_dir();
	test_id_log();
	test_ncq_error();
	return test_done();
}
