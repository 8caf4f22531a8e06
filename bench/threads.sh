#!/usr/bin/env bash
# bench/threads.sh: how compare scales with threads — runs per wall-second
# of the seed comparison (2 variants x 8 runs of 600 simulated seconds) on
# 1 and 2 threads and on every online CPU. On a shared machine the wall
# figures swing with the load; their ratio to 1 thread is the point.
set -euo pipefail
ncqsim=${NCQSIM:-./ncqsim}
runs=16
base=
threads="1 2"
[ "$(nproc)" -le 2 ] || threads="$threads $(nproc)"
for t in $threads; do
	start=$(date +%s.%N)
	"$ncqsim" compare examples/seed.fio --system examples/seed.system \
		--vary device/ncq_prio_enable=0,1 --repeat $((runs / 2)) --runtime 600 --quiet \
		--threads "$t" >/dev/null
	end=$(date +%s.%N)
	rate=$(awk -v a="$start" -v b="$end" -v n="$runs" 'BEGIN { print n / (b - a) }')
	[ -n "$base" ] || base=$rate
	printf 'compare on %3s thread%s: %6.1f runs per wall-second (%.2f x 1 thread; %s online CPUs)\n' \
		"$t" "$([ "$t" = 1 ] && echo " " || echo s)" "$rate" \
		"$(awk -v r="$rate" -v b="$base" 'BEGIN { print r / b }')" "$(nproc)"
done
