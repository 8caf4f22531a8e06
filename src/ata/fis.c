#include "ata/fis.h"

#include <string.h>

static void put_lba48(uint8_t *fis, uint64_t lba)
{
	fis[4] = (uint8_t)lba;
	fis[5] = (uint8_t)(lba >> 8);
	fis[6] = (uint8_t)(lba >> 16);
	fis[8] = (uint8_t)(lba >> 24);
	fis[9] = (uint8_t)(lba >> 32);
	fis[10] = (uint8_t)(lba >> 40);
}

static uint64_t get_lba48(const uint8_t *fis)
{
	return (uint64_t)fis[4] | (uint64_t)fis[5] << 8 | (uint64_t)fis[6] << 16 |
		(uint64_t)fis[8] << 24 | (uint64_t)fis[9] << 32 | (uint64_t)fis[10] << 40;
}

int ata_h2d_encode(const struct ata_taskfile *tf, uint8_t fis[ATA_FIS_H2D_LEN])
{
	if (tf->lba >= ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	if (tf->pm_port > 15)
		return ATA_E_PORT;
	memset(fis, 0, ATA_FIS_H2D_LEN);
	fis[0] = ATA_FIS_REG_H2D;
	fis[1] = (uint8_t)((tf->pm_port & 0xf) | (tf->c_bit ? 0x80 : 0));
	fis[2] = tf->command;
	fis[3] = (uint8_t)tf->features;
	put_lba48(fis, tf->lba);
	fis[7] = tf->device;
	fis[11] = (uint8_t)(tf->features >> 8);
	fis[12] = (uint8_t)tf->count;
	fis[13] = (uint8_t)(tf->count >> 8);
	fis[14] = tf->icc;
	fis[15] = tf->control;
	fis[16] = (uint8_t)tf->auxiliary;
	fis[17] = (uint8_t)(tf->auxiliary >> 8);
	fis[18] = (uint8_t)(tf->auxiliary >> 16);
	fis[19] = (uint8_t)(tf->auxiliary >> 24);
	return ATA_OK;
}

int ata_h2d_decode(const uint8_t *fis, size_t len, struct ata_taskfile *tf)
{
	if (len != ATA_FIS_H2D_LEN)
		return ATA_E_LENGTH;
	if (fis[0] != ATA_FIS_REG_H2D)
		return ATA_E_FIS_TYPE;
	memset(tf, 0, sizeof(*tf));
	tf->pm_port = fis[1] & 0xf;
	tf->c_bit = (fis[1] & 0x80) != 0;
	tf->command = fis[2];
	tf->features = (uint16_t)(fis[3] | fis[11] << 8);
	tf->lba = get_lba48(fis);
	tf->device = fis[7];
	tf->count = (uint16_t)(fis[12] | fis[13] << 8);
	tf->icc = fis[14];
	tf->control = fis[15];
	tf->auxiliary = (uint32_t)fis[16] | (uint32_t)fis[17] << 8 |
		(uint32_t)fis[18] << 16 | (uint32_t)fis[19] << 24;
	return ATA_OK;
}

int ata_d2h_encode(const struct ata_d2h *d, uint8_t fis[ATA_FIS_D2H_LEN])
{
	if (d->lba >= ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	if (d->pm_port > 15)
		return ATA_E_PORT;
	memset(fis, 0, ATA_FIS_D2H_LEN);
	fis[0] = ATA_FIS_REG_D2H;
	fis[1] = (uint8_t)((d->pm_port & 0xf) | (d->interrupt ? 0x40 : 0));
	fis[2] = d->status;
	fis[3] = d->error;
	put_lba48(fis, d->lba);
	fis[7] = d->device;
	fis[12] = (uint8_t)d->count;
	fis[13] = (uint8_t)(d->count >> 8);
	return ATA_OK;
}

int ata_d2h_decode(const uint8_t *fis, size_t len, struct ata_d2h *d)
{
	if (len != ATA_FIS_D2H_LEN)
		return ATA_E_LENGTH;
	if (fis[0] != ATA_FIS_REG_D2H)
		return ATA_E_FIS_TYPE;
	memset(d, 0, sizeof(*d));
	d->pm_port = fis[1] & 0xf;
	d->interrupt = (fis[1] & 0x40) != 0;
	d->status = fis[2];
	d->error = fis[3];
	d->lba = get_lba48(fis);
	d->device = fis[7];
	d->count = (uint16_t)(fis[12] | fis[13] << 8);
	return ATA_OK;
}

int ata_sdb_encode(const struct ata_sdb *s, uint8_t fis[ATA_FIS_SDB_LEN])
{
	if (s->pm_port > 15)
		return ATA_E_PORT;
	fis[0] = ATA_FIS_SDB;
	fis[1] = (uint8_t)((s->pm_port & 0xf) | (s->interrupt ? 0x40 : 0) |
			   (s->notification ? 0x80 : 0));
	fis[2] = s->status & 0x77;
	fis[3] = s->error;
	fis[4] = (uint8_t)s->sactive;
	fis[5] = (uint8_t)(s->sactive >> 8);
	fis[6] = (uint8_t)(s->sactive >> 16);
	fis[7] = (uint8_t)(s->sactive >> 24);
	return ATA_OK;
}
