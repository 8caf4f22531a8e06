#!/usr/bin/env bash
# loops: fio 3.33 ends each pass of a loop as do_io() does — every I/O in
# flight completes before the next pass's first is issued — then
# clear_io_state(): the file is closed and opened again, a strided zone
# starts over and the random streams are reseeded (randrepeat), so each
# pass repeats the first. time_based runs wrap in place instead. With an
# async engine a pass also ends after `size` bytes issued (do_io()'s
# bytes_issued, which a sync engine never counts).
#
# Each case's figure is stored in test/data/fio-loops/figures (fio 3.33's);
# ncqsim is checked against it, and with FIO set, so is a live fio.
# RECORD=1 FIO=fio prints fio's figures in the stored file's format.
. "$(dirname "$0")/lib/sh.sh"
figures=$TESTDATA/fio-loops/figures

# dips: how often the in-flight count falls to 0 before the last completion.
# ncqsim's --debug=blk requests and completions; fio's --debug=io queue and complete.
dips() { awk -v q="$1" -v c="$2" '$0 ~ q { n++ } $0 ~ c { n--; if (n == 0) z++ } END { print z - 1 }'; }
# passes: the write_iolog's I/Os per open..close, and whether each later pass
# repeats the first (r) or not (n); `seq` keeps the offsets (in 4 KiB blocks).
passes() {
	awk -v seq="$1" '
	$3 == "open" { cur = "" ; k = 0 }
	$3 == "read" || $3 == "write" { cur = cur substr($3, 1, 1) $4 / 4096 " "; k++ }
	$3 == "close" { p++; if (p == 1) first = cur; out = out (p > 1 ? "," : "") k \
		(p > 1 ? (cur == first ? "r" : "n") : ""); if (seq) s = s cur "| " }
	END { line = out (seq ? " " s : ""); sub(/ +$/, "", line); print line }'
}
stored() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$figures"; }
check() {
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: $4 gives '$3', fio 3.33 '$2'"
}

# case NAME KIND SEQ OPTIONS...: KIND dips or iolog
case_() {
	local name=$1 kind=$2 seq=$3 want got
	shift 3
	want=$(stored "$name")
	[ -n "$want" ] || [ -n "${RECORD:-}" ] || { fail "$name: no stored figure"; return; }
	printf '[%s]\n' "$name" >"$tmp/j.fio"
	printf '%s\n' "$@" >>"$tmp/j.fio"
	if [ "$kind" = dips ]; then
		"$NCQSIM" run "$tmp/j.fio" --debug=blk --output=/dev/null 2>"$tmp/dbg" ||
			{ fail "$name: ncqsim failed: $(head -c 300 "$tmp/dbg")"; return; }
		got=$(dips ' blk +request ' ' blk +complete ' <"$tmp/dbg")
	else
		echo "write_iolog=$tmp/n.iolog" >>"$tmp/j.fio"
		"$NCQSIM" run "$tmp/j.fio" --output=/dev/null 2>"$tmp/err" ||
			{ fail "$name: ncqsim failed: $(head -c 300 "$tmp/err")"; return; }
		got=$(passes "$seq" <"$tmp/n.iolog")
	fi
	[ -n "${RECORD:-}" ] || check "$name" "$want" "$got" ncqsim
	[ -n "$fio" ] || return
	local args=() o
	for o in "$@"; do args+=("--$o"); done
	truncate -s 1m "$tmp/scratch"
	if [ "$kind" = dips ]; then
		(cd "$tmp" && "$fio" --name="$name" --filename="$tmp/scratch" --direct=1 "${args[@]}" \
			--debug=io >"$tmp/fdbg" 2>&1)
		got=$(dips ' queue: io_u ' ' complete: io_u ' <"$tmp/fdbg")
	else
		rm -f "$tmp/f.iolog"
		(cd "$tmp" && "$fio" --name="$name" --filename="$tmp/scratch" "${args[@]}" \
			--write_iolog="$tmp/f.iolog" --output=/dev/null)
		got=$(passes "$seq" <"$tmp/f.iolog")
	fi
	if [ -n "${RECORD:-}" ]; then
		echo "$name $got"
		return
	fi
	check "$name" "$want" "$got" "fio ($fio)"
}

# The drain: depth 8, 3 passes: 2 dips to 0; depth 32, 4 passes of 256: 3.
case_ qd8_loops3 dips 0 ioengine=libaio iodepth=8 rw=randread bs=4k size=64k loops=3
case_ qd32_loops4 dips 0 ioengine=libaio iodepth=32 rw=randread bs=4k size=1m loops=4
# norandommap: the pass ends after size bytes issued, and drains too.
case_ qd8_norandommap dips 0 ioengine=libaio iodepth=8 rw=randread norandommap=1 bs=4k size=64k \
	loops=3
# time_based wraps without draining: none before the runtime's end.
case_ qd8_time_based dips 0 ioengine=libaio iodepth=8 rw=randread bs=4k size=64k loops=3 \
	time_based=1 runtime=1s
# Between passes: close, open, the same offsets again (randrepeat).
case_ rand_map iolog 0 ioengine=libaio rw=randread bs=4k size=32k loops=2
case_ rand_map_io_size iolog 0 ioengine=libaio rw=randread bs=4k size=32k io_size=64k
case_ randrw_psync iolog 0 ioengine=psync rw=randrw bs=4k size=32k loops=2
# zipf's own state is not reseeded: the passes differ.
case_ zipf iolog 0 ioengine=libaio rw=randread bs=4k size=256k loops=2 random_distribution=zipf:1.2
# norandommap: libaio ends a pass after size bytes, psync never.
case_ norandommap_libaio iolog 0 ioengine=libaio rw=randread norandommap=1 bs=4k size=32k loops=2
case_ norandommap_psync iolog 0 ioengine=psync rw=randread norandommap=1 bs=4k size=32k loops=2
# Strided zones start over each pass (libaio); psync's one pass goes on.
case_ strided_libaio iolog 1 ioengine=libaio rw=read zonemode=strided zonesize=4k zonerange=12k \
	bs=4k size=24k loops=2
case_ strided_psync iolog 1 ioengine=psync rw=read zonemode=strided zonesize=4k zonerange=12k \
	bs=4k size=24k loops=2
finish
