/*
 * cdl — Command Duration Limits (ACS-5) as the host and drive exchange
 * them: the IDENTIFY DEVICE data log pages that say CDL is supported and
 * enabled, and the Command Duration Limits log (18h) that holds the
 * descriptors. Byte layouts as Linux 6.5's ata_dev_config_cdl() and
 * ata_msense_control_spgt2() read them.
 *
 *   30h page 03h  Supported Capabilities. Qword 1 (byte 8): bit 63 valid,
 *                 bit 47 sense data for successful NCQ commands supported.
 *                 Qword 21 (byte 168): bit 63 valid, bit 0 CDL supported,
 *                 bit 1 command duration guideline supported.
 *   30h page 04h  Current Settings. Qword 1 (byte 8): bit 63 valid, bit 21
 *                 CDL enabled.
 *   18h page 0    Command Duration Limits: byte 0 bits 3:0 the
 *                 performance-versus-duration-guideline code; 7 read
 *                 descriptors of 32 bytes from byte 64 (T2A), 7 write
 *                 descriptors from byte 288 (T2B). A descriptor: dword 0
 *                 bits 11:8 inactive-time policy, 7:4 active-time policy,
 *                 3:0 guideline policy; dword 1 the max active time, dword
 *                 2 the max inactive time, dword 4 the guideline, each in
 *                 microseconds (0 = no limit), little-endian.
 *
 * SET FEATURES 0Dh enables CDL (COUNT 1) or disables it (COUNT 0).
 */
#ifndef NCQSIM_ATA_CDL_H
#define NCQSIM_ATA_CDL_H

#include "ata/ata.h"
#include "ata/log.h"

#define ATA_LOG_CDL			0x18
#define ATA_LOG_ID_CAPABILITIES		0x03
#define ATA_LOG_ID_CURRENT_SETTINGS	0x04
#define ATA_SF_CDL			0x0d
#define ATA_CDL_DESCRIPTORS		7

/* Policies (the low nibble of each): what the drive does when a limit passes. */
enum ata_cdl_policy {
	ATA_CDL_COMPLETE_EARLIEST	= 0x0,	/* carry on; finish as soon as possible */
	ATA_CDL_CONTINUE_NEXT		= 0x1,	/* guideline: carry on under the next descriptor */
	ATA_CDL_CONTINUE_NO_LIMIT	= 0x2,	/* guideline: carry on without a limit */
	ATA_CDL_COMPLETE_UNAVAILABLE	= 0xd,	/* good status, no data: the host sees -ETIME */
	ATA_CDL_ABORT_RECOVERY		= 0xe,	/* active time: abort if in error recovery */
	ATA_CDL_ABORT			= 0xf,	/* abort: the host sees -ETIME */
};

struct ata_cdl_desc {
	uint32_t max_inactive_us, max_active_us, guideline_us;	/* 0 = no limit */
	uint8_t inactive_policy, active_policy, guideline_policy;
};

/* Log 18h page 0: the read (T2A) and write (T2B) descriptors, index 1..7 at [0..6]. */
struct ata_cdl_log {
	uint8_t perf_vs_guideline;	/* 0x0..0xc: 0 %, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 8, 10, 15, 20 % */
	struct ata_cdl_desc read[ATA_CDL_DESCRIPTORS], write[ATA_CDL_DESCRIPTORS];
};

/* The throughput share a perf-vs-duration-guideline code allows, in tenths of a percent. */
int ata_cdl_perf_permille(uint8_t code);

void ata_cdl_log_build(const struct ata_cdl_log *l, uint8_t page[ATA_LOG_PAGE_BYTES]);
/* The page as it is, undefined policies included (what a real drive reports). */
void ata_cdl_log_decode(const uint8_t page[ATA_LOG_PAGE_BYTES], struct ata_cdl_log *l);
/* Decoded, and ATA_E_RANGE when a policy or the perf code is not a defined value. */
int ata_cdl_log_parse(const uint8_t page[ATA_LOG_PAGE_BYTES], struct ata_cdl_log *l);

void ata_id_log_capabilities_build(uint8_t page[ATA_LOG_PAGE_BYTES], bool cdl);

/* What page 03h says of CDL, each from a qword whose bit 63 is set. */
struct ata_id_cdl_caps {
	bool ncq_sense;			/* qword 1 bit 47: sense data for successful NCQ */
	bool cdl, guideline;		/* qword 21 bits 0, 1 */
	uint32_t min_us, max_us;	/* qwords 22, 23: the limits' range (0: not valid) */
};
int ata_id_log_capabilities_read(const uint8_t page[ATA_LOG_PAGE_BYTES],
				 struct ata_id_cdl_caps *caps);
/* CDL supported (with guidelines and successful-NCQ sense data, as Linux requires). */
int ata_id_log_capabilities_cdl(const uint8_t page[ATA_LOG_PAGE_BYTES], bool *cdl);

void ata_id_log_current_settings_build(uint8_t page[ATA_LOG_PAGE_BYTES], bool cdl_enabled);
int ata_id_log_current_settings_cdl(const uint8_t page[ATA_LOG_PAGE_BYTES], bool *enabled);

#endif
