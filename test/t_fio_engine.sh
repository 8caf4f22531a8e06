# fio's engine and file flags (hipri, nowait, uncached, atomic, write_hint)
# and what each kernel does with them on the libata path; fio 3.33 where
# the outcome does not depend on the machine's kernel (an engine option the
# engine lacks, uncached, atomic), and write_hint's where the running
# kernel is one whose row ncqsim's 6.12 shares (5.18 or later). Without
# fio the same outcomes are checked against fio's figures in comments.
. test/lib/sh.sh
dir=$TESTDATA/fio-engine
figures() { awk -f "$(dirname "$TESTDATA")/lib/fio-figures.awk"; }
cd "$tmp" || exit 1

check_fio "fio's figures only"
truncate -s 64m dev

# job ENGINE LINES...: a 64 KiB sequential read with these lines
job() {
	local engine=$1
	shift
	{ printf '[x]\nrw=read\nsize=64k\nioengine=%s\n' "$engine"; printf '%s\n' "$@"; } >j.fio
}
# fio_says: fio's figures for j.fio on the scratch file, or "refused: <Bad option ...>"
fio_says() {
	"$fio" --filename="$tmp/dev" --output-format=json j.fio >fio.json 2>fio.err
	if grep -q 'Bad option' fio.err; then
		echo "refused: $(grep -o 'Bad option <[^>]*>' fio.err | head -n 1)"
	else
		figures <fio.json
	fi
}

# An engine option the engine lacks is refused as fio refuses it ("Bad
# option"), whatever the line's place in the section; fio 3.33 refuses
# all of these.
for c in 'libaio|hipri=1|io_uring, pvsync2 and sg engines' 'psync|hipri=1|io_uring, pvsync2 and sg engines' \
	'sync|nowait=1|libaio, io_uring and pvsync2 engines' \
	'libaio|uncached=1|io_uring and pvsync2 engines' \
	'io_uring|hipri_percentage=50|pvsync2 engine'; do
	IFS='|' read -r engine line want <<<"$c"
	job "$engine" "$line"
	expect_rc 2 "$NCQSIM" run j.fio
	err_one_line
	err_has "j.fio:5: option '${line%%=*}' is an option of the $want, not of '$engine'"
	if [ -n "$fio_ok" ]; then
		checks=$((checks + 1))
		[ "$(fio_says)" = "refused: Bad option <$line>" ] || fail "fio $engine $line: $(fio_says)"
	fi
done
# ... and accepted by those that have it, before or after the ioengine line
# (fio parses a section's engine options last); a [global] engine option
# needs the [global] engine (a job may change engines after it).
printf '[x]\nrw=read\nsize=64k\nhipri=1\nioengine=pvsync2\n' >j.fio
expect_rc 0 "$NCQSIM" run j.fio
printf '[global]\nhipri=1\n[x]\nrw=read\nsize=64k\nioengine=pvsync2\n' >j.fio
expect_rc 2 "$NCQSIM" run j.fio
err_has "j.fio:2: option 'hipri' is an option of the io_uring, pvsync2 and sg engines, not of 'psync'"
printf '[global]\nioengine=pvsync2\nhipri=1\n[x]\nrw=read\nsize=64k\nioengine=psync\n' >j.fio
expect_rc 0 "$NCQSIM" run j.fio

# same_run FILE ARGS...: ncqsim's JSON figures for FILE
same() { "$NCQSIM" run --output-format=json "$@" 2>/dev/null | figures; }
base_read='x 0 16 65536 0 0'
# hipri: pvsync2's RWF_HIPRI is ignored for sync direct I/O, io_uring's
# IOPOLL finds no poll queues (AHCI has none): 6.12 fails each I/O with
# EOPNOTSUPP, earlier kernels complete it by interrupt as without hipri.
for k in 4.10 5.15 6.1 6.6 6.12; do
	job pvsync2 direct=1 hipri=1 hipri_percentage=30
	checks=$((checks + 1))
	[ "$(same j.fio --set kernel=$k)" = "$base_read" ] || fail "pvsync2 hipri on $k: $(same j.fio --set kernel=$k)"
done
job io_uring direct=1 hipri=1
for k in 5.15 6.1 6.6; do
	checks=$((checks + 1))
	[ "$(same j.fio --set kernel=$k)" = "$base_read" ] || fail "io_uring hipri on $k"
done
expect_rc 1 "$NCQSIM" run --set kernel=6.12 --output-format=json j.fio
out_has '"error" : 95,'
err_has "job 'x' ended with error 95 (Operation not supported)"

# uncached: fio 3.33 sets its RWF_UNCACHED (0x40, a flag of a 2019 proposal
# never merged; from 6.11 the value of RWF_ATOMIC, which a read or a SATA
# disk cannot do) on buffered I/O only: every I/O fails with EOPNOTSUPP on
# every kernel (fio 3.33: err=95 on the first read); with direct=1 nothing.
for engine in pvsync2 io_uring; do
	job $engine uncached=1
	for k in 4.10 6.12; do
		expect_rc 1 "$NCQSIM" run --set kernel=$k --output-format=json j.fio
		out_has '"error" : 95,'
	done
	if [ -n "$fio_ok" ]; then
		fio_says >/dev/null
		checks=$((checks + 1))
		grep -q '"error" : 95,' fio.json || fail "fio $engine uncached: $(grep -m1 '"error"' fio.json)"
	fi
	job $engine uncached=1 direct=1
	checks=$((checks + 1))
	[ "$(same j.fio)" = "$base_read" ] || fail "$engine uncached direct=1: $(same j.fio)"
	[ -n "$fio_ok" ] && { checks=$((checks + 1)); [ "$(fio_says)" = "$base_read" ] || fail "fio $engine uncached direct=1: $(fio_says)"; }
