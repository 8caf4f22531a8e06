/*
 * sat — SCSI/ATA Translation: the ATA PASS-THROUGH(16) CDB (85h) that
 * carries an ATA command through a SCSI layer (SG_IO), as hdparm builds it.
 *
 *   byte 0  85h
 *   byte 1  protocol << 1 | extend (48-bit)     protocol 4 PIO-in,
 *                                               6 DMA, 12 FPDMA (NCQ)
 *   byte 2  off_line 7:6, ck_cond 5, t_type 4, t_dir 3 (1 = from device),
 *           byte_block 2, t_length 1:0 (0 none, 1 FEATURE, 2 COUNT)
 *   3/4 FEATURE 15:8/7:0, 5/6 COUNT, 7/8 LBA 31:24 / 7:0, 9/10 LBA 39:32 /
 *   15:8, 11/12 LBA 47:40 / 23:16, 13 DEVICE, 14 COMMAND, 15 CONTROL
 *
 * IDENTIFY as hdparm sends it: 85 08 0e 00 00 00 01 00 00 00 00 00 00 40 ec 00.
 */
#ifndef NCQSIM_ATA_SAT_H
#define NCQSIM_ATA_SAT_H

#include "ata/ata.h"

enum ata_sat_protocol {
	ATA_SAT_PROTO_NONDATA	= 3,
	ATA_SAT_PROTO_PIO_IN	= 4,
	ATA_SAT_PROTO_PIO_OUT	= 5,
	ATA_SAT_PROTO_DMA	= 6,
	ATA_SAT_PROTO_FPDMA	= 12,
};

#define ATA_SAT16_LEN 16

/*
 * Build the CDB for a taskfile. The protocol and transfer fields follow
 * from the command: IDENTIFY and READ LOG EXT are PIO-in counted in COUNT,
 * DMA EXT commands DMA counted in COUNT, FPDMA commands FPDMA counted in
 * FEATURE. ATA_E_COMMAND for a command this library does not know.
 */
int ata_sat16_build(const struct ata_taskfile *tf, uint8_t cdb[ATA_SAT16_LEN]);
/*
 * The taskfile a CDB carries, and whether it reads from the device (t_dir).
 * ATA_E_COMMAND when byte 0 is not 85h.
 */
int ata_sat16_parse(const uint8_t cdb[ATA_SAT16_LEN], struct ata_taskfile *tf, bool *from_device);

#endif
