/* libFuzzer target: CDL descriptor pages in cdladm's text form (T2A and T2B). */
#include "disk/cdlpage.h"

#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ata_cdl_log l;
	struct err e;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&l, 0, sizeof(l));
	disk_cdl_page_parse(text, "fuzz.cdl", true, &l, &e);
	disk_cdl_page_parse(text, "fuzz.cdl", false, &l, &e);
	free(text);
	return 0;
}
