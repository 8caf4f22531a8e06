/*
 * libFuzzer target: the DiskSim .parv reader and the importer behind it.
 * The text is read as test/data/disksim/hp_c2247a/fuzz.parv (from the
 * source tree or from build/fuzz, where test/fuzz/run-fuzz runs it), so
 * `source` lines may reach the real drive files beside it; seeds: the
 * files under test/data/disksim. The drive file goes to /dev/null.
 */
#include "disk/import_disksim.h"
#include "disk/parv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	char *text = malloc(size + 1);
	struct err e;

	if (!text)
		return 0;
	if (!sink)
		sink = fopen("/dev/null", "w");
	memcpy(text, data, size);
	text[size] = '\0';
	if (strlen(text) == size && sink)
		disk_import_disksim(access("test/data/disksim", F_OK) == 0 ?
				    "test/data/disksim/hp_c2247a/fuzz.parv" :
				    "../../test/data/disksim/hp_c2247a/fuzz.parv", text, sink, NULL, &e);
	free(text);
	return 0;
}
