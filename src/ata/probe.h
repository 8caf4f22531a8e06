/*
 * probe — what a real drive says about itself, asked the way libata asks
 * at boot, through a transport that can only read:
 *
 *   IDENTIFY DEVICE (ECh)                          the 512-byte page
 *   READ LOG EXT (2Fh) log 00h                     GPL directory: which logs
 *   READ LOG EXT log 30h page 00h                  IDENTIFY DEVICE data log:
 *                    page 03h                        supported capabilities
 *                                                    (CDL: qword 168 bit 0,
 *                                                    limits qwords 176/184)
 *                    page 04h                        current settings (CDL
 *                                                    enabled: qword 8 bit 21)
 *                    page 08h                        SATA settings (NCQ
 *                                                    priority: byte 9 bit 3)
 *   READ LOG EXT log 18h                           Command Duration Limits:
 *                                                  7 read descriptors at
 *                                                  byte 64, 7 write at 288,
 *                                                  32 bytes each
 *
 * each sent as a SAT ATA PASS-THROUGH(16) CDB (ata/sat.h). A log the drive
 * does not list, or a command it refuses, is not an error: the result says
 * what could not be learnt and why. Only a failed IDENTIFY fails the probe.
 *
 * The transport is an ops table: the SG_IO one for a real device
 * (cli/probe_dev.c) and a replay of recorded replies for tests share this
 * code path. Every command probe sends reads (t_dir = from device); none
 * writes or changes a setting.
 */
#ifndef NCQSIM_ATA_PROBE_H
#define NCQSIM_ATA_PROBE_H

#include "ata/cdl.h"
#include "ata/identify.h"
#include "ata/sat.h"

enum {
	PROBE_OK	= 0,
	PROBE_REFUSED	= -1,	/* the drive (or the SAT layer) refused the command */
	PROBE_FAILED	= -2,	/* the transport failed; `why` says how */
};

struct probe_transport_ops {
	const char *name;	/* "SG_IO", "replay" */
	/*
	 * Send one data-in ATA PASS-THROUGH(16) CDB and read `len` bytes into
	 * `buf`. Returns PROBE_OK, PROBE_REFUSED or PROBE_FAILED (with `why`).
	 */
	int (*read)(void *ctx, const uint8_t cdb[ATA_SAT16_LEN], uint8_t *buf, size_t len,
		    char *why, size_t whylen);
};

struct probe_transport {
	const struct probe_transport_ops *ops;
	void *ctx;
};

/* What probe could not learn: one line per question, with the reason. */
#define PROBE_MAX_NOTES 8

struct probe_info {
	uint8_t identify[ATA_ID_BYTES];
	struct ata_identify id;

	bool gpl_read;			/* the GPL directory was read */
	bool id_data_log;		/* log 30h listed in it */
	bool id_data_log_known;		/* ... a definite answer either way */
	bool ncq_prio_log;		/* log 30h page 08h byte 9 bit 3 */
	bool ncq_prio_log_known;
	bool cdl_supported;		/* log 30h page 03h qword 168 bits 63, 0 */
	bool cdl_known;
	uint32_t cdl_min_us, cdl_max_us;	/* qwords 176/184 when valid, else 0 */
	bool cdl_enabled;		/* log 30h page 04h qword 8 bits 63, 21 */
	bool cdl_log_read;		/* log 18h read: the descriptors below */
	struct ata_cdl_log cdl_log;	/* log 18h as the drive has it */

	char notes[PROBE_MAX_NOTES][320];
	unsigned nnotes;
};

/*
 * Ask the drive. Returns PROBE_OK, or the IDENTIFY's failure (PROBE_REFUSED
 * or PROBE_FAILED) with the reason in `why`.
 */
int probe_drive(const struct probe_transport *t, struct probe_info *p, char *why, size_t whylen);

#endif
