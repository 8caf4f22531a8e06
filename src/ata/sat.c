#include "ata/sat.h"

#include "ata/cmd.h"

#include <string.h>

int ata_sat16_build(const struct ata_taskfile *tf, uint8_t cdb[ATA_SAT16_LEN])
{
	unsigned protocol, extend, t_dir, t_length, byte_block = 1;

	switch (tf->command) {
	case ATA_CMD_IDENTIFY:
		protocol = ATA_SAT_PROTO_PIO_IN; extend = 0; t_dir = 1; t_length = 2;
		break;
	case ATA_CMD_READ_LOG_EXT:
		protocol = ATA_SAT_PROTO_PIO_IN; extend = 1; t_dir = 1; t_length = 2;
		break;
	case ATA_CMD_READ_LOG_DMA_EXT:
	case ATA_CMD_READ_DMA_EXT:
		protocol = ATA_SAT_PROTO_DMA; extend = 1; t_dir = 1; t_length = 2;
		break;
	case ATA_CMD_WRITE_DMA_EXT:
	case ATA_CMD_WRITE_DMA_FUA_EXT:
		protocol = ATA_SAT_PROTO_DMA; extend = 1; t_dir = 0; t_length = 2;
		break;
	case ATA_CMD_FPDMA_READ:
	case ATA_CMD_FPDMA_WRITE:
		protocol = ATA_SAT_PROTO_FPDMA; extend = 1;
		t_dir = tf->command == ATA_CMD_FPDMA_READ; t_length = 1;
		break;
	case ATA_CMD_READ_VERIFY:
	case ATA_CMD_READ_VERIFY_EXT:
		/* Non-data, the sector count in COUNT (t_length 0: nothing moves). */
		protocol = ATA_SAT_PROTO_NONDATA; extend = tf->command == ATA_CMD_READ_VERIFY_EXT;
		t_dir = 0; t_length = 0; byte_block = 0;
		break;
	case ATA_CMD_SET_FEATURES:
		protocol = ATA_SAT_PROTO_NONDATA; extend = 0; t_dir = 0; t_length = 0;
		byte_block = 0;
		break;
	default:
		return ATA_E_COMMAND;
	}
	if (tf->lba >= ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	memset(cdb, 0, ATA_SAT16_LEN);
	cdb[0] = 0x85;
	cdb[1] = (uint8_t)(protocol << 1 | extend);
	cdb[2] = (uint8_t)(t_dir << 3 | byte_block << 2 | t_length);
	cdb[3] = (uint8_t)(tf->features >> 8);
	cdb[4] = (uint8_t)tf->features;
	cdb[5] = (uint8_t)(tf->count >> 8);
	cdb[6] = (uint8_t)tf->count;
	cdb[7] = (uint8_t)(tf->lba >> 24);
	cdb[8] = (uint8_t)tf->lba;
	cdb[9] = (uint8_t)(tf->lba >> 32);
	cdb[10] = (uint8_t)(tf->lba >> 8);
	cdb[11] = (uint8_t)(tf->lba >> 40);
	cdb[12] = (uint8_t)(tf->lba >> 16);
	cdb[13] = tf->device;
	cdb[14] = tf->command;
	cdb[15] = tf->control;
	return ATA_OK;
}

int ata_sat16_parse(const uint8_t cdb[ATA_SAT16_LEN], struct ata_taskfile *tf, bool *from_device)
{
	if (cdb[0] != 0x85)
		return ATA_E_COMMAND;
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	tf->features = (uint16_t)(cdb[3] << 8 | cdb[4]);
	tf->count = (uint16_t)(cdb[5] << 8 | cdb[6]);
	tf->lba = (uint64_t)cdb[8] | (uint64_t)cdb[10] << 8 | (uint64_t)cdb[12] << 16;
	if (cdb[1] & 1)		/* extend: the 48-bit high bytes */
		tf->lba |= (uint64_t)cdb[7] << 24 | (uint64_t)cdb[9] << 32 | (uint64_t)cdb[11] << 40;
	tf->device = cdb[13];
	tf->command = cdb[14];
	tf->control = cdb[15];
	*from_device = (cdb[2] >> 3 & 1) != 0;
	return ATA_OK;
}
