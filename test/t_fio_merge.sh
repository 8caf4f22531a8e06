# read_iolog's list of files, read_iolog_chunked and merge_blktrace_file
# (with merge_blktrace_scalars and merge_blktrace_iters), against fio 3.33
# with ioengine=null where it is installed (as t_replay_fio.sh): the same
# jobs, reads, writes and bytes. fio 3.33's own merge fails (it reads a
# pointer's worth of each record: docs/FIO.md), so ncqsim's merged file is
# checked record by record against fio's rules, and fio replays it.
. test/lib/sh.sh
cd "$tmp" || exit 1
check_fio "the figures fio 3.33 gave"

# blktrace files, record by record (little-endian struct blk_io_trace)
. "$TESTDATA/../lib/blktrace.sh"
{
	rec 1 1000000 2048 4096 $((R | QUEUE)) 77
	rec 2 2500000 999424 65536 $((W | QUEUE)) 88
	rec 3 3000000 2048 4096 $((R | ISSUE)) 77
	rec 4 40000000 50000 8192 $((R | QUEUE)) 88
	rec 5 60000000 4096 512 $((W | QUEUE)) 77
} >a.bt
{
	rec 1 500000 8192 4096 $((R | QUEUE)) 99
	rec 2 20000000 16384 16384 $((R | QUEUE)) 99
	rec 3 30000000 32768 4096 $((W | QUEUE)) 99
} >b.bt
rec 1 1000 4096 512 $((R | QUEUE)) 5 >c.bt

# figures JOBFILE [fio]: per job "reads rbytes writes wbytes"
figures() {
	if [ "${2:-}" = fio ]; then
		sed 's/^ioengine=libaio$/ioengine=null/' "$1" >null.fio
		"$fio" --output-format=json null.fio 2>/dev/null
	else
		"$NCQSIM" run --output-format=json "$1" 2>"$tmp/err"
	fi | awk -f "$(dirname "$TESTDATA")/lib/fio-figures.awk" | awk '{ print $3, $4, $5, $6 }' |
		paste -sd ';'
}
# check NAME WANT JOB-LINES: ncqsim's figures, and fio's where installed, are WANT
check() {
	printf '[x]\nioengine=libaio\nreplay_redirect=/dev/null\n%b' "$3" >"$1.fio"
	checks=$((checks + 1))
	got=$(figures "$1.fio")
	[ "$got" = "$2" ] || fail "$1: ncqsim '$got', fio 3.33 '$2'"
	if [ -n "$fio_ok" ]; then
		checks=$((checks + 1))
		got=$(figures "$1.fio" fio)
		[ "$got" = "$2" ] || fail "$1: fio now gives '$got', the test has '$2'"
	fi
}
# read_iolog=A:B:C gives each numjobs clone a file by fio's subjob number,
# which counts down after the first: a, a, c, b.
check list '2 12288 2 66048;2 12288 2 66048;1 512 0 0;2 20480 1 4096' \
	'read_iolog=a.bt:b.bt:c.bt\nnumjobs=4\n'
# A blktrace file named NAME.blktrace.0 is read alone, as fio reads it
# (ncqsim replay merges the other CPUs' files beside it).
cp a.bt t.blktrace.0
cp b.bt t.blktrace.1
check cpu0 '2 12288 2 66048' 'read_iolog=t.blktrace.0\n'
# read_iolog_chunked: fio reads the log a part at a time; the same I/Os.
check chunked '2 12288 2 66048' 'read_iolog=a.bt\nread_iolog_chunked=1\n'

