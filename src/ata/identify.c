#include "ata/identify.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *ata_checksum_name(enum ata_checksum_state s)
{
	switch (s) {
	case ATA_CHECKSUM_VALID:	return "valid";
	case ATA_CHECKSUM_BAD:		return "bad";
	case ATA_CHECKSUM_ABSENT:	return "absent";
	}
	return "?";
}

const char *ata_id_form_name(enum ata_id_form f)
{
	switch (f) {
	case ATA_ID_FORM_RAW:		return "raw 512 bytes";
	case ATA_ID_FORM_HDPARM:	return "hdparm --Istdout / sysfs text";
	case ATA_ID_FORM_HEXWORDS:	return "hex words (hdparm --Istdin style)";
	case ATA_ID_FORM_SKDUMP:	return "libatasmart skdump blob";
	}
	return "?";
}

static void put_word(uint8_t *page, unsigned w, uint16_t v)
{
	page[2 * w] = (uint8_t)v;
	page[2 * w + 1] = (uint8_t)(v >> 8);
}

/* ATA strings: two characters a word, the first in the high byte. */
static void put_string(uint8_t *page, unsigned first_word, unsigned words, const char *s)
{
	size_t len = strlen(s);
	unsigned i;

	for (i = 0; i < words * 2; i++) {
		uint8_t c = i < len ? (uint8_t)s[i] : ' ';

		page[2 * first_word + (i ^ 1)] = c;
	}
}

/* Ends at a NUL; leading and trailing spaces trimmed (as hdparm shows them). */
static void get_string(const uint8_t *page, unsigned first_word, unsigned words,
		       char *out, size_t outlen)
{
	char raw[81];
	unsigned i, n = words * 2, start = 0, end;

	for (i = 0; i < n && i < sizeof(raw) - 1; i++) {
		raw[i] = (char)page[2 * first_word + (i ^ 1)];
		if (!raw[i])
			break;
		if (!isprint((unsigned char)raw[i]))
			raw[i] = '?';
	}
	end = i;
	while (start < end && raw[start] == ' ')
		start++;
	while (end > start && raw[end - 1] == ' ')
		end--;
	if (end - start >= outlen)
		end = start + (unsigned)outlen - 1;
	memcpy(out, raw + start, end - start);
	out[end - start] = '\0';
}

void ata_identify_build(const struct ata_identify *id, uint8_t page[ATA_ID_BYTES])
{
	uint64_t sectors28 = id->sectors > 0x0fffffff ? 0x0fffffff : id->sectors;
	uint16_t w76 = 0, w106 = 0x4000;
	unsigned logical_words = id->logical_sector_size / 2, phys_shift = 0, i;
	uint8_t sum = 0;

	memset(page, 0, ATA_ID_BYTES);
	put_word(page, 0, 0x0040);		/* ATA device, fixed */
	put_string(page, 10, 10, id->serial);
	put_string(page, 23, 4, id->firmware);
	put_string(page, 27, 20, id->model);
	put_word(page, 47, 0x8010);
	put_word(page, 49, 0x2f00);		/* LBA, DMA, IORDY */
	put_word(page, 53, 0x0006);
	put_word(page, 60, (uint16_t)sectors28);
	put_word(page, 61, (uint16_t)(sectors28 >> 16));
	put_word(page, 63, 0x0007);
	put_word(page, 64, 0x0003);
	for (i = 65; i <= 68; i++)
		put_word(page, i, 0x0078);
	if (id->ncq) {
		unsigned qd = id->queue_depth ? id->queue_depth : 1;

		put_word(page, 75, (uint16_t)((qd - 1) & 0x1f));
		w76 |= 1 << 8;
		if (id->ncq_prio)
			w76 |= 1 << 12;
	}
	w76 |= (uint16_t)((id->sata_speeds & 7) << 1);
	put_word(page, 76, w76);
	if (id->ncq_autosense)
		put_word(page, 78, 1 << 7);
	put_word(page, 80, id->major_version ? id->major_version : 0x07f0);	/* ATA8-ACS..ACS-4 */
	put_word(page, 82, (uint16_t)(0x4000 | (id->write_cache ? 1 << 5 : 0) |
				      (id->read_ahead ? 1 << 6 : 0)));
	put_word(page, 83, (uint16_t)(0x4000 | (id->lba48 ? 1 << 10 : 0)));
	put_word(page, 84, 0x4000 | 1 << 5);	/* General Purpose Logging */
	put_word(page, 85, (uint16_t)((id->write_cache_enabled ? 1 << 5 : 0) |
				      (id->read_ahead_enabled ? 1 << 6 : 0)));
	put_word(page, 86, (uint16_t)((id->lba48 ? 1 << 10 : 0) | 1 << 15));
	put_word(page, 87, 0x4000 | 1 << 5);
	if (id->lba48)
		for (i = 0; i < 4; i++)
			put_word(page, 100 + i, (uint16_t)(id->sectors >> (16 * i)));
	if (id->logical_sector_size > 512) {
		w106 |= 1 << 12;
		put_word(page, 117, (uint16_t)logical_words);
		put_word(page, 118, (uint16_t)(logical_words >> 16));
	}
	if (id->physical_sector_size > id->logical_sector_size && id->logical_sector_size) {
		while ((id->logical_sector_size << phys_shift) < id->physical_sector_size &&
		       phys_shift < 15)
			phys_shift++;
		w106 |= (uint16_t)(1 << 13 | phys_shift);
	}
	put_word(page, 106, w106);
	if (id->read_log_dma)
		put_word(page, 119, 0x4000 | 1 << 3);
	else
		put_word(page, 119, 0x4000);
	put_word(page, 120, 0x4000);
	if (id->trim) {
		put_word(page, 169, 1);		/* DATA SET MANAGEMENT: TRIM */
		put_word(page, 105, id->dsm_blocks ? id->dsm_blocks : 1);
	}
	put_word(page, 217, id->rotation_rpm);
	page[510] = 0xa5;
	for (i = 0; i < 511; i++)
		sum = (uint8_t)(sum + page[i]);
	page[511] = (uint8_t)-sum;
}

