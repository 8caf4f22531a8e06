# fio as the oracle: each job file of test/data/fio-oracle runs through
# ncqsim, and its per-job names, groups, I/O counts and bytes must equal
# fio 3.33's, stored in expected.txt (so the comparison holds where fio is
# not installed; $FIO names another fio binary). Where fio 3.33 is installed the stored figures are
# checked against a fresh fio run too; FIO_ORACLE_UPDATE=1 rewrites them.
#
# fio runs with ioengine=psync on a sparse 64 MiB file standing in for the
# drive: fio's idea of the device's size (real_file_size) is then the
# file's, as on a block device. With ioengine=null it would be offset+size,
# which changes two edge cases (a last block that overruns the region, and
# holes that end exactly at the region's end) — see docs/FIO.md.
#
# A file's "; oracle: MODE" line says what fio decides exactly: exact (the
# default) every figure; bytes the bytes per direction (the sizes drawn
# are random); total the bytes of both directions (rwmix draws the
# direction); jobs the names and groups only.
. test/lib/sh.sh
dir=$TESTDATA/fio-oracle
expected=$dir/expected.txt
figures() { awk -f "$(dirname "$TESTDATA")/lib/fio-figures.awk"; }
mode_of() { sed -n "s/^; oracle: *//p" "$1" | head -n 1; }

check_fio "the stored fio figures only"
[ -z "$fio_ok" ] || truncate -s 64m "$tmp/dev"

# cut FIGURES MODE: the fields MODE compares
cut_mode() {
	case $2 in
	exact) echo "$1" ;;
	bytes) echo "$1" | awk '{ print $1, $2, $4, $6 }' ;;
	total) echo "$1" | awk '{ print $1, $2, $4 + $6 }' ;;
	jobs) echo "$1" | awk '{ print $1, $2 }' ;;
	*) echo "bad mode $2" ;;
	esac
}

