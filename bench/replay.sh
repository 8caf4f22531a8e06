#!/usr/bin/env bash
# bench/replay.sh: a trace of REPLAY_BENCH_N requests (default 10 million)
# replayed open loop; peak memory (GNU time's maximum resident set size)
# and requests per CPU-second, counting both passes over the trace (the
# check and the replay). The trace is synthetic, written here: blkparse
# text, two processes taking turns, 4 KiB random reads over the drive,
# one every 10 ms (a load the drive keeps up with, so the backlog, the
# only memory that may grow, stays small). About 70 bytes a line: 700 MB
# in $TMPDIR for 10 million, removed afterwards.
set -euo pipefail
ncqsim=${NCQSIM:-./ncqsim}
n=${REPLAY_BENCH_N:-10000000}
[ -x /usr/bin/time ] || { echo "replay: skipped, no /usr/bin/time (GNU time)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v n="$n" 'BEGIN {
	seed = 42
	for (i = 0; i < n; i++) {
		seed = (seed * 16807) % 2147483647
		sector = int(seed / 2147483647 * 1953000000) * 8
		pid = 100 + i % 2
		printf "  8,0 %3d %10d %10d.%09d %5d  Q   R %.0f + 8 [proc%d]\n", i % 2, i + 1,
			int(i / 100), (i % 100) * 10000000, pid, sector, pid
	}
}' >"$dir/trace.blkparse"
/usr/bin/time -v "$ncqsim" replay "$dir/trace.blkparse" --quiet --output-format=json \
	>"$dir/out.json" 2>"$dir/time.txt"
issued=$(awk '/"total_ios"/ { gsub(/[^0-9]/, "", $3); s += $3 } END { print s + 0 }' "$dir/out.json")
[ "$issued" -eq "$n" ] || echo "replay: WARNING: $issued I/Os completed, the trace has $n"
rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time.txt")
user=$(awk -F': ' '/User time/ { print $2 }' "$dir/time.txt")
sys=$(awk -F': ' '/System time/ { print $2 }' "$dir/time.txt")
awk -v n="$n" -v rss="$rss_kb" -v u="$user" -v s="$sys" -v bytes="$(stat -c %s "$dir/trace.blkparse")" 'BEGIN {
	printf "replay: %d requests (%.0f MB of blkparse text) open loop: peak RSS %.1f MiB, %.1f CPU-s, %.2fM requests per CPU-second\n",
		n, bytes / 1e6, rss / 1024, u + s, n / (u + s) / 1e6
}'
