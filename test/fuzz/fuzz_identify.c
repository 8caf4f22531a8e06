/* libFuzzer target: every IDENTIFY form the loader recognises, then the decoder. */
#include "ata/identify.h"

#include <stdint.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t page[ATA_ID_BYTES];
	enum ata_id_form form;
	struct ata_identify id;
	char why[256];

	if (ata_identify_load(data, size, page, &form, why, sizeof(why)) == ATA_OK)
		ata_identify_parse(page, &id);
	if (size >= ATA_ID_BYTES)
		ata_identify_parse(data, &id);
	return 0;
}