done
# atomic: O_DIRECT with fio's O_ATOMIC, an open flag Linux ignores: the
# same run as direct=1, and it makes uncached direct too.
job psync atomic=1
checks=$((checks + 1))
[ "$(same j.fio)" = "$base_read" ] || fail "atomic=1: $(same j.fio)"
[ -n "$fio_ok" ] && { checks=$((checks + 1)); [ "$(fio_says)" = "$base_read" ] || fail "fio atomic=1: $(fio_says)"; }
job pvsync2 atomic=1 uncached=1
checks=$((checks + 1))
[ "$(same j.fio)" = "$base_read" ] || fail "atomic=1 uncached=1: $(same j.fio)"

# write_hint: F_SET_FILE_RW_HINT on the file (direct=1), F_SET_RW_HINT on
# the inode (buffered): 4.10 has neither (4.13), 5.18 removed the first.
# A refusal ends the job before its first I/O, as fio does
# ("err=22/file:ioengines.c:596, func=fcntl write hint").
hint_case() {
	job psync "direct=$1" write_hint=short
	"$NCQSIM" run --set "kernel=$2" --output-format=json j.fio 2>/dev/null | figures
}
for row in '1 4.10 x 0 0 0 0 0' '1 5.15 x 0 16 65536 0 0' '1 6.1 x 0 0 0 0 0' \
	'1 6.6 x 0 0 0 0 0' '1 6.12 x 0 0 0 0 0' '0 4.10 x 0 0 0 0 0' '0 5.15 x 0 16 65536 0 0' \
	'0 6.1 x 0 16 65536 0 0' '0 6.12 x 0 16 65536 0 0'; do
	set -- $row
	checks=$((checks + 1))
	got=$(hint_case "$1" "$2")
	[ "$got" = "${row#* * }" ] || fail "write_hint direct=$1 kernel $2: '$got', expected '${row#* * }'"
done
job psync direct=1 write_hint=long
expect_rc 1 "$NCQSIM" run j.fio
err_has "fio: pid=1, err=22/file:ioengines.c, func=fcntl write hint, error=Invalid argument"
# The running kernel, where it is one of 6.12's row (5.18 or later): fio agrees.
if [ -n "$fio_ok" ]; then
	v=$(uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }')
	if [ "$v" -ge 5018 ]; then
		for d in 0 1; do
			job psync "direct=$d" write_hint=short
			checks=$((checks + 1))
			[ "$(fio_says)" = "$(hint_case $d 6.12)" ] ||
				fail "fio write_hint direct=$d on $(uname -r): $(fio_says), ncqsim $(hint_case $d 6.12)"
		done
	fi
fi
# A write hint on a bio (5.15): the same run otherwise.
job psync direct=1 write_hint=medium
checks=$((checks + 1))
[ "$(same j.fio --set kernel=5.15)" = "$base_read" ] || fail "write_hint on 5.15 changed the run"

# nowait: with scheduler none the request is a tag, and the background's 40
# I/Os hold all 32: every foreground read finds none and fails with EAGAIN
# (the job ends at once with error 11, or with continue_on_error counts
# them). Under mq-deadline (64 requests) nothing waits: the same run as
# without nowait. Before 4.13 there is no RWF_NOWAIT: io_submit fails
# with EINVAL (libaio), preadv2 with EOPNOTSUPP (pvsync2).
expect_rc 1 "$NCQSIM" run --set queue/scheduler=none "$dir/nowait.fio"
err_has "job 'fg' ended with error 11 (Resource temporarily unavailable)"
# fio carries on past EIO and EILSEQ alone: EAGAIN must be named.
{ cat "$dir/nowait.fio"; echo continue_on_error=all; } >nw.fio
expect_rc 1 "$NCQSIM" run --set queue/scheduler=none nw.fio
{ cat "$dir/nowait.fio"; echo continue_on_error=all; echo ignore_error=EAGAIN; } >nw.fio
expect_rc 0 "$NCQSIM" run --set queue/scheduler=none --output-format=json nw.fio
out_has '"first_error" : 11,'
checks=$((checks + 1))
errs=$(grep -m1 '"total_err"' "$tmp/out" | tr -dc 0-9)
[ "${errs:-0}" -gt 100000 ] || fail "nowait under none: $errs EAGAIN"
a=$("$NCQSIM" run --output-format=json "$dir/nowait.fio" | figures)
b=$(grep -v nowait "$dir/nowait.fio" | "$NCQSIM" run --output-format=json - | figures)
checks=$((checks + 1))
[ "$a" = "$b" ] || fail "nowait under mq-deadline changed the run: $a / $b"
expect_rc 1 "$NCQSIM" run --set kernel=4.10 "$dir/nowait.fio"
err_has "job 'fg' ended with error 22 (Invalid argument)"
job pvsync2 direct=1 nowait=1
expect_rc 1 "$NCQSIM" run --set kernel=4.10 j.fio
err_has "job 'x' ended with error 95 (Operation not supported)"
checks=$((checks + 1))
[ "$(same j.fio --set kernel=5.15)" = "$base_read" ] || fail "pvsync2 nowait on 5.15"

# Broken values name the file, line and option.
for c in 'pvsync2|hipri_percentage=101|expected an integer 0..100' \
	'psync|write_hint=forever|expected one of none, short, medium, long, extreme' \
	'pvsync2|nowait=perhaps|expected 0 or 1' 'psync|atomic=2|expected 0 or 1'; do
	IFS='|' read -r engine line want <<<"$c"
	job "$engine" "$line"
	expect_rc 2 "$NCQSIM" run j.fio
	err_one_line
	err_has "j.fio:5: option '${line%%=*}': $want"
done
finish
