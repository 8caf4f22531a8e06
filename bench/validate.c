/*
 * bench/validate: `ncqsim validate` on DiskSim 4.0's real-drive suite
 * (test/data/disksim): import each drive, replay its trace, and report the
 * CPU-seconds per 10 000 requests — replay and metric together, the trace
 * already in memory — beside DiskSim's own 0.2-0.9 CPU-s per 10 000-request
 * validation run (the reference README's figure). The best of 5 repeats.
 */
#include "bench.h"

#include "disk/import_disksim.h"
#include "disk/model.h"
#include "run/validate.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
	static const char *const drives[] = { "hp_c2247a", "hp_c3323a", "dec_rz26", "cheetah4LP",
					      "atlas_III" };
	size_t i;

	printf("validate: CPU-seconds per 10 000 requests (DiskSim 4.0: 0.2-0.9)\n");
	printf("%-12s %9s %12s %10s %12s\n", "drive", "requests", "CPU-s/10k", "RMS ms",
	       "x DiskSim 0.2");
	for (i = 0; i < sizeof(drives) / sizeof(drives[0]); i++) {
		char parv[256], trace[256], *text = NULL;
		size_t len = 0;
		struct disk_model *m = malloc(sizeof(*m));
		struct validate_trace t;
		struct validate_result r;
		struct err e;
		double best = 1e9, rms = 0;
		FILE *f;
		int k;

		snprintf(parv, sizeof(parv), "test/data/disksim/%s/%s.parv", drives[i], drives[i]);
		snprintf(trace, sizeof(trace), "test/data/disksim/%s/%s.trace", drives[i], drives[i]);
		f = open_memstream(&text, &len);
		if (!m || disk_import_disksim(parv, NULL, f, NULL, &e)) {
			fclose(f);
			fprintf(stderr, "bench/validate: %s\n", m ? e.msg : "out of memory");
			return 1;
		}
		fclose(f);
		if (disk_model_parse(text, parv, m, &e) || validate_read_disksim(trace, NULL, &t, &e)) {
			fprintf(stderr, "bench/validate: %s\n", e.msg);
			return 1;
		}
		for (k = 0; k < 5; k++) {
			double c0 = bench_cpu_seconds(), c1;

			if (validate_run(m, &t, trace, &r, &e)) {
				fprintf(stderr, "bench/validate: %s\n", e.msg);
				return 1;
			}
			c1 = bench_cpu_seconds();
			if (c1 - c0 < best)
				best = c1 - c0;
			rms = r.rms_ms;
			validate_result_free(&r);
		}
		printf("%-12s %9zu %12.4f %10.3f %12.0f\n", drives[i], t.n, best * 10000.0 / (double)t.n,
		       rms, 0.2 / (best * 10000.0 / (double)t.n));
		validate_trace_free(&t);
		free(text);
		free(m);
	}
	return 0;
}
