#!/usr/bin/env bash
# bench/instr.sh: instructions per simulated I/O, counted by cachegrind
# (skipped when valgrind is not installed), beside I/Os per CPU-second
# measured natively — for the seed's 600-s run (ncq_prio_enable=0, as the
# seed table's first column) and for the drive alone at QD 32 (4 KiB random
# reads, bench/drive). Instruction counts do not swing with the machine's
# load as CPU time does; start-up is included.
set -euo pipefail
ncqsim=${NCQSIM:-./ncqsim}
benchdir=${BENCHDIR:-build/cc/bench}
if ! command -v valgrind >/dev/null; then
	echo "instructions per I/O: skipped (valgrind is not installed)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The instructions cachegrind counted ("I refs" / "I   refs:").
irefs() { sed -n -E 's/.*I[[:space:]]+refs:[[:space:]]+([0-9,]+).*/\1/p' "$1" | tr -d ,; }
cpu_of() { # CPU seconds (user + system) of a command, its output discarded
	local TIMEFORMAT=%3U+%3S
	{ time "$@" >/dev/null; } 2>&1 | tail -n 1 | awk -F+ '{ print $1 + $2 }'
}

seed=(run examples/seed.fio --system examples/seed.system --runtime 600 --quiet
	--output-format=json)
# valgrind 3.19 cannot read clang's DWARF 5: build with gcc (make) first.
if ! valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/seed.cg" \
	"$ncqsim" "${seed[@]}" --output "$tmp/seed.json" 2>"$tmp/seed.vg"; then
	echo "instructions per I/O: skipped (valgrind failed: $(grep -m1 -E 'I can|rror' "$tmp/seed.vg"))"
	exit 0
fi
ios=$(sed -n -E 's/.*"total_ios" : ([0-9]+).*/\1/p' "$tmp/seed.json" | awk '{ s += $1 } END { print s }')
instr=$(irefs "$tmp/seed.vg")
cpu=$(cpu_of "$ncqsim" "${seed[@]}" --output "$tmp/seed2.json")
printf 'instructions per I/O, seed 600 s (ncq_prio_enable=0): %d (%.1f M instructions, %d I/Os); %.2f M I/Os per CPU-second\n' \
	$((instr / ios)) "$(awk -v i="$instr" 'BEGIN { print i / 1e6 }')" "$ios" \
	"$(awk -v n="$ios" -v c="$cpu" 'BEGIN { print (c > 0 ? n / c / 1e6 : 0) }')"
# Where they go: cachegrind's count per function, grouped by the layer of
# the source the instructions came from (an inline helper of sim.h counts
# in its caller's layer). README "Speed" quotes these.
if command -v cg_annotate >/dev/null; then
	cg_annotate --threshold=0 "$tmp/seed.cg" 2>/dev/null | awk -v ios="$ios" '
	function layer(f, fn) {
		if (f ~ /sim\.h$/) {
			if (fn ~ /^(dd_|blk_|run_queue|request_|tag_)/) return "block layer + scheduler"
			if (fn ~ /^libata/) return "libata"
			if (fn ~ /^(job_|io_|submit_|fio_|next_|issue|bio_)/) return "job: next I/O, issue, reap"
			if (fn ~ /^(dispatch|media_done|queue_rw|decode|disk_submit|ncq_rw|sdb_|waiting|stream)/)
				return "drive: queue, dispatch, completion"
		}
		if (f ~ /disk\/fwq/ && fn ~ /(satf|pick)/) return "drive: SATF pick"
		if (f ~ /disk\/(mech|layout)\./) return "drive: layout + mechanics"
		if (f ~ /disk\/cache\./) return "drive: cache"
		if (f ~ /\/disk\// || f ~ /memmove/) return "drive: queue, dispatch, completion"
		if (f ~ /\/ata\//) return "FIS and command codecs"
		if (f ~ /libata\.c$/) return "libata"
		if (f ~ /(blk\.c|sched_[a-z_-]*\.c|treap\.c|ioprio\.c|kernel\.c)$/) return "block layer + scheduler"
		if (f ~ /hist\.[ch]$/) return "job statistics (hist.h)"
		if (f ~ /\/workload\// || f ~ /(rng|blk)\.h$/) return "job: next I/O, issue, reap"
		if (f ~ /\/sim\//) return "event queue"
		return "start-up, host-drive glue, the rest"
	}
	/^-- (Auto|User)-annotated/ { done = 1 }	# the per-line listings follow the per-function one
	!done && /^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]+:[^ ]+$/ {
		v = $1; gsub(",", "", v); n = split($NF, p, ":")
		by[layer(p[1], p[n])] += v
	}
	END { for (k in by) printf "  %6.0f  %s\n", by[k] / ios, k }' | sort -rn |
		sed '1i\  instructions per I/O by layer (seed 600 s):'
fi

drive_ios=100000
if [ ! -x "$benchdir/drive" ]; then
	echo "instructions per I/O, drive alone: skipped ($benchdir/drive is not built: run 'make bench')" >&2
	exit 1
fi
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
	"$benchdir/drive" he8 "$drive_ios" 32 >"$tmp/drive.out" 2>"$tmp/drive.vg"
instr=$(irefs "$tmp/drive.vg")
rate=$("$benchdir/drive" he8 "$drive_ios" 32 | awk 'END { print $NF }')
printf 'instructions per I/O, drive he8 QD 32 4 KiB random reads: %d (%.1f M instructions, %d I/Os); %.2f M I/Os per CPU-second\n' \
	$((instr / drive_ios)) "$(awk -v i="$instr" 'BEGIN { print i / 1e6 }')" "$drive_ios" \
	"$(awk -v r="$rate" 'BEGIN { print r / 1e6 }')"