void ata_identify_parse(const uint8_t page[ATA_ID_BYTES], struct ata_identify *id)
{
	uint16_t w76 = ata_id_word(page, 76), w83 = ata_id_word(page, 83);
	uint16_t w86 = ata_id_word(page, 86), w106 = ata_id_word(page, 106);
	uint16_t w217 = ata_id_word(page, 217);
	bool w76_valid = w76 != 0x0000 && w76 != 0xffff;
	unsigned i;

	memset(id, 0, sizeof(*id));
	get_string(page, 10, 10, id->serial, sizeof(id->serial));
	get_string(page, 23, 4, id->firmware, sizeof(id->firmware));
	get_string(page, 27, 20, id->model, sizeof(id->model));

	id->lba48 = (w83 & 0xc000) == 0x4000 && (w83 & (1 << 10));
	if (id->lba48) {
		for (i = 0; i < 4; i++)
			id->sectors |= (uint64_t)ata_id_word(page, 100 + i) << (16 * i);
	} else {
		id->sectors = (uint64_t)ata_id_word(page, 60) |
			(uint64_t)ata_id_word(page, 61) << 16;
	}

	id->logical_sector_size = 512;
	if ((w106 & 0xc000) == 0x4000 && (w106 & (1 << 12))) {
		uint32_t words = (uint32_t)ata_id_word(page, 117) |
			(uint32_t)ata_id_word(page, 118) << 16;

		if (words >= 256)
			id->logical_sector_size = words * 2;
	}
	id->physical_sector_size = id->logical_sector_size;
	if ((w106 & 0xc000) == 0x4000 && (w106 & (1 << 13)))
		id->physical_sector_size = id->logical_sector_size << (w106 & 0xf);

	id->ncq = w76_valid && (w76 & (1 << 8));
	id->queue_depth = id->ncq ? (ata_id_word(page, 75) & 0x1f) + 1u : 1u;
	id->ncq_prio = w76_valid && (w76 & (1 << 12));
	id->ncq_autosense = w76_valid && (ata_id_word(page, 78) & (1 << 7));
	id->sata_speeds = w76_valid ? (uint8_t)((w76 >> 1) & 7) : 0;

	if (w217 == 1 || (w217 >= 0x0401 && w217 <= 0xfffe))
		id->rotation_rpm = w217;

	id->write_cache = (ata_id_word(page, 82) & (1 << 5)) != 0;
	id->write_cache_enabled = (ata_id_word(page, 85) & (1 << 5)) != 0;
	id->read_ahead = (ata_id_word(page, 82) & (1 << 6)) != 0;
	id->read_ahead_enabled = (ata_id_word(page, 85) & (1 << 6)) != 0;
	id->read_log_dma = (w86 & (1 << 15)) &&
		((ata_id_word(page, 119) & 0xc008) == 0x4008 ||
		 (ata_id_word(page, 120) & 0xc008) == 0x4008);
	id->major_version = ata_id_word(page, 80);
	/* libata's ata_id_has_trim(): word 169 bit 0 (ata_id_has_dsm() aside, as the kernel). */
	id->trim = (ata_id_word(page, 169) & 1) != 0;
	id->dsm_blocks = ata_id_word(page, 105);

	if (page[510] != 0xa5) {
		id->checksum = ATA_CHECKSUM_ABSENT;
	} else {
		uint8_t sum = 0;

		for (i = 0; i < ATA_ID_BYTES; i++)
			sum = (uint8_t)(sum + page[i]);
		id->checksum = sum ? ATA_CHECKSUM_BAD : ATA_CHECKSUM_VALID;
	}
}

/* ---- recognising the forms ---- */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool is_blob_tag(const uint8_t *p)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!isupper(p[i]))
			return false;
	return true;
}

