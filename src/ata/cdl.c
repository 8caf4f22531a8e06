#include "ata/cdl.h"

#include <string.h>

#define QWORD_VALID	0x80	/* bit 63: the byte at offset + 7 */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ata_cdl_perf_permille(uint8_t code)
{
	static const int permille[] = { 0, 5, 10, 15, 20, 25, 30, 40, 50, 80, 100, 150, 200 };

	return code < sizeof(permille) / sizeof(permille[0]) ? permille[code] : -1;
}

static bool policy_ok(uint8_t p, bool guideline, bool active)
{
	switch (p) {
	case ATA_CDL_COMPLETE_EARLIEST:
	case ATA_CDL_COMPLETE_UNAVAILABLE:
	case ATA_CDL_ABORT:
		return true;
	case ATA_CDL_CONTINUE_NEXT:
	case ATA_CDL_CONTINUE_NO_LIMIT:
		return guideline;
	case ATA_CDL_ABORT_RECOVERY:
		return active;
	}
	return false;
}

static void desc_build(const struct ata_cdl_desc *d, uint8_t *p)
{
	put_le32(p, (uint32_t)(d->inactive_policy & 0xf) << 8 |
		 (uint32_t)(d->active_policy & 0xf) << 4 | (d->guideline_policy & 0xf));
	put_le32(p + 4, d->max_active_us);
	put_le32(p + 8, d->max_inactive_us);
	put_le32(p + 16, d->guideline_us);
}

static void desc_decode(const uint8_t *p, struct ata_cdl_desc *d)
{
	uint32_t policy = get_le32(p);

	d->inactive_policy = (uint8_t)((policy >> 8) & 0xf);
	d->active_policy = (uint8_t)((policy >> 4) & 0xf);
	d->guideline_policy = (uint8_t)(policy & 0xf);
	d->max_active_us = get_le32(p + 4);
	d->max_inactive_us = get_le32(p + 8);
	d->guideline_us = get_le32(p + 16);
}

static bool desc_valid(const struct ata_cdl_desc *d)
{
	return policy_ok(d->inactive_policy, false, false) &&
	       policy_ok(d->active_policy, false, true) &&
	       policy_ok(d->guideline_policy, true, false);
}

void ata_cdl_log_build(const struct ata_cdl_log *l, uint8_t page[ATA_LOG_PAGE_BYTES])
{
	unsigned i;

	memset(page, 0, ATA_LOG_PAGE_BYTES);
	page[0] = l->perf_vs_guideline & 0xf;
	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++) {
		desc_build(&l->read[i], page + 64 + 32 * i);
		desc_build(&l->write[i], page + 288 + 32 * i);
	}
}

void ata_cdl_log_decode(const uint8_t page[ATA_LOG_PAGE_BYTES], struct ata_cdl_log *l)
{
	unsigned i;

	memset(l, 0, sizeof(*l));
	l->perf_vs_guideline = page[0] & 0xf;
	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++) {
		desc_decode(page + 64 + 32 * i, &l->read[i]);
		desc_decode(page + 288 + 32 * i, &l->write[i]);
	}
}

int ata_cdl_log_parse(const uint8_t page[ATA_LOG_PAGE_BYTES], struct ata_cdl_log *l)
{
	unsigned i;
	int rc = ATA_OK;

	ata_cdl_log_decode(page, l);
	if (ata_cdl_perf_permille(l->perf_vs_guideline) < 0)
		rc = ATA_E_RANGE;
	for (i = 0; i < ATA_CDL_DESCRIPTORS; i++)
		if (!desc_valid(&l->read[i]) || !desc_valid(&l->write[i]))
			rc = ATA_E_RANGE;
	return rc;
}

void ata_id_log_capabilities_build(uint8_t page[ATA_LOG_PAGE_BYTES], bool cdl)
{
	memset(page, 0, ATA_LOG_PAGE_BYTES);
	ata_id_log_header(page, ATA_LOG_ID_CAPABILITIES);
	page[15] = QWORD_VALID;
	page[175] = QWORD_VALID;
	if (cdl) {
		page[8 + 5] |= 0x80;		/* qword 1 bit 47 */
		page[168] |= 0x03;		/* qword 21 bits 0, 1 */
	}
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p + 4) << 32 | get_le32(p);
}

int ata_id_log_capabilities_read(const uint8_t page[ATA_LOG_PAGE_BYTES],
				 struct ata_id_cdl_caps *caps)
{
	uint64_t q;

	memset(caps, 0, sizeof(*caps));
	if (ata_id_log_header_check(page, ATA_LOG_ID_CAPABILITIES))
		return ATA_E_LOG;
	q = get_le64(page + 8);
	caps->ncq_sense = (q >> 63) && (q >> 47 & 1);
	q = get_le64(page + 168);
	caps->cdl = (q >> 63) && (q & 1);
	caps->guideline = (q >> 63) && (q >> 1 & 1);
	q = get_le64(page + 176);
	if (q >> 63)
		caps->min_us = (uint32_t)q;
	q = get_le64(page + 184);
	if (q >> 63)
		caps->max_us = (uint32_t)q;
	return ATA_OK;
}

int ata_id_log_capabilities_cdl(const uint8_t page[ATA_LOG_PAGE_BYTES], bool *cdl)
{
	struct ata_id_cdl_caps caps;
	int rc = ata_id_log_capabilities_read(page, &caps);

	/* As ata_dev_config_cdl(): CDL, and sense data for successful NCQ commands. */
	*cdl = caps.cdl && caps.ncq_sense;
	return rc;
}

void ata_id_log_current_settings_build(uint8_t page[ATA_LOG_PAGE_BYTES], bool cdl_enabled)
{
	memset(page, 0, ATA_LOG_PAGE_BYTES);
	ata_id_log_header(page, ATA_LOG_ID_CURRENT_SETTINGS);
	page[15] = QWORD_VALID;
	if (cdl_enabled)
		page[8 + 2] |= 0x20;		/* qword 1 bit 21 */
}

int ata_id_log_current_settings_cdl(const uint8_t page[ATA_LOG_PAGE_BYTES], bool *enabled)
{
	*enabled = false;
	if (ata_id_log_header_check(page, ATA_LOG_ID_CURRENT_SETTINGS))
		return ATA_E_LOG;
	*enabled = (page[15] & QWORD_VALID) && (page[10] & 0x20);
	return ATA_OK;
}
