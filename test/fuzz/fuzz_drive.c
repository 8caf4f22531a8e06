/*
 * libFuzzer target: drive model files of both forms, and a drive that
 * loads serving a few commands one at a time (layout, seek table, cache).
 * Seed corpus: the built-in drive files and `ncqsim import disksim` output.
 */
#include "disk/model.h"
#include "disk/service.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct disk_model *m = malloc(sizeof(*m));
	struct disk_service *s = malloc(sizeof(*s));
	struct err e;

	if (!text || !m || !s)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (strlen(text) == size && disk_model_parse(text, "fuzz.drive", m, &e) == 0 &&
	    disk_service_init(s, m, &e) == 0) {
		static const uint64_t lbas[] = { 0, 1, 4096, 1000003 };
		enum disk_service_kind k;
		int64_t t = 0;
		unsigned i;

		for (i = 0; i < 8; i++) {
			uint64_t lba = lbas[i % 4] % (uint64_t)m->sectors, n = 1 + i * 7;

			if (lba + n > (uint64_t)m->sectors)
				continue;
			t = disk_service_command(s, t, i % 3 == 2, lba, n, &k) + 1000000;
		}
	}
out:
	free(text);
	free(m);
	free(s);
	return 0;
}
