/*
 * bench/drive: the drive alone, driven through its ATA interface: 4 KiB
 * random reads over the full span at QD 1, 2, 4, 8, 16, 32 — IOPS, mean and
 * p99 latency — and simulated I/Os per CPU-second.
 *
 *   build/cc/bench/drive [DRIVE] [IOS] [QD]     (defaults he8, 200000, all six)
 *
 * bench/instr.sh runs "he8 100000 32" under cachegrind: instructions per I/O.
 */
#include "bench.h"
#include "drivelab.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	static const unsigned qds[] = { 1, 2, 4, 8, 16, 32 };
	const char *drive = argc > 1 ? argv[1] : "he8";
	uint64_t ios = argc > 2 ? strtoull(argv[2], NULL, 10) : 200000;
	unsigned only_qd = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0;
	double iops1 = 0;
	size_t i;

	printf("drive %s: 4 KiB random reads over the full span, %llu I/Os per depth\n", drive,
	       (unsigned long long)ios);
	printf("   QD     IOPS  x QD1   mean ms    p99 ms   max ms   I/Os per CPU-s\n");
	for (i = 0; i < sizeof(qds) / sizeof(qds[0]); i++) {
		struct drivelab lab;
		double secs, cpu0, cpu1, iops;

		if (only_qd && qds[i] != only_qd)
			continue;
		if (drivelab_init(&lab, drive, 1))
			return 1;
		lab.qd = qds[i];
		cpu0 = bench_cpu_seconds();
		secs = drivelab_run(&lab, ios);
		cpu1 = bench_cpu_seconds();
		iops = (double)lab.completed / secs;
		if (qds[i] == 1 || !iops1)
			iops1 = iops;
		printf("%5u %8.1f %6.2f %9.2f %9.2f %8.1f %16.0f\n", qds[i], iops, iops / iops1,
		       lab.lat.sum.mean / 1e6, hist_percentile(&lab.lat, 99.0) / 1e6,
		       lab.lat.sum.max / 1e6, (double)lab.completed / (cpu1 - cpu0));
		drivelab_destroy(&lab);
	}
	return 0;
}
