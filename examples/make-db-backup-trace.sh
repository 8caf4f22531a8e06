#!/bin/sh
# Writes examples/db-backup.blkparse: a SYNTHETIC trace, in blkparse's
# default text format, of the situation README's "Replaying your own
# workload" asks about. Nothing in it was measured on a real system.
#
#   postgres (pid 4242)  8 KiB random reads over the first 200 GiB, on
#                        average one every 40 ms (Poisson arrivals): the
#                        latency-sensitive database
#   tar (pid 5151)       a backup: bursts of 8 random 256 KiB reads every
#                        100 ms over the whole 8 TB, which keep the drive's
#                        queue busy without outrunning it
#
# 10 seconds of trace. The random numbers come from the Park-Miller
# generator written out below (not awk's rand()), so every awk writes the
# same file. Usage: sh examples/make-db-backup-trace.sh > examples/db-backup.blkparse
awk 'function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
BEGIN {
	seed = 20261201
	seq = 0
	n = 0
	# The database: exponential gaps with a 40 ms mean.
	t = 0
	while (1) {
		t += -log(1 - rnd()) * 0.040
		if (t >= 10) break
		sector = int(rnd() * (200 * 2097152 / 16)) * 16	# 8 KiB aligned, 200 GiB
		ev[n++] = sprintf("%.9f 4242 R %.0f 16 postgres", t, sector)
	}
	# The backup: 8 reads at the start of every 100 ms.
	for (b = 0; b < 100; b++)
		for (i = 0; i < 8; i++) {
			t = b * 0.100 + i * 0.000005
			sector = int(rnd() * (15000000000 / 512)) * 512	# 256 KiB aligned
			ev[n++] = sprintf("%.9f 5151 R %.0f 512 tar", t, sector)
		}
	for (i = 0; i < n; i++) print ev[i]
}' | sort -n -k1,1 | awk '{ seq++; cpu = ($2 == 4242) ? 0 : 1
	printf "  8,0 %3d %8d %14s %5d  Q %3s %.0f + %d [%s]\n", cpu, seq, $1, $2, $3, $4, $5, $6 }'
