/*
 * The CDL pages, byte by byte: log 30h page 03h (CDL at qword 21 bit 0,
 * successful-NCQ sense data at qword 1 bit 47), page 04h (enabled at qword
 * 1 bit 21), and the Command Duration Limits log 18h (perf code in byte 0,
 * read descriptors from byte 64, write from 288, 32 bytes each: policies in
 * dword 0, active time dword 1, inactive dword 2, guideline dword 4, µs);
 * every field round-trips; an undefined policy or perf code is refused.
 */
#include "testlib.h"
#include "ata/cdl.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void)
{
	static const struct {
		uint8_t code;
		int permille;
	} perf[] = { { 0x0, 0 }, { 0x1, 5 }, { 0x7, 40 }, { 0xc, 200 }, { 0xd, -1 }, { 0xf, -1 } };
	uint8_t page[ATA_LOG_PAGE_BYTES];
	struct ata_cdl_log l, back;
	bool flag;
	unsigned i;

	for (i = 0; i < sizeof(perf) / sizeof(perf[0]); i++)
		CHECK_EQ_INT(ata_cdl_perf_permille(perf[i].code), perf[i].permille);

	memset(&l, 0, sizeof(l));
	l.perf_vs_guideline = 0xc;
	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++) {
		l.read[i].guideline_us = 50000 * (i + 1);
		l.read[i].guideline_policy = ATA_CDL_COMPLETE_EARLIEST;
		l.write[i].max_active_us = 20000 + i;
		l.write[i].active_policy = ATA_CDL_ABORT;
		l.write[i].max_inactive_us = 7 + i;
		l.write[i].inactive_policy = ATA_CDL_COMPLETE_UNAVAILABLE;
		l.write[i].guideline_policy = ATA_CDL_CONTINUE_NEXT;
	}
	ata_cdl_log_build(&l, page);
	CHECK_EQ_INT(page[0], 0x0c);
	CHECK_EQ_INT(le32(page + 64 + 16), 50000);		/* read descriptor 1 guideline */
	CHECK_EQ_INT(le32(page + 64 + 32 * 6 + 16), 350000);	/* read descriptor 7 */
	CHECK_EQ_INT(le32(page + 288), 0xd << 8 | 0xf << 4 | 0x1);	/* write 1 policies */
	CHECK_EQ_INT(le32(page + 288 + 4), 20000);		/* write 1 max active */
	CHECK_EQ_INT(le32(page + 288 + 8), 7);			/* write 1 max inactive */
	CHECK_EQ_INT(ata_cdl_log_parse(page, &back), ATA_OK);
	CHECK(!memcmp(&l, &back, sizeof(l)));

	/* Undefined values: policy 3 anywhere, 0x1 outside the guideline, 0xE outside active. */
	page[288] = 0x03;
	CHECK_EQ_INT(ata_cdl_log_parse(page, &back), ATA_E_RANGE);
	ata_cdl_log_build(&l, page);
	page[64 + 1] = 0x01;					/* inactive policy 0x1 */
	CHECK_EQ_INT(ata_cdl_log_parse(page, &back), ATA_E_RANGE);
	ata_cdl_log_build(&l, page);
	page[64] = 0x0e;					/* guideline policy 0xE */
	CHECK_EQ_INT(ata_cdl_log_parse(page, &back), ATA_E_RANGE);
	ata_cdl_log_build(&l, page);
	page[0] = 0x0d;
	CHECK_EQ_INT(ata_cdl_log_parse(page, &back), ATA_E_RANGE);

	/* Page 03h. */
	ata_id_log_capabilities_build(page, true);
	CHECK_EQ_INT(page[2], ATA_LOG_ID_CAPABILITIES);
	CHECK(page[168] & 0x01);
	CHECK(page[13] & 0x80);
	CHECK(page[175] & 0x80 && page[15] & 0x80);
	CHECK_EQ_INT(ata_id_log_capabilities_cdl(page, &flag), ATA_OK);
	CHECK(flag);
	page[13] &= 0x7f;		/* no sense data for successful NCQ commands: no CDL */
	CHECK_EQ_INT(ata_id_log_capabilities_cdl(page, &flag), ATA_OK);
	CHECK(!flag);
	ata_id_log_capabilities_build(page, false);
	CHECK_EQ_INT(ata_id_log_capabilities_cdl(page, &flag), ATA_OK);
	CHECK(!flag);
	page[2] = 0x04;			/* another page's header */
	CHECK_EQ_INT(ata_id_log_capabilities_cdl(page, &flag), ATA_E_LOG);

	/* Page 04h. */
	ata_id_log_current_settings_build(page, true);
	CHECK_EQ_INT(page[10], 0x20);
	CHECK_EQ_INT(ata_id_log_current_settings_cdl(page, &flag), ATA_OK);
	CHECK(flag);
	ata_id_log_current_settings_build(page, false);
	CHECK_EQ_INT(ata_id_log_current_settings_cdl(page, &flag), ATA_OK);
	CHECK(!flag);
	return test_done();
}
