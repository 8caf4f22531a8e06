#include "ata/cmd.h"

#include <stdio.h>
#include <string.h>

int ata_rw_build(const struct ata_rw *rw, struct ata_taskfile *tf)
{
	if (rw->sectors < 1 || rw->sectors > 65536)
		return ATA_E_COUNT;
	if (rw->lba >= ATA_LBA48_LIMIT || rw->lba + rw->sectors > ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	if (rw->cdl > 7)
		return ATA_E_CDL;
	/* Every field set (no memset: a command is built for every I/O). */
	tf->c_bit = true;
	tf->lba = rw->lba;
	tf->device = ATA_DEVICE_LBA;
	tf->icc = rw->icc;
	tf->control = 0;
	tf->pm_port = 0;
	if (rw->ncq) {
		if (rw->tag >= ATA_MAX_TAGS)
			return ATA_E_TAG;
		if (rw->prio > ATA_PRIO_HIGH)
			return ATA_E_PRIO;
		tf->command = rw->write ? ATA_CMD_FPDMA_WRITE : ATA_CMD_FPDMA_READ;
		tf->features = (uint16_t)(rw->sectors & 0xffff);	/* 65536 -> 0 */
		tf->count = (uint16_t)(rw->tag << 3 | (unsigned)rw->prio << 14);
		if (rw->fua)
			tf->device |= ATA_DEVICE_FUA;
		tf->auxiliary = rw->cdl;
		return ATA_OK;
	}
	tf->auxiliary = 0;
	if (rw->prio != ATA_PRIO_NORMAL)
		return ATA_E_PRIO;	/* non-NCQ commands have no PRIO field */
	if (rw->fua && !rw->write)
		return ATA_E_COMMAND;	/* there is no FUA read outside NCQ */
	tf->command = rw->write ? (rw->fua ? ATA_CMD_WRITE_DMA_FUA_EXT : ATA_CMD_WRITE_DMA_EXT) :
		ATA_CMD_READ_DMA_EXT;
	tf->count = (uint16_t)(rw->sectors & 0xffff);
	tf->features = rw->cdl;
	return ATA_OK;
}

int ata_rw_parse(const struct ata_taskfile *tf, struct ata_rw *rw)
{
	if (tf->lba >= ATA_LBA48_LIMIT) {
		memset(rw, 0, sizeof(*rw));
		return ATA_E_LBA;
	}
	/* Every field set (no memset: every command is parsed). */
	rw->lba = tf->lba;
	rw->icc = tf->icc;
	switch (tf->command) {
	case ATA_CMD_FPDMA_READ:
	case ATA_CMD_FPDMA_WRITE:
		rw->ncq = true;
		rw->write = tf->command == ATA_CMD_FPDMA_WRITE;
		rw->sectors = tf->features ? tf->features : 65536;
		rw->tag = (uint8_t)((tf->count >> 3) & 0x1f);
		rw->prio = (enum ata_prio)((tf->count >> 14) & 3);
		rw->fua = (tf->device & ATA_DEVICE_FUA) != 0;
		rw->cdl = (uint8_t)(tf->auxiliary & 7);
		if (rw->prio > ATA_PRIO_HIGH)
			return ATA_E_PRIO;
		break;
	case ATA_CMD_READ_DMA_EXT:
	case ATA_CMD_WRITE_DMA_EXT:
	case ATA_CMD_WRITE_DMA_FUA_EXT:
		rw->ncq = false;
		rw->tag = 0;
		rw->prio = ATA_PRIO_NORMAL;
		rw->write = tf->command != ATA_CMD_READ_DMA_EXT;
		rw->fua = tf->command == ATA_CMD_WRITE_DMA_FUA_EXT;
		rw->sectors = tf->count ? tf->count : 65536;
		rw->cdl = (uint8_t)(tf->features & 7);
		break;
	default:
		memset(rw, 0, sizeof(*rw));
		rw->lba = tf->lba;
		rw->icc = tf->icc;
		return ATA_E_COMMAND;
	}
	if (rw->lba + rw->sectors > ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	return ATA_OK;
}

/*
 * Which limit a read/write that ata_rw_fis_build()'s one combined test
 * refused breaks, in ata_rw_build()'s order of checks.
 */
int ata_rw_fis_refused(bool ncq, bool write, bool fua, uint8_t tag, enum ata_prio prio,
		       uint32_t sectors, uint64_t lba, uint8_t cdl)
{
	if (sectors < 1 || sectors > 65536)
		return ATA_E_COUNT;
	if (lba >= ATA_LBA48_LIMIT || lba + sectors > ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	if (cdl > 7)
		return ATA_E_CDL;
	if (ncq)
		return tag >= ATA_MAX_TAGS ? ATA_E_TAG : ATA_E_PRIO;
	if (prio != ATA_PRIO_NORMAL)
		return ATA_E_PRIO;
	return fua && !write ? ATA_E_COMMAND : ATA_OK;
}

int ata_rw_fis_parse_other(const uint8_t *fis, size_t len, struct ata_rw *rw)
{
	uint64_t w0, w1;
	uint16_t features, count;
	uint8_t command;

	if (len != ATA_FIS_H2D_LEN)
		return ATA_E_LENGTH;
	w0 = ata_get_le64(fis);
	w1 = ata_get_le64(fis + 8);
	if ((uint8_t)w0 != ATA_FIS_REG_H2D)
		return ATA_E_FIS_TYPE;
	if (!(w0 & 0x8000))
		return ATA_E_COMMAND;	/* a Device Control update */
	command = (uint8_t)(w0 >> 16);
	features = (uint16_t)((w0 >> 24 & 0xff) | (w1 >> 16 & 0xff00));
	count = (uint16_t)(w1 >> 32);
	rw->lba = (w0 >> 32 & 0xffffff) | (w1 & 0xffffff) << 24;
	rw->icc = (uint8_t)(w1 >> 48);
	switch (command) {
	case ATA_CMD_FPDMA_READ:
	case ATA_CMD_FPDMA_WRITE:
		rw->ncq = true;
		rw->write = command == ATA_CMD_FPDMA_WRITE;
		rw->sectors = features ? features : 65536;
		rw->tag = (uint8_t)((count >> 3) & 0x1f);
		rw->prio = (enum ata_prio)((count >> 14) & 3);
		rw->fua = (w0 >> 56 & ATA_DEVICE_FUA) != 0;
		rw->cdl = fis[16] & 7;
		if (rw->prio > ATA_PRIO_HIGH)
			return ATA_E_PRIO;
		break;
	case ATA_CMD_READ_DMA_EXT:
	case ATA_CMD_WRITE_DMA_EXT:
	case ATA_CMD_WRITE_DMA_FUA_EXT:
		rw->ncq = false;
		rw->tag = 0;
		rw->prio = ATA_PRIO_NORMAL;
		rw->write = command != ATA_CMD_READ_DMA_EXT;
		rw->fua = command == ATA_CMD_WRITE_DMA_FUA_EXT;
		rw->sectors = count ? count : 65536;
		rw->cdl = (uint8_t)(features & 7);
		break;
	default:
		return ATA_E_COMMAND;
	}
	if (rw->lba + rw->sectors > ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	return ATA_OK;
}

void ata_cmd_identify(struct ata_taskfile *tf)
{
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	tf->command = ATA_CMD_IDENTIFY;
	tf->count = 1;
	tf->device = ATA_DEVICE_LBA;
}

void ata_cmd_flush_ext(struct ata_taskfile *tf)
{
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	tf->command = ATA_CMD_FLUSH_EXT;
	tf->device = ATA_DEVICE_LBA;
}

void ata_cmd_srst(struct ata_taskfile *tf, bool assert_srst)
{
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = false;
	tf->control = assert_srst ? ATA_CTL_SRST : 0;
}

int ata_cmd_read_log(struct ata_taskfile *tf, bool dma, uint8_t log,
		       uint16_t page, uint16_t pages)
{
	if (!pages)
		return ATA_E_COUNT;
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	tf->command = dma ? ATA_CMD_READ_LOG_DMA_EXT : ATA_CMD_READ_LOG_EXT;
	tf->count = pages;
	/* LBA 7:0 log address, 15:8 page 7:0, 47:40 page 15:8 (ACS-4). */
	tf->lba = (uint64_t)log | (uint64_t)(page & 0xff) << 8 | (uint64_t)(page >> 8) << 40;
	tf->device = ATA_DEVICE_LBA;
	return ATA_OK;
}

int ata_cmd_read_log_parse(const struct ata_taskfile *tf, uint8_t *log,
		       uint16_t *page, uint16_t *pages)
{
	if (tf->command != ATA_CMD_READ_LOG_EXT && tf->command != ATA_CMD_READ_LOG_DMA_EXT)
		return ATA_E_COMMAND;
	*log = (uint8_t)tf->lba;
	*page = (uint16_t)(((tf->lba >> 8) & 0xff) | ((tf->lba >> 40) & 0xff) << 8);
	*pages = tf->count;
	return *pages ? ATA_OK : ATA_E_COUNT;
}

void ata_cmd_set_features(struct ata_taskfile *tf, uint8_t subcommand, uint8_t count)
{
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	tf->command = ATA_CMD_SET_FEATURES;
	tf->features = subcommand;
	tf->count = count;
	tf->device = ATA_DEVICE_LBA;
}

int ata_cmd_dsm_trim(struct ata_taskfile *tf, uint16_t blocks)
{
	if (!blocks)
		return ATA_E_COUNT;
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	tf->command = ATA_CMD_DSM;
	tf->features = ATA_DSM_TRIM;
	tf->count = blocks;
	tf->device = ATA_DEVICE_LBA;
	return ATA_OK;
}

int ata_cmd_dsm_parse(const struct ata_taskfile *tf, uint16_t *blocks, bool *trim)
{
	if (tf->command != ATA_CMD_DSM)
		return ATA_E_COMMAND;
	*blocks = tf->count;
	*trim = (tf->features & ATA_DSM_TRIM) != 0;
	return *blocks ? ATA_OK : ATA_E_COUNT;
}

int ata_cmd_read_verify(struct ata_taskfile *tf, uint64_t lba, uint32_t sectors)
{
	if (!sectors || sectors > 65536)
		return ATA_E_COUNT;
	if (lba + sectors > ATA_LBA48_LIMIT)
		return ATA_E_LBA;
	memset(tf, 0, sizeof(*tf));
	tf->c_bit = true;
	if (lba + sectors - 1 < (1ULL << 28) && sectors <= 256) {
		tf->command = ATA_CMD_READ_VERIFY;
		tf->count = (uint16_t)(sectors & 0xff);
		tf->lba = lba & 0xffffff;
		tf->device = (uint8_t)(ATA_DEVICE_LBA | ((lba >> 24) & 0xf));
	} else {
		tf->command = ATA_CMD_READ_VERIFY_EXT;
		tf->count = (uint16_t)sectors;	/* 65536 is 0 */
		tf->lba = lba;
		tf->device = ATA_DEVICE_LBA;
	}
	return ATA_OK;
}

int ata_cmd_read_verify_parse(const struct ata_taskfile *tf, uint64_t *lba, uint32_t *sectors)
{
	switch (tf->command) {
	case ATA_CMD_READ_VERIFY:
		*lba = (tf->lba & 0xffffff) | (uint64_t)(tf->device & 0xf) << 24;
		*sectors = (tf->count & 0xff) ? (tf->count & 0xffu) : 256;
		return ATA_OK;
	case ATA_CMD_READ_VERIFY_EXT:
		*lba = tf->lba;
		*sectors = tf->count ? tf->count : 65536;
		return *lba + *sectors > ATA_LBA48_LIMIT ? ATA_E_LBA : ATA_OK;
	default:
		return ATA_E_COMMAND;
	}
}

unsigned ata_dsm_trim_encode(uint64_t lba, uint64_t sectors, uint8_t *buf, uint16_t blocks)
{
	unsigned n = 0, max = (unsigned)blocks * ATA_DSM_ENTRIES, b;

	memset(buf, 0, (size_t)blocks * ATA_SECTOR_SIZE);
	while (sectors) {
		uint64_t count = sectors < ATA_DSM_RANGE_MAX ? sectors : ATA_DSM_RANGE_MAX;
		uint64_t entry = (lba & (ATA_LBA48_LIMIT - 1)) | count << 48;

		if (n == max || lba + count > ATA_LBA48_LIMIT)
			return 0;
		for (b = 0; b < 8; b++)
			buf[8 * n + b] = (uint8_t)(entry >> (8 * b));
		n++;
		lba += count;
		sectors -= count;
	}
	return n;
}

bool ata_dsm_trim_entry(const uint8_t *buf, unsigned i, uint64_t *lba, uint32_t *sectors)
{
	uint64_t entry = 0;
	unsigned b;

	for (b = 0; b < 8; b++)
		entry |= (uint64_t)buf[8 * i + b] << (8 * b);
	*lba = entry & (ATA_LBA48_LIMIT - 1);
	*sectors = (uint32_t)(entry >> 48);
	return *sectors != 0;
}

const char *ata_command_name(uint8_t command)
{
	switch (command) {
	case ATA_CMD_DSM:		return "DATA SET MANAGEMENT";
	case ATA_CMD_READ_DMA_EXT:	return "READ DMA EXT";
	case ATA_CMD_READ_LOG_EXT:	return "READ LOG EXT";
	case ATA_CMD_WRITE_DMA_EXT:	return "WRITE DMA EXT";
	case ATA_CMD_WRITE_DMA_FUA_EXT:	return "WRITE DMA FUA EXT";
	case ATA_CMD_READ_LOG_DMA_EXT:	return "READ LOG DMA EXT";
	case ATA_CMD_READ_VERIFY:	return "READ VERIFY SECTORS";
	case ATA_CMD_READ_VERIFY_EXT:	return "READ VERIFY SECTORS EXT";
	case ATA_CMD_FPDMA_READ:	return "READ FPDMA QUEUED";
	case ATA_CMD_FPDMA_WRITE:	return "WRITE FPDMA QUEUED";
	case ATA_CMD_FLUSH_EXT:		return "FLUSH CACHE EXT";
	case ATA_CMD_IDENTIFY:		return "IDENTIFY DEVICE";
	case ATA_CMD_SET_FEATURES:	return "SET FEATURES";
	}
	return NULL;
}

int ata_libata_line(const struct ata_taskfile *tf, unsigned tag, char *buf, size_t len)
{
	int n;
	const char *dir = "in";
	unsigned long bytes = 0;
	const char *prot;

	n = snprintf(buf, len, "cmd %02x/%02x:%02x:%02x:%02x:%02x/%02x:%02x:%02x:%02x:%02x/%02x",
		     tf->command, tf->features & 0xff, tf->count & 0xff,
		     (unsigned)(tf->lba & 0xff), (unsigned)((tf->lba >> 8) & 0xff),
		     (unsigned)((tf->lba >> 16) & 0xff), tf->features >> 8, tf->count >> 8,
		     (unsigned)((tf->lba >> 24) & 0xff), (unsigned)((tf->lba >> 32) & 0xff),
		     (unsigned)((tf->lba >> 40) & 0xff), tf->device);
	switch (tf->command) {
	case ATA_CMD_FPDMA_READ:
	case ATA_CMD_FPDMA_WRITE:
		prot = "ncq";
		tag = (tf->count >> 3) & 0x1f;
		bytes = (tf->features ? tf->features : 65536UL) * ATA_SECTOR_SIZE;
		dir = tf->command == ATA_CMD_FPDMA_WRITE ? "out" : "in";
		break;
	case ATA_CMD_READ_DMA_EXT:
	case ATA_CMD_WRITE_DMA_EXT:
	case ATA_CMD_WRITE_DMA_FUA_EXT:
	case ATA_CMD_READ_LOG_DMA_EXT:
	case ATA_CMD_DSM:
		prot = "dma";
		bytes = (tf->count ? tf->count : 65536UL) * ATA_SECTOR_SIZE;
		dir = tf->command == ATA_CMD_READ_DMA_EXT ||
			tf->command == ATA_CMD_READ_LOG_DMA_EXT ? "in" : "out";
		break;
	case ATA_CMD_IDENTIFY:
		prot = "pio";
		bytes = ATA_SECTOR_SIZE;
		break;
	case ATA_CMD_READ_LOG_EXT:
		prot = "pio";
		bytes = (unsigned long)tf->count * ATA_SECTOR_SIZE;
		break;
	default:
		prot = "nodata";
		break;
	}
	if (n < 0 || (size_t)n >= len)
		return n;
	if (bytes)
		n += snprintf(buf + n, len - (size_t)n, " tag %u %s %lu %s", tag, prot, bytes, dir);
	else
		n += snprintf(buf + n, len - (size_t)n, " tag %u %s", tag, prot);
	return n;
}
