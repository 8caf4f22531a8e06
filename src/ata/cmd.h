/*
 * cmd — building and parsing the commands ncqsim's host and drive use, and
 * libata's one-line form of a command.
 *
 * READ/WRITE FPDMA QUEUED (60h/61h), laid out as libata's ata_build_rw_tf():
 *
 *   FEATURE 15:0   sector count (0 means 65536)
 *   COUNT 7:3      tag (0..31)
 *   COUNT 15:14    PRIO: 00b normal, 01b isochronous, 10b high
 *   LBA 47:0       first sector
 *   DEVICE         40h, | 80h for FUA
 *   ICC            isochronous command completion
 *   AUXILIARY 2:0  CDL index (Linux 6.5+)
 *
 * The non-NCQ READ/WRITE DMA EXT (25h/35h; 3Dh for a FUA write) carry the
 * sector count in COUNT and the CDL index in FEATURE 2:0.
 */
#ifndef NCQSIM_ATA_CMD_H
#define NCQSIM_ATA_CMD_H

#include "ata/ata.h"
#include "ata/fis.h"

#include <string.h>

#define ATA_CMD_WRITE_DMA_FUA_EXT 0x3d

struct ata_rw {
	bool write;
	bool ncq;		/* FPDMA QUEUED, else DMA EXT */
	uint8_t tag;		/* NCQ only: 0..31 */
	uint32_t sectors;	/* 1..65536 */
	uint64_t lba;
	bool fua;
	enum ata_prio prio;	/* NCQ only */
	uint8_t icc;
	uint8_t cdl;		/* 0 = none, 1..7 */
};

int ata_rw_build(const struct ata_rw *rw, struct ata_taskfile *tf);
/* Parse a read/write taskfile (60h, 61h, 25h, 35h, 3Dh). */
int ata_rw_parse(const struct ata_taskfile *tf, struct ata_rw *rw);
/*
 * The same straight to and from the 20 bytes of a Register H2D FIS, for
 * the command every I/O sends: ata_rw_fis_build() writes what
 * ata_rw_build() then ata_h2d_encode() write (and refuses what they
 * refuse); ata_rw_fis_parse() reads a command FIS (C = 1) as
 * ata_h2d_decode() then ata_rw_parse() do, returning ATA_E_LENGTH,
 * ATA_E_FIS_TYPE or ATA_E_COMMAND for a FIS that is not a read or write
 * command, and ata_rw_parse()'s error for one that is but is malformed.
 * Both are inline, at the end of this file.
 */
static inline bool ata_is_ncq(uint8_t command)
{
	return command == ATA_CMD_FPDMA_READ || command == ATA_CMD_FPDMA_WRITE;
}

void ata_cmd_identify(struct ata_taskfile *tf);
/* FLUSH CACHE EXT (EAh): non-data, non-queued; the drive writes its cache out. */
void ata_cmd_flush_ext(struct ata_taskfile *tf);
/*
 * A Device Control update (C = 0), SRST set or cleared: libata's soft
 * reset sends one of each (ahci_softreset()); the device answers the
 * second with a Register D2H FIS once ready.
 */
void ata_cmd_srst(struct ata_taskfile *tf, bool assert_srst);
/* READ LOG EXT (2Fh) or READ LOG DMA EXT (47h) of `pages` 512-byte pages. */
int ata_cmd_read_log(struct ata_taskfile *tf, bool dma, uint8_t log,
		     uint16_t page, uint16_t pages);
int ata_cmd_read_log_parse(const struct ata_taskfile *tf, uint8_t *log,
		       uint16_t *page, uint16_t *pages);
void ata_cmd_set_features(struct ata_taskfile *tf, uint8_t subcommand, uint8_t count);

/*
 * DATA SET MANAGEMENT (06h) with the TRIM bit (FEATURE bit 0), a DMA
 * data-out command of `blocks` 512-byte blocks of LBA range entries, as
 * libata's ata_scsi_write_same_xlat() builds it for a discard.
 */
#define ATA_DSM_TRIM		0x01
#define ATA_DSM_RANGE_MAX	65535u	/* sectors one entry can cover */
#define ATA_DSM_ENTRIES		64u	/* entries per 512-byte block */
int ata_cmd_dsm_trim(struct ata_taskfile *tf, uint16_t blocks);
/* Parse a DSM taskfile: its block count, and whether it is a TRIM. */
int ata_cmd_dsm_parse(const struct ata_taskfile *tf, uint16_t *blocks, bool *trim);
/*
 * The payload: each 8-byte little-endian entry is LBA 47:0 and a sector
 * count 63:48 (0: unused), as libata's ata_format_dsm_trim_descr(). Fills
 * entries for [lba, lba + sectors) into `buf` of `blocks` blocks, the rest
 * zero; returns the entries used, or 0 when they do not fit.
 */
