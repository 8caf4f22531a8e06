# read_iolog against fio: on the same iologs and blktrace file, ncqsim
# issues as many reads and writes, with as many bytes, as fio 3.33 with
# ioengine=null (which needs no device) — fio's figures as stored in
# test/data/replay-fio/expected.txt, and, when FIO names fio 3.33 (make
# test-fio), as a live fio gives them, which must also match the stored
# ones (REPLAY_FIO_UPDATE=1 rewrites the file from fio instead).
. test/lib/sh.sh
check_fio "the stored fio figures only"
expected=$TESTDATA/replay-fio/expected.txt
new=$tmp/expected.new
: >"$new"
cd "$tmp" || exit 1

# DIR KEY from a fio-shaped JSON report: the first job's value.
value() {
	awk -v dir="\"$2\" : {" -v key="\"$3\"" '
		index($0, dir) { on = 1; next }
		on && index($0, key) { gsub(/[^0-9]/, "", $3); print $3; exit }' "$1"
}

# figures JSON: read and write total_ios and io_bytes of the first job
figures() {
	echo "$(value "$1" read total_ios) $(value "$1" read io_bytes)" \
		"$(value "$1" write total_ios) $(value "$1" write io_bytes)"
}

# compare NAME OPTIONS...: the job in ncqsim against fio, counts and bytes per direction
compare() {
	local name=$1 ours theirs stored
	shift
	printf '[%s]\nioengine=null\n' "$name" >"$name.fio"
	printf '%s\n' "$@" >>"$name.fio"
	sed 's/^ioengine=null$/ioengine=libaio\niodepth=4/' "$name.fio" >"$name.ncq.fio"
	"$NCQSIM" run --output-format=json "$name.ncq.fio" >"$name.ncq.json" 2>"$name.ncq.err"
	rc=$?
	checks=$((checks + 1))
	[ $rc -eq 0 ] || { fail "$name: ncqsim failed: $(head -c 300 "$name.ncq.err")"; return; }
	ours=$(figures "$name.ncq.json")
	stored=$(awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$expected")
	theirs=$stored
	if [ -n "$fio_ok" ]; then
		"$fio" --output-format=json "$name.fio" >"$name.fio.json" 2>"$name.fio.err"
		rc=$?
		checks=$((checks + 1))
		[ $rc -eq 0 ] && [ -s "$name.fio.json" ] || { fail "$name: fio failed: $(head -c 200 "$name.fio.err")"; return; }
		theirs=$(figures "$name.fio.json")
		echo "$name $theirs" >>"$new"
		checks=$((checks + 1))
		[ -n "${REPLAY_FIO_UPDATE:-}" ] || [ "$theirs" = "$stored" ] ||
			fail "$name: fio now gives '$theirs', expected.txt has '$stored'"
	fi
	checks=$((checks + 1))
	[ -n "$stored" ] && [ "$ours" = "$theirs" ] ||
		fail "$name: ncqsim '$ours', fio '$theirs' (read I/Os, bytes, write I/Os, bytes)"
}

cat >v3.iolog <<'LOG'
fio version 3 iolog
0 ncqsim-replay add
0 ncqsim-replay open
100 ncqsim-replay read 4096 4096
350 ncqsim-replay write 1048576 65536
350 ncqsim-replay read 8192 8192
1200 ncqsim-replay sync 0 0
2000 ncqsim-replay trim 0 4096
2500 ncqsim-replay read 409600 4096
4000 ncqsim-replay read 409600 12288
9000 ncqsim-replay write 0 512
9100 ncqsim-replay close
LOG
cat >v2.iolog <<'LOG'
fio version 2 iolog
ncqsim-replay add
ncqsim-replay open
ncqsim-replay read 4096 4096
ncqsim-replay write 1048576 65536
ncqsim-replay wait 3 0
ncqsim-replay read 8192 8192
ncqsim-replay datasync 0 0
ncqsim-replay write 65536 131072
ncqsim-replay wait 5 0
ncqsim-replay read 409600 4096
ncqsim-replay close
LOG
compare v3 read_iolog=v3.iolog
compare v2 read_iolog=v2.iolog
# fio 3.33 applies replay_skip to blktrace files only: these replay everything.
compare v3-skip read_iolog=v3.iolog replay_skip=write
compare v2-skip read_iolog=v2.iolog replay_skip=read
compare v3-scaled read_iolog=v3.iolog replay_scale=2 replay_align=4096 replay_time_scale=50
compare v2-nostall read_iolog=v2.iolog replay_no_stall=1

# A blktrace binary file, written here record by record (little-endian
# struct blk_io_trace): queue events are replayed, an issue event is not.
. "$TESTDATA/../lib/blktrace.sh"
{
	rec 1 1000 2048 4096 $((R | QUEUE)) 77
	rec 2 2500 999424 65536 $((W | QUEUE)) 88
	rec 3 3000 2048 4096 $((R | ISSUE)) 77
	rec 4 400000 50000 8192 $((R | QUEUE)) 88
	rec 5 600000 4096 512 $((W | QUEUE)) 77
} >t.blktrace.0
compare blktrace read_iolog=t.blktrace.0 replay_redirect=/dev/null
compare blktrace-skip read_iolog=t.blktrace.0 replay_redirect=/dev/null replay_skip=write
compare blktrace-scaled read_iolog=t.blktrace.0 replay_redirect=/dev/null replay_scale=4 replay_align=4096
[ -n "${REPLAY_FIO_UPDATE:-}" ] && [ -n "$fio_ok" ] && cp "$new" "$expected"
cd - >/dev/null || exit 1
finish
