/* libFuzzer target: the log page parsers (CDL's too). */
#include "ata/cdl.h"
#include "ata/log.h"

#include <stdint.h>
#include <stddef.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t page[ATA_LOG_PAGE_BYTES] = { 0 };
	struct ata_ncq_error e;
	struct ata_cdl_log cdl;
	bool b;
	unsigned i;

	memcpy(page, data, size < sizeof(page) ? size : sizeof(page));
	for (i = 0; i < 256; i++)
		ata_gpl_dir_pages(page, (uint8_t)i);
	ata_id_log_supported_has(page, 8, &b);
	ata_id_log_sata_settings_ncq_prio(page, &b);
	ata_ncq_error_parse(page, &e);
	ata_cdl_log_parse(page, &cdl);
	ata_id_log_capabilities_cdl(page, &b);
	ata_id_log_current_settings_cdl(page, &b);
	return 0;
}
