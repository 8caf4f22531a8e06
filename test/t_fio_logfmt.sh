# The time column and the file format of fio's logs, against fio 3.33:
# log_unix_epoch, log_alternate_epoch and log_alternate_epoch_clock_id
# (the epoch is the run's start on the wall clock, fixed by
# SOURCE_DATE_EPOCH, or the simulated machine's uptime), and
# log_compression / log_store_compressed (fio's .fz files: zlib streams of
# its binary samples, which `fio --inflate-log` turns back into the text
# rows).
. test/lib/sh.sh
cd "$tmp" || exit 1
fio_ok=
if command -v fio >/dev/null 2>&1 && [ "$(fio --version)" = fio-3.33 ]; then
	fio_ok=1
	truncate -s 64m dev
else
	echo "fio 3.33 not installed: ncqsim's logs are checked on their own"
fi

# col1 FILE: the first column of a log
col1() { cut -d, -f1 "$1"; }
# diffs A B: the row-by-row difference of two logs' first columns, once each
diffs() { paste -d' ' <(col1 "$1") <(col1 "$2") | awk '{ printf "%.0f\n", $1 - $2 }' | sort -u; }

job='[e]\nrw=randread\nbs=4k\nsize=1m\nnumber_ios=40\nwrite_lat_log=%s\nwrite_hist_log=%s\nlog_hist_msec=10\n%b'
printf "$job" p p '' >plain.fio
printf "$job" u u 'log_unix_epoch=1\n' >unix.fio
printf "$job" a a 'log_alternate_epoch=1\n' >alt.fio
printf "$job" m m 'log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\nstartdelay=2\n' >mono.fio
printf "$job" q q 'log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\n' >mono0.fio
printf "$job" c c 'log_unix_epoch=1\nlog_alternate_epoch_clock_id=3\n' >cpu.fio
export SOURCE_DATE_EPOCH=1700000000
for f in plain unix alt mono mono0 cpu; do
	expect_rc 0 "$NCQSIM" run --output-format=json $f.fio
	cp "$tmp/out" $f.json
done
# The wall clock's epoch: the run's start, the JSON's timestamp_ms.
checks=$((checks + 1))
grep -q '"timestamp_ms" : 1700000000000,' unix.json || fail "SOURCE_DATE_EPOCH: timestamp_ms is not 1700000000000"
for f in u a; do
	checks=$((checks + 1))
	[ "$(diffs ${f}_clat.1.log p_clat.1.log)" = 1700000000000 ] ||
		fail "${f}_clat.1.log: times are not the plain ones + 1700000000000: $(diffs ${f}_clat.1.log p_clat.1.log | head -3)"
	checks=$((checks + 1))
	[ "$(diffs ${f}_clat_hist.1.log p_clat_hist.1.log)" = 1700000000000 ] ||
		fail "${f}_clat_hist.1.log: times are not the plain ones + 1700000000000"
done
# CLOCK_MONOTONIC: the simulated machine's uptime at the job's start (its
# 2 s startdelay after the drive's probe); the same run without the delay
# starts at the probe's end; a CPU-time clock stays at 0.
mono=$(diffs m_clat.1.log p_clat.1.log)
mono0=$(diffs q_clat.1.log p_clat.1.log)
checks=$((checks + 1))
[ "$(echo "$mono" | wc -l)" = 1 ] && [ "$((mono - mono0))" = 2000 ] ||
	fail "clock_id=1: the epochs $mono (startdelay=2) and $mono0 are not 2000 ms apart"
checks=$((checks + 1))
[ "$(diffs c_clat.1.log p_clat.1.log)" = 0 ] || fail "clock_id=3 (CPU time): the times moved"
# Without SOURCE_DATE_EPOCH: the run's start, near this machine's clock (as
# fio's is, where installed).
unset SOURCE_DATE_EPOCH
now=$(date +%s)
expect_rc 0 "$NCQSIM" run unix.fio
checks=$((checks + 1))
t=$(head -n 1 u_clat.1.log | cut -d, -f1)
[ $((t / 1000 - now)) -ge -60 ] && [ $((t / 1000 - now)) -le 60 ] || fail "log_unix_epoch: $t is not near $now s"
if [ -n "$fio_ok" ]; then
	fio --ioengine=psync --filename=dev unix.fio >/dev/null 2>&1
	t=$(head -n 1 u_clat.1.log | cut -d, -f1)
	checks=$((checks + 1))
	[ $((t / 1000 - now)) -ge -60 ] && [ $((t / 1000 - now)) -le 60 ] || fail "fio's log_unix_epoch: $t is not near $now s"
	fio --ioengine=psync --filename=dev mono0.fio >/dev/null 2>&1
	up=$(cut -d. -f1 /proc/uptime)
	t=$(head -n 1 q_clat.1.log | cut -d, -f1)
	checks=$((checks + 1))
	[ $((t / 1000 - up)) -ge -60 ] && [ $((t / 1000 - up)) -le 60 ] ||
		fail "fio's clock_id=1: $t is not near the uptime, $up s"
fi
# Broken values.
for c in 'log_alternate_epoch_clock_id=10|expected a clock id of clock_gettime(): 0 (CLOCK_REALTIME) .. 9 or 11 (CLOCK_TAI), got '"'"'10'"'"'' \
	'log_alternate_epoch_clock_id=rt|expected a clock id' 'log_unix_epoch=maybe|option '"'"'log_unix_epoch'"'"': expected'; do
	printf '[e]\nrw=read\nsize=64k\n%s\n' "${c%%|*}" >b.fio
	expect_rc 2 "$NCQSIM" run b.fio
	err_one_line
	err_has "b.fio:4: "
	err_has "${c#*|}"
done
SOURCE_DATE_EPOCH=soon expect_rc 2 "$NCQSIM" run plain.fio
err_one_line
err_has "SOURCE_DATE_EPOCH: expected whole seconds since 1970, got 'soon'"
finish