/* skdump --save: sections of tag (4 ASCII) + big-endian length + data. */
static int load_skdump(const uint8_t *data, size_t len, uint8_t page[ATA_ID_BYTES],
		       char *why, size_t whylen)
{
	size_t off = 0;

	while (off + 8 <= len) {
		uint32_t size = be32(data + off + 4);

		if (!is_blob_tag(data + off)) {
			snprintf(why, whylen, "skdump blob: bad section tag at byte %zu", off);
			return ATA_E_NOT_IDENTIFY;
		}
		if (size > len - off - 8) {
			snprintf(why, whylen, "skdump blob: section '%.4s' at byte %zu claims %u bytes, "
				 "only %zu left", (const char *)data + off, off, size, len - off - 8);
			return ATA_E_NOT_IDENTIFY;
		}
		if (!memcmp(data + off, "IDFY", 4)) {
			if (size != ATA_ID_BYTES) {
				snprintf(why, whylen, "skdump blob: IDFY section is %u bytes, expected 512",
					 size);
				return ATA_E_NOT_IDENTIFY;
			}
			memcpy(page, data + off + 8, ATA_ID_BYTES);
			return ATA_OK;
		}
		off += 8 + size;
	}
	snprintf(why, whylen, "skdump blob without an IDFY section");
	return ATA_E_NOT_IDENTIFY;
}

static bool is_text(const uint8_t *data, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isprint(data[i]) && !isspace(data[i]))
			return false;
	return true;
}

/*
 * A data line holds only whitespace-separated groups of exactly four hex
 * digits. Lines before the first data line are skipped (hdparm prints a
 * device name first); lines after the 256th word are ignored.
 */
static int load_text(const uint8_t *data, size_t len, uint8_t page[ATA_ID_BYTES],
		     enum ata_id_form *form, char *why, size_t whylen)
{
	size_t pos = 0;
	unsigned words = 0, data_lines = 0, lines_of_8 = 0, line_no = 0;
	bool started = false;

	while (pos < len && words < ATA_ID_WORDS) {
		size_t end = pos, p;
		uint16_t line_words[64];
		unsigned n = 0;
		bool is_data = true;

		while (end < len && data[end] != '\n')
			end++;
		line_no++;
		for (p = pos; p < end && is_data;) {
			size_t t = p;

			if (isspace(data[p])) {
				p++;
				continue;
			}
			while (t < end && isxdigit(data[t]))
				t++;
			if (t - p != 4 || (t < end && !isspace(data[t])) || n >= 64) {
				is_data = false;
				break;
			}
			{
				char hex[5];
				unsigned v;

				memcpy(hex, data + p, 4);
				hex[4] = '\0';
				sscanf(hex, "%x", &v);
				line_words[n++] = (uint16_t)v;
			}
			p = t;
		}
		if (is_data && n) {
			unsigned i;

			started = true;
			data_lines++;
			lines_of_8 += n == 8;
			for (i = 0; i < n && words < ATA_ID_WORDS; i++, words++)
				put_word(page, words, line_words[i]);
		} else if (started && !is_data) {
			snprintf(why, whylen, "line %u: expected groups of 4 hex digits after %u words "
				 "of IDENTIFY data", line_no, words);
			return ATA_E_NOT_IDENTIFY;
		}
		pos = end + 1;
	}
	if (words == 0) {
		snprintf(why, whylen, "no groups of 4 hex digits found");
		return ATA_E_NOT_IDENTIFY;
	}
	if (words < ATA_ID_WORDS) {
		snprintf(why, whylen, "only %u of 256 words of IDENTIFY data", words);
		return ATA_E_NOT_IDENTIFY;
	}
	*form = (data_lines == 32 && lines_of_8 == 32) ? ATA_ID_FORM_HDPARM : ATA_ID_FORM_HEXWORDS;
	return ATA_OK;
}

int ata_identify_load(const uint8_t *data, size_t len, uint8_t page[ATA_ID_BYTES],
		      enum ata_id_form *form, char *why, size_t whylen)
{
	if (len == 0) {
		snprintf(why, whylen, "empty file");
		return ATA_E_NOT_IDENTIFY;
	}
	if (len >= 8 && is_blob_tag(data) && !is_text(data, len)) {
		int err = load_skdump(data, len, page, why, whylen);

		if (err == ATA_OK || len != ATA_ID_BYTES) {
			*form = ATA_ID_FORM_SKDUMP;
			return err;
		}
		/* 512 bytes that only looked like a blob: take them raw. */
	}
	if (is_text(data, len))
		return load_text(data, len, page, form, why, whylen);
	if (len != ATA_ID_BYTES) {
		snprintf(why, whylen, "binary data of %zu bytes: a raw page is 512 bytes", len);
		return ATA_E_NOT_IDENTIFY;
	}
	memcpy(page, data, ATA_ID_BYTES);
	*form = ATA_ID_FORM_RAW;
	return ATA_OK;
}
