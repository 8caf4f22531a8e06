#!/usr/bin/env bash
# A compare sweep split into shards run by GNU parallel, then merged.
#
#   examples/sweep/parallel.sh OUTDIR [SHARDS] [-- PARALLEL-OPTIONS...]
#
# Runs on the local cores by default (parallel -j: one shard per core).
# Across hosts: pass parallel's own options after --, for example
#   examples/sweep/parallel.sh out 8 -- --sshlogin 4/node1,4/node2 --workdir .
# (ncqsim and this checkout must be at the same path on every host;
# --return brings each shard's file back). The sweep is set below: edit
# SWEEP. Shards are independent: a failed one can be rerun alone
# (ncqsim compare ... --shard I/N) and the merge repeated.
set -euo pipefail
out=${1:?usage: parallel.sh OUTDIR [SHARDS] [-- PARALLEL-OPTIONS...]}
shards=${2:-4}
shift $(($# >= 2 ? 2 : 1))
[ "${1:-}" = -- ] && shift
ncqsim=${NCQSIM:-ncqsim}
SWEEP=(examples/seed.fio --system examples/seed.system
	--vary device/ncq_prio_enable=0,1 --repeat "${REPEAT:-8}" --runtime "${RUNTIME:-3600}")
mkdir -p "$out"
# {} is the shard's number; each writes out/shard-I.json. --halt: stop at the
# first failed shard and exit non-zero.
remote=()
[ $# -eq 0 ] || remote=(--return "$out/shard-{}.json")
parallel --halt now,fail=1 "$@" "${remote[@]}" \
	"$ncqsim" compare "${SWEEP[@]}" --threads 1 --quiet --shard "{}/$shards" \
	--output "$out/shard-{}.json" ::: $(seq 1 "$shards")
"$ncqsim" merge "$out"/shard-*.json --output "$out/table.txt" --plot "$out/plot.svg"
cat "$out/table.txt"