# merge_blktrace_file: the queue events of a.bt and b.bt in time order,
# payloads dropped, a.bt run twice (its second run from its last record's
# 60 ms on) and b.bt's times halved.
printf '[x]\nioengine=libaio\niodepth=4\nread_iolog=a.bt:b.bt\nmerge_blktrace_file=m.bt\nmerge_blktrace_iters=2:1\nmerge_blktrace_scalars=100:50\n' >merge.fio
checks=$((checks + 1))
got=$(figures merge.fio)
[ "$got" = '6 45056 5 136192' ] || fail "merge: ncqsim '$got'"
# the merged file: "time sector bytes action pid pdu_len" per record
records() {
	od -An -v -tu4 -w48 "$1" | awk '{ printf "%.0f %.0f %d %x %d %d\n", $3 + $4 * 4294967296,
		$5 + $6 * 4294967296, $7, $8, $9, int($12 / 65536) }' | paste -sd '|'
}
want='250000 8192 4096 110001 99 0|1000000 2048 4096 110001 77 0|2500000 999424 65536 120001 88 0|10000000 16384 16384 110001 99 0|15000000 32768 4096 120001 99 0|40000000 50000 8192 110001 88 0|60000000 4096 512 120001 77 0|61000000 2048 4096 110001 77 0|62500000 999424 65536 120001 88 0|100000000 50000 8192 110001 88 0|120000000 4096 512 120001 77 0'
checks=$((checks + 1))
[ "$(records m.bt)" = "$want" ] || fail "merge: m.bt holds '$(records m.bt)'"
# fio replays the merged file as ncqsim does; fio 3.33's own merge leaves it empty.
check merged '6 45056 5 136192' 'read_iolog=m.bt\n'
if [ -n "$fio_ok" ]; then
	sed 's/^ioengine=libaio$/ioengine=null/; s/m\.bt$/fm.bt/' merge.fio >fmerge.fio
	"$fio" --output-format=json fmerge.fio >/dev/null 2>fio.err
	checks=$((checks + 1))
	[ -f fm.bt ] && [ ! -s fm.bt ] && grep -q 'iolog short read' fio.err ||
		fail "fio 3.33's merge_blktrace_file now works (docs/FIO.md says it fails)"
fi
# Without scalars and iterations: the two files interleaved.
printf '[x]\nioengine=libaio\nread_iolog=a.bt:b.bt\nmerge_blktrace_file=m1.bt\n' >merge1.fio
checks=$((checks + 1))
[ "$(figures merge1.fio)" = '4 32768 3 70144' ] || fail "merge without scalars: $(figures merge1.fio)"

# Refused, naming file, line and option.
for c in 'merge_blktrace_file=m.bt|job '"'"'x'"'"': option '"'"'merge_blktrace_file'"'"': it merges the blktrace files read_iolog names' \
	'read_iolog=a.bt\nmerge_blktrace_iters=2|job '"'"'x'"'"': option '"'"'merge_blktrace_iters'"'"': it applies to merge_blktrace_file' \
	'read_iolog=a.bt:b.bt\nmerge_blktrace_file=m.bt\nmerge_blktrace_scalars=50|job '"'"'x'"'"': option '"'"'merge_blktrace_scalars'"'"': 1 values for the 2 files of read_iolog' \
	'read_iolog=a.bt:b.bt\nmerge_blktrace_file=m.bt\nmerge_blktrace_iters=1:0|option '"'"'merge_blktrace_iters'"'"': expected a number of iterations per read_iolog file' \
	'read_iolog=a.bt:merge.fio\nmerge_blktrace_file=m.bt|job '"'"'x'"'"': option '"'"'merge_blktrace_file'"'"': merge.fio: not a blktrace file' \
	'read_iolog=a.bt:b.bt\nmerge_blktrace_file=b.bt|job '"'"'x'"'"': option '"'"'merge_blktrace_file'"'"': b.bt is one of the files it merges' \
	'read_iolog=a.bt\nmerge_blktrace_file=bad.fio|option '"'"'merge_blktrace_file'"'"': bad.fio is an input of this run'; do
	printf '[x]\nioengine=libaio\n%b\n' "${c%%|*}" >bad.fio
	expect_rc 2 "$NCQSIM" run bad.fio
	err_one_line
	err_has "bad.fio:"
	err_has "${c#*|}"
done
# A time that overflows 64 bits once scaled or repeated is refused, not wrapped.
rec 1 $((1 << 62)) 2048 4096 $((R | QUEUE)) 77 >far.bt
for c in 'merge_blktrace_scalars=100:200|far.bt: record 1: its time scaled by 200% overflows' \
	'merge_blktrace_iters=1:5\nmerge_blktrace_scalars=100:1|far.bt: record 1: its time, 3 iterations on, overflows'; do
	printf '[x]\nioengine=libaio\nread_iolog=a.bt:far.bt\nmerge_blktrace_file=m2.bt\n%b\n' "${c%%|*}" >bad.fio
	expect_rc 2 "$NCQSIM" run bad.fio
	err_one_line
	err_has "${c#*|}"
done
checks=$((checks + 1))
[ "$(records b.bt | cut -c1-20)" = "500000 8192 4096 110" ] || fail "b.bt was overwritten"
finish
