/* libFuzzer target: FIS decoders, command parsers, libata's line, SAT CDB. */
#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/sat.h"

#include <stdint.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ata_taskfile tf;
	struct ata_sdb sdb;
	struct ata_d2h d2h;
	struct ata_rw rw;
	uint8_t out[ATA_FIS_H2D_LEN], cdb[ATA_SAT16_LEN], log;
	uint16_t page, pages;
	char line[160];

	if (ata_h2d_decode(data, size, &tf) == ATA_OK) {
		ata_libata_line(&tf, 0, line, sizeof(line));
		ata_sat16_build(&tf, cdb);
		if (ata_rw_parse(&tf, &rw) == ATA_OK && ata_rw_build(&rw, &tf) == ATA_OK)
			ata_h2d_encode(&tf, out);
		ata_cmd_read_log_parse(&tf, &log, &page, &pages);
	}
	if (ata_sdb_decode(data, size, &sdb) == ATA_OK)
		ata_sdb_encode(&sdb, out);
	if (ata_d2h_decode(data, size, &d2h) == ATA_OK)
		ata_d2h_encode(&d2h, out);
	return 0;
}
