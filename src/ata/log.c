#include "ata/log.h"

#include <string.h>

void ata_id_log_header(uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t number)
{
	page[0] = 0x01;		/* revision 0001h */
	page[1] = 0x00;
	page[2] = number;
	page[7] = 0x80;		/* bit 63 */
}

int ata_id_log_header_check(const uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t number)
{
	/*
	 * A later revision keeps the layout (ACS adds, never moves, qwords), so
	 * any revision but 0 is read, as Linux reads them.
	 */
	if ((page[0] == 0 && page[1] == 0) || page[2] != number || !(page[7] & 0x80))
		return ATA_E_LOG;
	return ATA_OK;
}

void ata_gpl_dir_build(uint8_t page[ATA_LOG_PAGE_BYTES], const uint16_t pages[256])
{
	unsigned log;

	memset(page, 0, ATA_LOG_PAGE_BYTES);
	page[0] = 0x01;		/* GPL version 0001h */
	for (log = 1; log < 256; log++) {
		page[2 * log] = (uint8_t)pages[log];
		page[2 * log + 1] = (uint8_t)(pages[log] >> 8);
	}
}

uint16_t ata_gpl_dir_pages(const uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t log)
{
	if (log == 0)
		return 0;
	return (uint16_t)(page[2 * log] | page[2 * log + 1] << 8);
}

int ata_id_log_supported_build(uint8_t page[ATA_LOG_PAGE_BYTES], const uint8_t *list, unsigned n)
{
	if (n > ATA_LOG_PAGE_BYTES - 9)
		return ATA_E_RANGE;
	memset(page, 0, ATA_LOG_PAGE_BYTES);
	ata_id_log_header(page, ATA_LOG_ID_SUPPORTED);
	page[8] = (uint8_t)n;
	memcpy(page + 9, list, n);
	return ATA_OK;
}

int ata_id_log_supported_has(const uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t which, bool *has)
{
	unsigned i;

	*has = false;
	if (ata_id_log_header_check(page, ATA_LOG_ID_SUPPORTED))
		return ATA_E_LOG;
	for (i = 0; i < page[8]; i++)
		if (page[9 + i] == which)
			*has = true;
	return ATA_OK;
}

void ata_id_log_sata_settings_build(uint8_t page[ATA_LOG_PAGE_BYTES], bool ncq_prio)
{
	memset(page, 0, ATA_LOG_PAGE_BYTES);
	ata_id_log_header(page, ATA_LOG_ID_SATA_SETTINGS);
	/* Qword 1 (SATA settings): bit 63 says the qword is valid. */
	page[15] = 0x80;
	if (ncq_prio)
		page[ATA_LOG_NCQ_PRIO_OFFSET] |= ATA_LOG_NCQ_PRIO_BIT;
}

int ata_id_log_sata_settings_ncq_prio(const uint8_t page[ATA_LOG_PAGE_BYTES], bool *ncq_prio)
{
	*ncq_prio = false;
	if (ata_id_log_header_check(page, ATA_LOG_ID_SATA_SETTINGS))
		return ATA_E_LOG;
	*ncq_prio = (page[ATA_LOG_NCQ_PRIO_OFFSET] & ATA_LOG_NCQ_PRIO_BIT) != 0;
	return ATA_OK;
}

int ata_ncq_error_build(const struct ata_ncq_error *e, uint8_t page[ATA_LOG_PAGE_BYTES])
{
	uint8_t sum = 0;
	unsigned i;

	if (e->tag >= ATA_MAX_TAGS)
		return ATA_E_TAG;
	if (e->lba >= ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	memset(page, 0, ATA_LOG_PAGE_BYTES);
	page[0] = (uint8_t)((e->nq ? 0x80 : 0) | (e->tag & 0x1f));
	page[2] = e->status;
	page[3] = e->error;
	page[4] = (uint8_t)e->lba;
	page[5] = (uint8_t)(e->lba >> 8);
	page[6] = (uint8_t)(e->lba >> 16);
	page[7] = e->device;
	page[8] = (uint8_t)(e->lba >> 24);
	page[9] = (uint8_t)(e->lba >> 32);
	page[10] = (uint8_t)(e->lba >> 40);
	page[12] = (uint8_t)e->count;
	page[13] = (uint8_t)(e->count >> 8);
	page[14] = e->sense_key;
	page[15] = e->asc;
	page[16] = e->ascq;
	for (i = 0; i < ATA_LOG_PAGE_BYTES - 1; i++)
		sum = (uint8_t)(sum + page[i]);
	page[511] = (uint8_t)-sum;
	return ATA_OK;
}

int ata_ncq_error_parse(const uint8_t page[ATA_LOG_PAGE_BYTES], struct ata_ncq_error *e)
{
	uint8_t sum = 0;
	unsigned i;

	memset(e, 0, sizeof(*e));
	e->nq = (page[0] & 0x80) != 0;
	e->tag = page[0] & 0x1f;
	e->status = page[2];
	e->error = page[3];
	e->lba = (uint64_t)page[4] | (uint64_t)page[5] << 8 | (uint64_t)page[6] << 16 |
		(uint64_t)page[8] << 24 | (uint64_t)page[9] << 32 | (uint64_t)page[10] << 40;
	e->device = page[7];
	e->count = (uint16_t)(page[12] | page[13] << 8);
	e->sense_key = page[14];
	e->asc = page[15];
	e->ascq = page[16];
	for (i = 0; i < ATA_LOG_PAGE_BYTES; i++)
		sum = (uint8_t)(sum + page[i]);
	return sum ? ATA_E_CHECKSUM : ATA_OK;
}
