/*
 * identify — the IDENTIFY DEVICE page (256 little-endian words): a builder
 * from fields, a parser back to fields, and a loader that recognises the
 * forms in which real drives' pages are kept.
 *
 * Words used (ATA/ACS-4; Linux include/linux/ata.h):
 *    10-19 serial, 23-26 firmware, 27-46 model (two chars a word, high
 *          byte first, space padded)
 *    49    bit 9 LBA, bit 8 DMA        60-61   28-bit capacity
 *    75    queue depth - 1             76      SATA capabilities: bit 12 NCQ
 *          priority, bit 8 NCQ, bits 3/2/1 6.0/3.0/1.5 Gb/s; trusted only
 *          when neither 0000h nor FFFFh
 *    80    major version               82/85   write cache (bit 5), look-ahead (6)
 *    83/86 bit 10 48-bit (83 valid when bits 15:14 = 01b), 86 bit 15 words
 *          119/120 valid              100-103 48-bit capacity
 *    106   bit 13 several logical per physical (2^(bits 3:0)), bit 12
 *          logical sector longer than 256 words (size in 117-118)
 *    119/120 bit 3 READ LOG DMA EXT    217     rotation: 1 non-rotating,
 *          0401h-FFFEh rpm             255     integrity: A5h + checksum
 */
#ifndef NCQSIM_ATA_IDENTIFY_H
#define NCQSIM_ATA_IDENTIFY_H

#include "ata/ata.h"

#define ATA_ID_WORDS	256
#define ATA_ID_BYTES	512

enum ata_checksum_state {
	ATA_CHECKSUM_ABSENT = 0,	/* word 255 low byte is not A5h */
	ATA_CHECKSUM_VALID,
	ATA_CHECKSUM_BAD,
};
const char *ata_checksum_name(enum ata_checksum_state s);

/* SATA speeds, word 76 bits 1..3. */
enum {
	ATA_SATA_GEN1 = 1 << 0,		/* 1.5 Gb/s */
	ATA_SATA_GEN2 = 1 << 1,		/* 3.0 Gb/s */
	ATA_SATA_GEN3 = 1 << 2,		/* 6.0 Gb/s */
};

struct ata_identify {
	char model[41];
	char serial[21];
	char firmware[9];
	uint64_t sectors;		/* user-addressable logical sectors */
	bool lba48;
	uint32_t logical_sector_size;	/* bytes */
	uint32_t physical_sector_size;
	bool ncq;
	unsigned queue_depth;		/* 1 when NCQ is not supported */
	bool ncq_prio;			/* word 76 bit 12 */
	bool ncq_autosense;		/* word 78 bit 7: NCQ commands return sense data */
	uint16_t rotation_rpm;		/* 0 not reported, 1 non-rotating */
	uint8_t sata_speeds;		/* ATA_SATA_GEN* */
	bool write_cache, write_cache_enabled;
	bool read_ahead, read_ahead_enabled;
	bool read_log_dma;		/* READ LOG DMA EXT (words 86, 119/120) */
	bool trim;			/* word 169 bit 0: DATA SET MANAGEMENT TRIM */
	uint16_t dsm_blocks;		/* word 105: 512-byte blocks a DSM may carry (0: not said) */
	uint16_t major_version;		/* word 80 */
	enum ata_checksum_state checksum;
};

/* Fill a page from fields (checksum computed, integrity word A5h). */
void ata_identify_build(const struct ata_identify *id, uint8_t page[ATA_ID_BYTES]);
/* Decode a page; never fails (a bad checksum is reported in ->checksum). */
void ata_identify_parse(const uint8_t page[ATA_ID_BYTES], struct ata_identify *id);

static inline uint16_t ata_id_word(const uint8_t *page, unsigned w)
{
	return (uint16_t)(page[2 * w] | page[2 * w + 1] << 8);
}

/* How a page was kept. */
enum ata_id_form {
	ATA_ID_FORM_RAW,	/* 512 bytes as the drive sent them */
	ATA_ID_FORM_HDPARM,	/* hdparm --Istdout, /sys/class/ata_device/.../id */
	ATA_ID_FORM_HEXWORDS,	/* hdparm --Istdin style: 4-hex-digit groups */
	ATA_ID_FORM_SKDUMP,	/* libatasmart skdump --save blob, IDFY section */
};
const char *ata_id_form_name(enum ata_id_form f);

/*
 * Recognise the form of `data` and extract the 512-byte page. On failure
 * returns ATA_E_NOT_IDENTIFY and says why in `why`.
 */
int ata_identify_load(const uint8_t *data, size_t len, uint8_t page[ATA_ID_BYTES],
		      enum ata_id_form *form, char *why, size_t whylen);

#endif
