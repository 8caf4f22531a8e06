/*
 * libFuzzer target: a job file loaded and run — a short simulation on the
 * built-in he8 drive with the default host — so that what the parser lets
 * through is also exercised by the job engine, the block layer and the
 * drive. Each input is capped at 20 ms of simulated time and 16 jobs, and
 * inputs that would write files (latency logs, iologs) are skipped.
 */
#include "run/runner.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool writes_files(const struct workload *w)
{
	unsigned i;

	for (i = 0; i < w->ndefs; i++)
		if (w->defs[i].o.write_lat_log[0] || w->defs[i].o.write_iolog[0])
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct workload w;
	struct host_config cfg;
	struct runner_opts ro;
	struct runner_result res;
	struct err e;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (workload_load_text(&w, text, "fuzz.fio", NULL, &e)) {
		free(text);
		return 0;
	}
	free(text);
	if (w.njobs <= 16 && !writes_files(&w)) {
		host_config_init(&cfg);
		memset(&ro, 0, sizeof(ro));
		ro.seed = 1;
		ro.runtime_cap = 20 * 1000 * 1000;
		if (runner_run(&w, &cfg, &ro, &res, &e) == 0)
			runner_result_free(&res);
	}
	workload_free(&w);
	return 0;
}
