/*
 * log — the General Purpose Log pages the host reads to learn what the
 * drive supports, and the NCQ Command Error log.
 *
 *   00h         GPL directory: word N = number of pages of log N.
 *   30h page 00h IDENTIFY DEVICE data log, list of supported pages: byte 8
 *               the number of entries, the page numbers from byte 9.
 *   30h page 08h SATA settings: byte 9 bit 3 = NCQ priority supported
 *               (Linux ATA_LOG_NCQ_PRIO_OFFSET).
 *   10h         NCQ Command Error: byte 0 bit 7 NQ, bits 4:0 the failing
 *               tag; 2 status; 3 error; LBA in 4,5,6,8,9,10; 7 device;
 *               12,13 count; 14-16 sense key/ASC/ASCQ; the 8-bit sum of
 *               all 512 bytes is 0.
 *
 * Every IDENTIFY DEVICE data log page starts with a header qword: revision
 * 0001h in bits 15:0, the page number in bits 23:16, bit 63 set.
 */
#ifndef NCQSIM_ATA_LOG_H
#define NCQSIM_ATA_LOG_H

#include "ata/ata.h"

#define ATA_LOG_DIRECTORY	0x00
#define ATA_LOG_NCQ_ERROR	0x10
#define ATA_LOG_IDENTIFY_DEVICE	0x30
#define ATA_LOG_ID_SUPPORTED	0x00	/* page: list of supported pages */
#define ATA_LOG_ID_SATA_SETTINGS 0x08
#define ATA_LOG_NCQ_PRIO_OFFSET	9
#define ATA_LOG_NCQ_PRIO_BIT	(1u << 3)
#define ATA_LOG_PAGE_BYTES	512

/*
 * Every IDENTIFY DEVICE data log (30h) page starts with a qword: revision
 * (bits 15:0, 0001h), the page's number (bits 23:16), bit 63 valid.
 * The check returns ATA_E_LOG for a header that is not page `number`'s.
 */
void ata_id_log_header(uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t number);
int ata_id_log_header_check(const uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t number);

/* pages[log] for log 0..255; pages[0] is ignored (the version is 0001h). */
void ata_gpl_dir_build(uint8_t page[ATA_LOG_PAGE_BYTES], const uint16_t pages[256]);
uint16_t ata_gpl_dir_pages(const uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t log);

int ata_id_log_supported_build(uint8_t page[ATA_LOG_PAGE_BYTES], const uint8_t *list, unsigned n);
/* Whether page `which` is listed; ATA_E_LOG if the page is malformed. */
int ata_id_log_supported_has(const uint8_t page[ATA_LOG_PAGE_BYTES], uint8_t which, bool *has);

void ata_id_log_sata_settings_build(uint8_t page[ATA_LOG_PAGE_BYTES], bool ncq_prio);
int ata_id_log_sata_settings_ncq_prio(const uint8_t page[ATA_LOG_PAGE_BYTES], bool *ncq_prio);

struct ata_ncq_error {
	bool nq;		/* the error is not for a queued command */
	uint8_t tag;
	uint8_t status, error;
	uint64_t lba;
	uint8_t device;
	uint16_t count;
	uint8_t sense_key, asc, ascq;
};
int ata_ncq_error_build(const struct ata_ncq_error *e, uint8_t page[ATA_LOG_PAGE_BYTES]);
/* ATA_E_CHECKSUM when the page's sum is not 0 (fields are still decoded). */
int ata_ncq_error_parse(const uint8_t page[ATA_LOG_PAGE_BYTES], struct ata_ncq_error *e);

#endif