unsigned ata_dsm_trim_encode(uint64_t lba, uint64_t sectors, uint8_t *buf, uint16_t blocks);
/* Entry `i` of a payload: false for an unused (zero-count) one. */
bool ata_dsm_trim_entry(const uint8_t *buf, unsigned i, uint64_t *lba, uint32_t *sectors);

/*
 * READ VERIFY SECTORS (40h) and READ VERIFY SECTORS EXT (42h): non-data,
 * non-queued; the drive reads the sectors as a read would and sends
 * nothing back (ACS: READ SECTORS without the data transfer). 40h is
 * 28-bit: COUNT 7:0 (0 means 256), LBA 23:0 in the LBA field and 27:24 in
 * DEVICE 3:0; 42h is 48-bit: COUNT 15:0 (0 means 65536). ata_cmd_read_verify()
 * chooses as libata's ata_scsi_verify_xlat() does (lba_28_ok(): the last
 * sector below 2^28 and at most 256 sectors, else 48-bit); ATA_E_COUNT for
 * 0 or more than 65536 sectors, ATA_E_LBA past 2^48.
 */
int ata_cmd_read_verify(struct ata_taskfile *tf, uint64_t lba, uint32_t sectors);
int ata_cmd_read_verify_parse(const struct ata_taskfile *tf, uint64_t *lba, uint32_t *sectors);

/* A command's name ("READ FPDMA QUEUED"), or NULL when unknown. */
const char *ata_command_name(uint8_t command);

/*
 * libata's one-line form, as the kernel prints a failed command:
 *   cmd 60/c0:08:b8:13:dc/02:80:50:00:00/40 tag 1 ncq 360448 in
 * (CMD/FEAT:NSECT:LBAL:LBAM:LBAH/HOBFEAT:HOBNSECT:HOBLBAL:HOBLBAM:HOBLBAH/DEV,
 * then the tag, protocol, bytes and direction). `tag` is used for non-NCQ
 * commands, whose taskfile has none. Returns the length written.
 */
int ata_libata_line(const struct ata_taskfile *tf, unsigned tag, char *buf, size_t len);


/*
 * The codecs are inline, as little-endian words (fis.h's ata_get_le64()
 * and friends): every I/O's command is built by the host
 * (ata_rw_fis_refuses(), ata_rw_fis_encode()) and read by the drive
 * (ata_fpdma_fis_fields()), and as a call each cost more than the bytes.
 */
/*
 * The error of a read/write ata_rw_fis_build() refuses (out of line: it
 * never happens in a run). Its fields by value, so that the caller's
 * struct ata_rw need not live in memory.
 */
int ata_rw_fis_refused(bool ncq, bool write, bool fua, uint8_t tag, enum ata_prio prio,
		       uint32_t sectors, uint64_t lba, uint8_t cdl);

/*
 * Whether ata_rw_fis_build() refuses `rw`: every limit ata_rw_build()
 * checks, tested at once (bitwise, no branch per field); which one failed
 * is ata_rw_fis_refused()'s business.
 */
static inline __attribute__((always_inline)) bool ata_rw_fis_refuses(const struct ata_rw *rw)
{
	bool bad = (rw->sectors - 1u > 65535u) | (rw->lba > ATA_LBA48_LIMIT - rw->sectors) |
		(rw->cdl > 7);

	if (rw->ncq)
		bad |= (rw->tag >= ATA_MAX_TAGS) | (rw->prio > ATA_PRIO_HIGH);
	else
		bad |= (rw->prio != ATA_PRIO_NORMAL) | (rw->fua && !rw->write);
	return bad;
}

/*
 * The FIS bytes of the taskfile fields (fis.c, Register H2D): 0 type 27h,
 * 1 C bit, 2 command, 3 FEATURE 7:0, 4-6 LBA 23:0, 7 DEVICE, 8-10 LBA 47:24,
 * 11 FEATURE 15:8, 12-13 COUNT, 14 ICC, 15 CONTROL, 16-19 AUXILIARY, of a
 * read/write that ata_rw_fis_refuses() passed (a caller that has tested
 * it itself, and need not test it twice).
 */
