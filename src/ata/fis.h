/*
 * fis — Frame Information Structures, as pure encoders and decoders.
 *
 *   Register H2D (27h, 20 bytes): host to device, one command.
 *   Register D2H (34h, 20 bytes): device to host, status of a non-NCQ command.
 *   Set Device Bits (A1h, 8 bytes): device to host; its SActive bitmap
 *     completes any number of NCQ tags at once.
 *
 * Byte layouts as in Linux ata_tf_to_fis() / ata_tf_from_fis() and SATA 3.x.
 */
#ifndef NCQSIM_ATA_FIS_H
#define NCQSIM_ATA_FIS_H

#include "ata/ata.h"

#include <string.h>

/*
 * A FIS as little-endian words: bytes 4k.. or 8k.. are bits 0.. of word k
 * (one load or store each), for the codecs inline on every I/O's path.
 */
static inline uint64_t ata_get_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint32_t ata_get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline void ata_put_le64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

static inline void ata_put_le32(uint8_t *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, sizeof(v));
}

enum {
	ATA_FIS_REG_H2D	= 0x27,
	ATA_FIS_REG_D2H	= 0x34,
	ATA_FIS_PIO_SETUP = 0x5f,
	ATA_FIS_SDB	= 0xa1,
};

#define ATA_FIS_H2D_LEN	20
#define ATA_FIS_D2H_LEN	20
#define ATA_FIS_SDB_LEN	8

struct ata_d2h {
	uint8_t status, error;
	uint64_t lba;
	uint8_t device;
	uint16_t count;
	uint8_t pm_port;
	bool interrupt;
};

struct ata_sdb {
	uint8_t status;		/* only bits 6:4 and 2:0 travel */
	uint8_t error;
	uint32_t sactive;	/* tags completed by this FIS */
	uint8_t pm_port;
	bool interrupt, notification;
};

int ata_h2d_encode(const struct ata_taskfile *tf, uint8_t fis[ATA_FIS_H2D_LEN]);
int ata_h2d_decode(const uint8_t *fis, size_t len, struct ata_taskfile *tf);
int ata_d2h_encode(const struct ata_d2h *d, uint8_t fis[ATA_FIS_D2H_LEN]);
int ata_d2h_decode(const uint8_t *fis, size_t len, struct ata_d2h *d);
int ata_sdb_encode(const struct ata_sdb *s, uint8_t fis[ATA_FIS_SDB_LEN]);
/*
 * What ata_sdb_encode() writes for tags `sactive` completing with `status`
 * (interrupt set, no error, port 0, no notification), in a few stores: a
 * drive sends one for every completion.
 */
static inline void ata_sdb_encode_done(uint32_t sactive, uint8_t status,
				       uint8_t fis[ATA_FIS_SDB_LEN])
{
	ata_put_le32(fis, ATA_FIS_SDB | 0x40u << 8 | (uint32_t)(status & 0x77) << 16);
	ata_put_le32(fis + 4, sactive);
}

/*
 * Whether `fis` is an SDB that ata_sdb_decode() takes (length, type) with
 * neither ERR nor SENSE DATA AVAILABLE in its status, and its SActive
 * bits if so: a host's every good completion, in three tests; for anything
 * else (an error, sense data, a malformed frame) the caller decodes it in
 * full.
 */
static inline bool ata_sdb_decode_good(const uint8_t *fis, size_t len, uint32_t *sactive)
{
	if (len != ATA_FIS_SDB_LEN || fis[0] != ATA_FIS_SDB ||
	    (fis[2] & (ATA_STAT_ERR | ATA_STAT_SENSE)))
		return false;
	*sactive = ata_get_le32(fis + 4);
	return true;
}

/* The whole SDB (the host's every completion takes ata_sdb_decode_good() first). */
static inline int ata_sdb_decode(const uint8_t *fis, size_t len, struct ata_sdb *s)
{
	if (len != ATA_FIS_SDB_LEN)
		return ATA_E_LENGTH;
	if (fis[0] != ATA_FIS_SDB)
		return ATA_E_FIS_TYPE;
	s->pm_port = fis[1] & 0xf;
	s->interrupt = (fis[1] & 0x40) != 0;
	s->notification = (fis[1] & 0x80) != 0;
	s->status = fis[2] & 0x77;
	s->error = fis[3];
	s->sactive = (uint32_t)fis[4] | (uint32_t)fis[5] << 8 |
		(uint32_t)fis[6] << 16 | (uint32_t)fis[7] << 24;
	return ATA_OK;
}

#endif
