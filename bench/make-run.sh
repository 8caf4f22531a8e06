#!/usr/bin/env bash
# bench/make-run.sh: wall time of the seed comparison that 'make run' runs
# (2 variants x 8 runs of one simulated hour, on every online CPU), with
# the CPU time it used. Must stay well under a minute on a 2-core machine.
set -euo pipefail
ncqsim=${NCQSIM:-./ncqsim}
svg=$(mktemp --suffix=.svg)
trap 'rm -f "$svg"' EXIT
start=$(date +%s.%N)
# ncqsim's own closing line on stderr gives CPU-s and I/Os per CPU-second.
summary=$("$ncqsim" compare examples/seed.fio --system examples/seed.system \
	--vary device/ncq_prio_enable=0,1 --repeat 8 --plot "$svg" 2>&1 >/dev/null | tail -n 1)
end=$(date +%s.%N)
# "N s simulated in C CPU-s, R M I/Os per CPU-second; W s wall on T threads"
cpu=$(sed -E 's/.* in ([0-9.]+) CPU-s.*/\1/' <<<"$summary")
rate=$(sed -E 's/.*CPU-s, ([0-9.]+M) I\/Os per CPU-second.*/\1/' <<<"$summary")
printf 'make run: %.1f s wall on %s CPUs, %s CPU-s, %s I/Os per CPU-second\n' \
	"$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$(nproc)" "$cpu" "$rate"
