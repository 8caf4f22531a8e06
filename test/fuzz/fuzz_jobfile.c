/* libFuzzer target: the job-file reader and the option table behind it. */
#include "workload/job.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct workload w;
	struct err e;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (workload_load_text(&w, text, "fuzz.fio", NULL, &e) == 0)
		workload_free(&w);
	free(text);
	return 0;
}