new=$tmp/expected.txt
: >"$new"
files=0
for f in "$dir"/*.fio; do
	name=$(basename "$f" .fio)
	mode=$(mode_of "$f")
	: "${mode:=exact}"
	files=$((files + 1))
	ours=$("$NCQSIM" run --output-format=json "$f" 2>"$tmp/err" | figures)
	stored=$([ -f "$expected" ] && awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$expected")
	if [ -n "$fio_ok" ]; then
		# From $tmp: a verifying job leaves fio's state file where it runs.
		theirs=$(cd "$tmp" && "$fio" --ioengine=psync --filename="$tmp/dev" \
			--output-format=json "$f" 2>/dev/null | figures)
		printf '%s\n' "$theirs" | sed "s/^/$name /" >>"$new"
		checks=$((checks + 1))
		[ "$(cut_mode "$theirs" "$mode")" = "$(cut_mode "$stored" "$mode")" ] ||
			[ -n "${FIO_ORACLE_UPDATE:-}" ] ||
			fail "$name: fio now gives '$theirs', expected.txt has '$stored'"
	else
		theirs=$stored
	fi
	checks=$((checks + 1))
	[ -n "$theirs" ] || fail "$name: no fio figures (expected.txt lacks it?)"
	[ "$(cut_mode "$ours" "$mode")" = "$(cut_mode "$theirs" "$mode")" ] ||
		fail "$name ($mode): ncqsim '$(echo $ours)' ($(head -c 200 "$tmp/err")), fio '$(echo $theirs)'"
done
[ -n "${FIO_ORACLE_UPDATE:-}" ] && [ -n "$fio_ok" ] && cp "$new" "$expected"
checks=$((checks + 1))
[ "$files" -ge 60 ] || fail "only $files job files"

# fio's command line: jobs from --name and job options, several job files
# (the first job of each later file stonewalled, so a new group; each later
# file from the defaults: no earlier [global] or command-line option reaches
# it), --section.
# ARGS|FIGURES (fio 3.33's, one job per ';'), run from test/data/fio-oracle.
while IFS='|' read -r args want; do
	[ -n "$args" ] || continue
	# shellcheck disable=SC2086
	got=$(cd "$dir" && "$NCQSIM" run --output-format=json $args 2>"$tmp/err" | figures |
		paste -sd ';')
	checks=$((checks + 1))
	[ "$got" = "$want" ] || fail "run $args: '$got' ($(head -c 200 "$tmp/err")), fio '$want'"
	if [ -n "$fio_ok" ]; then
		# shellcheck disable=SC2086
		# From $tmp: fio's options before the job files reach the first file
		# only, so a later file's jobs make files of their own.
		theirs=$(cd "$tmp" && "$fio" --ioengine=psync --filename="$tmp/dev" \
			--output-format=json $(echo " $args" | sed "s| \([a-z_]*\.fio\)| $dir/\1|g") \
			2>/dev/null | figures | paste -sd ';')
		checks=$((checks + 1))
		[ "$theirs" = "$want" ] || fail "fio $args now gives '$theirs', the table '$want'"
	fi
done <<'TABLE'
--name=x --rw=randread --bs=4k --size=1m|x 0 256 1048576 0 0
--bs=8k --name=a --rw=read --size=1m --name=b --rw=write --size=512k|a 0 128 1048576 0 0;b 0 0 0 64 524288
size_write.fio hole_read.fio|j 0 0 0 256 1048576;j 1 86 352256 0 0
--section=b groups.fio|b 0 0 0 128 1048576
--section=c --section=a groups.fio|a 0 256 1048576 0 0;c 1 128 524288 0 0
--size=256k global_defaults.fio|a 0 128 2097152 0 0;b 0 0 0 128 2097152;c 0 512 2097152 0 0
--bs=16k multi_a.fio multi_b.fio|a 0 128 1048576 0 0;b 1 256 1048576 0 0
TABLE
# A job file on standard input.
checks=$((checks + 1))
got=$("$NCQSIM" run --output-format=json - <"$dir/hole_read.fio" | figures)
[ "$got" = "j 0 86 352256 0 0" ] || fail "run - <hole_read.fio: '$got'"
expect_rc 2 "$NCQSIM" run --name=x --rw=read --pre_read=1
err_has "command line:3: option 'pre_read' is a fio option ncqsim does not support"
expect_rc 2 "$NCQSIM" run
err_has "expected a JOBFILE or --name=NAME"

# bsrange reaches its largest size (fio draws over [min, max] and aligns down).
for spec in 4k-16k:16384 4k-8k:8192; do
	printf '[j]\nrw=read\nbsrange=%s\nsize=1m\nwrite_iolog=%s\n' "${spec%%:*}" "$tmp/io.log" \
		>"$tmp/r.fio"
	expect_rc 0 "$NCQSIM" run "$tmp/r.fio"
	checks=$((checks + 1))
	grep -q " read [0-9]* ${spec##*:}\$" "$tmp/io.log" ||
		fail "bsrange=${spec%%:*} never drew ${spec##*:}"
done

# Backwards with holes over a region at an offset: fio's first I/O is at the
# offset (its rewind arithmetic), the second at the region's end less the hole.
printf '[j]\nrw=read:-8k\nbs=4k\noffset=1m\nsize=1m\nwrite_iolog=%s\n' "$tmp/io.log" >"$tmp/n.fio"
expect_rc 0 "$NCQSIM" run "$tmp/n.fio"
checks=$((checks + 1))
[ "$(awk '$3 == "read" { print $4 }' "$tmp/io.log" | head -n 2 | tr '\n' ' ')" = "1048576 2088960 " ] ||
	fail "rw=read:-8k offset=1m: first offsets $(awk '$3 == "read" { print $4 }' "$tmp/io.log" | head -n 2 | tr '\n' ' ')"

# fio options ncqsim once called unknown to fio as well (iomem_align and
# mem_align are now accepted without effect: t_cli_run).
for o in pre_read verify_state_load; do
	printf '[j]\nrw=read\nsize=1m\n%s=1\n' "$o" >"$tmp/o.fio"
	expect_rc 2 "$NCQSIM" run "$tmp/o.fio"
	err_has "option '$o' is a fio option ncqsim does not support"
done
printf '[j]\nrw=randread\nsize=1m\nsoftrandommap=1\n' >"$tmp/o.fio"
expect_rc 0 "$NCQSIM" run "$tmp/o.fio"

# Output details as fio 3.33 prints them: the write line's zone resets; the
# JSON names ncqsim as its version and fio 3.33 as its format.
printf '[j]\nrw=write\nbs=4k\nsize=64k\n' >"$tmp/w.fio"
expect_rc 0 "$NCQSIM" run "$tmp/w.fio"
out_has "(64.0KiB/"
checks=$((checks + 1))
grep -q '^  write: IOPS=.*msec); 0 zone resets$' "$tmp/out" || fail "no '; 0 zone resets' on the write line"
expect_rc 0 "$NCQSIM" run --output-format=json "$tmp/w.fio"
out_has '"fio format" : "fio-3.33",'

# offset_increment: clone N starts N x it further (fio's subjob_number);
# the clones share the iolog's name, and the last one's is kept, as in fio.
printf '[j]\nrw=read\nbs=4k\nsize=64k\nnumjobs=3\noffset_increment=1m\nwrite_iolog=%s\n' \
	"$tmp/oi.log" >"$tmp/oi.fio"
expect_rc 0 "$NCQSIM" run "$tmp/oi.fio"
checks=$((checks + 1))
[ "$(awk '$3 == "read" { print $4; exit }' "$tmp/oi.log")" = 2097152 ] ||
	fail "offset_increment=1m: the third clone does not start at 2 MiB"
# thinktime_blocks=4: 16 I/Os think 4 times 10 ms (fio 3.33: 41 ms), not 16.
printf '[j]\nrw=read\nbs=4k\nsize=64k\nthinktime=10ms\nthinktime_blocks=4\n' >"$tmp/tb.fio"
expect_rc 0 "$NCQSIM" run --output-format=json "$tmp/tb.fio"
checks=$((checks + 1))
rt=$(grep -m1 '"runtime" :' "$tmp/out" | tr -dc 0-9)
[ "$rt" -ge 30 ] && [ "$rt" -le 60 ] || fail "thinktime_blocks=4: runtime $rt ms, fio 41"

# rate=400k with 4 KiB reads: 100 I/Os a second, 16 of them in ~150 ms
# (fio 3.33: 153 ms); with rate_iops as well it is refused.
printf '[j]\nrw=randread\nbs=4k\nsize=64k\nrate=400k\n' >"$tmp/rt.fio"
expect_rc 0 "$NCQSIM" run --output-format=json "$tmp/rt.fio"
checks=$((checks + 1))
rt=$(grep -m1 '"runtime" :' "$tmp/out" | tr -dc 0-9)
[ "$rt" -ge 140 ] && [ "$rt" -le 160 ] || fail "rate=400k: runtime $rt ms, fio 153"
printf 'rate_iops=10\n' >>"$tmp/rt.fio"
expect_rc 2 "$NCQSIM" run "$tmp/rt.fio"
err_has "options 'rate' and 'rate_iops' both cap the read rate"

# Where I/O goes (filesize, strided zones, rw_sequencer, zoned distributions):
# what fio decides exactly besides the counts. Offsets from write_iolog.
offsets() { awk '$3 == "read" || $3 == "write" { print $4 }' "$tmp/io.log"; }
run_log() {
	printf '[j]\n%b\nwrite_iolog=%s\n' "$1" "$tmp/io.log" >"$tmp/w.fio"
	expect_rc 0 "$NCQSIM" run "$tmp/w.fio"
}
# Strided zones, sequential: fio 3.33's own first offsets (4 KiB blocks).
run_log 'rw=read\nbs=4k\nsize=1m\nzonemode=strided\nzonesize=16k\nzonerange=64k\nzoneskip=64k'
checks=$((checks + 1))
[ "$(offsets | head -n 10 | awk '{ printf "%d ", $1 / 4096 }')" = "0 1 2 3 32 33 34 35 64 65 " ] ||
	fail "zoneskip=64k: offsets $(offsets | head -n 10 | tr '\n' ' ')"
# Random in strided zones: each zone's 16 KiB are 4 distinct blocks of its
# first 64 KiB, one zone per 128 KiB, 64 zones (fio's random map per zone).
run_log 'rw=randread\nbs=4k\nsize=1m\nzonemode=strided\nzonesize=16k\nzonerange=64k\nzoneskip=64k'
checks=$((checks + 1))
bad=$(offsets | awk '{ z = int($1 / 131072); if ($1 % 131072 >= 65536 || seen[$1]++) bad++; n[z]++ }
	END { for (z in n) if (n[z] != 4) bad++; if (length(n) != 64) bad++; print bad + 0 }')
[ "$bad" = 0 ] || fail "random strided zones: $bad offsets outside their zone or repeated"
# filesize: random offsets stay below it; a range draws a size in it (aligned).
run_log 'rw=randread\nbs=4k\nfilesize=1m\nsize=256k'
checks=$((checks + 1))
[ "$(offsets | awk '$1 >= 1048576' | wc -l)" = 0 ] || fail "filesize=1m: offsets beyond 1 MiB"
for seed in 1 2 3; do
	printf '[j]\nrw=read\nbs=4k\nfilesize=1m-2m\nrandseed=%s\n' "$seed" >"$tmp/r.fio"
	bytes=$("$NCQSIM" run --output-format=json "$tmp/r.fio" | figures | awk '{ print $4 }')
	checks=$((checks + 1))
	[ "$bytes" -ge 1048576 ] && [ "$bytes" -le 2097152 ] && [ $((bytes % 4096)) = 0 ] ||
		fail "filesize=1m-2m (seed $seed): $bytes bytes"
done
# rw_sequencer=identical: each random offset 4 times.
run_log 'rw=randread:4\nrw_sequencer=identical\nbs=4k\nsize=1m'
checks=$((checks + 1))
[ "$(offsets | uniq -c | awk '$1 != 4' | wc -l)" = 0 ] || fail "rw_sequencer=identical: runs not of 4"
# zoned: 60% of the I/Os in the first 10% (fio 3.33: 60.8% of 4096), 30% in
# the next 20%; within 3 points.
run_log 'rw=randread\nbs=4k\nsize=4m\nio_size=16m\nrandom_distribution=zoned:60/10:30/20:10/70'
checks=$((checks + 1))
shares=$(offsets | awk '{ if ($1 < 419430) a++; else if ($1 < 1258291) b++; n++ }
	END { printf "%d %d", 100 * a / n + 0.5, 100 * b / n + 0.5 }')
set -- $shares
[ "$1" -ge 57 ] && [ "$1" -le 63 ] && [ "$2" -ge 27 ] && [ "$2" -le 33 ] ||
	fail "zoned:60/10:30/20:10/70: shares $shares"
# zoned_abs: half the I/Os in the first MiB.
run_log 'rw=randwrite\nbs=4k\nsize=4m\nrandom_distribution=zoned_abs:50/1m:50/3m'
checks=$((checks + 1))
share=$(offsets | awk '{ if ($1 < 1048576) a++; n++ } END { printf "%d", 100 * a / n + 0.5 }')
[ "$share" -ge 46 ] && [ "$share" -le 54 ] || fail "zoned_abs:50/1m:50/3m: $share% in the first MiB"
# offset=N%: rounded up to the smallest block (fio 3.33 on a 64 MiB file,
# offset=33% bs=64k: block 5408, 22151168), to blockalign, or to offset_align.
first_for() {
	run_log "rw=read\nbs=64k\noffset=33%\nsize=1m\n$1"
	offsets | head -n 1
}
base=$(first_for '')
aligned=$(first_for 'offset_align=1m')
ba=$(first_for 'blockalign=16k')
checks=$((checks + 1))
[ $((base % 65536)) = 0 ] && [ $((aligned % 1048576)) = 0 ] && [ $((ba % 16384)) = 0 ] &&
	[ "$aligned" -ge "$base" ] && [ $((aligned - base)) -lt 1048576 ] &&
	[ "$ba" -le "$base" ] && [ $((base - ba)) -lt 65536 ] ||
	fail "offset=33%: $base (64k), $aligned (offset_align=1m), $ba (blockalign=16k)"
# Refused once the drive is known, naming file, line and option.
for c in 'filesize=1m\noffset=1m|option '"'"'offset'"'"': 1048576 is not below filesize 1048576' \
	'filesize=64p|option '"'"'filesize'"'"': 72057594037927936 runs past the drive' \
	'zonesize=16k|option '"'"'zonesize'"'"': zonemode=none (the default) and zonesize' \
	'zonemode=strided|option '"'"'zonemode'"'"': strided needs zonesize' \
	'random_distribution=zoned_abs:100/2m\nsize=1m|option '"'"'random_distribution'"'"': the zoned_abs zones add up to 2097152 bytes'; do
	printf '[j]\nrw=randread\n%b\n' "${c%%|*}" >"$tmp/z.fio"
	expect_rc 2 "$NCQSIM" run "$tmp/z.fio"
	err_one_line
	err_has "z.fio:1: job 'j': ${c#*|}"
done

# Written as fio refuses it: a blank after '='.
printf '[j]\nrw = randwrite\nsize=1m\n' >"$tmp/b.fio"
expect_rc 2 "$NCQSIM" run "$tmp/b.fio"
err_one_line
err_has "b.fio:2: option 'rw': a blank after '='"
finish