static inline __attribute__((always_inline)) void
ata_rw_fis_encode(const struct ata_rw *rw, uint8_t fis[ATA_FIS_H2D_LEN])
{
	uint32_t features, count, command, device = ATA_DEVICE_LBA, aux = 0;

	if (rw->ncq) {
		command = ATA_CMD_FPDMA_READ | (uint32_t)rw->write;	/* 60h, 61h */
		features = rw->sectors;		/* 65536 as 0: only bits 15:0 travel */
		count = (uint32_t)rw->tag << 3 | (uint32_t)rw->prio << 14;
		device |= (uint32_t)rw->fua << 7;	/* ATA_DEVICE_FUA */
		aux = rw->cdl;
	} else {
		command = rw->write ? (rw->fua ? ATA_CMD_WRITE_DMA_FUA_EXT : ATA_CMD_WRITE_DMA_EXT) :
			ATA_CMD_READ_DMA_EXT;
		count = rw->sectors & 0xffff;
		features = rw->cdl;
	}
	/*
	 * Words, each field shifted into place: bytes 0-7 with LBA 31:0 in
	 * 4-7, whose byte 7 DEVICE then overwrites; 8-11 (LBA 47:24 and
	 * FEATURE 15:8); 12-19 (COUNT, ICC, CONTROL 0, AUXILIARY). FEATURE's
	 * halves are shifted within 32 bits, which cuts the bits above them
	 * without a mask; rw->lba < 2^48, so LBA 47:24 fits below FEATURE
	 * 15:8.
	 */
	ata_put_le64(fis, ATA_FIS_REG_H2D | 0x80u << 8 | command << 16 | features << 24 |
		     rw->lba << 32);
	fis[7] = (uint8_t)device;
	ata_put_le32(fis + 8, (uint32_t)(rw->lba >> 24) | (features & 0xff00) << 16);
	ata_put_le64(fis + 12, count | (uint32_t)rw->icc << 16 | (uint64_t)aux << 32);
}

/* ata_rw_fis_refuses(), then ata_rw_fis_refused() or ata_rw_fis_encode(). */
static inline __attribute__((always_inline)) int
ata_rw_fis_build(const struct ata_rw *rw, uint8_t fis[ATA_FIS_H2D_LEN])
{
	if (ata_rw_fis_refuses(rw))
		return ata_rw_fis_refused(rw->ncq, rw->write, rw->fua, rw->tag, rw->prio, rw->sectors,
					  rw->lba, rw->cdl);
	ata_rw_fis_encode(rw, fis);
	return ATA_OK;
}

/* Any FIS but a READ/WRITE FPDMA QUEUED command, for ata_rw_fis_parse(). */
int ata_rw_fis_parse_other(const uint8_t *fis, size_t len, struct ata_rw *rw);

/*
 * The fields of a READ/WRITE FPDMA QUEUED command FIS (type 27h, C = 1,
 * any PM port, command 60h or 61h), for a caller that tests their limits
 * itself together with its own: false for any other FIS, leaving `rw`
 * unset (ata_rw_fis_parse() says what it is); true with every field of
 * `rw` set as ata_rw_fis_parse() sets it, which then returns ATA_E_PRIO
 * if rw->prio > ATA_PRIO_HIGH, ATA_E_LBA if rw->lba + rw->sectors >
 * 2^48, else ATA_OK. rw->lba < 2^48 and rw->sectors <= 65536: the sum
 * cannot wrap.
 */
static inline __attribute__((always_inline)) bool
ata_fpdma_fis_fields(const uint8_t *fis, size_t len, struct ata_rw *rw)
{
	uint32_t features;

	if (len != ATA_FIS_H2D_LEN)
		return false;
	if ((ata_get_le32(fis) & 0xfe80ff) != (ATA_FIS_REG_H2D | 0x80u << 8 | ATA_CMD_FPDMA_READ << 16))
		return false;
	/*
	 * Each field from its own bytes, one load and a shift or a mask:
	 * LBA 23:0 in bytes 4-6 and 47:24 in bytes 8-10 (each from a 32-bit
	 * load: masked to its three bytes; shifted out of byte 11 within 32
	 * bits, then into place, which needs no 64-bit mask), FEATURE 7:0 and 15:8 in bytes 3 and 11, the
	 * tag in COUNT 7:3 (byte 12), PRIO in COUNT 15:14 (byte 13), ICC in
	 * byte 14.
	 */
	rw->lba = (ata_get_le32(fis + 4) & 0xffffffu) |
		(uint64_t)(ata_get_le32(fis + 8) << 8) << 16;
	rw->icc = fis[14];
	/* FEATURE 15:0, 0 meaning 65536: one less, cut to 16 bits, one more. */
	features = (uint32_t)fis[3] | (uint32_t)fis[11] << 8;
	rw->sectors = ((features - 1) & 0xffff) + 1;
	rw->tag = (uint8_t)(fis[12] >> 3);
	rw->prio = (enum ata_prio)(fis[13] >> 6);
	rw->ncq = true;
	rw->write = fis[2] & 1;
	rw->fua = fis[7] >> 7;
	rw->cdl = fis[16] & 7;
	return true;
}

/* READ/WRITE FPDMA QUEUED inline; the rest out of line. */
static inline __attribute__((always_inline)) int
ata_rw_fis_parse(const uint8_t *fis, size_t len, struct ata_rw *rw)
{
	if (len != ATA_FIS_H2D_LEN)
		return ATA_E_LENGTH;
	if (!ata_fpdma_fis_fields(fis, len, rw))
		return ata_rw_fis_parse_other(fis, len, rw);
	if (rw->prio > ATA_PRIO_HIGH)
		return ATA_E_PRIO;
	return rw->lba + rw->sectors > ATA_LBA48_LIMIT ? ATA_E_LBA : ATA_OK;
}

#endif
