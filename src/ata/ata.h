/*
 * ata — the ATA/SATA/SAT protocol library: constants, error codes and the
 * taskfile that every frame and command is built from.
 *
 * This library knows nothing about simulation: it encodes and decodes
 * bytes, so it can be used on its own (decode a real drive's IDENTIFY
 * dump, build a pass-through CDB). Facts follow Linux (include/linux/ata.h,
 * drivers/ata/libata-*.c) and the ATA/ACS and SATA specifications.
 *
 * Errors: functions return 0 or a negative enum ata_err; ata_strerror()
 * turns one into words.
 */
#ifndef NCQSIM_ATA_H
#define NCQSIM_ATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Commands (ATA/ACS). */
enum {
	ATA_CMD_DSM			= 0x06,	/* DATA SET MANAGEMENT */
	ATA_CMD_READ_DMA_EXT		= 0x25,
	ATA_CMD_READ_LOG_EXT		= 0x2f,
	ATA_CMD_WRITE_DMA_EXT		= 0x35,
	ATA_CMD_READ_VERIFY		= 0x40,	/* READ VERIFY SECTORS (28-bit) */
	ATA_CMD_READ_VERIFY_EXT		= 0x42,	/* READ VERIFY SECTORS EXT */
	ATA_CMD_READ_LOG_DMA_EXT	= 0x47,
	ATA_CMD_FPDMA_READ		= 0x60,
	ATA_CMD_FPDMA_WRITE		= 0x61,
	ATA_CMD_FLUSH_EXT		= 0xea,
	ATA_CMD_IDENTIFY		= 0xec,
	ATA_CMD_SET_FEATURES		= 0xef,
};

/* SET FEATURES subcommands (FEATURE 7:0). */
enum {
	ATA_SF_WRITE_CACHE_ON		= 0x02,
	ATA_SF_WRITE_CACHE_OFF		= 0x82,
	ATA_SF_READ_AHEAD_ON		= 0xaa,
	ATA_SF_READ_AHEAD_OFF		= 0x55,
};

/* Status and error register bits. */
enum {
	ATA_STAT_ERR	= 0x01,
	ATA_STAT_SENSE	= 0x02,	/* SENSE DATA AVAILABLE (ACS-4+; was IDX) */
	ATA_STAT_DRQ	= 0x08,
	ATA_STAT_DF	= 0x20,
	ATA_STAT_DRDY	= 0x40,
	ATA_STAT_BSY	= 0x80,
	ATA_ERR_ABRT	= 0x04,
	ATA_ERR_IDNF	= 0x10,
};

/* The Device Control register (a Register H2D FIS with C = 0). */
#define ATA_CTL_SRST		0x04	/* software reset */

#define ATA_DEVICE_LBA		0x40
#define ATA_DEVICE_FUA		0x80	/* in the DEVICE field of FPDMA commands */
#define ATA_SECTOR_SIZE		512
#define ATA_MAX_TAGS		32
#define ATA_LBA48_LIMIT		(1ULL << 48)

/* The PRIO field of an NCQ command (COUNT 15:14). */
enum ata_prio {
	ATA_PRIO_NORMAL		= 0,
	ATA_PRIO_ISOCHRONOUS	= 1,
	ATA_PRIO_HIGH		= 2,
};
const char *ata_prio_name(enum ata_prio p);

/*
 * A register-level view of a command (what libata calls a taskfile), with
 * the 48-bit fields whole: the FIS codec splits them into bytes.
 */
struct ata_taskfile {
	uint8_t command;
	uint16_t features;	/* FEATURE 15:0 */
	uint16_t count;		/* COUNT 15:0 */
	uint64_t lba;		/* LBA 47:0 */
	uint8_t device;
	uint8_t icc;
	uint8_t control;
	uint32_t auxiliary;
	uint8_t pm_port;	/* port multiplier port, 0..15 */
	bool c_bit;		/* command (1) vs control update (0) */
};

enum ata_err {
	ATA_OK			= 0,
	ATA_E_LENGTH		= -1,	/* wrong number of bytes */
	ATA_E_FIS_TYPE		= -2,	/* not the FIS type expected */
	ATA_E_TAG		= -3,	/* tag > 31 */
	ATA_E_LBA		= -4,	/* LBA >= 2^48 */
	ATA_E_COUNT		= -5,	/* sector count outside 1..65536 */
	ATA_E_CDL		= -6,	/* CDL index > 7 */
	ATA_E_PRIO		= -7,	/* PRIO reserved value 11b */
	ATA_E_COMMAND		= -8,	/* not the command expected */
	ATA_E_ICC		= -9,
	ATA_E_NOT_IDENTIFY	= -10,	/* not an IDENTIFY page in any known form */
	ATA_E_LOG		= -11,	/* malformed log page */
	ATA_E_CHECKSUM		= -12,
	ATA_E_RANGE		= -13,	/* a field out of range */
	ATA_E_PORT		= -14,	/* PM port > 15 */
};
const char *ata_strerror(int err);

#endif
